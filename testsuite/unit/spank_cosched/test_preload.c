/*
 * test_preload.c - the LD_PRELOAD of coscheduled tasks (preload_value.c):
 * the shim in front, the user's preloads kept whole at any length (they
 * were dropped beyond 2 KiB), and a shim already listed not added twice.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "preload_value.h"
#include "tap.h"

#define SHIM "/opt/c/lib/libcosched_mpi.so"

/* The LD_PRELOAD composed for user ("(unchanged)", "(refused)"). */
static char *compose(const char *user)
{
	char *value = NULL;

	if (cosched_preload_value(user, SHIM, &value))
		return strdup("(refused)");
	return value ? value : strdup("(unchanged)");
}

static void is_composed(const char *user, const char *want, const char *what)
{
	char *got = compose(user);

	is_str(got, want, "%s", what);
	free(got);
}

static void test_short(void)
{
	is_composed(NULL, SHIM, "no LD_PRELOAD: the shim alone");
	is_composed("", SHIM, "an empty one: the shim alone");
	is_composed("/u/libtrace.so", SHIM " /u/libtrace.so",
		    "the shim first, the user's after it");
	is_composed("/u/a.so:" SHIM, "(unchanged)",
		    "a shim already listed (colons) is not added twice");
	is_composed(" " SHIM "  /u/a.so", "(unchanged)",
		    "nor listed among blanks");
	is_composed(SHIM ".old", SHIM " " SHIM ".old",
		    "a longer name containing the shim's is another entry");
	is_composed("/x" SHIM, SHIM " /x" SHIM,
		    "so is one ending with it");
}

/* A user's LD_PRELOAD of n bytes: entries of "/u/libNNNN.so:". */
static char *user_list(size_t n)
{
	char *s = malloc(n + 1);

	for (size_t i = 0; i < n; i++)
		s[i] = "/u/libx.so:"[i % 11];
	s[n] = '\0';
	return s;
}

static void test_long(void)
{
	size_t fits = COSCHED_PRELOAD_MAX - strlen(SHIM) - 2;
	char *user = user_list(3000), *got = compose(user);

	ok(!strncmp(got, SHIM " ", strlen(SHIM) + 1) &&
	   !strcmp(got + strlen(SHIM) + 1, user),
	   "3000 bytes of the user's: kept whole after the shim");
	free(got);
	free(user);

	user = user_list(fits);
	got = compose(user);
	ok(strlen(got) == COSCHED_PRELOAD_MAX - 1 &&
	   !strcmp(got + strlen(SHIM) + 1, user),
	   "up to the kernel's limit of one environment string: kept whole");
	free(got);
	free(user);

	user = user_list(fits + 1);
	is_composed(user, "(refused)",
		    "one byte more: refused, the user's left as it is");
	free(user);
}

int main(void)
{
	plan(10);
	test_short();
	test_long();
	return done_testing();
}
