/*
 * test_pb.c - the process states, the heuristics A-E and A'-E' of Zhang et
 * al. section 4.9 on hand-built tables, and the parsing of their names.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <string.h>

#include "cosched/pb.h"
#include "tap.h"
#include "num/errbuf.h"

#define S1 COSCHED_S1
#define S2 COSCHED_S2
#define S3 COSCHED_S3
#define S4 COSCHED_S4
#define MAXN 8

/* A candidate process in state s with CPU share share. */
static struct cosched_proc_view view(enum cosched_pstate s, double share)
{
	struct cosched_proc_view v = {
		.in_recv = s == S3 || s == S4,
		.awaited_arrived = s == S3,
		.pending = s == S2 || s == S3,
		.cpu_share = share,
		.candidate = true,
	};

	return v;
}

/* A table of n processes in the given states, all with share 0.5. */
static void table(struct cosched_proc_view *procs, size_t n,
		  const enum cosched_pstate *states)
{
	for (size_t i = 0; i < n; i++)
		procs[i] = view(states[i], 0.5);
}

static struct cosched_pb_rule rule(enum cosched_pb_heuristic h, bool fair)
{
	struct cosched_pb_rule r = { .heuristic = h, .fair = fair };

	return r;
}

/* Pick with heuristic h (fair or not) and check index, state, distance. */
static void picks(const struct cosched_proc_view *procs, size_t n,
		  size_t start, enum cosched_pb_heuristic h, bool fair,
		  int exclude, int want, enum cosched_pstate want_state,
		  size_t want_distance, const char *what)
{
	struct cosched_pb_rule r = rule(h, fair);
	struct cosched_pb_choice c = { .index = 99 };
	int got = cosched_pb_pick(procs, n, start, &r, exclude, &c);

	is_int(got, want, "%s: %s picks %d", what, cosched_pb_name(&r), want);
	is_int(c.index, want, "%s: choice index agrees", what);
	if (want >= 0) {
		is_int(c.state, want_state, "%s: chosen is in S%d", what,
		       (int)want_state);
		is_int(c.distance, want_distance, "%s: at distance %zu", what,
		       want_distance);
	}
}

static void test_states(void)
{
	struct cosched_proc_view v = { 0 };

	is_int(cosched_pb_state(&v), S1, "computing, nothing pending: S1");
	v.pending = 3;
	is_int(cosched_pb_state(&v), S2, "computing, pending: S2");
	v.in_recv = true;
	is_int(cosched_pb_state(&v), S4,
	       "in receive, others pending but not the awaited one: S4");
	v.awaited_arrived = true;
	is_int(cosched_pb_state(&v), S3, "in receive, awaited arrived: S3");
	v.pending = 0;
	is_int(cosched_pb_state(&v), S3, "S3 does not depend on the count");
}

/*
 * From start 1 the scan meets: 1 S4, 2 S1, 3 S3, 4 S1, 5 S2, 0 S2.
 * A, B and D go to the S3 (D over the nearer S1), C to the nearest S1,
 * E to the S2 behind the S3.
 */
static void test_heuristics_differ(void)
{
	static const enum cosched_pstate states[] = { S2, S4, S1, S3, S1, S2 };
	struct cosched_proc_view procs[6];

	table(procs, 6, states);
	picks(procs, 6, 1, COSCHED_PB_A, false, -1, 3, S3, 2, "S3 present");
	picks(procs, 6, 1, COSCHED_PB_B, false, -1, 3, S3, 2, "S3 present");
	picks(procs, 6, 1, COSCHED_PB_C, false, -1, 2, S1, 1, "S3 present");
	picks(procs, 6, 1, COSCHED_PB_D, false, -1, 3, S3, 2, "S3 present");
	picks(procs, 6, 1, COSCHED_PB_E, false, -1, 5, S2, 4, "S3 present");
}

/* Where the S2 is nearer than the S3, D takes the S2 and A the S3. */
static void test_d_takes_nearest_of_s3_s2(void)
{
	static const enum cosched_pstate states[] = { S4, S1, S2, S3 };
	struct cosched_proc_view procs[4];

	table(procs, 4, states);
	picks(procs, 4, 0, COSCHED_PB_D, false, -1, 2, S2, 2, "S2 before S3");
	picks(procs, 4, 0, COSCHED_PB_A, false, -1, 3, S3, 3, "S2 before S3");
	picks(procs, 4, 0, COSCHED_PB_E, false, -1, 2, S2, 2, "S2 before S3");
	picks(procs, 4, 0, COSCHED_PB_C, false, -1, 1, S1, 1, "S2 before S3");
}

/* B goes down its groups one at a time: S3, then S2, then S1. */
static void test_b_order(void)
{
	static const enum cosched_pstate with_s3[] = { S1, S2, S4, S3 };
	static const enum cosched_pstate without_s3[] = { S1, S4, S2, S4 };
	static const enum cosched_pstate only_s1[] = { S4, S4, S1, S4 };
	struct cosched_proc_view procs[4];

	table(procs, 4, with_s3);
	picks(procs, 4, 0, COSCHED_PB_B, false, -1, 3, S3, 3, "B step 1");
	table(procs, 4, without_s3);
	picks(procs, 4, 0, COSCHED_PB_B, false, -1, 2, S2, 2, "B step 2");
	/* A treats S2 and S1 alike: the nearer S1 wins */
	picks(procs, 4, 0, COSCHED_PB_A, false, -1, 0, S1, 0, "A, no S3");
	table(procs, 4, only_s1);
	picks(procs, 4, 0, COSCHED_PB_B, false, -1, 2, S1, 2, "B step 3");
	picks(procs, 4, 0, COSCHED_PB_E, false, -1, 2, S1, 2, "E, only S1");
}

static void test_round_robin(void)
{
	static const enum cosched_pstate states[] = { S1, S2, S1, S4, S4 };
	struct cosched_proc_view procs[5];

	table(procs, 5, states);
	/* from 3: 3 S4, 4 S4, 0 S1, 1 S2 - found after wrapping */
	picks(procs, 5, 3, COSCHED_PB_C, false, -1, 0, S1, 2, "wrap");
	picks(procs, 5, 3, COSCHED_PB_E, false, -1, 1, S2, 3, "wrap");
	/* start is taken modulo n: 8 is 3 */
	picks(procs, 5, 8, COSCHED_PB_E, false, -1, 1, S2, 3, "start mod n");
	/* the current process itself is distance 0 */
	picks(procs, 5, 2, COSCHED_PB_C, false, -1, 2, S1, 0, "distance 0");
	/* from 2 the next S1 after 2 is 0, via the end of the table */
	procs[2] = view(S4, 0.5);
	picks(procs, 5, 2, COSCHED_PB_A, false, -1, 0, S1, 3, "A wraps");
}

/*
 * Fair share: in the first non-empty group the smallest CPU share wins,
 * whatever its distance; the S4 with share 0 never does.
 */
static void test_fair(void)
{
	static const enum cosched_pstate states[] = { S2, S4, S1, S3, S1, S2 };
	static const double shares[] = { 0.15, 0.0, 0.3, 0.9, 0.1, 0.2 };
	struct cosched_proc_view procs[6];

	for (size_t i = 0; i < 6; i++)
		procs[i] = view(states[i], shares[i]);
	picks(procs, 6, 1, COSCHED_PB_A, true, -1, 3, S3, 2, "one S3");
	picks(procs, 6, 1, COSCHED_PB_B, true, -1, 3, S3, 2, "one S3");
	picks(procs, 6, 1, COSCHED_PB_C, true, -1, 4, S1, 3, "all groups");
	picks(procs, 6, 1, COSCHED_PB_D, true, -1, 0, S2, 5, "S3 and S2");
	picks(procs, 6, 1, COSCHED_PB_E, true, -1, 0, S2, 5, "S2 first");
	/* without the S3, A' compares S2 and S1: 4 (0.1) */
	procs[3] = view(S4, 0.9);
	picks(procs, 6, 1, COSCHED_PB_A, true, -1, 4, S1, 3, "no S3");
	picks(procs, 6, 1, COSCHED_PB_B, true, -1, 0, S2, 5, "no S3");
	/* the plain heuristic ignores shares */
	picks(procs, 6, 1, COSCHED_PB_A, false, -1, 2, S1, 1, "plain A");
}

/* Equal shares: the nearest in round-robin order wins. */
static void test_fair_ties(void)
{
	static const enum cosched_pstate states[] = { S4, S1, S1, S4, S1 };
	static const double shares[] = { 0.0, 0.1, 0.4, 0.0, 0.1 };
	struct cosched_proc_view procs[5];

	for (size_t i = 0; i < 5; i++)
		procs[i] = view(states[i], shares[i]);
	picks(procs, 5, 3, COSCHED_PB_C, true, -1, 4, S1, 1, "tie from 3");
	picks(procs, 5, 0, COSCHED_PB_C, true, -1, 1, S1, 1, "tie from 0");
	picks(procs, 5, 2, COSCHED_PB_C, true, -1, 4, S1, 2, "tie from 2");
	/* a NaN share (garbage) loses to any real one */
	procs[1].cpu_share = NAN;
	picks(procs, 5, 0, COSCHED_PB_C, true, -1, 4, S1, 4, "NaN share");
	procs[2].cpu_share = NAN;
	procs[4].cpu_share = NAN;
	picks(procs, 5, 0, COSCHED_PB_C, true, -1, 1, S1, 1, "all NaN");
}

static void test_never_chosen(void)
{
	static const enum cosched_pstate all_s4[] = { S4, S4, S4 };
	static const enum cosched_pstate mixed[] = { S3, S2, S4 };
	struct cosched_proc_view procs[3];
	struct cosched_pb_rule a = rule(COSCHED_PB_A, false);
	struct cosched_pb_choice c = { .index = 7 };

	table(procs, 3, all_s4);
	for (int h = COSCHED_PB_A; h <= COSCHED_PB_E; h++) {
		picks(procs, 3, 0, (enum cosched_pb_heuristic)h, false, -1, -1,
		      S1, 0, "all S4");
		picks(procs, 3, 1, (enum cosched_pb_heuristic)h, true, -1, -1,
		      S1, 0, "all S4");
	}

	table(procs, 3, mixed);
	procs[0].candidate = false;
	picks(procs, 3, 0, COSCHED_PB_A, false, -1, 1, S2, 1,
	      "non-candidate S3 skipped");
	picks(procs, 3, 0, COSCHED_PB_A, false, 1, -1, S1, 0,
	      "exclude the only eligible");
	procs[0].candidate = true;
	picks(procs, 3, 0, COSCHED_PB_A, false, 0, 1, S2, 1,
	      "exclude the S3");
	picks(procs, 3, 0, COSCHED_PB_D, true, 0, 1, S2, 1,
	      "exclude, fair");
	picks(procs, 3, 0, COSCHED_PB_A, false, 5, 0, S3, 0,
	      "exclude out of range ignored");

	is_int(cosched_pb_pick(procs, 0, 0, &a, -1, &c), -1, "n = 0: none");
	is_int(c.index, -1, "n = 0: choice says none");
	is_int(cosched_pb_pick(procs, 3, 0, NULL, -1, &c), -1,
	       "no rule: none");
	a.heuristic = (enum cosched_pb_heuristic)5;
	is_int(cosched_pb_pick(procs, 3, 0, &a, -1, NULL), -1,
	       "heuristic out of range: none");
	a.heuristic = COSCHED_PB_A;
	is_int(cosched_pb_pick(procs, 3, 0, &a, -1, NULL), 0,
	       "choice may be NULL");
}

/* Parse text; on success return the canonical name, else "ERR". */
static char err[ERRBUF_LEN];
static const char *parse(const char *text)
{
	struct cosched_pb_rule r;

	err[0] = '\0';
	if (cosched_pb_parse(text, &r, err, sizeof(err)))
		return "ERR";
	return cosched_pb_name(&r);
}

static void test_parse(void)
{
	static const char *const bad[] = { "F", "", "A''", "AB", "'", " A",
					   "A ", "a`", "pb", "1" };
	struct cosched_pb_rule r = rule(COSCHED_PB_B, true);
	char long_text[200];

	is_str(parse("d'"), "D'", "d' is D'");
	is_str(parse("E"), "E", "E is E");
	is_str(parse("a"), "A", "lower case");
	is_str(parse("C'"), "C'", "C'");
	ok(!cosched_pb_parse("d'", &r, NULL, 0) &&
	   r.heuristic == COSCHED_PB_D && r.fair, "d' is heuristic D, fair");
	ok(!cosched_pb_parse("E", &r, NULL, 0) &&
	   r.heuristic == COSCHED_PB_E && !r.fair, "E is heuristic E, plain");

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char quoted[16];

		is_str(parse(bad[i]), "ERR", "'%s' is rejected", bad[i]);
		snprintf(quoted, sizeof(quoted), "\"%s\"", bad[i]);
		if (!ok(strstr(err, quoted) && strstr(err, "A, B, C, D, E") &&
			strstr(err, "D'"),
			"message names '%s' and the valid forms", bad[i]))
			diag("  message: %s", err);
	}
	r = rule(COSCHED_PB_B, true);
	is_int(cosched_pb_parse("Z", &r, NULL, 0), -1, "no err buffer: fine");
	ok(r.heuristic == COSCHED_PB_B && r.fair, "rule untouched on error");
	is_str(parse(NULL), "ERR", "NULL is rejected");

	memset(long_text, 'x', sizeof(long_text) - 1);
	long_text[sizeof(long_text) - 1] = '\0';
	is_str(parse(long_text), "ERR", "a long text is rejected");
	ok(strstr(err, "...") && strlen(err) < 200 &&
	   strstr(err, "A, B, C, D, E"), "and quoted abridged, whole message");
}

static void test_names(void)
{
	static const char *const names[] = { "A", "B", "C", "D", "E" };
	struct cosched_pb_rule r = rule(COSCHED_PB_A, false);

	for (int h = 0; h < 5; h++) {
		char fair[4];

		snprintf(fair, sizeof(fair), "%s'", names[h]);
		is_str(parse(names[h]), names[h], "%s round-trips", names[h]);
		is_str(parse(fair), fair, "%s round-trips", fair);
	}
	r.heuristic = (enum cosched_pb_heuristic)9;
	is_str(cosched_pb_name(&r), "?", "out of range is ?");
	is_str(cosched_pb_name(NULL), "?", "NULL is ?");
}

int main(void)
{
	test_states();
	test_heuristics_differ();
	test_d_takes_nearest_of_s3_s2();
	test_b_order();
	test_round_robin();
	test_fair();
	test_fair_ties();
	test_never_chosen();
	test_parse();
	test_names();
	return done_testing();
}
