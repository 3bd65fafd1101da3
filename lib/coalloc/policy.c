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

#define ROW(p, n, fam, en, gf) \
	[COALLOC_POLICY_##p] = { n, COALLOC_FAMILY_##fam, COALLOC_ENABLE_##en, gf }

static const struct coalloc_policy_desc policies[COALLOC_POLICY_COUNT] = {
	/*   policy  name     family enable after a departure  global first */
	ROW(GS,    "GS",    GS, FIXED,         true),
	ROW(LS_OR, "LS-OR", LS, FIXED,         false),
	ROW(LS_RD, "LS-RD", LS, RANDOM_START,  false),
	ROW(LS_RO, "LS-RO", LS, RELEASE,       false),
	ROW(LS_DO, "LS-DO", LS, DISABLED,      false),
	ROW(GP,    "GP",    GP, FIXED,         true),
	ROW(LP_LF, "LP-LF", LP, FIXED,         false),
	ROW(LP_GF, "LP-GF", LP, FIXED,         true),
	ROW(LP_RD, "LP-RD", LP, RANDOM_SIDE,   true),
	ROW(EQ_LF, "EQ-LF", EQ, FIXED,         false),
	ROW(EQ_GF, "EQ-GF", EQ, FIXED,         true),
	ROW(EQ_RD, "EQ-RD", EQ, RANDOM_SIDE,   true),
	ROW(LQ,    "LQ",    LQ, FIXED,         true),
};

const struct coalloc_policy_desc *coalloc_policy_desc(enum coalloc_policy policy)
{
	return (unsigned)policy < COALLOC_POLICY_COUNT ? &policies[policy] :
							 NULL;
}

const char *coalloc_policy_name(enum coalloc_policy policy)
{
	const struct coalloc_policy_desc *d = coalloc_policy_desc(policy);

	return d ? d->name : NULL;
}

const char *coalloc_policy_list(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int p = 0; p < COALLOC_POLICY_COUNT && used < len; p++) {
		const char *sep = !p ? "" :
				  p == COALLOC_POLICY_COUNT - 1 ? " or " : ", ";

		used += (size_t)snprintf(buf + used, len - used, "%s%s", sep,
					 policies[p].name);
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
		if (name_matches(policies[p].name, name)) {
			*policy = (enum coalloc_policy)p;
			return 0;
		}
	}
	return -EINVAL;
}

enum coalloc_family coalloc_policy_family(enum coalloc_policy policy)
{
	const struct coalloc_policy_desc *d = coalloc_policy_desc(policy);

	return d ? d->family : COALLOC_FAMILY_GS;
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
