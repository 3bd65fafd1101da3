/*
 * fuzz_coalloc_conf.c - coalloc.conf (lib/coalloc_conf): the text of the
 * file as the select plugin reads it.
 *
 * Promises checked: an error is a message and leaves the configuration
 * empty; a success gives values within their documented limits, sites
 * with a name and nodes that find_site finds again, and a layout that
 * joins.  Everything is freed (LeakSanitizer sees the rest).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"

#include "coalloc_conf/coalloc_conf.h"
#include "coalloc_conf/layout.h"

static void _check_success(const struct coalloc_conf *conf)
{
	char **hosts, layout[4096];

	FUZZ_CHECK(conf->matrix.mpl >= 1 && conf->matrix.mpl <= COALLOC_CONF_MAX_MPL);
	FUZZ_CHECK(conf->nsites <= COALLOC_MAX_SITES);
	FUZZ_CHECK(!strcmp(conf->file, "fuzz.conf"));
	hosts = calloc(conf->nsites + 1, sizeof(*hosts));
	FUZZ_CHECK(hosts);
	for (size_t i = 0; i < conf->nsites; i++) {
		const struct coalloc_conf_site *s = &conf->sites[i];

		FUZZ_CHECK(s->name && s->name[0] && s->nodes && s->nodes[0]);
		FUZZ_CHECK(coalloc_conf_find_site(conf, s->name) == s);
		hosts[i] = s->nodes;
	}
	/* the result may not fit; it must then be empty */
	if (coalloc_layout_join(conf, hosts, layout, sizeof(layout)))
		FUZZ_CHECK(layout[0] == '\0');
	free(hosts);
	FUZZ_CHECK(coalloc_conf_matrix_name(conf->matrix.mode) != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), err[COALLOC_CONF_ERR_LEN];
	struct coalloc_conf conf;

	memset(&conf, 0, sizeof(conf));
	if (coalloc_conf_parse(text, "fuzz.conf", &conf, err, sizeof(err))) {
		FUZZ_CHECK(fuzz_message_ok(err, sizeof(err)));
		FUZZ_CHECK(!conf.sites && !conf.nsites && !conf.file &&
			   !conf.global_partition && !conf.preempt_partition);
	} else {
		_check_success(&conf);
		coalloc_conf_free(&conf);
	}
	free(text);
	return 0;
}
