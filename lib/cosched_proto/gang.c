/*
 * gang.c - the gang table between slurmctld and the node agents, and the
 * rule of which job runs in a quantum (see gang.h).
 *
 * The sender is slurmctld's host, the text comes through munge, but the
 * parser still trusts no byte of it: a compromised host of the realm must
 * not make an agent read past a buffer or freeze what the table cannot
 * name.  Rows of one node are cells of one column: two jobs holding the
 * same row there is an error, not a choice.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "cosched_proto/gang.h"
#include "cosched_proto/proto.h"
#include "num/num.h"
#include "num/errbuf.h"

#define VERB "gang"
#define HEX_DIGITS_MAX ((GANG_ROWS_MAX + 3) / 4)

unsigned gang_row_of(const struct gang_table *t, uint64_t q)
{
	unsigned turn[GANG_ROWS_MAX], n = 0;

	if (t->guard)
		return t->run ? (unsigned)__builtin_ctz(t->run) : UINT32_MAX;
	if (t->priority)
		return 0;
	for (unsigned r = t->first; r < t->rows; r++)
		if (t->busy >> r & 1u)
			turn[n++] = r;
	if (!n)		/* no job anywhere: any row will do */
		return t->first + (unsigned)(q % (uint64_t)(t->rows - t->first));
	return turn[q % n];
}

bool gang_job_runs(const struct gang_table *t, uint32_t job, uint64_t q)
{
	uint32_t running = t->guard ? t->run : 1u << gang_row_of(t, q);

	for (size_t i = 0; i < t->njobs; i++)
		if (t->jobs[i].job == job)
			return (t->jobs[i].rows & running) != 0;
	return true;
}

/* ---- bounds, one check for both sides ---- */

static uint32_t _row_mask(unsigned rows)
{
	return rows >= 32 ? UINT32_MAX : (1u << rows) - 1;
}

/* NULL, or why t cannot be sent or taken. */
static const char *_table_bad(const struct gang_table *t)
{
	uint32_t seen = 0;

	if (!cosched_node_name_ok(t->node))
		return "bad node name";
	if (!t->epoch)
		return "epoch 0";
	if (t->guard ? t->slice_ms != 0 :
	    t->slice_ms < GANG_SLICE_MS_MIN || t->slice_ms > GANG_SLICE_MS_MAX)
		return "slice_ms out of range (0 with run=MASK)";
	if (t->rows < 2 || t->rows > GANG_ROWS_MAX)
		return "rows out of range";
	if (t->first > 1 || (t->priority && !t->first))
		return "first must be 0, or 1 with a priority row";
	if (t->busy & ~_row_mask(t->rows))
		return "busy rows out of range";
	if (!t->guard && t->run)
		return "running rows in a quantum table";
	if (t->run & ~_row_mask(t->rows))
		return "running rows out of range";
	if (t->resend_ms && (t->resend_ms < GANG_RESEND_MS ||
			     t->resend_ms > GANG_RESEND_MS_MAX))
		return "resend_ms out of range";
	if (t->njobs > GANG_JOBS_MAX)
		return "too many jobs";
	for (size_t i = 0; i < t->njobs; i++) {
		const struct gang_job *j = &t->jobs[i];

		if (!j->job || j->job == UINT32_MAX)
			return "bad job id";
		if (!j->rows || (j->rows & ~_row_mask(t->rows)))
			return "rows of a job out of range";
		if (j->rows & seen)
			return "two jobs hold one row of the node";
		seen |= j->rows;
		for (size_t k = 0; k < i; k++)
			if (t->jobs[k].job == j->job)
				return "a job named twice";
	}
	return NULL;
}

/* ---- format ---- */

/*
 * The text, appended by hand: slurmctld formats a table for every node
 * with cells every second, and at 4,096 nodes snprintf's parsing of its
 * format was a fifth of the pass (contribs/gang-bench).
 */
struct out {
	char *buf;
	size_t len, used;
	bool over;
};

static void _put(struct out *o, const char *s, size_t n)
{
	if (o->over || n >= o->len - o->used) {
		o->over = true;
		return;
	}
	memcpy(o->buf + o->used, s, n);
	o->used += n;
}

static void _put_str(struct out *o, const char *s)
{
	_put(o, s, strlen(s));
}

static void _put_num(struct out *o, uint64_t v, unsigned base)
{
	char digits[24];
	size_t i = sizeof(digits);

	do {
		digits[--i] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	_put(o, digits + i, sizeof(digits) - i);
}

/* " key=" and a number in base (10, or 16 for the row masks) */
static void _put_key(struct out *o, const char *key, uint64_t v, unsigned base)
{
	_put_str(o, key);
	_put_num(o, v, base);
}

int gang_table_format(const struct gang_table *t, char *buf, size_t len)
{
	struct out o = { .buf = buf, .len = len };

	if (!len)
		return -1;
	buf[0] = '\0';
	if (_table_bad(t))
		return -1;
	_put_str(&o, VERB " node=");
	_put_str(&o, t->node);
	_put_key(&o, " epoch=", t->epoch, 10);
	_put_key(&o, " slice_ms=", t->slice_ms, 10);
	_put_key(&o, " rows=", t->rows, 10);
	_put_key(&o, " first=", t->first, 10);
	_put_key(&o, " priority=", t->priority ? 1 : 0, 10);
	_put_key(&o, " busy=", t->busy, 16);
	if (t->guard)
		_put_key(&o, " run=", t->run, 16);
	else
		_put_str(&o, " run=*");
	if (t->resend_ms)
		_put_key(&o, " resend_ms=", t->resend_ms, 10);
	_put_str(&o, t->njobs ? " jobs=" : " jobs=-");
	for (size_t i = 0; i < t->njobs; i++) {
		if (i)
			_put(&o, ",", 1);
		_put_num(&o, t->jobs[i].job, 10);
		_put(&o, ":", 1);
		_put_num(&o, t->jobs[i].rows, 16);
	}
	if (o.over || o.used > COSCHED_REQUEST_LEN) {
		buf[0] = '\0';
		return -1;
	}
	buf[o.used] = '\0';
	return (int)o.used;
}

/* ---- parse ---- */

static int _word(const char *line, const char *key, char *buf, size_t len,
		 char *err, size_t err_len)
{
	switch (cosched_request_word(line, key, buf, len)) {
	case 0:
		return 0;
	case -1:
		errbuf_set(err, err_len, "gang table: no %s=", key);
		return -1;
	default:
		errbuf_set(err, err_len, "gang table: %s= too long", key);
		return -1;
	}
}

static int _number(const char *line, const char *key, uint64_t min,
		   uint64_t max, uint64_t *out, char *err, size_t err_len)
{
	char v[24];

	if (_word(line, key, v, sizeof(v), err, err_len))
		return -1;
	if (num_parse_range(v, min, max, out)) {
		errbuf_set(err, err_len,
				"gang table: %s=%.20s is not a number from %llu to %llu",
				key, v, (unsigned long long)min,
				(unsigned long long)max);
		return -1;
	}
	return 0;
}

/* Lower-case hexadecimal, 1 to HEX_DIGITS_MAX digits, the whole string. */
static int _hex(const char *s, uint32_t *out)
{
	uint32_t v = 0;
	size_t n = strlen(s);

	if (!n || n > HEX_DIGITS_MAX)
		return -1;
	for (; *s; s++) {
		const char *d = strchr("0123456789abcdef", *s);

		if (!d)
			return -1;
		v = v << 4 | (uint32_t)(d - "0123456789abcdef");
	}
	*out = v;
	return 0;
}

/* One "ID:MASK" (cut out of the list, NUL-terminated) into j. */
static int _job(char *word, struct gang_job *j)
{
	char *colon = strchr(word, ':');
	uint64_t id;

	if (!colon)
		return -1;
	*colon = '\0';
	if (num_parse_range(word, 1, UINT32_MAX - 1, &id) ||
	    _hex(colon + 1, &j->rows))
		return -1;
	j->job = (uint32_t)id;
	return 0;
}

static int _jobs(const char *line, struct gang_table *t, char *err,
		 size_t err_len)
{
	char list[COSCHED_REQUEST_LEN + 1], *save = NULL;

	if (_word(line, "jobs", list, sizeof(list), err, err_len))
		return -1;
	t->njobs = 0;
	if (!strcmp(list, "-"))
		return 0;
	if (!list[0] || list[0] == ',' || list[strlen(list) - 1] == ',' ||
	    strstr(list, ",,"))
		goto bad;
	for (char *w = strtok_r(list, ",", &save); w;
	     w = strtok_r(NULL, ",", &save)) {
		if (t->njobs == GANG_JOBS_MAX) {
			errbuf_set(err, err_len,
					"gang table: more than %d jobs",
					GANG_JOBS_MAX);
			return -1;
		}
		if (_job(w, &t->jobs[t->njobs++]))
			goto bad;
	}
	return 0;
bad:
	errbuf_set(err, err_len,
			"gang table: jobs= must be '-' or ID:HEXMASK[,ID:HEXMASK...]");
	return -1;
}

/* resend_ms=, the one optional key: 0 without it (older slurmctlds). */
static int _resend(const char *line, struct gang_table *t, char *err,
		   size_t err_len)
{
	char word[24];
	uint64_t v;

	switch (cosched_request_word(line, "resend_ms", word, sizeof(word))) {
	case -1:
		t->resend_ms = 0;
		return 0;
	case 0:
		break;
	default:
		errbuf_set(err, err_len, "gang table: resend_ms= too long");
		return -1;
	}
	if (num_parse_range(word, GANG_RESEND_MS, GANG_RESEND_MS_MAX, &v)) {
		errbuf_set(err, err_len,
			   "gang table: resend_ms=%.20s is not a number from %d to %d",
			   word, GANG_RESEND_MS, GANG_RESEND_MS_MAX);
		return -1;
	}
	t->resend_ms = (uint32_t)v;
	return 0;
}

static int _fields(const char *line, struct gang_table *t, char *err,
		   size_t err_len)
{
	char hex[HEX_DIGITS_MAX + 2];
	uint64_t v;

	if (_word(line, "node", t->node, sizeof(t->node), err, err_len))
		return -1;
	if (_number(line, "epoch", 1, UINT64_MAX, &t->epoch, err, err_len))
		return -1;
	if (_number(line, "slice_ms", 0, GANG_SLICE_MS_MAX, &v, err, err_len))
		return -1;
	t->slice_ms = (uint32_t)v;	/* its range per run=: _table_bad */
	if (_number(line, "rows", 2, GANG_ROWS_MAX, &v, err, err_len))
		return -1;
	t->rows = (uint16_t)v;
	if (_number(line, "first", 0, 1, &v, err, err_len))
		return -1;
	t->first = (uint16_t)v;
	if (_number(line, "priority", 0, 1, &v, err, err_len))
		return -1;
	t->priority = v;
	if (_word(line, "busy", hex, sizeof(hex), err, err_len))
		return -1;
	if (_hex(hex, &t->busy)) {
		errbuf_set(err, err_len,
				"gang table: busy=%.8s is not a hexadecimal row set",
				hex);
		return -1;
	}
	if (_word(line, "run", hex, sizeof(hex), err, err_len))
		return -1;
	t->guard = strcmp(hex, "*") != 0;
	if (t->guard && _hex(hex, &t->run)) {
		errbuf_set(err, err_len,
				"gang table: run=%.8s is neither * nor a hexadecimal row set",
				hex);
		return -1;
	}
	if (_resend(line, t, err, err_len))
		return -1;
	return _jobs(line, t, err, err_len);
}

static int _parse(const char *text, size_t len, const char *self,
		  struct gang_table *t, char *err, size_t err_len)
{
	struct gang_table parsed;
	char line[COSCHED_REQUEST_LEN + 1];
	const char *why;

	if (len > COSCHED_REQUEST_LEN || memchr(text, '\0', len)) {
		errbuf_set(err, err_len,
				"gang table: longer than %d bytes or not text",
				COSCHED_REQUEST_LEN);
		return -1;
	}
	memcpy(line, text, len);
	line[len] = '\0';
	if (cosched_request_check(line, VERB, err, err_len))
		return -1;
	memset(&parsed, 0, sizeof(parsed));
	if (_fields(line, &parsed, err, err_len))
		return -1;
	why = _table_bad(&parsed);
	if (why) {
		errbuf_set(err, err_len, "gang table: %s", why);
		return -1;
	}
	if (self && strcmp(parsed.node, self)) {
		errbuf_set(err, err_len,
				"gang table: addressed to another node");
		return -1;
	}
	*t = parsed;
	return 0;
}

/* The reasons quote the sender's words: the agent logs them, so every
 * byte outside printable ASCII becomes '?'. */
int gang_table_parse(const char *text, size_t len, const char *self,
		     struct gang_table *t, char *err, size_t err_len)
{
	if (!_parse(text, len, self, t, err, err_len))
		return 0;
	for (char *c = err; err_len && *c; c++)
		if (*c < 0x20 || *c > 0x7e)
			*c = '?';
	return -1;
}

/* ---- the gang request ---- */

int cosched_gang_request_format(const struct cosched_gang_req *g, char *buf,
				size_t len)
{
	int n;

	if (!len)
		return -1;
	buf[0] = '\0';
	if (!g->self[0] || strchr(g->self, ' ') || !g->from[0] ||
	    strchr(g->from, ' '))
		return -1;
	n = snprintf(buf, len, VERB " self=%s from=%s", g->self, g->from);
	if (n < 0 || (size_t)n >= len || n > COSCHED_REQUEST_LEN) {
		buf[0] = '\0';
		return -1;
	}
	return 0;
}

int cosched_gang_request_parse(const char *line, struct cosched_gang_req *out,
			       char *err, size_t err_len)
{
	struct cosched_gang_req g;
	char why[ERRBUF_LEN];

	memset(&g, 0, sizeof(g));
	if (cosched_request_check(line, VERB, err, err_len))
		return -1;
	if (cosched_request_word(line, "self", g.self, sizeof(g.self)) ||
	    !g.self[0])
		return errbuf_fail(err, err_len, "gang needs self (NAME@ADDR:PORT)");
	if (cosched_request_word(line, "from", g.from, sizeof(g.from)) ||
	    !g.from[0])
		return errbuf_fail(err, err_len, "gang needs from (slurmctld's addresses, ADDR[,ADDR...])");
	if (peer_hosts_parse(g.from, &g.hosts, why, sizeof(why)))
		return errbuf_fail(err, err_len, "gang from=: %s", why);
	*out = g;
	return 0;
}

uint32_t gang_resend_ms(size_t tables)
{
	size_t k = (tables + GANG_RESEND_TABLES_PER_S - 1) /
		   GANG_RESEND_TABLES_PER_S;

	if (k <= 1)
		return GANG_RESEND_MS;
	return k >= GANG_RESEND_MS_MAX / GANG_RESEND_MS ? GANG_RESEND_MS_MAX
						      : (uint32_t)k * GANG_RESEND_MS;
}

uint32_t gang_stale_ms(const struct gang_table *t)
{
	uint32_t every = t->resend_ms ? t->resend_ms : GANG_RESEND_MS;

	return every / 2 * 7;	/* 3.5 intervals: GANG_TABLE_STALE_MS at 1 s */
}
