/*
 * fuzz_mbmsg.c - the MemBUS messages between node agents: the JSON text
 * a munge credential carries (a vote or a decision), parsed by
 * agent/mbmsg.c before anything acts on it.  The sender is root on a
 * host of the realm, possibly compromised: no message may crash or stall
 * the receiver.
 *
 * Built only when agent/mbmsg.c exists (mk/fuzz.mk).  The input is the
 * payload as munge_decode hands it over: bytes and a length, not a C
 * string (ASan sees any read past the end).  Promise checked: a refusal
 * is a message.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"

#include "mbmsg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mbmsg msg;
	char err[256];

	memset(&msg, 0, sizeof(msg));
	if (mbmsg_parse((const char *)data, size, &msg, err, sizeof(err)))
		FUZZ_CHECK(fuzz_message_ok(err, sizeof(err)));
	/* TODO at merge: release msg here if the API keeps memory in it */
	return 0;
}
