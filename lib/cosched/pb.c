/*
 * pb.c - the Periodic Boost heuristics A-E and their fair-share variants
 * A'-E' (see pb.h and Zhang et al., section 4.9).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "cosched/pb.h"
#include "num/errbuf.h"

#define NHEURISTICS (COSCHED_PB_E + 1)
#define MAX_GROUPS 3

/* Longest piece of the user's text quoted in a message. */
#define QUOTE_MAX 24

#define STATE_BIT(s) (1u << (s))

/*
 * A heuristic as its priority order of state groups, highest first; a
 * group is a set of states (bits by enum cosched_pstate), 0 ends the list.
 */
static const unsigned int heuristic_groups[NHEURISTICS][MAX_GROUPS + 1] = {
	[COSCHED_PB_A] = { STATE_BIT(COSCHED_S3),
			   STATE_BIT(COSCHED_S2) | STATE_BIT(COSCHED_S1) },
	[COSCHED_PB_B] = { STATE_BIT(COSCHED_S3), STATE_BIT(COSCHED_S2),
			   STATE_BIT(COSCHED_S1) },
	[COSCHED_PB_C] = { STATE_BIT(COSCHED_S3) | STATE_BIT(COSCHED_S2) |
			   STATE_BIT(COSCHED_S1) },
	[COSCHED_PB_D] = { STATE_BIT(COSCHED_S3) | STATE_BIT(COSCHED_S2),
			   STATE_BIT(COSCHED_S1) },
	[COSCHED_PB_E] = { STATE_BIT(COSCHED_S2), STATE_BIT(COSCHED_S3),
			   STATE_BIT(COSCHED_S1) },
};

static const char *const rule_names[NHEURISTICS][2] = {
	[COSCHED_PB_A] = { "A", "A'" },
	[COSCHED_PB_B] = { "B", "B'" },
	[COSCHED_PB_C] = { "C", "C'" },
	[COSCHED_PB_D] = { "D", "D'" },
	[COSCHED_PB_E] = { "E", "E'" },
};

enum cosched_pstate cosched_pb_state(const struct cosched_proc_view *p)
{
	if (p->in_recv)
		return p->awaited_arrived ? COSCHED_S3 : COSCHED_S4;
	return p->pending ? COSCHED_S2 : COSCHED_S1;
}

/* ------------------------------------------------------------ names */

int cosched_pb_parse(const char *text, struct cosched_pb_rule *rule,
		     char *err, size_t err_len)
{
	size_t len = text ? strlen(text) : 0;
	int letter = len ? toupper((unsigned char)text[0]) : 0;
	bool fair = len == 2 && text[1] == '\'';

	if (letter >= 'A' && letter <= 'E' && (len == 1 || fair)) {
		if (rule) {
			rule->heuristic =
				(enum cosched_pb_heuristic)(letter - 'A');
			rule->fair = fair;
		}
		return 0;
	}
	errbuf_set(err, err_len,
		"PB heuristic \"%.*s%s\" is not valid: expected one of A, B, C, D, E, optionally followed by ' for the fair-share variant (e.g. D')",
		len > QUOTE_MAX ? QUOTE_MAX - 3 : (int)len, text ? text : "",
		len > QUOTE_MAX ? "..." : "");
	return -1;
}

static bool _rule_valid(const struct cosched_pb_rule *rule)
{
	return rule && (unsigned int)rule->heuristic < NHEURISTICS;
}

/* "?" for a rule out of range, so a log line never gets NULL. */
const char *cosched_pb_name(const struct cosched_pb_rule *rule)
{
	if (!_rule_valid(rule))
		return "?";
	return rule_names[rule->heuristic][rule->fair ? 1 : 0];
}

/* ------------------------------------------------------------ picking */

/* What a scan needs besides the table itself. */
struct pick_scan {
	const struct cosched_proc_view *procs;
	size_t n;
	size_t start;
	int exclude;
};

/* The state of proc i when it may be boosted at all, else 0. */
static unsigned int _eligible_state(const struct pick_scan *scan, size_t i)
{
	const struct cosched_proc_view *p = &scan->procs[i];
	enum cosched_pstate state;

	if (!p->candidate || (scan->exclude >= 0 &&
			      (size_t)scan->exclude == i))
		return 0;
	state = cosched_pb_state(p);
	return state == COSCHED_S4 ? 0 : state;
}

/*
 * A garbage CPU share (NaN) sorts last: a process whose share we cannot
 * tell should not win a fair-share pick over one we can.
 */
static double _share_key(double share)
{
	return isnan(share) ? INFINITY : share;
}

/*
 * The process of one group to boost: the nearest in round-robin order,
 * or for a fair pick the smallest CPU share (the nearest of equals, since
 * only a strictly smaller share replaces the one found first).
 */
static bool _pick_in_group(const struct pick_scan *scan, unsigned int group,
			   bool fair, struct cosched_pb_choice *best)
{
	bool found = false;
	double best_share = 0;

	for (size_t d = 0; d < scan->n; d++) {
		size_t i = (scan->start + d) % scan->n;
		unsigned int state = _eligible_state(scan, i);
		double share;

		if (!state || !(group & STATE_BIT(state)))
			continue;
		share = _share_key(scan->procs[i].cpu_share);
		if (found && (!fair || !(share < best_share)))
			continue;
		*best = (struct cosched_pb_choice){
			.index = (int)i,
			.state = (enum cosched_pstate)state,
			.distance = d,
		};
		best_share = share;
		found = true;
		if (!fair)
			break;
	}
	return found;
}

int cosched_pb_pick(const struct cosched_proc_view *procs, size_t n,
		    size_t start, const struct cosched_pb_rule *rule,
		    int exclude, struct cosched_pb_choice *choice)
{
	struct cosched_pb_choice best = { .index = -1 };
	struct pick_scan scan = {
		.procs = procs,
		.n = n,
		.start = n ? start % n : 0,
		.exclude = exclude,
	};

	if (procs && n && _rule_valid(rule) && n <= (size_t)INT32_MAX) {
		const unsigned int *groups = heuristic_groups[rule->heuristic];

		for (size_t g = 0; groups[g]; g++) {
			if (_pick_in_group(&scan, groups[g], rule->fair, &best))
				break;
		}
	}
	if (choice)
		*choice = best;
	return best.index;
}
