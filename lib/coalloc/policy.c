/*
 * policy.c - policy names and traits.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "coalloc/policy.h"

static const char *const policy_names[COALLOC_POLICY_COUNT] = {
	[COALLOC_POLICY_GS] = "GS",
	[COALLOC_POLICY_LS_OR] = "LS-OR",
	[COALLOC_POLICY_LS_RD] = "LS-RD",
	[COALLOC_POLICY_LS_RO] = "LS-RO",
	[COALLOC_POLICY_LS_DO] = "LS-DO",
	[COALLOC_POLICY_GP] = "GP",
	[COALLOC_POLICY_LP_LF] = "LP-LF",
	[COALLOC_POLICY_LP_GF] = "LP-GF",
	[COALLOC_POLICY_LP_RD] = "LP-RD",
	[COALLOC_POLICY_EQ_LF] = "EQ-LF",
	[COALLOC_POLICY_EQ_GF] = "EQ-GF",
	[COALLOC_POLICY_EQ_RD] = "EQ-RD",
	[COALLOC_POLICY_LQ] = "LQ",
};

const char *coalloc_policy_name(enum coalloc_policy policy)
{
	if ((unsigned)policy >= COALLOC_POLICY_COUNT)
		return NULL;
	return policy_names[policy];
}

const char *coalloc_policy_list(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int p = 0; p < COALLOC_POLICY_COUNT && used < len; p++) {
		const char *sep = !p ? "" :
				  p == COALLOC_POLICY_COUNT - 1 ? " or " : ", ";

		used += (size_t)snprintf(buf + used, len - used, "%s%s", sep,
					 policy_names[p]);
	}
	return buf;
}

static bool name_matches(const char *want, const char *got)
{
	for (; *want; want++, got++) {
		char c = (char)toupper((unsigned char)*got);

		if (c == '_')
			c = '-';
		if (c != *want)
			return false;
	}
	return *got == '\0';
}

int coalloc_policy_parse(const char *name, enum coalloc_policy *policy)
{
	if (!name)
		return -EINVAL;
	for (int p = 0; p < COALLOC_POLICY_COUNT; p++) {
		if (name_matches(policy_names[p], name)) {
			*policy = (enum coalloc_policy)p;
			return 0;
		}
	}
	return -EINVAL;
}

enum coalloc_family coalloc_policy_family(enum coalloc_policy policy)
{
	switch (policy) {
	case COALLOC_POLICY_LS_OR:
	case COALLOC_POLICY_LS_RD:
	case COALLOC_POLICY_LS_RO:
	case COALLOC_POLICY_LS_DO:
		return COALLOC_FAMILY_LS;
	case COALLOC_POLICY_GP:
		return COALLOC_FAMILY_GP;
	case COALLOC_POLICY_LP_LF:
	case COALLOC_POLICY_LP_GF:
	case COALLOC_POLICY_LP_RD:
		return COALLOC_FAMILY_LP;
	case COALLOC_POLICY_EQ_LF:
	case COALLOC_POLICY_EQ_GF:
	case COALLOC_POLICY_EQ_RD:
		return COALLOC_FAMILY_EQ;
	case COALLOC_POLICY_LQ:
		return COALLOC_FAMILY_LQ;
	case COALLOC_POLICY_GS:
	default:
		return COALLOC_FAMILY_GS;
	}
}

bool coalloc_policy_has_global(enum coalloc_policy policy)
{
	return coalloc_policy_family(policy) != COALLOC_FAMILY_LS;
}

bool coalloc_policy_has_local(enum coalloc_policy policy)
{
	return coalloc_policy_family(policy) != COALLOC_FAMILY_GS;
}

int coalloc_policy_queue_for(enum coalloc_policy policy, unsigned ncomp,
			     unsigned origin_site)
{
	switch (coalloc_policy_family(policy)) {
	case COALLOC_FAMILY_GS:
		return COALLOC_QUEUE_GLOBAL;
	case COALLOC_FAMILY_LS:
		return (int)origin_site;
	default:
		return ncomp != 1 ? COALLOC_QUEUE_GLOBAL : (int)origin_site;
	}
}
