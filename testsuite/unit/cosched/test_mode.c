/*
 * test_mode.c - a --cosched mode split into its wait and reaction parts,
 * which modes need the MPI shim, and the names of the parts.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cosched/mode.h"
#include "tap.h"

/* Table 1 of Zhang et al. plus the energy models, as mode.h documents it. */
static const struct {
	enum cosched_mode mode;
	enum cosched_wait wait;
	enum cosched_react react;
	bool shim;
} expected[] = {
	{ COSCHED_MODE_NONE,   COSCHED_WAIT_BUSY, COSCHED_REACT_NONE, false },
	{ COSCHED_MODE_SB,     COSCHED_WAIT_SB,   COSCHED_REACT_NONE, true },
	{ COSCHED_MODE_SY,     COSCHED_WAIT_SY,   COSCHED_REACT_NONE, true },
	{ COSCHED_MODE_DCS,    COSCHED_WAIT_BUSY, COSCHED_REACT_DCS,  true },
	{ COSCHED_MODE_PB,     COSCHED_WAIT_BUSY, COSCHED_REACT_PB,   true },
	{ COSCHED_MODE_PB_SB,  COSCHED_WAIT_SB,   COSCHED_REACT_PB,   true },
	{ COSCHED_MODE_PB_SY,  COSCHED_WAIT_SY,   COSCHED_REACT_PB,   true },
	{ COSCHED_MODE_DCS_SB, COSCHED_WAIT_SB,   COSCHED_REACT_DCS,  true },
	{ COSCHED_MODE_DCS_SY, COSCHED_WAIT_SY,   COSCHED_REACT_DCS,  true },
	{ COSCHED_MODE_ECM,    COSCHED_WAIT_SB,   COSCHED_REACT_ECM,  true },
	{ COSCHED_MODE_EDM,    COSCHED_WAIT_SB,   COSCHED_REACT_EDM,  true },
	{ COSCHED_MODE_MEMBUS, COSCHED_WAIT_BUSY, COSCHED_REACT_NONE, false },
};
#define NEXPECTED (sizeof(expected) / sizeof(expected[0]))

static void test_split(void)
{
	is_int(NEXPECTED, COSCHED_MODE_COUNT, "every mode has an expectation");
	for (size_t i = 0; i < NEXPECTED; i++) {
		struct cosched_mode_parts parts = { -1, -1 };
		const char *name = cosched_mode_name(expected[i].mode);

		is_int(cosched_mode_split(expected[i].mode, &parts), 0,
		       "%s splits", name);
		is_str(cosched_wait_name(parts.wait),
		       cosched_wait_name(expected[i].wait), "%s waits %s",
		       name, cosched_wait_name(expected[i].wait));
		is_str(cosched_react_name(parts.react),
		       cosched_react_name(expected[i].react), "%s reacts %s",
		       name, cosched_react_name(expected[i].react));
		is_int(cosched_mode_needs_shim(expected[i].mode),
		       expected[i].shim, "%s %s the shim", name,
		       expected[i].shim ? "needs" : "does not need");
	}
}

static void test_split_invalid(void)
{
	struct cosched_mode_parts parts = { COSCHED_WAIT_SY, COSCHED_REACT_EDM };

	is_int(cosched_mode_split(COSCHED_MODE_COUNT, &parts), -1,
	       "COSCHED_MODE_COUNT is no mode");
	is_int(cosched_mode_split((enum cosched_mode)-1, &parts), -1,
	       "a negative mode is no mode");
	ok(parts.wait == COSCHED_WAIT_SY && parts.react == COSCHED_REACT_EDM,
	   "parts untouched on error");
	is_int(cosched_mode_split(COSCHED_MODE_PB, NULL), -1,
	       "no parts to fill is an error");
	ok(!cosched_mode_needs_shim(COSCHED_MODE_COUNT),
	   "an invalid mode needs no shim");
}

static void test_names(void)
{
	static const char *const waits[] = { "busy", "sb", "sy" };
	static const char *const reacts[] = { "none", "dcs", "pb", "ecm",
					      "edm" };

	for (int i = 0; i < 3; i++)
		is_str(cosched_wait_name((enum cosched_wait)i), waits[i],
		       "wait %d is %s", i, waits[i]);
	for (int i = 0; i < 5; i++)
		is_str(cosched_react_name((enum cosched_react)i), reacts[i],
		       "reaction %d is %s", i, reacts[i]);
	is_str(cosched_wait_name((enum cosched_wait)3), "?",
	       "wait out of range is ?");
	is_str(cosched_react_name((enum cosched_react)-1), "?",
	       "reaction out of range is ?");
}

static void test_wait_parse(void)
{
	static const char *const bad[] = { "", "spin", "busy ", "s", "sbx" };
	enum cosched_wait wait = COSCHED_WAIT_BUSY;

	for (int i = 0; i < 3; i++) {
		const char *name = cosched_wait_name((enum cosched_wait)i);

		wait = (enum cosched_wait)-1;
		is_int(cosched_wait_parse(name, &wait), 0, "'%s' parses", name);
		is_int(wait, i, "'%s' round-trips", name);
	}
	is_int(cosched_wait_parse("SY", &wait), 0, "'SY' parses");
	is_int(wait, COSCHED_WAIT_SY, "case does not matter");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		wait = COSCHED_WAIT_SB;
		is_int(cosched_wait_parse(bad[i], &wait), -1,
		       "'%s' is rejected", bad[i]);
		is_int(wait, COSCHED_WAIT_SB, "'%s' leaves wait alone", bad[i]);
	}
	is_int(cosched_wait_parse(NULL, &wait), -1, "NULL is rejected");
}

/* The traits every side reads from the table (mode.h). */
static void test_traits(void)
{
	int agent = 0, quanta = 0;

	for (int m = 0; m < COSCHED_MODE_COUNT; m++) {
		const struct cosched_mode_desc *d = cosched_mode_desc(m);

		agent += cosched_mode_for_agent(m);
		quanta += cosched_mode_by_quanta(m);
		ok(d && !strcmp(d->name, cosched_mode_name(m)),
		   "%s: its row holds its name", cosched_mode_name(m));
		ok(!cosched_mode_needs_shim(m) || cosched_mode_for_agent(m),
		   "%s: a mode with the shim has work for the agent",
		   cosched_mode_name(m));
	}
	ok(!cosched_mode_for_agent(COSCHED_MODE_NONE),
	   "none: nothing for the agent");
	is_int(agent, COSCHED_MODE_COUNT - 1, "every other mode has");
	ok(cosched_mode_by_quanta(COSCHED_MODE_MEMBUS) && quanta == 1,
	   "membus alone is switched by its own quanta");
	ok(!cosched_mode_desc(COSCHED_MODE_COUNT) &&
	   !cosched_mode_for_agent(COSCHED_MODE_COUNT) &&
	   !cosched_mode_by_quanta(-1), "out of range: no row, no trait");
}

/* Option, else the recorded value when it parses, else the default. */
static void test_resolve(void)
{
	is_int(cosched_mode_resolve(true, COSCHED_MODE_SB, "dcs", COSCHED_MODE_PB),
	       COSCHED_MODE_SB, "the option wins over the record");
	is_int(cosched_mode_resolve(false, COSCHED_MODE_SB, "DCS", COSCHED_MODE_PB),
	       COSCHED_MODE_DCS, "no option: the recorded value");
	is_int(cosched_mode_resolve(false, COSCHED_MODE_SB, "bogus", COSCHED_MODE_PB),
	       COSCHED_MODE_PB, "a bad recorded value: the default");
	is_int(cosched_mode_resolve(false, COSCHED_MODE_SB, NULL, COSCHED_MODE_NONE),
	       COSCHED_MODE_NONE, "nothing recorded: the default");
}

int main(void)
{
	test_traits();
	test_resolve();
	test_split();
	test_split_invalid();
	test_names();
	test_wait_parse();
	return done_testing();
}
