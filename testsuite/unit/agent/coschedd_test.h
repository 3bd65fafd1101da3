/*
 * coschedd_test.h - what the tests that run the real coschedd share:
 * where the built agent is, and a busy child to register.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHEDD_TEST_H
#define COSCHEDD_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/*
 * The coschedd of this build into out: it sits in ../../../sbin from
 * tests/agent/TEST.t (argv0).  Skips the whole test (exits 0) when it is
 * not there.
 */
static inline void coschedd_of_build(const char *argv0, char *out, size_t len)
{
	char *slash;

	snprintf(out, len, "%s", argv0);
	for (int i = 0; i < 3 && (slash = strrchr(out, '/')); i++)
		*slash = '\0';
	strncat(out, "/sbin/coschedd", len - strlen(out) - 1);
	if (access(out, X_OK)) {
		printf("1..0 # SKIP %s is missing\n", out);
		exit(0);
	}
}

/* A child that spins until killed (or for 2 minutes at most). */
static inline pid_t spinner(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		alarm(120);	/* never outlive a broken test */
		for (;;)
			;
	}
	return pid;
}

#endif /* COSCHEDD_TEST_H */
