/*
 * coschedctl.c - talk to a node's coscheduling agent:
 *
 *   coschedctl [--node N] [--run-dir DIR] status [--json]
 *   coschedctl [--node N] [--run-dir DIR] ping
 *   coschedctl [--node N] [--run-dir DIR] request 'LINE'
 *   coschedctl settings [KEY]
 *
 * The node defaults to $SLURMD_NODENAME, then the short host name; the
 * run directory to $COSCHED_RUN_DIR, then /run/coschedd.  `request` sends
 * a raw protocol line (register, end: refused unless you are root or
 * SlurmUser); see coschedd(8).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cosched_proto/client.h"
#include "cosched_proto/settings.h"
#include "version/version.h"

#define REPLY_LEN (1 << 20)

static void _usage(FILE *to)
{
	fprintf(to,
		"usage: coschedctl [--node NAME] [--run-dir DIR] status [--json | --prometheus]\n"
		"       coschedctl [--node NAME] [--run-dir DIR] ping\n"
		"       coschedctl [--node NAME] [--run-dir DIR] request 'LINE'\n"
		"       coschedctl settings [KEY]\n"
		"       coschedctl --help | --version\n");
}

/*
 * 'settings [KEY]': the settings table (lib/cosched_proto/settings.c),
 * "KEY DEFAULT LOWEST HIGHEST UNIT" a line, for scripts (bench-membus)
 * that must not write a default or limit again.  No agent is asked.
 */
static int _settings(int argc, char **argv)
{
	int found = 0;

	if (argc > 1) {
		_usage(stderr);
		return 2;
	}
	for (int id = 0; id < COSCHED_SET_COUNT; id++) {
		const struct cosched_setting *s = cosched_setting(id);

		if (argc == 1 && strcmp(argv[0], s->key))
			continue;
		printf("%s %llu %llu %llu %s\n", s->key,
		       (unsigned long long)s->dflt, (unsigned long long)s->lo,
		       (unsigned long long)s->hi, s->unit);
		found++;
	}
	if (!found)
		fprintf(stderr, "coschedctl: no setting '%s'\n", argv[0]);
	return found ? 0 : 2;
}

static const char *_default_node(char *buf, size_t len)
{
	const char *env = getenv("SLURMD_NODENAME");

	if (env && *env)
		return env;
	if (gethostname(buf, len))
		return NULL;
	buf[len - 1] = '\0';
	buf[strcspn(buf, ".")] = '\0';
	return buf;
}

/* The request line for the command words, or NULL (usage). */
static const char *_request(int argc, char **argv, char *buf, size_t len)
{
	if (argc == 1 && !strcmp(argv[0], "ping"))
		return "ping";
	if (argc == 1 && !strcmp(argv[0], "status"))
		return "status";
	if (argc == 2 && !strcmp(argv[0], "status") && !strcmp(argv[1], "--json"))
		return "status json";
	if (argc == 2 && !strcmp(argv[0], "status") &&
	    !strcmp(argv[1], "--prometheus"))
		return "status prometheus";
	if (argc == 2 && !strcmp(argv[0], "request")) {
		snprintf(buf, len, "%s", argv[1]);
		return buf;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "node", required_argument, NULL, 'N' },
		{ "run-dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *node = NULL, *run_dir = getenv("COSCHED_RUN_DIR");
	char host[256], path[1024], line[COSCHED_REQUEST_LEN];
	const char *request;
	char *reply;
	int c, rc = 1;

	if (coalloc_version_wanted(argc, argv))
		return coalloc_version_print("coschedctl");

	while ((c = getopt_long(argc, argv, "+N:d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'N': node = optarg; break;
		case 'd': run_dir = optarg; break;
		case 'h': _usage(stdout); return 0;
		default: _usage(stderr); return 2;
		}
	}
	if (optind < argc && !strcmp(argv[optind], "settings"))
		return _settings(argc - optind - 1, argv + optind + 1);
	request = _request(argc - optind, argv + optind, line, sizeof(line));
	if (!request) {
		_usage(stderr);
		return 2;
	}
	if (!node)
		node = _default_node(host, sizeof(host));
	if (!run_dir || !*run_dir)
		run_dir = COSCHED_RUN_DIR_DEFAULT;
	if (!node || !cosched_node_name_ok(node) ||
	    cosched_socket_path(run_dir, node, path, sizeof(path))) {
		fprintf(stderr, "coschedctl: bad node name or run directory\n");
		return 2;
	}
	reply = malloc(REPLY_LEN);
	if (!reply)
		return 1;
	if (cosched_agent_request(path, request, reply, REPLY_LEN, 5000)) {
		fprintf(stderr, "coschedctl: no agent for node %s at %s: %s\n",
			node, path, strerror(errno));
		rc = 3;
		goto out;
	}
	fputs(reply, stdout);
	rc = strncmp(reply, "error", 5) ? 0 : 1;
out:
	free(reply);
	return rc;
}
