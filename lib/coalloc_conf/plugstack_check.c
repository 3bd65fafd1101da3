/*
 * plugstack_check.c - coalloc.conf against cosched.so's plugstack.conf
 * arguments (see coalloc_conf.h): GangPortOffset is set in both files,
 * for slurmctld and for the node agents, and must be the same.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>

#include "coalloc_conf/coalloc_conf.h"
#include "cosched_proto/args.h"
#include "cosched_proto/plugstack.h"
#include "num/errbuf.h"

/* "FILE line N" of the GangPortOffset coalloc.conf applies. */
static void _where(const struct coalloc_conf *c, char *buf, size_t len)
{
	if (c->gang_port_line)
		snprintf(buf, len, "%s line %d: key 'GangPortOffset'",
			 c->file, c->gang_port_line);
	else
		snprintf(buf, len,
			 "%s line %d: key 'GangPortOffset' (not given: its default)",
			 c->file, c->matrix_line);
}

int coalloc_conf_check_plugstack(const struct coalloc_conf *c,
				 const char *path, char *err, size_t errlen)
{
	struct cosched_plugstack_line line;
	struct cosched_args args;
	char why[COSCHED_ARGS_ERR_LEN], where[COALLOC_CONF_ERR_LEN];
	int rc;

	if (!coalloc_conf_agent_tables(&c->matrix))
		return 0;
	rc = cosched_plugstack_find(path, &line, why, sizeof(why));
	if (rc <= 0) {
		if (rc < 0)
			errbuf_set(err, errlen, "cannot check GangPortOffset against plugstack.conf: %s",
				   why);
		return rc < 0 ? 1 : 0;
	}
	cosched_args_defaults(&args);
	rc = cosched_args_parse(line.argc, line.argv, &args, why, sizeof(why));
	if (rc) {
		errbuf_set(err, errlen, "cannot check GangPortOffset against %s line %d: %s",
			   line.file, line.line, why);
		rc = 1;
	} else if (args.gang_port_offset != c->matrix.gang_port_offset) {
		_where(c, where, sizeof(where));
		errbuf_set(err, errlen,
			   "%s: %u differs from gang_port_offset=%u of %s at %s line %d: the node agents would never get the gang tables; set the same offset in both",
			   where, c->matrix.gang_port_offset,
			   (unsigned)args.gang_port_offset, COSCHED_PLUGSTACK_SO,
			   line.file, line.line);
		rc = -1;
	} else if (!args.gang_rows) {
		errbuf_set(err, errlen,
			   "%s: %s at %s line %d has no gang_rows=yes: no step would reach the node agents, which %s the rows",
			   c->matrix.gang_guard ? "GangGuard=yes" : "a TimeSlice in ms",
			   COSCHED_PLUGSTACK_SO, line.file, line.line,
			   c->matrix.gang_guard ? "guard" : "switch");
		rc = -1;
	}
	cosched_plugstack_line_free(&line);
	return rc;
}
