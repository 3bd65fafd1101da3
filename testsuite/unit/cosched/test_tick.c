/*
 * test_tick.c - one decision of the node agent on hand-built tables: PB,
 * DCS, SY, the energy models, and their precedence in a mixed table.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>

#include "cosched/tick.h"
#include "tap.h"
#include "cosched/mode.h"

#define S1 COSCHED_S1
#define S2 COSCHED_S2
#define S3 COSCHED_S3
#define S4 COSCHED_S4
#define EPS 1e-9

static struct cosched_tick_params params;

/* A candidate process of a job in mode, in state s, with PB rule text. */
static struct cosched_tick_proc proc(enum cosched_mode mode,
				     enum cosched_pstate s, const char *rule)
{
	struct cosched_tick_proc p = {
		.view = {
			.in_recv = s == S3 || s == S4,
			.awaited_arrived = s == S3,
			.pending = s == S2 || s == S3,
			.cpu_share = 0.5,
			.candidate = true,
		},
		/* garbage the tick must overwrite */
		.level = 42,
		.reason = COSCHED_WHY_ENERGY,
	};

	cosched_mode_split(mode, &p.parts);
	cosched_pb_parse(rule ? rule : "A", &p.pb, NULL, 0);
	return p;
}

static size_t count_reasons(const struct cosched_tick_proc *procs, size_t n)
{
	size_t count = 0;

	for (size_t i = 0; i < n; i++)
		count += procs[i].reason != COSCHED_WHY_NONE;
	return count;
}

/* Proc i ends with reason and level. */
static void has(const struct cosched_tick_proc *procs, int i,
		enum cosched_reason reason, int level, const char *what)
{
	is_str(cosched_reason_name(procs[i].reason), cosched_reason_name(reason),
	       "%s: proc %d reason %s", what, i, cosched_reason_name(reason));
	is_int(procs[i].level, level, "%s: proc %d level %d", what, i, level);
}

static void test_defaults_and_names(void)
{
	static const char *const names[] = { "none", "pb", "dcs", "sy-boost",
					     "sy-demote", "energy" };

	is_int(params.boost_level, 10, "boost level 10");
	is_int(params.demote_level, -10, "demote level -10");
	is_int(params.max_level, 15, "max level 15");
	is_double(params.energy.alpha, 0.01, EPS, "energy defaults inside");
	is_int(params.energy.variant, COSCHED_ENERGY_PAPER,
	       "the paper's t and R by default");
	for (int r = 0; r < COSCHED_WHY_COUNT; r++)
		is_str(cosched_reason_name((enum cosched_reason)r), names[r],
		       "reason %d is %s", r, names[r]);
	is_str(cosched_reason_name(COSCHED_WHY_COUNT), "?", "out of range ?");
}

/* 0 S1 running, 1 S4, 2 S3, 3 S2, all pb with D. */
static void pb_table(struct cosched_tick_proc *procs)
{
	procs[0] = proc(COSCHED_MODE_PB, S1, "D");
	procs[0].view.running = true;
	procs[1] = proc(COSCHED_MODE_PB, S4, "D");
	procs[2] = proc(COSCHED_MODE_PB, S3, "D");
	procs[3] = proc(COSCHED_MODE_PB, S2, "D");
}

static void test_pb(void)
{
	struct cosched_tick_proc procs[4];

	pb_table(procs);
	is_int(cosched_tick(procs, 4, 0, -1, 0.001, &params), 2,
	       "PB from current 0 with D boosts the S3 at 2");
	is_int(count_reasons(procs, 4), 1, "exactly one process is boosted");
	has(procs, 2, COSCHED_WHY_PB, 10, "PB");
	has(procs, 0, COSCHED_WHY_NONE, 0, "PB reset");
	is_int(procs[2].state, S3, "its state is reported: S3");
	is_int(procs[1].state, S4, "every state is reported: S4");
	is_int(procs[0].state, S1, "every state is reported: S1");

	pb_table(procs);
	is_int(cosched_tick(procs, 4, -1, 2, 0.001, &params), 3,
	       "current unknown: scan after last boosted 2, S2 at 3");
	has(procs, 3, COSCHED_WHY_PB, 10, "PB after last");
	pb_table(procs);
	is_int(cosched_tick(procs, 4, -1, 3, 0.001, &params), 2,
	       "last boosted 3: scan wraps to 0, S3 at 2");
	pb_table(procs);
	is_int(cosched_tick(procs, 4, -1, -1, 0.001, &params), 2,
	       "nothing known: scan from 0");
	pb_table(procs);
	is_int(cosched_tick(procs, 4, 9, -1, 0.001, &params), 2,
	       "a stale current index counts as unknown");

	for (int i = 0; i < 4; i++)
		procs[i] = proc(COSCHED_MODE_PB, S4, "C");
	is_int(cosched_tick(procs, 4, 0, -1, 0.001, &params), -1,
	       "all S4: no PB boost");
	is_int(count_reasons(procs, 4), 0, "and nobody boosted");
}

/*
 * 0 is not PB (none) and the nearest S2; 1 PB rule A in S3; 2 PB rule E,
 * S1; 3 PB rule E, S2.  The rule is the current process's, else the first
 * PB process's, and the non-PB process is never picked.
 */
static void test_pb_rule_and_mask(void)
{
	struct cosched_tick_proc procs[4];

	procs[0] = proc(COSCHED_MODE_NONE, S2, NULL);
	procs[1] = proc(COSCHED_MODE_PB, S3, "A");
	procs[2] = proc(COSCHED_MODE_PB_SB, S1, "E");
	procs[3] = proc(COSCHED_MODE_PB, S2, "E");
	is_int(cosched_tick(procs, 4, 0, -1, 0.001, &params), 1,
	       "current not PB: rule A of the first PB process, the S3");
	has(procs, 0, COSCHED_WHY_NONE, 0, "non-PB S2");
	ok(procs[0].view.candidate, "the caller's view is not modified");
	is_int(cosched_tick(procs, 4, 2, -1, 0.001, &params), 3,
	       "current PB with E: the S2 at 3, not the non-PB S2 at 0");
	has(procs, 3, COSCHED_WHY_PB, 10, "E's pick");
	procs[3].view.candidate = false;
	is_int(cosched_tick(procs, 4, 2, -1, 0.001, &params), 1,
	       "a non-candidate is skipped: E falls back to the S3");

	for (int i = 0; i < 4; i++)
		procs[i] = proc(COSCHED_MODE_DCS, S1, NULL);
	is_int(cosched_tick(procs, 4, 0, -1, 0.001, &params), -1,
	       "no PB process: no PB boost");
}

/*
 * 0 S3 running, 1 S3 waiting for the CPU, 2 S2 not running, 3 S4,
 * 4 S1, 5 S3 not a candidate: DCS boosts 1 and 2 only.
 */
static void test_dcs(void)
{
	struct cosched_tick_proc procs[6];

	procs[0] = proc(COSCHED_MODE_DCS, S3, NULL);
	procs[0].view.running = true;
	procs[1] = proc(COSCHED_MODE_DCS, S3, NULL);
	procs[2] = proc(COSCHED_MODE_DCS_SB, S2, NULL);
	procs[3] = proc(COSCHED_MODE_DCS, S4, NULL);
	procs[4] = proc(COSCHED_MODE_DCS, S1, NULL);
	procs[5] = proc(COSCHED_MODE_DCS, S3, NULL);
	procs[5].view.candidate = false;
	is_int(cosched_tick(procs, 6, 0, -1, 0.001, &params), -1,
	       "DCS is no PB boost");
	has(procs, 0, COSCHED_WHY_NONE, 0, "running S3");
	has(procs, 1, COSCHED_WHY_DCS, 10, "S3 off the CPU");
	has(procs, 2, COSCHED_WHY_DCS, 10, "S2 off the CPU");
	has(procs, 3, COSCHED_WHY_NONE, 0, "S4");
	has(procs, 4, COSCHED_WHY_NONE, 0, "S1");
	has(procs, 5, COSCHED_WHY_NONE, 0, "non-candidate");
}

static void test_sy(void)
{
	struct cosched_tick_proc procs[4];

	/* 0 yields; heuristic A from it: the S3 at 2 over the S1 at 1 */
	procs[0] = proc(COSCHED_MODE_SY, S4, NULL);
	procs[0].yielding = 1;
	procs[1] = proc(COSCHED_MODE_NONE, S1, NULL);
	procs[2] = proc(COSCHED_MODE_NONE, S3, NULL);
	procs[3] = proc(COSCHED_MODE_SB, S4, NULL);
	procs[3].yielding = 1;	/* not an SY process: ignored */
	cosched_tick(procs, 4, 0, -1, 0.001, &params);
	has(procs, 0, COSCHED_WHY_SY_DEMOTE, -10, "yielder");
	has(procs, 2, COSCHED_WHY_SY_BOOST, 10, "heuristic A's S3");
	has(procs, 1, COSCHED_WHY_NONE, 0, "S1 left");
	has(procs, 3, COSCHED_WHY_NONE, 0, "SB 'yielding'");

	/* yielding out of a receive means nothing */
	procs[0] = proc(COSCHED_MODE_SY, S1, NULL);
	procs[0].yielding = 1;
	cosched_tick(procs, 4, 0, -1, 0.001, &params);
	has(procs, 0, COSCHED_WHY_NONE, 0, "yielding outside a receive");
	is_int(count_reasons(procs, 4), 0, "nobody boosted without a yield");

	/* two yielders: neither boosts the other, both hint at 1 */
	procs[0] = proc(COSCHED_MODE_DCS_SY, S4, NULL);
	procs[0].yielding = 1;
	procs[1] = proc(COSCHED_MODE_NONE, S1, NULL);
	procs[2] = proc(COSCHED_MODE_NONE, S1, NULL);
	procs[3] = proc(COSCHED_MODE_PB_SY, S3, NULL);
	procs[3].yielding = 1;
	cosched_tick(procs, 4, 0, -1, 0.001, &params);
	has(procs, 0, COSCHED_WHY_SY_DEMOTE, -10, "first yielder");
	has(procs, 3, COSCHED_WHY_SY_DEMOTE, -10, "second yielder, in S3");
	has(procs, 1, COSCHED_WHY_SY_BOOST, 10, "nearest S1 of both");
	has(procs, 2, COSCHED_WHY_NONE, 0, "the other S1");

	/* a yielder in S3 is not boosted by the other: each hints nearby */
	procs[0] = proc(COSCHED_MODE_SY, S4, NULL);
	procs[0].yielding = 1;
	procs[1] = proc(COSCHED_MODE_NONE, S1, NULL);
	procs[2] = proc(COSCHED_MODE_SY, S3, NULL);
	procs[2].yielding = 1;
	procs[3] = proc(COSCHED_MODE_NONE, S1, NULL);
	cosched_tick(procs, 4, 0, -1, 0.001, &params);
	has(procs, 2, COSCHED_WHY_SY_DEMOTE, -10, "yielder in S3");
	has(procs, 1, COSCHED_WHY_SY_BOOST, 10, "0's choice, not the S3 at 2");
	has(procs, 3, COSCHED_WHY_SY_BOOST, 10, "2's choice");

	/* nothing else to boost */
	procs[1] = proc(COSCHED_MODE_NONE, S4, NULL);
	procs[3] = proc(COSCHED_MODE_NONE, S4, NULL);
	cosched_tick(procs, 4, 0, -1, 0.001, &params);
	is_int(count_reasons(procs, 4), 2, "only the demotions");

	/* and with one yielder, neither does another SY process' S3 */
	procs[0] = proc(COSCHED_MODE_SY, S4, NULL);
	procs[0].yielding = 1;
	procs[1] = proc(COSCHED_MODE_NONE, S1, NULL);
	procs[2] = proc(COSCHED_MODE_SY, S3, NULL);
	procs[3] = proc(COSCHED_MODE_NONE, S1, NULL);
	cosched_tick(procs, 4, 0, -1, 0.001, &params);
	has(procs, 2, COSCHED_WHY_SY_BOOST, 10, "a non-yielding SY S3 is fine");
	has(procs, 1, COSCHED_WHY_NONE, 0, "so the S1 is left");
}

static void test_sy_nothing_left(void)
{
	struct cosched_tick_proc procs[4];

	procs[0] = proc(COSCHED_MODE_DCS_SY, S4, NULL);
	procs[0].yielding = 1;
	procs[3] = proc(COSCHED_MODE_PB_SY, S3, NULL);
	procs[3].yielding = 1;
	/* nothing else to boost */
	procs[1] = proc(COSCHED_MODE_NONE, S4, NULL);
	procs[2] = proc(COSCHED_MODE_NONE, S4, NULL);
	cosched_tick(procs, 4, 0, -1, 0.001, &params);
	is_int(count_reasons(procs, 4), 2, "only the demotions");
}

static void test_energy(void)
{
	struct cosched_tick_proc procs[3];

	/* R = 3 processes in the table */
	procs[0] = proc(COSCHED_MODE_ECM, S4, NULL);
	procs[0].communicating = 1;
	procs[0].msg_rate = 1000;
	procs[0].msg_kib = 4;
	procs[0].energy = 7.5;
	procs[1] = proc(COSCHED_MODE_ECM, S1, NULL);
	procs[1].msg_rate = 1000;
	procs[1].msg_kib = 4;
	procs[1].energy = 7.5;
	procs[2] = proc(COSCHED_MODE_EDM, S4, NULL);
	procs[2].communicating = 1;
	procs[2].msg_rate = 1000;
	procs[2].msg_kib = 4;
	procs[2].energy = 20;
	is_int(cosched_tick(procs, 3, 0, -1, 0.001, &params), -1,
	       "energy is no PB boost");
	is_double(procs[0].energy, 7.49, 1e-9, "ECM discharges communicating");
	has(procs, 0, COSCHED_WHY_ENERGY, 7, "ECM communicating");
	is_double(procs[1].energy, 7.51, 1e-9, "ECM charges computing");
	has(procs, 1, COSCHED_WHY_NONE, 0, "ECM computing: no level");
	is_double(procs[2].energy, 15, EPS, "EDM capped at max_priority");
	has(procs, 2, COSCHED_WHY_ENERGY, 15, "EDM communicating");

	procs[0].energy = 1;
	procs[2].energy = 9;
	params.max_level = 5;
	cosched_tick(procs, 3, 0, -1, 0.001, &params);
	params = cosched_tick_defaults();
	params.energy.variant = COSCHED_ENERGY_TICK;
	is_double(procs[0].energy, 3, EPS, "ECM below R = 3 rises to R");
	has(procs, 0, COSCHED_WHY_ENERGY, 3, "level R");
	is_double(procs[2].energy, 9.01, 1e-9, "P is kept above max_level");
	has(procs, 2, COSCHED_WHY_ENERGY, 5, "level capped at max_level");

	procs[0].view.candidate = false;
	procs[0].energy = 7.5;
	cosched_tick(procs, 3, 0, -1, 0.001, &params);
	is_double(procs[0].energy, 7.49, 1e-9, "P moves for a non-candidate");
	has(procs, 0, COSCHED_WHY_NONE, 0, "but it gets no level");

	procs[0].view.candidate = true;
	procs[0].energy = -1;
	procs[1].energy = -1;
	cosched_tick(procs, 3, 0, -1, 0.001, &params);
	is_double(procs[0].energy, 3, EPS,
		  "tick: P starts at R = 3 coscheduled (then -0.01: floor)");
	is_double(procs[1].energy, 3.01, 1e-9, "tick: 3 + 0.01 charged");
}

/* An energy row of a process age seconds old, 1000 msg/s of 4 KiB. */
static struct cosched_tick_proc energy_proc(enum cosched_mode mode,
					    bool comm, double age, double p,
					    double running)
{
	struct cosched_tick_proc t = proc(mode, comm ? S4 : S1, NULL);

	t.communicating = comm;
	t.msg_rate = 1000;
	t.msg_kib = 4;
	t.age = age;
	t.energy = p;
	t.node_running = running;
	return t;
}

/* The paper variant: t each process's age, R the node's running count. */
static void test_energy_paper(void)
{
	struct cosched_tick_proc procs[4];

	procs[0] = energy_proc(COSCHED_MODE_ECM, true, 0.5, 12, 5);
	procs[1] = energy_proc(COSCHED_MODE_ECM, false, 0.5, -1, 5);
	procs[2] = energy_proc(COSCHED_MODE_EDM, true, 0.1, -1, 5);
	procs[3] = proc(COSCHED_MODE_PB, S1, "A");
	procs[3].energy = -1;
	procs[3].node_running = 5;
	cosched_tick(procs, 4, -1, -1, 0.001, &params);
	is_double(procs[0].energy, 7, EPS, "ECM: 12 - 40 x 0.5 / 4 = 7");
	has(procs, 0, COSCHED_WHY_ENERGY, 7, "ECM communicating");
	is_double(procs[1].energy, 10, EPS,
		  "ECM: starts at R = 5 running, + 0.01 x 1000 x 0.5");
	has(procs, 1, COSCHED_WHY_NONE, 0, "ECM computing: no level");
	is_double(procs[2].energy, 6, EPS, "EDM: 5 + 2.5 x 4 x 0.1 = 6");
	has(procs, 2, COSCHED_WHY_ENERGY, 6, "EDM communicating");
	is_double(procs[3].energy, -1, EPS, "no P for a PB process");

	cosched_tick(procs, 4, -1, -1, 0.001, &params);
	is_double(procs[0].energy, 5, EPS, "ECM: 7 - 5 falls to R = 5");
	is_double(procs[1].energy, 15, EPS, "ECM: 10 + 5 = 15, the cap");
	is_double(procs[2].energy, 7, EPS, "EDM: 6 + 1 = 7");

	for (int i = 0; i < 3; i++)
		procs[i].node_running = -1;	/* the agent could not read it */
	procs[0].energy = 6;
	procs[2] = energy_proc(COSCHED_MODE_EDM, false, 0.5, 12, -1);
	cosched_tick(procs, 4, -1, -1, 0.001, &params);
	is_double(procs[0].energy, 4, EPS,
		  "running unknown: R is the 4 coscheduled (6 - 5 is below)");
	is_double(procs[2].energy, 7, EPS, "EDM: 12 - 10000 x 0.5 / 1000 = 7");
	procs[2].energy = 5;
	procs[2].age = 0.7;
	cosched_tick(procs, 4, -1, -1, 0.001, &params);
	is_double(procs[2].energy, 4, EPS, "EDM: 5 - 7 is below R: R");
}

/*
 * Every reason in one table (current unknown, nothing boosted before):
 *   0 pb-sy, yielding in S3   PB (A) would take this S3: demotion wins
 *   1 dcs, S2 off the CPU     DCS
 *   2 pb, S1                  nothing: PB went to 3
 *   3 pb, S3                  SY's choice and PB's: SY-chosen wins
 *   4 ecm, communicating      energy
 *   5 sb, S4                  nothing
 */
static void test_precedence(void)
{
	struct cosched_tick_proc procs[6];

	procs[0] = proc(COSCHED_MODE_PB_SY, S3, "A");
	procs[0].yielding = 1;
	procs[1] = proc(COSCHED_MODE_DCS, S2, NULL);
	procs[2] = proc(COSCHED_MODE_PB, S1, "A");
	procs[3] = proc(COSCHED_MODE_PB, S3, "A");
	procs[4] = proc(COSCHED_MODE_ECM, S1, NULL);
	procs[4].communicating = 1;
	procs[4].msg_rate = 1000;
	procs[4].msg_kib = 4;
	procs[4].energy = 8;
	procs[5] = proc(COSCHED_MODE_SB, S4, NULL);
	is_int(cosched_tick(procs, 6, -1, -1, 0.001, &params), 3,
	       "PB picks the S3 at 3, not the demoted S3 at 0");
	has(procs, 0, COSCHED_WHY_SY_DEMOTE, -10, "mixed");
	has(procs, 1, COSCHED_WHY_DCS, 10, "mixed");
	has(procs, 2, COSCHED_WHY_NONE, 0, "mixed");
	has(procs, 3, COSCHED_WHY_SY_BOOST, 10, "mixed");
	has(procs, 4, COSCHED_WHY_ENERGY, 7, "mixed");
	has(procs, 5, COSCHED_WHY_NONE, 0, "mixed");

	/* SY from 0 now meets the DCS S3 at 1 first: DCS stays */
	procs[1] = proc(COSCHED_MODE_DCS, S3, NULL);
	procs[3] = proc(COSCHED_MODE_PB, S2, "A");
	procs[4].energy = 8;
	is_int(cosched_tick(procs, 6, -1, -1, 0.001, &params), 2,
	       "PB (A, no S3 left among PB) takes the nearest S2/S1");
	has(procs, 1, COSCHED_WHY_DCS, 10, "DCS over SY-chosen");
	has(procs, 2, COSCHED_WHY_PB, 10, "PB");
	has(procs, 3, COSCHED_WHY_NONE, 0, "S2 after the S1");
}

static void test_degenerate(void)
{
	struct cosched_tick_proc one = proc(COSCHED_MODE_PB, S1, "B'");

	is_int(cosched_tick(NULL, 3, 0, -1, 0.001, &params), -1, "NULL table");
	is_int(cosched_tick(&one, 0, 0, -1, 0.001, &params), -1, "empty table");
	is_int(cosched_tick(&one, 1, 0, 0, 0.001, NULL), 0,
	       "NULL params: defaults");
	has(&one, 0, COSCHED_WHY_PB, 10, "default boost level");
}

/* ---------------------------------------------- who is on the CPU */

static void test_needs_running_modes(void)
{
	for (int m = 0; m < COSCHED_MODE_COUNT; m++) {
		struct cosched_mode_parts parts;
		bool want;

		cosched_mode_split((enum cosched_mode)m, &parts);
		want = parts.react == COSCHED_REACT_PB ||
		       parts.react == COSCHED_REACT_DCS;
		ok(cosched_tick_needs_running(&parts) == want,
		   "mode %s: needs running %s", cosched_mode_name((enum cosched_mode)m),
		   want ? "yes" : "no");
	}
	ok(!cosched_tick_needs_running(NULL), "NULL parts: no");
}

/* A random process of mode, its page fields and CPU view drawn from seed. */
static struct cosched_tick_proc random_proc(enum cosched_mode mode,
					    unsigned int *seed)
{
	static const char *const rules[] = { "A", "B", "C'", "D", "E'" };
	struct cosched_tick_proc p = proc(mode, (enum cosched_pstate)(1 + rand_r(seed) % 4),
					  rules[rand_r(seed) % 5]);

	p.view.candidate = rand_r(seed) % 8 != 0;
	p.view.running = rand_r(seed) % 2;
	p.view.cpu_share = (double)(rand_r(seed) % 100) / 100.0;
	p.yielding = rand_r(seed) % 2;
	p.communicating = rand_r(seed) % 2;
	p.msg_rate = rand_r(seed) % 5000;
	p.msg_kib = rand_r(seed) % 64;
	p.energy = rand_r(seed) % 20;
	return p;
}

/* Decide t as it is and with running, cpu_share and current blanked:
 * true when every output is the same. */
static bool same_without_running(struct cosched_tick_proc *t, size_t n,
				 int current, int last)
{
	struct cosched_tick_proc blank[8];
	int pb, pb_blank;

	for (size_t i = 0; i < n; i++) {
		blank[i] = t[i];
		blank[i].view.running = false;
		blank[i].view.cpu_share = 0;
	}
	pb = cosched_tick(t, n, current, last, 0.001, &params);
	pb_blank = cosched_tick(blank, n, -1, last, 0.001, &params);
	for (size_t i = 0; i < n; i++)
		if (t[i].level != blank[i].level || t[i].reason != blank[i].reason ||
		    t[i].state != blank[i].state || t[i].energy != blank[i].energy)
			return false;
	return pb == pb_blank;
}

/* 2000 random tables of modes that do not need it: the same decisions
 * whoever runs; and DCS or PB in the table: some table decides otherwise
 * (the check can fail). */
static void test_needs_running_tables(void)
{
	static const enum cosched_mode quiet[] = {
		COSCHED_MODE_NONE, COSCHED_MODE_SB, COSCHED_MODE_SY,
		COSCHED_MODE_ECM, COSCHED_MODE_EDM, COSCHED_MODE_MEMBUS };
	static const enum cosched_mode busy[] = {
		COSCHED_MODE_DCS, COSCHED_MODE_PB, COSCHED_MODE_DCS_SY,
		COSCHED_MODE_PB_SB };
	unsigned int seed = 14;
	int differ_quiet = 0, differ_busy = 0;

	for (int round = 0; round < 2000; round++) {
		struct cosched_tick_proc t[8];
		size_t n = 1 + (size_t)(rand_r(&seed) % 8);
		int current = (int)(rand_r(&seed) % (n + 1)) - 1;
		int last = (int)(rand_r(&seed) % (n + 1)) - 1;
		bool with_busy = round % 2;

		for (size_t i = 0; i < n; i++) {
			enum cosched_mode m = quiet[rand_r(&seed) % 6];

			if (with_busy && rand_r(&seed) % 2)
				m = busy[rand_r(&seed) % 4];
			t[i] = random_proc(m, &seed);
		}
		if (same_without_running(t, n, current, last))
			continue;
		if (with_busy)
			differ_busy++;
		else
			differ_quiet++;
	}
	is_int(differ_quiet, 0,
	       "SB, SY, ECM, EDM, none: the same decisions whatever runs (1000 tables)");
	ok(differ_busy > 0,
	   "with DCS or PB in the table running matters (%d of 1000 differ)",
	   differ_busy);
}

int main(void)
{
	params = cosched_tick_defaults();
	test_defaults_and_names();
	test_pb();
	test_pb_rule_and_mask();
	test_dcs();
	test_sy();
	test_sy_nothing_left();
	params.energy.variant = COSCHED_ENERGY_TICK;	/* t: the dt given */
	test_energy();
	test_precedence();
	params = cosched_tick_defaults();
	test_energy_paper();
	test_degenerate();
	test_needs_running_modes();
	test_needs_running_tables();
	return done_testing();
}
