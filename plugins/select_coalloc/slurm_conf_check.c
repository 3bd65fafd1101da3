/*
 * slurm_conf_check.c - checks of the slurm.conf settings select/coalloc
 * depends on (coalloc.conf is read in sites.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "select_coalloc.h"
#include "coalloc_conf/cluster.h"
#include "coalloc_conf/reserve.h"
#include "num/num.h"
#include "src/common/bitstring.h"
#include "src/common/xstring.h"

/*
 * SelectTypeParameters bits that only make sense for consumable-resource
 * plugins (select/cons_tres): select/coalloc hands out whole nodes, so
 * accepting them would silently ignore what the admin asked for.
 */
#define CONS_TRES_ONLY_PARAMS (COALLOC_PARAM(CPU) | COALLOC_PARAM(SOCKET) | \
			       COALLOC_PARAM(CORE) | COALLOC_PARAM(BOARD) | \
			       COALLOC_CR_LAYERED | \
			       COALLOC_PARAM(ONE_TASK_PER_CORE) | \
			       COALLOC_PARAM(PACK_NODES) | \
			       COALLOC_PARAM(CORE_DEFAULT_DIST_BLOCK) | \
			       COALLOC_PARAM(LLN))

int coalloc_check_slurm_conf(void)
{
	uint16_t bad = slurm_conf.select_type_param & CONS_TRES_ONLY_PARAMS;

	if (slurm_conf.preempt_mode & PREEMPT_MODE_GANG) {
		error("%s: " COALLOC_RULE_PREEMPT_GANG, plugin_type);
		return SLURM_ERROR;
	}
	if (!bad)
		return SLURM_SUCCESS;
	/* select_type_param_string() returns one static buffer: call once. */
	error("%s: SelectTypeParameters=%s " COALLOC_RULE_SELECT_PARAMS,
	      plugin_type, select_type_param_string(bad));
	return SLURM_ERROR;
}

/* The value at p, up to the next comma, into buf (lib/num reads it). */
static const char *_token(const char *p, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(p, ","), p);
	return buf;
}

/* The unsigned value of KEY= in SchedulerParameters, 0 when absent. */
static uint32_t _sched_param(const char *key)
{
	const char *p = xstrcasestr(slurm_conf.sched_params, key);
	char buf[32];
	uint64_t v;

	if (!p || num_parse_range(_token(p + strlen(key), buf, sizeof(buf)),
				  1, UINT32_MAX, &v))
		return 0;
	return (uint32_t) v;
}

/* PriorityWeightTRES=CPU=1000,Mem=2000: the sum of the weights. */
static double _tres_weights(void)
{
	const char *p = slurm_conf.priority_weight_tres;
	double sum = 0, v;
	char buf[32];

	while (p && (p = strchr(p, '='))) {
		if (!num_parse_double(_token(p + 1, buf, sizeof(buf)), &v))
			sum += v;
		p++;
	}
	return sum;
}

static bool _is_queue(const struct coalloc_conf *c, const char *name)
{
	if (!xstrcmp(c->global_partition, name))
		return true;
	for (size_t i = 0; i < c->nsites; i++)
		if (!xstrcmp(c->sites[i].local_partition, name))
			return true;
	return false;
}

/* What priority/multifactor adds for the partition (its term). */
static double _partition_term(const part_record_t *part)
{
	double factor = (slurm_conf.priority_flags &
			 PRIORITY_FLAGS_NO_NORMAL_PART) ?
			part->priority_job_factor : part->norm_priority;

	return (double) slurm_conf.priority_weight_part * factor;
}

struct reserve_scan {
	const struct coalloc_conf *conf;
	struct coalloc_reserve_input in;
};

static int _scan_partition(void *x, void *arg)
{
	part_record_t *part = x;
	struct reserve_scan *scan = arg;
	struct coalloc_reserve_input *in = &scan->in;
	double term = _partition_term(part);

	if (_is_queue(scan->conf, part->name)) {
		if (!in->nqueues++ || term > in->queue_max) {
			in->queue_max = term;
			in->queue_max_name = part->name;
		}
	} else if (!in->nothers++ || term < in->other_min) {
		in->other_min = term;
		in->other_min_name = part->name;
	}
	return 0;
}

/*
 * Queue partitions that would serve the wrong jobs or be served first:
 * the default partition (jobs submitted without -p become policy jobs),
 * and a PriorityTier above that of a partition sharing its nodes (Slurm
 * would look at queue jobs before the others' reservations are made).
 */
static void _check_tier(const part_record_t *queue, const part_record_t *other)
{
	if (other->priority_tier >= queue->priority_tier ||
	    !queue->node_bitmap || !other->node_bitmap ||
	    !bit_overlap_any(queue->node_bitmap, other->node_bitmap))
		return;
	error("%s: queue partition %s has PriorityTier=%u, above partition %s (%u) on the same nodes: Slurm would consider the queue's jobs before that partition's reservations are made; give it PriorityTier=%u or less",
	      plugin_type, queue->name, queue->priority_tier, other->name,
	      other->priority_tier, other->priority_tier);
}

struct part_array {
	part_record_t **parts;
	size_t count;
};

static int _collect_part(void *x, void *arg)
{
	struct part_array *a = arg;

	a->parts[a->count++] = x;
	return 0;
}

/* (Slurm's lists cannot be walked inside a walk: an array of them.) */
static void _check_queue_partitions(const struct coalloc_conf *c)
{
	struct part_array a = { .parts = xcalloc(list_count(part_list) + 1,
						 sizeof(*a.parts)) };

	list_for_each(part_list, _collect_part, &a);
	for (size_t i = 0; i < a.count; i++) {
		const part_record_t *part = a.parts[i];

		if (!_is_queue(c, part->name))
			continue;
		if (part->flags & PART_FLAG_DEFAULT)
			error("%s: queue partition %s is the default partition (Default=YES): every job submitted without -p would join the policy's queue; make another partition the default",
			      plugin_type, part->name);
		for (size_t j = 0; j < a.count; j++)
			if (!_is_queue(c, a.parts[j]->name))
				_check_tier(part, a.parts[j]);
	}
	xfree(a.parts);
}

void coalloc_check_partitions(const struct coalloc_conf *c)
{
	struct reserve_scan scan = { .conf = c };
	char msg[1024];

	if (!part_list)
		return;
	_check_queue_partitions(c);
	scan.in.multifactor = !xstrcmp(slurm_conf.priority_type,
				       "priority/multifactor");
	scan.in.age_reserve = _sched_param("bf_min_age_reserve=");
	scan.in.prio_reserve = _sched_param("bf_min_prio_reserve=");
	scan.in.weight_other = (double) slurm_conf.priority_weight_age +
			       slurm_conf.priority_weight_assoc +
			       slurm_conf.priority_weight_fs +
			       slurm_conf.priority_weight_js +
			       slurm_conf.priority_weight_qos + _tres_weights();
	list_for_each(part_list, _scan_partition, &scan);
	switch (coalloc_reserve_check(&scan.in, msg, sizeof(msg))) {
	case COALLOC_RESERVE_BAD:
		error("%s: %s", plugin_type, msg);
		break;
	case COALLOC_RESERVE_BY_AGE:
		info("%s: %s", plugin_type, msg);
		break;
	case COALLOC_RESERVE_BY_PRIO:
		info("%s: queue partitions ordered by the policy, below SchedulerParameters bf_min_prio_reserve=%u; the others keep backfill reservations",
		     plugin_type, scan.in.prio_reserve);
		break;
	case COALLOC_RESERVE_UNNEEDED:
		break;
	}
}
