/*
 * test_args.c - the plugstack.conf arguments of the cosched
 * SPANK plugin: defaults in one place, strict parsing, every rejection
 * names the argument.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "cosched_proto/args.h"
#include "tap.h"
#include "cosched/mode.h"

#define KNOWN "; known keys: agent, shim, run_dir, default_mode, allowed_modes, default_pb, tick_us, min_tick_us, max_tick_us, max_spin_us, boost, idle_exit, allow_user, membus_quantum_ms, membus_window, membus_mem, membus_net, membus_port_offset, gang_rows, gang_port_offset, freeze, munge_socket, energy"

static char err[COSCHED_ARGS_ERR_LEN];
static struct cosched_args args;

static int parse1(const char *arg)
{
	char *argv[] = { (char *)arg, NULL };

	err[0] = '\0';
	return cosched_args_parse(1, argv, &args, err, sizeof(err));
}

static void rejects_with(const char *arg, const char *want)
{
	is_int(parse1(arg), -1, "'%s' is rejected", arg);
	is_str(err, want, "message for '%s'", arg);
}

static void rejects_mentioning(const char *arg, const char *part)
{
	is_int(parse1(arg), -1, "'%s' is rejected", arg);
	ok(strstr(err, part) != NULL, "message for '%s' says '%s' (%s)", arg,
	   part, err);
}

static void test_defaults(void)
{
	is_int(cosched_args_parse(0, NULL, &args, err, sizeof(err)), 0,
	       "no arguments");
	is_int(args.given, 0, "none counted");
	is_int(args.default_mode, COSCHED_MODE_NONE, "default mode none");
	is_int(args.default_pb.heuristic, COSCHED_PB_D, "default heuristic D");
	ok(!args.default_pb.fair, "not the fair-share variant");
	is_int(args.tick_us, 1000, "tick 1 ms as in the paper");
	is_int(args.min_tick_us, 100, "min tick");
	is_int(args.max_tick_us, 100000, "max tick");
	is_int(args.max_spin_us, 10000, "max spin");
	is_str(args.boost, "auto", "boost auto");
	is_str(args.run_dir, "/run/coschedd", "run dir");
	is_int(args.idle_exit, 600, "idle exit");
	is_int(args.membus_quantum_ms, 500, "membus quantum 500 ms");
	is_int(args.membus_window, 2, "membus window 2 quanta");
	is_double(args.membus_mem, 0, 0, "membus memory capacity: measured");
	is_double(args.membus_net, 0, 0, "membus network capacity: found");
	is_int(args.membus_port_offset, 1000, "membus port offset");
	ok(!args.gang_rows, "no gang rows");
	is_int(args.gang_port_offset, 1001, "gang port offset");
	is_str(args.freeze, "auto", "freeze auto");
	is_str(args.munge_socket, "", "munge's default socket");
	for (int m = 0; m < COSCHED_MODE_COUNT; m++)
		ok(cosched_args_allows(&args, (enum cosched_mode)m),
		   "mode %s allowed by default", cosched_mode_name((enum cosched_mode)m));
	ok(!cosched_args_allows(&args, COSCHED_MODE_COUNT), "out of range refused");
}

static void test_values(void)
{
	char *argv[] = { "agent=/opt/c/sbin/coschedd", "shim=/opt/c/lib/s.so",
			 "run_dir=/var/run/cs", "allowed_modes=pb,SB,dcs-sy",
			 "default_mode=pb", "default_pb=e'", "tick_us=2000",
			 "min_tick_us=500", "max_tick_us=5000",
			 "max_spin_us=300", "boost=nice", "idle_exit=0",
			 "allow_user=slurm", NULL };

	is_int(cosched_args_parse(13, argv, &args, err, sizeof(err)), 0,
	       "every key accepted");
	is_int(args.given, 13, "all counted");
	is_str(args.agent, "/opt/c/sbin/coschedd", "agent");
	is_str(args.shim, "/opt/c/lib/s.so", "shim");
	is_str(args.run_dir, "/var/run/cs", "run_dir");
	ok(cosched_args_allows(&args, COSCHED_MODE_PB), "pb allowed");
	ok(cosched_args_allows(&args, COSCHED_MODE_SB), "sb allowed (any case)");
	ok(cosched_args_allows(&args, COSCHED_MODE_DCS_SY), "dcs-sy allowed");
	ok(cosched_args_allows(&args, COSCHED_MODE_NONE), "none always allowed");
	ok(!cosched_args_allows(&args, COSCHED_MODE_ECM), "ecm not allowed");
	is_int(args.default_mode, COSCHED_MODE_PB, "default mode pb");
	is_int(args.default_pb.heuristic, COSCHED_PB_E, "default heuristic E");
	ok(args.default_pb.fair, "fair-share variant");
	is_int(args.tick_us, 2000, "tick");
	is_int(args.min_tick_us, 500, "min tick");
	is_int(args.max_tick_us, 5000, "max tick");
	is_int(args.max_spin_us, 300, "max spin");
	is_str(args.boost, "nice", "boost");
	is_int(args.idle_exit, 0, "idle exit");
	is_str(args.allow_user, "slurm", "allow_user");
}

static void test_membus_values(void)
{
	char *argv[] = { "membus_quantum_ms=250", "membus_window=8",
			 "membus_mem=12.5G", "membus_net=1.25G",
			 "membus_port_offset=64511", "freeze=signal",
			 "munge_socket=/run/munge/munge.socket.2", NULL };

	is_int(cosched_args_parse(7, argv, &args, err, sizeof(err)), 0,
	       "every membus key accepted (%s)", err);
	is_int(args.given, 7, "all counted");
	is_int(args.membus_quantum_ms, 250, "quantum");
	is_int(args.membus_window, 8, "window");
	is_double(args.membus_mem, 12.5e9, 0, "memory capacity 12.5G");
	is_double(args.membus_net, 1.25e9, 0, "network capacity 1.25G");
	is_int(args.membus_port_offset, 64511, "largest port offset");
	is_str(args.freeze, "signal", "freeze signal");
	is_str(args.munge_socket, "/run/munge/munge.socket.2", "munge socket");

	ok(!parse1("freeze=cgroup") && !strcmp(args.freeze, "cgroup"),
	   "freeze cgroup");
	ok(!parse1("boost=rt") && !strcmp(args.boost, "rt") &&
	   !parse1("boost=cgroup2") && !strcmp(args.boost, "cgroup2"),
	   "boost rt and cgroup2 (every name coschedd --boost takes)");
	ok(!parse1("membus_quantum_ms=50") && args.membus_quantum_ms == 50,
	   "shortest quantum");
	ok(!parse1("membus_quantum_ms=60000") &&
	   args.membus_quantum_ms == 60000, "longest quantum");
	ok(!parse1("membus_window=64") && args.membus_window == 64,
	   "longest window");
	ok(!parse1("membus_mem=0") && args.membus_mem == 0,
	   "membus_mem=0: measured");
	ok(!parse1("membus_net=1000T") && args.membus_net == 1e15,
	   "largest capacity");
	ok(!parse1("membus_mem=2.6") && args.membus_mem == 3,
	   "rounded to whole bytes");
}

static void test_rejections(void)
{
	char long_arg[100];
	char *two[] = { "allowed_modes=sb", "default_mode=pb", NULL };
	char *ticks[] = { "tick_us=50", NULL };

	rejects_with("foo=bar", "plugstack.conf: unknown argument 'foo=bar'" KNOWN);
	rejects_with("verbose",
		     "plugstack.conf: bad argument 'verbose': expected KEY=VALUE" KNOWN);
	rejects_with("=x", "plugstack.conf: bad argument '=x': expected KEY=VALUE" KNOWN);
	rejects_with("", "plugstack.conf: bad argument '': expected KEY=VALUE" KNOWN);
	rejects_with("agent=coschedd",
		     "plugstack.conf: agent='coschedd': expected an absolute path shorter than 1024 bytes");
	rejects_with("tick_us=1ms",
		     "plugstack.conf: tick_us='1ms': expected a whole number from 10 to 10000000");
	rejects_with("max_spin_us=-1",
		     "plugstack.conf: max_spin_us='-1': expected a whole number from 1 to 1000000");
	rejects_with("boost=fifo",
		     "plugstack.conf: boost='fifo': expected auto, cgroup, cgroup2, nice or rt");
	rejects_mentioning("default_mode=fast", "default_mode");
	rejects_mentioning("allowed_modes=pb,,sb", "'' is not a mode");
	rejects_mentioning("allowed_modes=pb,turbo", "'turbo' is not a mode");
	rejects_mentioning("default_pb=F", "default_pb");
	rejects_mentioning("allow_user=a b", "expected a user name");
	rejects_mentioning("idle_exit=", "idle_exit");
	rejects_with("membus_quantum_ms=49",
		     "plugstack.conf: membus_quantum_ms='49': expected a whole number from 50 to 60000");
	rejects_mentioning("membus_quantum_ms=60001", "from 50 to 60000");
	rejects_mentioning("membus_quantum_ms=0.5s", "membus_quantum_ms='0.5s'");
	rejects_with("membus_window=0",
		     "plugstack.conf: membus_window='0': expected a whole number from 1 to 64");
	rejects_mentioning("membus_window=65", "from 1 to 64");
	rejects_with("membus_mem=fast",
		     "plugstack.conf: membus_mem='fast': expected bytes per second, a number with an optional k, M, G or T suffix, at most 1000T (0: found by the agent)");
	rejects_mentioning("membus_mem=-1G", "membus_mem='-1G'");
	rejects_mentioning("membus_net=10Gb", "membus_net='10Gb'");
	rejects_mentioning("membus_net=1001T", "at most 1000T");
	rejects_mentioning("membus_net=", "membus_net=''");
	rejects_with("membus_port_offset=0",
		     "plugstack.conf: membus_port_offset='0': expected a whole number from 1 to 64511");
	rejects_mentioning("membus_port_offset=64512", "from 1 to 64511");
	ok(!parse1("gang_rows=yes") && args.gang_rows, "gang rows on");
	ok(!parse1("gang_port_offset=7") && args.gang_port_offset == 7,
	   "a gang port offset");
	rejects_with("gang_rows=1",
		     "plugstack.conf: gang_rows='1': expected yes or no");
	rejects_with("gang_port_offset=1000",
		     "plugstack.conf: gang_port_offset=1000 is membus_port_offset too: each needs a port of its own");
	rejects_mentioning("gang_port_offset=0", "gang_port_offset='0': expected a whole number from 1 to 64511");
	rejects_with("freeze=stop",
		     "plugstack.conf: freeze='stop': expected auto, cgroup or signal");
	rejects_mentioning("freeze=", "freeze=''");
	rejects_mentioning("freeze=Signal", "expected auto, cgroup or signal");
	rejects_with("munge_socket=munge.socket.2",
		     "plugstack.conf: munge_socket='munge.socket.2': expected an absolute path shorter than 1024 bytes");
	rejects_mentioning("munge_socket=", "munge_socket=''");
	rejects_mentioning("membus_quantum=500", "unknown argument 'membus_quantum=500'");

	is_int(cosched_args_parse(2, two, &args, err, sizeof(err)), -1,
	       "a default mode outside allowed_modes is refused");
	is_str(err, "plugstack.conf: default_mode=pb is not in allowed_modes",
	       "and said so");
	is_int(cosched_args_parse(1, ticks, &args, err, sizeof(err)), -1,
	       "tick below min_tick_us is refused");
	ok(strstr(err, "min_tick_us <= tick_us <= max_tick_us") != NULL,
	   "with the rule (%s)", err);

	memset(long_arg, 'k', sizeof(long_arg) - 1);
	long_arg[sizeof(long_arg) - 1] = '\0';
	is_int(parse1(long_arg), -1, "a long argument is rejected");
	ok(strstr(err, "kkk...'") != NULL, "and quoted abridged");
	ok(strlen(err) < sizeof(err) - 1 && strstr(err, KNOWN),
	   "with every key listed, untruncated");
}

/* A key given twice was taken silently, the last one winning. */
static void test_twice(void)
{
	char *modes[] = { "allowed_modes=pb", "tick_us=500",
			  "allowed_modes=all", NULL };
	char *agents[] = { "agent=/a/coschedd", "agent=/b/coschedd", NULL };
	char *same[] = { "idle_exit=60", "idle_exit=60", NULL };

	is_int(cosched_args_parse(3, modes, &args, err, sizeof(err)), -1,
	       "allowed_modes twice is refused");
	is_str(err, "plugstack.conf: allowed_modes= given twice (each argument at most once)",
	       "naming the key");
	is_int(cosched_args_parse(2, agents, &args, err, sizeof(err)), -1,
	       "agent twice is refused");
	is_str(err, "plugstack.conf: agent= given twice (each argument at most once)",
	       "naming the key");
	is_int(cosched_args_parse(2, same, &args, err, sizeof(err)), -1,
	       "even with the same value");
	rejects_mentioning("tick_us=0x3e8", "tick_us='0x3e8'");
	rejects_mentioning("membus_mem=0x10G", "membus_mem='0x10G'");
	rejects_mentioning("membus_net=+1G", "membus_net='+1G'");
}

static void test_untouched(void)
{
	char *argv[] = { "foo=1", NULL };

	args.given = 7;
	is_int(cosched_args_parse(1, argv, &args, err, sizeof(err)), -1,
	       "a bad argument fails the parse");
	is_int(args.given, 7, "args untouched on failure");
	is_int(cosched_args_parse(-1, NULL, &args, NULL, 0), -1,
	       "a negative count fails");
	is_int(cosched_args_parse(1, NULL, &args, NULL, 0), -1,
	       "a missing vector fails");
}

/* energy=: what t and R of ECM/EDM are, the agent's default unless set. */
static void test_energy(void)
{
	char *twice[] = { "energy=tick", "energy=paper", NULL };

	is_int(cosched_args_parse(0, NULL, &args, err, sizeof(err)), 0,
	       "no arguments");
	is_str(cosched_energy_variant_name(args.energy), "paper",
	       "energy: the paper's t and R by default");
	ok(!parse1("energy=tick") && args.energy == COSCHED_ENERGY_TICK,
	   "energy=tick");
	ok(!parse1("energy=paper") && args.energy == COSCHED_ENERGY_PAPER,
	   "energy=paper");
	rejects_with("energy=rate",
		     "plugstack.conf: energy='rate': expected paper or tick");
	rejects_with("energy=Tick",
		     "plugstack.conf: energy='Tick': expected paper or tick");
	rejects_with("energy=", "plugstack.conf: energy='': expected paper or tick");
	is_int(cosched_args_parse(2, twice, &args, err, sizeof(err)), -1,
	       "energy twice is refused");
	is_str(err, "plugstack.conf: energy= given twice (each argument at most once)",
	       "and said so");
}

int main(void)
{
	test_defaults();
	test_values();
	test_membus_values();
	test_rejections();
	test_energy();
	test_twice();
	test_untouched();
	return done_testing();
}
