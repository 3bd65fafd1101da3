/*
 * args.c - the arguments of the cosched plugin on its plugstack.conf line
 * (see args.h).
 *
 * Strict on purpose: a misspelt key would otherwise silently leave a
 * site's policy (e.g. a later allowed_modes=) unapplied on some nodes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "cosched_opts/cosched_opts.h"

/* Arguments are quoted in messages cut to this length (with "..."). */
#define QUOTE_ARG_MAX 48

struct arg_key {
	const char *name;
	/* Apply VALUE; on error write a message naming it and return -1. */
	int (*set)(struct cosched_args *args, const char *value, char *err,
		   size_t err_len);
};

/* The keys the plugin understands; none yet, the table ends with NULL. */
static const struct arg_key arg_keys[] = {
	{ NULL, NULL },
};


/* "; known keys: a, b" or a note that there are none, for messages. */
static void _known_keys(char *buf, size_t len)
{
	size_t used;

	if (!arg_keys[0].name) {
		snprintf(buf, len, "; cosched takes no arguments yet");
		return;
	}
	used = (size_t)snprintf(buf, len, "; known keys:");
	for (size_t i = 0; arg_keys[i].name && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s %s",
					 i ? "," : "", arg_keys[i].name);
}

static const struct arg_key *_find_key(const char *arg, size_t key_len)
{
	for (size_t i = 0; arg_keys[i].name; i++) {
		if (strlen(arg_keys[i].name) == key_len &&
		    !strncmp(arg_keys[i].name, arg, key_len))
			return &arg_keys[i];
	}
	return NULL;
}

static int _parse_one(const char *arg, struct cosched_args *args, char *err,
		      size_t err_len)
{
	const char *eq = strchr(arg, '=');
	int len = (int)strnlen(arg, QUOTE_ARG_MAX + 1);
	const char *more = len > QUOTE_ARG_MAX ? "..." : "";
	const struct arg_key *key;
	char known[128];

	if (len > QUOTE_ARG_MAX)
		len = QUOTE_ARG_MAX - 3;
	_known_keys(known, sizeof(known));
	if (!eq || eq == arg) {
		cosched_set_err(err, err_len,
			 "plugstack.conf: bad argument '%.*s%s': expected KEY=VALUE%s",
			 len, arg, more, known);
		return -1;
	}
	key = _find_key(arg, (size_t)(eq - arg));
	if (!key) {
		cosched_set_err(err, err_len,
			 "plugstack.conf: unknown argument '%.*s%s'%s",
			 len, arg, more, known);
		return -1;
	}
	return key->set(args, eq + 1, err, err_len);
}

int cosched_args_parse(int argc, char *const argv[], struct cosched_args *args,
		       char *err, size_t err_len)
{
	struct cosched_args parsed = { 0 };
	int rc = -1;

	if (argc < 0 || (argc > 0 && !argv)) {
		cosched_set_err(err, err_len, "plugstack.conf: no argument vector");
		goto fail;
	}
	for (int i = 0; i < argc; i++) {
		if (_parse_one(argv[i] ? argv[i] : "", &parsed, err, err_len))
			goto fail;
		parsed.given++;
	}
	if (args)
		*args = parsed;
	rc = 0;
fail:
	return rc;
}
