/*
 * mbmsg.h - the MemBUS messages between node agents as text (mbmsg.c):
 * the one place that writes and reads them.  A vote and a decision are
 *
 *   {"t":"vote","q":K,"from":NODE,"to":NODE,
 *    "apps":[{"id":"J.S","sel":0|1,"nodes":N},...]}
 *   {"t":"decision","q":K,"from":NODE,"to":NODE,
 *    "order":["J.S",...],"forced":["J.S",...]}
 *
 * The text arrives inside a munge credential that only says which uid on
 * which munge realm made it, so the parser takes nothing on trust: every
 * key present and no other, every value of its type and within bounds,
 * at most MBMSG_APPS_MAX entries, no entry twice.  What it accepts is a
 * plain struct that the agent works on; what the formatter writes, the
 * parser accepts (mbmsg_roundtrip checks that on any input).
 *
 * No agent state: linked into coschedd, the unit tests and the fuzz
 * harness (LIBMBMSG in agent/module.mk).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHEDD_MBMSG_H
#define COSCHEDD_MBMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cosched_proto/client.h"	/* COSCHED_NODE_NAME_LEN */
#include "membus/membus.h"	/* MEMBUS_ID_LEN */

#define MBMSG_APPS_MAX 256	/* entries of apps, order and forced */
#define MBMSG_TEXT_MAX 32768	/* the longest text read or written */
#define MBMSG_Q_MAX 1000000000000000ull	/* 1e15: 31,000 years of 1 ms quanta */
#define MBMSG_ERR_LEN 96

enum mbmsg_type { MBMSG_VOTE, MBMSG_DECISION };

/* One application in a vote: chosen by the voter or not, its span. */
struct mbmsg_app {
	char id[MEMBUS_ID_LEN];	/* "JOB.STEP", decimal */
	bool sel;
	uint32_t nodes;		/* >= 1 */
};

struct mbmsg {
	enum mbmsg_type type;
	uint64_t q;		/* 1 .. MBMSG_Q_MAX */
	char from[COSCHED_NODE_NAME_LEN], to[COSCHED_NODE_NAME_LEN];
	/* vote */
	size_t napps;
	struct mbmsg_app apps[MBMSG_APPS_MAX];
	/* decision */
	size_t norder, nforced;
	char order[MBMSG_APPS_MAX][MEMBUS_ID_LEN];
	char forced[MBMSG_APPS_MAX][MEMBUS_ID_LEN];
};

/*
 * Parse len bytes of data (no NUL needed; one inside is refused) into
 * *msg; when self is not NULL, a message whose "to" is not self is
 * refused too (a credential caught on its way to another host and
 * replayed here: munge's replay cache is per host).  Returns 0, or -1
 * with err saying what was wrong (fixed text and key names only, never
 * the input's bytes, so it may be logged).
 */
int mbmsg_parse(const char *data, size_t len, const char *self,
		struct mbmsg *msg, char *err, size_t err_len);

/*
 * Write msg as JSON text into buf (NUL-terminated).  Returns its length,
 * or -1 when msg is not one the parser would accept or does not fit.
 */
int mbmsg_format(const struct mbmsg *msg, char *buf, size_t len);

/* Whether id is an application id as messages carry it ("J.S"). */
bool mbmsg_id_ok(const char *id);

/*
 * The fuzzing entry point: parse data; when accepted, format the result
 * and parse that again.  Returns 1 if accepted and the second parse gives
 * the same struct, 0 if refused, -1 if accepted but not reproduced (a
 * bug: the formatter and the parser disagree).
 */
int mbmsg_roundtrip(const char *data, size_t len);

#endif /* COSCHEDD_MBMSG_H */
