/*
 * test_statefile.c - select/coalloc's state file (lib/coalloc/statefile.c):
 * what the plugin writes reads back; a header that only begins like ours,
 * a line longer than the plugin's old 256-byte buffer (which split it in
 * two lines, the second read as a line of its own) or anything not
 * wholly ours rejects the whole file, naming the line.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coalloc/policy.h"
#include "coalloc/statefile.h"
#include "tap.h"

#define HEAD COALLOC_STATEFILE_HEADER "\n"

static char err[256];
static struct coalloc_statefile st;

static int parse_len(const char *text, size_t len)
{
	err[0] = '\0';
	coalloc_statefile_free(&st);
	return coalloc_statefile_parse(text, len, &st, err, sizeof(err));
}

static int parse(const char *text)
{
	return parse_len(text, strlen(text));
}

/* The text is rejected, as a whole, with this message. */
static void rejected(const char *text, const char *want, const char *what)
{
	is_int(parse(text), -1, "%s: rejected", what);
	is_str(err, want, "%s: message", what);
	ok(!st.njobs && !st.nqueues && !st.has_active, "%s: nothing kept", what);
}

static void test_good(void)
{
	is_int(parse(HEAD "active 1\njob 17 0\njob 18 2\nqueue -1 disabled 20\nqueue 3 disabled 21\n"),
	       0, "what the plugin writes is read");
	ok(st.has_active && st.active == 1, "  the active row");
	ok(st.njobs == 2 && st.jobs[0].id == 17 && st.jobs[0].row == 0 &&
	   st.jobs[1].id == 18 && st.jobs[1].row == 2, "  the jobs' rows");
	ok(st.nqueues == 2 && st.queues[0].queue == COALLOC_QUEUE_GLOBAL &&
	   st.queues[1].queue == 3, "  the disabled queues");
	ok(st.queues[0].head == 20 && st.queues[1].head == 21,
	   "  and their heads");
	is_int(parse(HEAD "queue 2 disabled\n"), 0,
	       "a queue line of 0.9, without its head, is read");
	ok(st.nqueues == 1 && st.queues[0].queue == 2 && !st.queues[0].head,
	   "  with head 0, which no job has");
	is_int(parse(HEAD), 0, "a header alone: nothing saved");
	ok(!st.has_active && !st.njobs && !st.nqueues, "  and nothing read");
}

static void test_header(void)
{
	rejected(COALLOC_STATEFILE_HEADER "0\njob 1 0\n",
		 "line 1: not the header '# select/coalloc state 1'",
		 "a header of another version (state 10)");
	rejected(COALLOC_STATEFILE_HEADER " extra\n",
		 "line 1: not the header '# select/coalloc state 1'",
		 "a header with more after it");
	rejected("# select/coalloc state\n",
		 "line 1: not the header '# select/coalloc state 1'",
		 "a shorter header");
	rejected("", "line 1: empty file, no header '# select/coalloc state 1'",
		 "an empty file");
}

static void test_long_lines(void)
{
	char text[600];

	/* "job 5 " then 300 digits of padding: 256 bytes used to cut it */
	snprintf(text, sizeof(text), HEAD "job 5 %0300d\n", 1);
	rejected(text, "line 2: line too long (more than 255 bytes)",
		 "a line of 306 bytes");
	snprintf(text, sizeof(text), HEAD "job 5 %0249d\n", 1);
	is_int(parse(text), 0, "a line of 255 bytes is fine (zeros lead)");
	ok(st.njobs == 1 && st.jobs[0].row == 1, "  and read whole");
}

static void test_bad_lines(void)
{
	static const char nul[] = HEAD "job 5 1\n\0job 6 1\n";

	rejected(HEAD "job 5 1\njob 6\n",
		 "line 3: 'job 6' is not 'active ROW', 'job ID ROW' or 'queue Q disabled HEAD', or repeats one",
		 "a job without its row");
	rejected(HEAD "job 5 1 extra\n",
		 "line 2: 'job 5 1 extra' is not 'active ROW', 'job ID ROW' or 'queue Q disabled HEAD', or repeats one",
		 "words after a job's row");
	rejected(HEAD "job 5 -1\n",
		 "line 2: 'job 5 -1' is not 'active ROW', 'job ID ROW' or 'queue Q disabled HEAD', or repeats one",
		 "a negative row (sscanf's %u read it as 4294967295)");
	rejected(HEAD "job 0x10 1\n",
		 "line 2: 'job 0x10 1' is not 'active ROW', 'job ID ROW' or 'queue Q disabled HEAD', or repeats one",
		 "a hexadecimal job id");
	rejected(HEAD "job 5 1\njob 5 2\n",
		 "line 3: 'job 5 2' is not 'active ROW', 'job ID ROW' or 'queue Q disabled HEAD', or repeats one",
		 "a job twice");
	rejected(HEAD "active 1\nactive 0\n",
		 "line 3: 'active 0' is not 'active ROW', 'job ID ROW' or 'queue Q disabled HEAD', or repeats one",
		 "two active rows");
	rejected(HEAD "queue 32 disabled\n",
		 "line 2: 'queue 32 disabled' is not 'active ROW', 'job ID ROW' or 'queue Q disabled HEAD', or repeats one",
		 "a queue beyond the sites");
	rejected(HEAD "queue -2 disabled\n",
		 "line 2: 'queue -2 disabled' is not 'active ROW', 'job ID ROW' or 'queue Q disabled HEAD', or repeats one",
		 "a negative queue other than the global one");
	rejected(HEAD "queue 1 disabled 0\n",
		 "line 2: 'queue 1 disabled 0' is not 'active ROW', 'job ID ROW' or 'queue Q disabled HEAD', or repeats one",
		 "a head that is no job id");
	rejected(HEAD "queue 1 disabled 5 6\n",
		 "line 2: 'queue 1 disabled 5 6' is not 'active ROW', 'job ID ROW' or 'queue Q disabled HEAD', or repeats one",
		 "a queue line with a word too many");
	rejected(HEAD "job 5 1\n\n",
		 "line 3: '' is not 'active ROW', 'job ID ROW' or 'queue Q disabled HEAD', or repeats one",
		 "an empty line");
	rejected(HEAD "job 5 1\njob 6 1",
		 "line 3: no newline at the end (the file was cut short)",
		 "a last line cut short");
	is_int(parse_len(nul, sizeof(nul) - 1), -1, "a NUL byte: rejected");
	is_str(err, "line 3: NUL byte", "  naming the line");
}

int main(void)
{
	test_good();
	test_header();
	test_long_lines();
	test_bad_lines();
	coalloc_statefile_free(&st);
	return done_testing();
}
