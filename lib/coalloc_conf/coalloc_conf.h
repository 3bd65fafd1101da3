/*
 * coalloc_conf.h - coalloc.conf, the site and queue configuration of
 * select/coalloc, parsed strictly and without Slurm headers.
 *
 * Syntax is Slurm's: Key=Value pairs separated by blanks, keys in any
 * case, '#' comments, "double quotes", and a trailing '\' that continues
 * a line.  Three kinds of line:
 *
 *   Policy=LS-DO AgingTime=3600 QueueOrder=firstfit Matrix=gang MPL=2 TimeSlice=30
 *   Matrix=gang MPL=4 TimeSlice=200ms GangPortOffset=1001
 *   PreemptPartition=urgent PreemptHold=10
 *   GlobalPartition=grid
 *   Site=siteA Nodes=n[1-16]
 *   LocalPartition=siteA Site=siteA
 *
 * Every problem is reported once, as "FILE line N: key 'K': what is
 * wrong", so an admin can go straight to it.  Checks that need Slurm's
 * tables (do the nodes and partitions exist, do sites overlap, is every
 * node in a site) are the plugin's; the line numbers it needs are kept.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_CONF_H
#define COALLOC_CONF_H

#include <stddef.h>

#include "coalloc/limits.h"
#include "coalloc/order.h"
#include "coalloc/policy.h"

enum coalloc_conf_matrix {
	COALLOC_CONF_MATRIX_OFF,
	COALLOC_CONF_MATRIX_GANG,
	COALLOC_CONF_MATRIX_LOCAL,
};

#define COALLOC_CONF_MAX_MPL 16
#define COALLOC_CONF_ERR_LEN 512

/* Defaults, in one place (also quoted by coalloc.conf(5)). */
#define COALLOC_CONF_DEFAULT_POLICY COALLOC_POLICY_GS
#define COALLOC_CONF_DEFAULT_AGING 3600u	/* seconds; 0 turns aging off */
#define COALLOC_CONF_DEFAULT_ORDER COALLOC_ORDER_FCFS	/* the paper's */
#define COALLOC_CONF_DEFAULT_MPL 1u
#define COALLOC_CONF_DEFAULT_TIMESLICE 30u	/* seconds */
/* seconds a waiting PreemptPartition job holds the others back (hold.h) */
#define COALLOC_CONF_DEFAULT_PREEMPT_HOLD 10u
#define COALLOC_CONF_MAX_PREEMPT_HOLD 3600u

/*
 * The matrix's settings, one value: the plugin takes a copy for each
 * matrix it builds (sites.c, node_usage.c) and reads them from it.
 */
struct coalloc_matrix_settings {
	enum coalloc_conf_matrix mode;	/* Matrix= */
	unsigned mpl;			/* MPL= */
	unsigned time_slice;		/* seconds: slurmctld suspends rows */
	unsigned time_slice_ms;		/* 0, or below a second: agents switch */
	unsigned gang_port_offset;	/* agents' gang port - slurmd's */
	bool gang_guard;		/* agents hold the rows slurmctld stops */
};

/* The settings of a coalloc.conf that sets none of them. */
void coalloc_matrix_settings_init(struct coalloc_matrix_settings *m);

struct coalloc_conf_site {
	char *name;
	char *nodes;			/* a Slurm hostlist, unexpanded */
	int line;
	char *local_partition;		/* NULL when the site has none */
	int local_line;
};

struct coalloc_conf {
	char *file;			/* for messages */
	enum coalloc_policy policy;
	unsigned aging_time;
	enum coalloc_queue_order queue_order;
	struct coalloc_matrix_settings matrix;
	int matrix_line;		/* 0 when Matrix= is not given */
	int gang_port_line;		/* 0 when GangPortOffset= is not */
	char *global_partition;		/* NULL when none */
	int global_line;
	char *preempt_partition;	/* its jobs preempt: NULL when none */
	int preempt_line;
	unsigned preempt_hold;		/* seconds; 0: others never wait */
	int preempt_hold_line;		/* 0 when not given */
	struct coalloc_conf_site *sites;
	size_t nsites;
};

/*
 * Parse 'text' (named 'file' in messages) into 'conf'.  Returns 0, or -1
 * with the message in err[errlen] and 'conf' left empty.
 */
int coalloc_conf_parse(const char *text, const char *file,
		       struct coalloc_conf *conf, char *err, size_t errlen);

/* The same for a file on disk. */
int coalloc_conf_load(const char *path, struct coalloc_conf *conf,
		      char *err, size_t errlen);

void coalloc_conf_free(struct coalloc_conf *conf);

const struct coalloc_conf_site *
coalloc_conf_find_site(const struct coalloc_conf *conf, const char *name);

const char *coalloc_conf_matrix_name(enum coalloc_conf_matrix matrix);

/*
 * coalloc.conf against the node agents' settings on cosched.so's line of
 * the plugstack.conf at path (plugstack_check.c): with rows the agents
 * switch, their gang_port_offset must be GangPortOffset, or no gang table
 * ever reaches them.  Returns 0 (they agree, or nothing to check: no
 * such rows, no file, no cosched.so line), -1 when they disagree, or 1
 * when the check could not be made (an unreadable file, arguments
 * cosched.so itself refuses); the message, naming both files' lines and
 * keys, is in err for -1 and 1.
 */
int coalloc_conf_check_plugstack(const struct coalloc_conf *c,
				 const char *path, char *err, size_t errlen);

/* Rows switched by the node agents: Matrix=gang, TimeSlice below 1 s. */
static inline int coalloc_conf_fast_gang(const struct coalloc_matrix_settings *m)
{
	return m->mode == COALLOC_CONF_MATRIX_GANG && m->time_slice_ms > 0;
}

/* The node agents take gang tables: they switch the rows, or guard the
 * rows slurmctld switches (GangGuard=yes). */
static inline int coalloc_conf_agent_tables(const struct coalloc_matrix_settings *m)
{
	return coalloc_conf_fast_gang(m) || m->gang_guard;
}

#endif /* COALLOC_CONF_H */
