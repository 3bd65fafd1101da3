/*
 * fuzz_plugstack_args.c - the arguments of cosched.so on its
 * plugstack.conf line (lib/cosched_proto/args.c, free of Slurm
 * headers), parsed in every slurmstepd, srun and sbatch.
 *
 * The input is split at newlines into argv, as Slurm splits the line at
 * blanks.  Promises checked: an error is a message and leaves the result
 * untouched; a success counts every argument, keeps the tick limits in
 * order, allows its default mode, and gives absolute paths.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"

#include "cosched_proto/args.h"
#include "cosched/mode.h"

#define MAX_ARGS 64

static void _check_success(const struct cosched_args *a, int argc)
{
	FUZZ_CHECK(a->given == argc);
	FUZZ_CHECK(a->min_tick_us <= a->tick_us && a->tick_us <= a->max_tick_us);
	FUZZ_CHECK(cosched_args_allows(a, a->default_mode));
	FUZZ_CHECK(cosched_args_allows(a, COSCHED_MODE_NONE));
	FUZZ_CHECK(a->agent[0] == '/' && a->shim[0] == '/' &&
		   a->run_dir[0] == '/');
	FUZZ_CHECK(!a->munge_socket[0] || a->munge_socket[0] == '/');
	FUZZ_CHECK(a->membus_mem >= 0 && a->membus_net >= 0);
	FUZZ_CHECK(a->membus_port_offset >= 1 && a->membus_window >= 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cosched_args args;	/* large: not on the stack */
	char *text = fuzz_text(data, size), *argv[MAX_ARGS], *save = NULL;
	char err[COSCHED_ARGS_ERR_LEN];
	int argc = 0;

	for (char *w = strtok_r(text, "\n", &save); w && argc < MAX_ARGS;
	     w = strtok_r(NULL, "\n", &save))
		argv[argc++] = w;
	memset(&args, 0xa5, sizeof(args));
	if (cosched_args_parse(argc, argv, &args, err, sizeof(err))) {
		FUZZ_CHECK(fuzz_message_ok(err, sizeof(err)));
		FUZZ_CHECK(args.given == (int)0xa5a5a5a5);
	} else {
		_check_success(&args, argc);
	}
	free(text);
	return 0;
}
