/*
 * test_progress.c - the progress line (lib/progress/progress.h): in a
 * log a line at the first update, then one every PROGRESS_EVERY_S
 * seconds and at a forced one; on a terminal every update rewrites the
 * line in place and the end closes it; quiet prints nothing.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progress/progress.h"
#include "tap.h"

static char *buf;
static size_t len;

static FILE *_open(void)
{
	return tap_memstream(&buf, &len);
}

static void test_log(void)
{
	struct progress p;
	FILE *f = _open();

	progress_init(&p, f, false, false);
	ok(progress_due(&p, 100.0), "log: the first update is due");
	progress_show(&p, 100.0, false, "step %d", 1);
	ok(!progress_due(&p, 101.0) && progress_due(&p, 100.0 + PROGRESS_EVERY_S),
	   "  the next one %.0f s later", PROGRESS_EVERY_S);
	progress_show(&p, 101.0, false, "step %d", 2);		/* too soon */
	progress_show(&p, 100.0 + PROGRESS_EVERY_S, false, "step %d", 3);
	progress_show(&p, 100.5 + PROGRESS_EVERY_S, true, "step %d", 4);
	progress_end(&p);
	fclose(f);
	is_str(buf, "step 1\nstep 3\nstep 4\n",
	       "log: the first, one every %.0f s, and a forced one, each a line",
	       PROGRESS_EVERY_S);
}

static void test_tty(void)
{
	struct progress p;
	FILE *f = _open();

	progress_init(&p, f, true, false);
	progress_show(&p, 1.0, false, "a longer line");
	progress_show(&p, 1.1, false, "short");
	progress_end(&p);
	progress_end(&p);	/* twice: nothing more */
	fclose(f);
	is_str(buf, "\ra longer line\033[K\rshort\033[K\n",
	       "terminal: every update rewrites the line, the end closes it once");
}

static void test_quiet(void)
{
	struct progress p;
	FILE *f = _open();

	progress_init(&p, f, true, true);
	ok(!progress_due(&p, 1.0), "quiet: never due");
	progress_show(&p, 1.0, true, "nothing");
	progress_end(&p);
	fclose(f);
	is_int((int)len, 0, "quiet: nothing at all");
}

int main(void)
{
	plan(6);
	test_log();
	test_tty();
	test_quiet();
	free(buf);
	return done_testing();
}
