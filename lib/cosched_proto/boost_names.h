/*
 * boost_names.h - the names of the node agent's boost mechanisms, in one
 * place: the cosched plugin checks boost= on its plugstack.conf line
 * (lib/cosched_proto/args.c) and passes the name on as coschedd
 * --boost, which parses it (agent/conf.c through agent/boost/boost.c, where
 * index i names enum boost_kind value i).  Header-only, so the plugin
 * needs none of the agent's code.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_PROTO_BOOST_NAMES_H
#define COSCHED_PROTO_BOOST_NAMES_H

#include <string.h>

/* How a refusal lists them. */
#define COSCHED_BOOST_EXPECTED "auto, cgroup, cgroup2, nice or rt"

/* The name of mechanism i (enum boost_kind order), NULL past the last. */
static inline const char *cosched_boost_name(unsigned i)
{
	static const char *const names[] = { "auto", "cgroup", "nice",
					     "cgroup2", "rt" };

	return i < sizeof(names) / sizeof(*names) ? names[i] : NULL;
}

/* The index of name, or -1 when it names no mechanism. */
static inline int cosched_boost_index(const char *name)
{
	const char *n;

	for (unsigned i = 0; name && (n = cosched_boost_name(i)); i++)
		if (!strcmp(name, n))
			return (int)i;
	return -1;
}

#endif /* COSCHED_PROTO_BOOST_NAMES_H */
