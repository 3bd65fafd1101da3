/*
 * fuzz_agent_request.c - the request lines of the node agent's UNIX
 * socket: what root or the SlurmUser sends to register or end a step and
 * announce a membus step.
 *
 *   register job=J step=S uid=U pid=P rank=R mode=M [pb=H] [tick_us=N]
 *            [spin_ns=N] [bw_mem=N] [bw_net=N]
 *   end job=J step=S
 *   membus job=J step=S nnodes=K self=NAME@HOST:PORT coord=A@H:P,...
 *
 * The parsers are lib/cosched_proto's, the ones the agent calls: every
 * word found is the one in the line; whatever a parser accepts is within
 * its limits and formats back into a line that parses to the same
 * fields; agent_end on an agent without steps answers "not registered"
 * or says what is wrong.  For membus, peer.c's NAME@HOST:PORT splitter
 * (_split, static, so peer.c is included) runs on self and on every
 * coord item.  Not reached here: the lookup of HOST (getaddrinfo), the
 * UDP bind, and what a register does to a process (proc.c, boost.c),
 * nor server.c's reading of the line from the socket.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"

#include "../../agent/agent.h"
#include "../../lib/cosched_proto/peer.c"
#include "fuzz_peer_split.h"
#include "num/errbuf.h"
#include "cosched/mode.h"

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

		if (cosched_request_word(line, keys[k], buf, sizeof(buf)))
			continue;
		FUZZ_CHECK(strlen(buf) < sizeof(buf) && !strchr(buf, ' '));
		snprintf(needle, sizeof(needle), " %s=%s", keys[k], buf);
		FUZZ_CHECK(strstr(line, needle));
	}
}

static void _register(const char *line)
{
	const struct cosched_setting *tick = cosched_setting(COSCHED_SET_TICK_US);
	char why[ERRBUF_LEN], again[COSCHED_REQUEST_LEN + 1];
	struct cosched_register r, back;

	if (cosched_register_parse(line, &r, why, sizeof(why))) {
		FUZZ_CHECK(fuzz_message_ok(why, sizeof(why)));
		return;
	}
	FUZZ_CHECK(r.uid < UINT32_MAX && r.pid >= 2 && r.rank <= INT32_MAX);
	FUZZ_CHECK(!r.tick_us || (r.tick_us >= tick->lo && r.tick_us <= tick->hi));
	FUZZ_CHECK(cosched_mode_name(r.mode) != NULL);
	FUZZ_CHECK(strcmp(cosched_pb_name(&r.pb), "?"));
	FUZZ_CHECK(!r.bw.mem_set || (r.bw.mem >= 0 && r.bw.mem <= COSCHED_BW_MAX));
	FUZZ_CHECK(!r.bw.net_set || (r.bw.net >= 0 && r.bw.net <= COSCHED_BW_MAX));
	/* what was accepted formats back to the same fields */
	FUZZ_CHECK(!cosched_register_format(&r, again, sizeof(again)));
	FUZZ_CHECK(!cosched_register_parse(again, &back, why, sizeof(why)));
	FUZZ_CHECK(back.job == r.job && back.step == r.step &&
		   back.uid == r.uid && back.pid == r.pid &&
		   back.rank == r.rank && back.mode == r.mode &&
		   back.pb.heuristic == r.pb.heuristic &&
		   back.pb.fair == r.pb.fair && back.tick_us == r.tick_us &&
		   back.spin_ns == r.spin_ns &&
		   back.bw.mem_set == r.bw.mem_set &&
		   back.bw.net_set == r.bw.net_set &&
		   back.bw.mem == r.bw.mem && back.bw.net == r.bw.net);
}

static void _end(const char *line)
{
	char reply[512], why[ERRBUF_LEN];
	uint32_t job, step;
	struct agent a;

	memset(&a, 0, sizeof(a));
	if (agent_end(&a, line, reply, sizeof(reply))) {
		FUZZ_CHECK(!strncmp(reply, "error: ", 7));
		FUZZ_CHECK(cosched_end_parse(line, &job, &step, why, sizeof(why)));
	} else {
		FUZZ_CHECK(!strcmp(reply, "ok not registered\n"));
	}
}

static void _membus(const char *line)
{
	char why[ERRBUF_LEN], *save = NULL;
	struct cosched_membus m;

	if (cosched_membus_parse(line, &m, why, sizeof(why))) {
		FUZZ_CHECK(fuzz_message_ok(why, sizeof(why)));
		return;
	}
	FUZZ_CHECK(m.nnodes >= 1 && m.self[0] && m.coord[0]);
	fuzz_peer_split(m.self);
	for (char *tok = strtok_r(m.coord, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		fuzz_peer_split(tok);
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
