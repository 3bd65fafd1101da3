/*
 * args.h - the arguments of the cosched plugin on its plugstack.conf line.
 *
 * Free of Slurm headers so the parser is unit-tested on its own
 * (testsuite/unit/cosched_opts/test_cosched_args.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_SPANK_COSCHED_ARGS_H
#define COALLOC_SPANK_COSCHED_ARGS_H

#include <stddef.h>

/*
 * Settings from the plugstack.conf arguments.  Nothing is configurable
 * yet: later issues add keys such as default_mode= and allowed_modes=
 * here and in the key table of args.c.
 */
struct cosched_args {
	int given;		/* how many arguments were accepted */
};

/*
 * Parse the arguments, strictly: a word that is not KEY=VALUE, an unknown
 * KEY or a bad VALUE is an error whose message (written to err, at most
 * COSCHED_ERR_LEN bytes needed) names the argument.
 * Returns 0 or -1; args is only written on success.
 */
int cosched_args_parse(int argc, char *const argv[], struct cosched_args *args,
		       char *err, size_t err_len);

#endif /* COALLOC_SPANK_COSCHED_ARGS_H */
