/*
 * layout.c - a job's layout as text and environment (see layout.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>

#include "coalloc_conf/coalloc_conf.h"
#include "coalloc_conf/layout.h"

int coalloc_layout_join(const struct coalloc_conf *conf,
			char *const *site_hosts, char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return -1;
	buf[0] = '\0';
	for (size_t i = 0; i < conf->nsites; i++) {
		int n;

		if (!site_hosts[i] || !site_hosts[i][0])
			continue;
		n = snprintf(buf + used, len - used, "%s%s:%s",
			     used ? ";" : "", conf->sites[i].name,
			     site_hosts[i]);
		if (n < 0 || (size_t)n >= len - used) {
			buf[0] = '\0';
			return -1;
		}
		used += n;
	}
	return 0;
}

int coalloc_layout_env(const struct coalloc_conf *conf,
		       char *const *site_hosts,
		       void (*set)(const char *name, const char *value,
				   void *arg),
		       void *arg)
{
	char layout[COALLOC_LAYOUT_MAX], name[64], count[16];
	int n = 0;

	if (coalloc_layout_join(conf, site_hosts, layout, sizeof(layout)))
		return -1;
	set(COALLOC_ENV_LAYOUT, layout, arg);
	for (size_t i = 0; i < conf->nsites; i++) {
		if (!site_hosts[i] || !site_hosts[i][0])
			continue;
		snprintf(name, sizeof(name), COALLOC_ENV_SITE_FMT, n);
		set(name, conf->sites[i].name, arg);
		snprintf(name, sizeof(name), COALLOC_ENV_NODELIST_FMT, n);
		set(name, site_hosts[i], arg);
		n++;
	}
	snprintf(count, sizeof(count), "%d", n);
	set(COALLOC_ENV_NCOMPONENTS, count, arg);
	return n;
}
