/*
 * slurm_text.h - what coalloc-status --check needs of slurm.conf, read
 * from the file without slurmctld: the nodes (NodeName= hostlists), the
 * partitions with their OverSubscribe=FORCE count, and the settings the
 * plugin depends on.  Include lines are followed.  Keys are matched as
 * Slurm matches them (case-insensitively); keys this reader does not
 * need are skipped, since slurmctld itself judges them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_CONF_SLURM_TEXT_H
#define COALLOC_CONF_SLURM_TEXT_H

#include <stddef.h>

/* Include lines followed at most this deep (a loop ends there). */
#define SLURM_TEXT_MAX_INCLUDE_DEPTH 8

struct slurm_text_line {
	char *file;		/* shared with the struct's files */
	int line;
};

struct slurm_text_nodes {
	char *hostlist;		/* NodeName=, unexpanded */
	struct slurm_text_line at;
};

struct slurm_text_partition {
	char *name;
	unsigned force;		/* N of OverSubscribe=FORCE:N, else 0 */
	struct slurm_text_line at;
};

/* A global Key=Value the plugin depends on (NULL value: not given). */
struct slurm_text_setting {
	char *value;
	struct slurm_text_line at;
};

struct slurm_text {
	char **files;		/* slurm.conf, then each Include */
	size_t nfiles;
	struct slurm_text_nodes *nodes;
	size_t nnodes;
	struct slurm_text_partition *partitions;
	size_t npartitions;
	struct slurm_text_setting select_type, select_type_parameters,
		preempt_mode, preempt_type, plugstack_config;
};

/* 0, or -1 with the file and line in err (an unreadable file, a line
 * this reader cannot split, an Include too deep). */
int slurm_text_load(const char *path, struct slurm_text *out, char *err,
		    size_t errlen);
void slurm_text_free(struct slurm_text *t);

#endif /* COALLOC_CONF_SLURM_TEXT_H */
