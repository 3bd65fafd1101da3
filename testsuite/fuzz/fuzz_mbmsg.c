/*
 * fuzz_mbmsg.c - the MemBUS messages between node agents: the JSON text
 * a munge credential carries (a vote or a decision), parsed by
 * agent/membus/mbmsg.c before anything acts on it.  The sender is root on a
 * host of the realm, possibly compromised: no message may crash or stall
 * the receiver.
 *
 * The input is the payload as munge_decode hands it over: bytes and a
 * length, not a C string (ASan sees any read past the end).  Promises
 * checked (mbmsg.h): what the parser accepts, the formatter writes and
 * the parser reads back the same (mbmsg_roundtrip never -1); a refusal
 * is a message of printable text (it is logged) and leaves the struct
 * empty; an accepted message is within its bounds; with a self name, the
 * same text is accepted exactly when it is addressed to that node, both
 * as this node ("n1") and as another ("n2").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"

#include "membus/mbmsg.h"

static struct mbmsg msg, empty;

static int _printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return 0;
	return 1;
}

static void _check_ids(char (*ids)[MEMBUS_ID_LEN], size_t n)
{
	FUZZ_CHECK(n <= MBMSG_APPS_MAX);
	for (size_t i = 0; i < n; i++)
		FUZZ_CHECK(mbmsg_id_ok(ids[i]));
}

static void _check_accepted(const struct mbmsg *m)
{
	FUZZ_CHECK(m->type == MBMSG_VOTE || m->type == MBMSG_DECISION);
	FUZZ_CHECK(m->q >= 1 && m->q <= MBMSG_Q_MAX);
	FUZZ_CHECK(cosched_node_name_ok(m->from) && cosched_node_name_ok(m->to));
	if (m->type == MBMSG_VOTE) {
		FUZZ_CHECK(m->napps <= MBMSG_APPS_MAX && !m->norder &&
			   !m->nforced);
		for (size_t i = 0; i < m->napps; i++)
			FUZZ_CHECK(mbmsg_id_ok(m->apps[i].id) &&
				   m->apps[i].nodes >= 1);
	} else {
		FUZZ_CHECK(!m->napps);
		_check_ids((char (*)[MEMBUS_ID_LEN])m->order, m->norder);
		_check_ids((char (*)[MEMBUS_ID_LEN])m->forced, m->nforced);
	}
}

/* Parse as node self (or anyone: NULL); 0 when accepted. */
static int _parse(const char *data, size_t size, const char *self)
{
	char err[MBMSG_ERR_LEN];
	int rc;

	memset(err, 0, sizeof(err));
	rc = mbmsg_parse(data, size, self, &msg, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || rc == -1);
	if (rc) {
		FUZZ_CHECK(fuzz_message_ok(err, sizeof(err)) && _printable(err));
		FUZZ_CHECK(!memcmp(&msg, &empty, sizeof(msg)));
	} else {
		_check_accepted(&msg);
	}
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	int rt = mbmsg_roundtrip(text, size), any;
	char to[COSCHED_NODE_NAME_LEN];

	FUZZ_CHECK(rt == 0 || rt == 1);
	any = _parse(text, size, NULL);
	FUZZ_CHECK(any == (rt == 1 ? 0 : -1));
	memcpy(to, msg.to, sizeof(to));
	FUZZ_CHECK(_parse(text, size, "n1") == (any || strcmp(to, "n1") ? -1 : 0));
	FUZZ_CHECK(_parse(text, size, "n2") == (any || strcmp(to, "n2") ? -1 : 0));
	return 0;
}
