/*
 * conf.c - coschedd's command-line options, with their defaults in one
 * place (_defaults; those the plugin shares, and their limits, in
 * lib/cosched_proto/settings.c) and strict parsing: a bad value stops the
 * agent at start-up with a message naming the option.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <getopt.h>
#include <math.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "host/cgroup.h"
#include "cosched_proto/boost_names.h"
#include "num/num.h"
#include "num/errbuf.h"

enum {
	OPT_NODE = 'N', OPT_RUN_DIR = 'd', OPT_HELP = 'h',
	OPT_TICK = 256, OPT_BOOST, OPT_IDLE, OPT_ALLOW, OPT_LOG,
	OPT_BOOST_LEVEL, OPT_DEMOTE_LEVEL, OPT_MAX_LEVEL,
	OPT_ALPHA, OPT_BETA, OPT_GAMMA, OPT_EPSILON, OPT_DETACH,
	OPT_MB_QUANTUM, OPT_MB_WINDOW, OPT_MB_MEM, OPT_MB_NET, OPT_CPUS,
	OPT_FREEZE, OPT_MUNGE, OPT_CGROUP2_ROOT,
	OPT_ENERGY, OPT_GANG_SELF,
};

static const struct option options[] = {
	{ "node", required_argument, NULL, OPT_NODE },
	{ "run-dir", required_argument, NULL, OPT_RUN_DIR },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "tick-us", required_argument, NULL, OPT_TICK },
	{ "boost", required_argument, NULL, OPT_BOOST },
	{ "idle-exit", required_argument, NULL, OPT_IDLE },
	{ "allow-user", required_argument, NULL, OPT_ALLOW },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "boost-level", required_argument, NULL, OPT_BOOST_LEVEL },
	{ "demote-level", required_argument, NULL, OPT_DEMOTE_LEVEL },
	{ "max-level", required_argument, NULL, OPT_MAX_LEVEL },
	{ "ecm-alpha", required_argument, NULL, OPT_ALPHA },
	{ "ecm-beta", required_argument, NULL, OPT_BETA },
	{ "edm-gamma", required_argument, NULL, OPT_GAMMA },
	{ "edm-epsilon", required_argument, NULL, OPT_EPSILON },
	{ "detach", no_argument, NULL, OPT_DETACH },
	{ "membus-quantum-ms", required_argument, NULL, OPT_MB_QUANTUM },
	{ "membus-window", required_argument, NULL, OPT_MB_WINDOW },
	{ "membus-mem", required_argument, NULL, OPT_MB_MEM },
	{ "membus-net", required_argument, NULL, OPT_MB_NET },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "freeze", required_argument, NULL, OPT_FREEZE },
	{ "munge-socket", required_argument, NULL, OPT_MUNGE },
	{ "cgroup2-root", required_argument, NULL, OPT_CGROUP2_ROOT },
	{ "energy", required_argument, NULL, OPT_ENERGY },
	{ "gang-self", required_argument, NULL, OPT_GANG_SELF },
	{ NULL, 0, NULL, 0 },
};

void agent_usage(FILE *to)
{
	fprintf(to,
		"usage: coschedd --node NAME --run-dir DIR\n"
		"                [--tick-us N] [--boost auto|cgroup|cgroup2|nice|rt]\n"
		"                [--idle-exit SECS] [--allow-user NAME] [--log FILE|-|syslog] [--detach]\n"
		"                [--boost-level N] [--demote-level N] [--max-level N]\n"
		"                [--ecm-alpha X] [--ecm-beta X] [--edm-gamma X] [--edm-epsilon X]\n"
		"                [--energy paper|tick]\n"
		"                [--membus-quantum-ms N] [--membus-window N] [--membus-mem RATE]\n"
		"                [--membus-net RATE] [--cpus N]\n"
		"                [--freeze auto|cgroup|cgroup2|signal]\n"
		"                [--munge-socket PATH] [--cgroup2-root DIR]\n"
		"                [--gang-self NAME@HOST:PORT]\n"
		"       coschedd --help | --version\n"
		"See coschedd(8).\n");
}

static void _defaults(struct agent_conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	conf->boost = BOOST_AUTO;
	conf->tick_us = (uint32_t)cosched_setting(COSCHED_SET_TICK_US)->dflt;
	/* started by hand or a service manager, it stays (the plugin passes
	 * its idle_exit) */
	conf->idle_exit = 0;
	conf->tick = cosched_tick_defaults();
	conf->membus_quantum_ms =
		(uint32_t)cosched_setting(COSCHED_SET_MEMBUS_QUANTUM_MS)->dflt;
	conf->membus_window =
		(uint32_t)cosched_setting(COSCHED_SET_MEMBUS_WINDOW)->dflt;
	conf->membus_mem = (double)cosched_setting(COSCHED_SET_MEMBUS_MEM)->dflt;
	conf->membus_net = (double)cosched_setting(COSCHED_SET_MEMBUS_NET)->dflt;
	conf->freeze = FREEZE_AUTO;
}


/* The message, then -1. */
#define _fail errbuf_fail

/* A node's bandwidth, within the setting id's limits. */
static int _rate(const char *opt, const char *text, enum cosched_setting_id id,
		 double *out, char *err, size_t len)
{
	double v;

	if (num_parse_rate(text, &v) || v > (double)cosched_setting(id)->hi)
		return _fail(err, len, "--%s '%s': expected bytes per second, e.g. 600M, at most 1000T",
			     opt, text);
	*out = v;
	return 0;
}

/* A whole number within the shared setting id's limits. */
static int _setting(const char *opt, const char *text,
		    enum cosched_setting_id id, uint32_t *out, char *err,
		    size_t len)
{
	const struct cosched_setting *s = cosched_setting(id);
	uint64_t v;

	if (num_parse_range(text, s->lo, s->hi, &v))
		return _fail(err, len, "--%s '%s': expected a whole number from %llu to %llu",
			     opt, text, (unsigned long long)s->lo,
			     (unsigned long long)s->hi);
	*out = (uint32_t)v;
	return 0;
}

static int _freeze_kind(const char *text, enum freeze_kind *kind)
{
	for (int k = FREEZE_AUTO; k <= FREEZE_CGROUP2; k++)
		if (!strcmp(text, freeze_kind_name((enum freeze_kind)k))) {
			*kind = (enum freeze_kind)k;
			return 0;
		}
	return -1;
}

static int _long(const char *opt, const char *text, long lo, long hi,
		 long *out, char *err, size_t len)
{
	int64_t v = 0;
	int rc = num_parse_signed(text, lo, hi, &v);

	*out = (long)v;
	if (rc)
		return _fail(err, len, "--%s '%s': expected a whole number from %ld to %ld",
			     opt, text, lo, hi);
	return 0;
}

static int _double(const char *opt, const char *text, double *out, char *err,
		   size_t len)
{
	double v;

	if (num_parse_double(text, &v) || v < 0)
		return _fail(err, len, "--%s '%s': expected a number >= 0",
			     opt, text);
	*out = v;
	return 0;
}

/* What t and R of the energy models are (lib/cosched/energy.h). */
static int _energy(const char *text, struct agent_conf *conf, char *err,
		   size_t len)
{
	char why[ERRBUF_LEN];

	if (cosched_energy_variant_parse(text, &conf->tick.energy.variant, why,
					 sizeof(why)))
		return _fail(err, len, "--energy '%s': %s", text, why);
	return 0;
}

static int _user(const char *text, struct agent_conf *conf, char *err,
		 size_t len)
{
	struct passwd *pw = getpwnam(text);

	if (!pw)
		return _fail(err, len, "--allow-user '%s': no such user", text);
	conf->allow_uid = pw->pw_uid;
	conf->allow_uid_set = true;
	return 0;
}

static int _option(int c, const char *arg, struct agent_conf *conf,
		   char *err, size_t len)
{
	const char *name = "";
	long v;

	for (const struct option *o = options; o->name; o++)
		if (o->val == c)
			name = o->name;
	switch (c) {
	case OPT_NODE:
		if (!cosched_node_name_ok(arg))
			return _fail(err, len, "--node '%s': not a node name", arg);
		snprintf(conf->node, sizeof(conf->node), "%s", arg);
		return 0;
	case OPT_RUN_DIR:
		if (arg[0] != '/' || strlen(arg) >= sizeof(conf->run_dir))
			return _fail(err, len, "--run-dir '%s': expected an absolute path", arg);
		snprintf(conf->run_dir, sizeof(conf->run_dir), "%s", arg);
		return 0;
	case OPT_LOG:
		snprintf(conf->log, sizeof(conf->log), "%s", arg);
		return 0;
	case OPT_TICK:
		return _setting(name, arg, COSCHED_SET_TICK_US, &conf->tick_us,
				err, len);
	case OPT_BOOST:
		if (boost_kind_parse(arg, &conf->boost))
			return _fail(err, len, "--boost '%s': expected " COSCHED_BOOST_EXPECTED, arg);
		return 0;
	case OPT_IDLE:
		return _setting(name, arg, COSCHED_SET_IDLE_EXIT, &conf->idle_exit,
				err, len);
	case OPT_ALLOW:
		return _user(arg, conf, err, len);
	case OPT_DETACH:
		conf->detach = true;
		return 0;
	case OPT_BOOST_LEVEL:
		if (_long(name, arg, 1, 39, &v, err, len))
			return -1;
		conf->tick.boost_level = (int)v;
		return 0;
	case OPT_DEMOTE_LEVEL:
		if (_long(name, arg, -39, -1, &v, err, len))
			return -1;
		conf->tick.demote_level = (int)v;
		return 0;
	case OPT_MAX_LEVEL:
		if (_long(name, arg, 1, 39, &v, err, len))
			return -1;
		conf->tick.max_level = (int)v;
		conf->tick.energy.max_priority = (double)v;
		return 0;
	case OPT_ALPHA:
		return _double(name, arg, &conf->tick.energy.alpha, err, len);
	case OPT_BETA:
		return _double(name, arg, &conf->tick.energy.beta, err, len);
	case OPT_GAMMA:
		return _double(name, arg, &conf->tick.energy.gamma, err, len);
	case OPT_EPSILON:
		return _double(name, arg, &conf->tick.energy.epsilon, err, len);
	case OPT_ENERGY:
		return _energy(arg, conf, err, len);
	case OPT_MB_QUANTUM:
		return _setting(name, arg, COSCHED_SET_MEMBUS_QUANTUM_MS,
				&conf->membus_quantum_ms, err, len);
	case OPT_MB_WINDOW:
		return _setting(name, arg, COSCHED_SET_MEMBUS_WINDOW,
				&conf->membus_window, err, len);
	case OPT_MB_MEM:
		return _rate(name, arg, COSCHED_SET_MEMBUS_MEM, &conf->membus_mem,
			     err, len);
	case OPT_MB_NET:
		return _rate(name, arg, COSCHED_SET_MEMBUS_NET, &conf->membus_net,
			     err, len);
	case OPT_CPUS:
		if (_long(name, arg, 1, 65536, &v, err, len))
			return -1;
		conf->cpus = (uint32_t)v;
		return 0;
	case OPT_FREEZE:
		if (_freeze_kind(arg, &conf->freeze))
			return _fail(err, len, "--freeze '%s': expected auto, cgroup, cgroup2 or signal", arg);
		return 0;
	case OPT_MUNGE:
		if (arg[0] != '/' || strlen(arg) >= sizeof(conf->munge_socket))
			return _fail(err, len, "--munge-socket '%s': expected an absolute path", arg);
		snprintf(conf->munge_socket, sizeof(conf->munge_socket), "%s", arg);
		return 0;
	case OPT_GANG_SELF:	/* resolved and bound at start (gang.c) */
		if (strlen(arg) >= sizeof(conf->gang_self) || !strchr(arg, '@') ||
		    !strchr(arg, ':') || strchr(arg, ' '))
			return _fail(err, len, "--gang-self '%s': expected NAME@HOST:PORT", arg);
		snprintf(conf->gang_self, sizeof(conf->gang_self), "%s", arg);
		return 0;
	case OPT_CGROUP2_ROOT:	/* the v2 hierarchy, where it is not found */
		if (cgv2_set_root(arg))
			return _fail(err, len, "--cgroup2-root '%s': expected an absolute path of a directory", arg);
		return 0;
	default:
		return _fail(err, len, "unknown option (see --help)");
	}
}

static int _derive_paths(struct agent_conf *conf, char *err, size_t len)
{
	if (!conf->node[0] || !conf->run_dir[0])
		return _fail(err, len, "--node and --run-dir are required");
	snprintf(conf->socket, sizeof(conf->socket), "%s/%s.sock",
		 conf->run_dir, conf->node);
	snprintf(conf->state, sizeof(conf->state), "%s/%s.state",
		 conf->run_dir, conf->node);
	snprintf(conf->lock, sizeof(conf->lock), "%s/%s.pid",
		 conf->run_dir, conf->node);
	return 0;
}

int agent_conf_parse(int argc, char **argv, struct agent_conf *conf,
		     char *err, size_t err_len)
{
	int c;

	_defaults(conf);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":N:d:h", options, NULL)) != -1) {
		if (c == OPT_HELP)
			return 1;
		if (c == '?' || c == ':')
			return _fail(err, err_len, "%s option '%s' (see --help)",
				     c == '?' ? "unknown" : "missing value for",
				     argv[optind - 1]);
		if (_option(c, optarg, conf, err, err_len))
			return -1;
	}
	if (optind < argc)
		return _fail(err, err_len, "unexpected argument '%s'", argv[optind]);
	return _derive_paths(conf, err, err_len);
}
