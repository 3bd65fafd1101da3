/*
 * args.c - the arguments of the cosched plugin on its plugstack.conf line
 * (see args.h).
 *
 * Strict on purpose: a misspelt key would otherwise silently leave a
 * site's policy (say allowed_modes=) unapplied on some nodes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cosched_proto/args.h"
#include "cosched_proto/boost_names.h"
#include "cosched_proto/client.h"
#include "cosched_proto/settings.h"
#include "num/num.h"
#include "num/errbuf.h"
#include "cosched/mode.h"

/* Arguments are quoted in messages cut to this length (with "..."). */
#define QUOTE_ARG_MAX 48

#ifndef COSCHED_AGENT_DEFAULT
#define COSCHED_AGENT_DEFAULT "/usr/local/sbin/coschedd"
#endif
#ifndef COSCHED_SHIM_DEFAULT
#define COSCHED_SHIM_DEFAULT "/usr/local/lib/coalloc/libcosched_mpi.so"
#endif

typedef int (*arg_setter)(struct cosched_args *args, const char *key,
			  const char *value, char *err, size_t err_len);

struct arg_key {
	const char *name;
	arg_setter set;
	size_t offset;		/* of the field set (for the generic setters) */
	size_t size;		/* of a string field */
	enum cosched_setting_id setting;	/* of a number's default, limits */
};

/* The shared setting id's default (lib/cosched_proto/settings.c). */
static uint64_t _dflt(enum cosched_setting_id id)
{
	return cosched_setting(id)->dflt;
}

/* The agent's own default variant (lib/cosched/energy.c). */
static enum cosched_energy_variant _energy_default(void)
{
	struct cosched_energy_params energy;

	cosched_energy_defaults(&energy);
	return energy.variant;
}

void cosched_args_defaults(struct cosched_args *args)
{
	memset(args, 0, sizeof(*args));
	snprintf(args->agent, sizeof(args->agent), "%s", COSCHED_AGENT_DEFAULT);
	snprintf(args->shim, sizeof(args->shim), "%s", COSCHED_SHIM_DEFAULT);
	snprintf(args->run_dir, sizeof(args->run_dir), "%s",
		 COSCHED_RUN_DIR_DEFAULT);
	args->default_mode = COSCHED_MODE_NONE;
	args->allowed_modes = (1u << COSCHED_MODE_COUNT) - 1;
	args->default_pb.heuristic = COSCHED_PB_D;
	args->default_pb.fair = false;
	args->tick_us = (uint32_t)_dflt(COSCHED_SET_TICK_US);
	args->min_tick_us = (uint32_t)_dflt(COSCHED_SET_MIN_TICK_US);
	args->max_tick_us = (uint32_t)_dflt(COSCHED_SET_MAX_TICK_US);
	args->max_spin_us = (uint32_t)_dflt(COSCHED_SET_MAX_SPIN_US);
	snprintf(args->boost, sizeof(args->boost), "auto");
	args->idle_exit = (uint32_t)_dflt(COSCHED_SET_IDLE_EXIT);
	args->membus_quantum_ms = (uint32_t)_dflt(COSCHED_SET_MEMBUS_QUANTUM_MS);
	args->membus_window = (uint32_t)_dflt(COSCHED_SET_MEMBUS_WINDOW);
	args->membus_mem = (double)_dflt(COSCHED_SET_MEMBUS_MEM);
	args->membus_net = (double)_dflt(COSCHED_SET_MEMBUS_NET);
	args->membus_port_offset =
		(uint32_t)_dflt(COSCHED_SET_MEMBUS_PORT_OFFSET);
	args->gang_port_offset = (uint32_t)_dflt(COSCHED_SET_GANG_PORT_OFFSET);
	snprintf(args->freeze, sizeof(args->freeze), "auto");
	args->munge_socket[0] = '\0';	/* munge's default socket */
	args->energy = _energy_default();
}

static const struct arg_key *_key(const char *name);

static int _set_path(struct cosched_args *args, const char *key,
		     const char *value, char *err, size_t err_len)
{
	const struct arg_key *k = _key(key);
	char *field = (char *)args + k->offset;

	if (value[0] != '/' || strlen(value) >= k->size) {
		errbuf_set(err, err_len,
				"plugstack.conf: %s='%.*s': expected an absolute path shorter than %zu bytes",
				key, QUOTE_ARG_MAX, value, k->size);
		return -1;
	}
	memcpy(field, value, strlen(value) + 1);
	return 0;
}

static int _set_u32(struct cosched_args *args, const char *key,
		    const char *value, char *err, size_t err_len)
{
	const struct arg_key *k = _key(key);
	const struct cosched_setting *s = cosched_setting(k->setting);
	uint64_t v;

	if (!num_parse_range(value, s->lo, s->hi, &v)) {
		*(uint32_t *)((char *)args + k->offset) = (uint32_t)v;
		return 0;
	}
	errbuf_set(err, err_len,
			"plugstack.conf: %s='%.*s': expected a whole number from %llu to %llu",
			key, QUOTE_ARG_MAX, value, (unsigned long long)s->lo,
			(unsigned long long)s->hi);
	return -1;
}

/* A capacity in bytes per second (0: the agent finds it), whole. */
static int _set_rate(struct cosched_args *args, const char *key,
		     const char *value, char *err, size_t err_len)
{
	const struct arg_key *k = _key(key);
	double v;

	if (!num_parse_rate(value, &v) &&
	    v <= (double)cosched_setting(k->setting)->hi) {
		/* whole bytes: the agent gets it as an integer (<= 1e15) */
		*(double *)((char *)args + k->offset) = (double)(uint64_t)(v + 0.5);
		return 0;
	}
	errbuf_set(err, err_len,
			"plugstack.conf: %s='%.*s': expected bytes per second, a number with an optional k, M, G or T suffix, at most 1000T (0: found by the agent)",
			key, QUOTE_ARG_MAX, value);
	return -1;
}

static int _set_mode(struct cosched_args *args, const char *key,
		     const char *value, char *err, size_t err_len)
{
	char why[ERRBUF_LEN];

	if (cosched_parse_mode(value, &args->default_mode, why, sizeof(why))) {
		errbuf_set(err, err_len, "plugstack.conf: %s: %s", key, why);
		return -1;
	}
	return 0;
}

static int _set_allowed(struct cosched_args *args, const char *key,
			const char *value, char *err, size_t err_len)
{
	char why[ERRBUF_LEN], word[32];
	const char *p = value;
	uint32_t set = 0;

	if (!strcasecmp(value, "all")) {
		args->allowed_modes = (1u << COSCHED_MODE_COUNT) - 1;
		return 0;
	}
	do {
		size_t len = strcspn(p, ",");
		enum cosched_mode mode;

		snprintf(word, sizeof(word), "%.*s", (int)len, p);
		if (!len || len >= sizeof(word) ||
		    cosched_parse_mode(word, &mode, why, sizeof(why))) {
			errbuf_set(err, err_len,
					"plugstack.conf: %s='%.*s': '%s' is not a mode (modes: %s, or all)",
					key, QUOTE_ARG_MAX, value, word,
					cosched_mode_names());
			return -1;
		}
		set |= 1u << mode;
		p += len;
	} while (*p++ == ',');
	/* none is always allowed: it asks for nothing */
	args->allowed_modes = set | (1u << COSCHED_MODE_NONE);
	return 0;
}

static int _set_pb(struct cosched_args *args, const char *key,
		   const char *value, char *err, size_t err_len)
{
	char why[ERRBUF_LEN];

	if (cosched_pb_parse(value, &args->default_pb, why, sizeof(why))) {
		errbuf_set(err, err_len, "plugstack.conf: %s: %s", key, why);
		return -1;
	}
	return 0;
}

static int _set_boost(struct cosched_args *args, const char *key,
		      const char *value, char *err, size_t err_len)
{
	if (cosched_boost_index(value) < 0) {
		errbuf_set(err, err_len,
				"plugstack.conf: %s='%.*s': expected "
				COSCHED_BOOST_EXPECTED,
				key, QUOTE_ARG_MAX, value);
		return -1;
	}
	snprintf(args->boost, sizeof(args->boost), "%s", value);
	return 0;
}

static int _set_freeze(struct cosched_args *args, const char *key,
		       const char *value, char *err, size_t err_len)
{
	if (strcmp(value, "auto") && strcmp(value, "cgroup") &&
	    strcmp(value, "signal")) {
		errbuf_set(err, err_len,
				"plugstack.conf: %s='%.*s': expected auto, cgroup or signal",
				key, QUOTE_ARG_MAX, value);
		return -1;
	}
	snprintf(args->freeze, sizeof(args->freeze), "%s", value);
	return 0;
}

static int _set_gang_rows(struct cosched_args *args, const char *key,
			  const char *value, char *err, size_t err_len)
{
	if (strcmp(value, "yes") && strcmp(value, "no")) {
		errbuf_set(err, err_len,
				"plugstack.conf: %s='%.*s': expected yes or no",
				key, QUOTE_ARG_MAX, value);
		return -1;
	}
	args->gang_rows = !strcmp(value, "yes");
	return 0;
}

static int _set_energy(struct cosched_args *args, const char *key,
		       const char *value, char *err, size_t err_len)
{
	char why[ERRBUF_LEN];

	if (cosched_energy_variant_parse(value, &args->energy, why,
					 sizeof(why))) {
		errbuf_set(err, err_len, "plugstack.conf: %s='%.*s': %s",
			   key, QUOTE_ARG_MAX, value, why);
		return -1;
	}
	return 0;
}

static int _set_user(struct cosched_args *args, const char *key,
		     const char *value, char *err, size_t err_len)
{
	size_t len = strlen(value);

	if (!len || len >= sizeof(args->allow_user) ||
	    strspn(value, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != len) {
		errbuf_set(err, err_len,
				"plugstack.conf: %s='%.*s': expected a user name",
				key, QUOTE_ARG_MAX, value);
		return -1;
	}
	memcpy(args->allow_user, value, len + 1);
	return 0;
}

#define PATH_KEY(n) { #n, _set_path, offsetof(struct cosched_args, n), \
		      sizeof(((struct cosched_args *)0)->n), 0 }
#define U32_KEY(n, id) { #n, _set_u32, offsetof(struct cosched_args, n), 0, id }
#define RATE_KEY(n, id) { #n, _set_rate, offsetof(struct cosched_args, n), 0, id }

static const struct arg_key arg_keys[] = {
	PATH_KEY(agent),
	PATH_KEY(shim),
	PATH_KEY(run_dir),
	{ "default_mode", _set_mode, 0, 0, 0 },
	{ "allowed_modes", _set_allowed, 0, 0, 0 },
	{ "default_pb", _set_pb, 0, 0, 0 },
	U32_KEY(tick_us, COSCHED_SET_TICK_US),
	U32_KEY(min_tick_us, COSCHED_SET_MIN_TICK_US),
	U32_KEY(max_tick_us, COSCHED_SET_MAX_TICK_US),
	U32_KEY(max_spin_us, COSCHED_SET_MAX_SPIN_US),
	{ "boost", _set_boost, 0, 0, 0 },
	U32_KEY(idle_exit, COSCHED_SET_IDLE_EXIT),
	{ "allow_user", _set_user, 0, 0, 0 },
	U32_KEY(membus_quantum_ms, COSCHED_SET_MEMBUS_QUANTUM_MS),
	U32_KEY(membus_window, COSCHED_SET_MEMBUS_WINDOW),
	RATE_KEY(membus_mem, COSCHED_SET_MEMBUS_MEM),
	RATE_KEY(membus_net, COSCHED_SET_MEMBUS_NET),
	U32_KEY(membus_port_offset, COSCHED_SET_MEMBUS_PORT_OFFSET),
	{ "gang_rows", _set_gang_rows, 0, 0, 0 },
	U32_KEY(gang_port_offset, COSCHED_SET_GANG_PORT_OFFSET),
	{ "freeze", _set_freeze, 0, 0, 0 },
	PATH_KEY(munge_socket),
	{ "energy", _set_energy, 0, 0, 0 },
	{ NULL, NULL, 0, 0, 0 },
};
_Static_assert(sizeof(arg_keys) / sizeof(arg_keys[0]) <= 33,
	       "a bit per key in _parse_one's seen");

/* The key named name (NUL-terminated), or NULL. */
static const struct arg_key *_key(const char *name)
{
	for (size_t i = 0; arg_keys[i].name; i++) {
		if (!strcmp(arg_keys[i].name, name))
			return &arg_keys[i];
	}
	return NULL;
}

/* "; known keys: a, b" for messages. */
static void _known_keys(char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "; known keys:");

	for (size_t i = 0; arg_keys[i].name && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s %s",
					 i ? "," : "", arg_keys[i].name);
}

/*
 * One KEY=VALUE into args; seen has a bit per key already given, since a
 * second one would silently override the first (two lines merged, a
 * site's policy set twice differently).
 */
static int _parse_one(const char *arg, struct cosched_args *args,
		      uint32_t *seen, char *err, size_t err_len)
{
	const char *eq = strchr(arg, '=');
	int len = (int)strnlen(arg, QUOTE_ARG_MAX + 1);
	const char *more = len > QUOTE_ARG_MAX ? "..." : "";
	const struct arg_key *key = NULL;
	char known[COSCHED_ARGS_ERR_LEN], name[32];

	if (len > QUOTE_ARG_MAX)
		len = QUOTE_ARG_MAX - 3;
	_known_keys(known, sizeof(known));
	if (!eq || eq == arg) {
		errbuf_set(err, err_len,
			 "plugstack.conf: bad argument '%.*s%s': expected KEY=VALUE%s",
			 len, arg, more, known);
		return -1;
	}
	if ((size_t)(eq - arg) < sizeof(name)) {
		snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
		key = _key(name);
	}
	if (!key) {
		errbuf_set(err, err_len,
			 "plugstack.conf: unknown argument '%.*s%s'%s",
			 len, arg, more, known);
		return -1;
	}
	if (*seen & (1u << (key - arg_keys))) {
		errbuf_set(err, err_len,
			 "plugstack.conf: %s= given twice (each argument at most once)",
			 key->name);
		return -1;
	}
	*seen |= 1u << (key - arg_keys);
	return key->set(args, key->name, eq + 1, err, err_len);
}

static int _check_limits(const struct cosched_args *args, char *err,
			 size_t err_len)
{
	if (args->min_tick_us > args->max_tick_us ||
	    args->tick_us < args->min_tick_us ||
	    args->tick_us > args->max_tick_us) {
		errbuf_set(err, err_len,
				"plugstack.conf: need min_tick_us <= tick_us <= max_tick_us (%u, %u, %u)",
				args->min_tick_us, args->tick_us,
				args->max_tick_us);
		return -1;
	}
	if (!cosched_args_allows(args, args->default_mode)) {
		errbuf_set(err, err_len,
				"plugstack.conf: default_mode=%s is not in allowed_modes",
				cosched_mode_name(args->default_mode));
		return -1;
	}
	if (args->gang_port_offset == args->membus_port_offset) {
		errbuf_set(err, err_len,
				"plugstack.conf: gang_port_offset=%u is membus_port_offset too: each needs a port of its own",
				args->gang_port_offset);
		return -1;
	}
	return 0;
}

int cosched_args_parse(int argc, char *const argv[], struct cosched_args *args,
		       char *err, size_t err_len)
{
	static struct cosched_args parsed;	/* large: not on the stack */
	uint32_t seen = 0;
	int rc = -1;

	if (argc < 0 || (argc > 0 && !argv)) {
		errbuf_set(err, err_len, "plugstack.conf: no argument vector");
		goto fail;
	}
	cosched_args_defaults(&parsed);
	for (int i = 0; i < argc; i++) {
		if (_parse_one(argv[i] ? argv[i] : "", &parsed, &seen, err,
			       err_len))
			goto fail;
		parsed.given++;
	}
	if (_check_limits(&parsed, err, err_len))
		goto fail;
	if (args)
		*args = parsed;
	rc = 0;
fail:
	return rc;
}

bool cosched_args_allows(const struct cosched_args *args,
			 enum cosched_mode mode)
{
	return (unsigned)mode < COSCHED_MODE_COUNT &&
	       (args->allowed_modes & (1u << mode));
}
