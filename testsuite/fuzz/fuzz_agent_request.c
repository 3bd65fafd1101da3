/*
 * fuzz_agent_request.c - the request lines of the node agent's UNIX
 * socket (agent/jobs.c, agent/peer.c): what root or the SlurmUser sends
 * to register or end a step and announce a membus step.
 *
 *   register job=J step=S uid=U pid=P rank=R mode=M [pb=H] [tick_us=N]
 *            [spin_ns=N] [bw_mem=N] [bw_net=N]
 *   end job=J step=S
 *   membus job=J step=S nnodes=K self=NAME@HOST:PORT coord=A@H:P,...
 *
 * The parsing is in static functions of jobs.c and peer.c, beside the
 * code that acts on the processes, so this harness includes those two
 * files and calls their parsing only: _parse_register (every field of a
 * register), agent_end on an agent without steps (parse, look up, "not
 * registered"), and for membus the same words agent_membus_request reads
 * with peer.c's NAME@HOST:PORT splitter (_split) on self and on every
 * coord item.  Not reached here: the lookup of HOST (getaddrinfo), the
 * UDP bind, and what a register does to a process (proc.c, boost.c),
 * nor server.c's reading of the line from the socket.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"

#include "../../agent/jobs.c"
#include "../../agent/peer.c"

static const char *const keys[] = {
	"job", "step", "uid", "pid", "rank", "mode", "pb", "tick_us",
	"spin_ns", "bw_mem", "bw_net", "nnodes", "self", "coord",
};

/* A word found is the text after " KEY=" up to a blank, and fits. */
static void _words(const char *line)
{
	char buf[32];

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		char needle[40];

		if (agent_request_word(line, keys[k], buf, sizeof(buf)))
			continue;
		FUZZ_CHECK(strlen(buf) < sizeof(buf) && !strchr(buf, ' '));
		snprintf(needle, sizeof(needle), " %s=%s", keys[k], buf);
		FUZZ_CHECK(strstr(line, needle));
	}
}

static void _register(const char *line)
{
	char why[AGENT_ERR_LEN];
	struct reg r;

	if (_parse_register(line, &r, why, sizeof(why))) {
		FUZZ_CHECK(fuzz_message_ok(why, sizeof(why)));
		return;
	}
	FUZZ_CHECK(r.job <= UINT32_MAX && r.step <= UINT32_MAX);
	FUZZ_CHECK(r.uid < UINT32_MAX && r.pid >= 2 && r.pid <= INT32_MAX);
	FUZZ_CHECK(r.rank <= INT32_MAX && r.tick_us <= 10000000);
	FUZZ_CHECK(cosched_mode_name(r.mode) != NULL);
	FUZZ_CHECK(strcmp(cosched_pb_name(&r.pb), "?"));
	FUZZ_CHECK(r.bw_mem >= -1 && r.bw_net >= -1);
}

static void _end(const char *line)
{
	struct agent a;
	char reply[512];

	memset(&a, 0, sizeof(a));
	if (agent_end(&a, line, reply, sizeof(reply)))
		FUZZ_CHECK(!strcmp(reply, "error: end needs job and step\n"));
	else
		FUZZ_CHECK(!strcmp(reply, "ok not registered\n"));
}

/* NAME@HOST:PORT split as peer_parse does before resolving HOST. */
static void _peer(const char *text)
{
	struct peer_addr p;
	char host[256], port[8];

	memset(&p, 0, sizeof(p));
	if (_split(text, &p, host, sizeof(host), port, sizeof(port)))
		return;
	FUZZ_CHECK(p.name[0] && strlen(p.name) < sizeof(p.name));
	FUZZ_CHECK(host[0] && port[0] && !strchr(p.name, '@'));
}

static void _membus(const char *line)
{
	char self[PEER_ADDR_TEXT_LEN], coord[1024], *save = NULL;

	if (!agent_request_word(line, "self", self, sizeof(self)))
		_peer(self);
	if (agent_request_word(line, "coord", coord, sizeof(coord)))
		return;
	for (char *tok = strtok_r(coord, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		_peer(tok);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = fuzz_text(data, size);

	/* server.c cuts the line at its first CR or LF */
	line[strcspn(line, "\r\n")] = '\0';
	_words(line);
	_register(line);
	_end(line);
	_membus(line);
	free(line);
	return 0;
}

/* The agent logs refusals: keep them out of the fuzzer's output. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return agent_log_open("/dev/null", "fuzz");
}
