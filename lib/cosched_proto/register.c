/*
 * register.c - the register and end requests (see proto.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "num/num.h"
#include "proto.h"
#include "settings.h"
#include "num/errbuf.h"
#include "cosched/mode.h"

/* A whole number of KEY in lo..hi: 0; -1 absent, -2 malformed or out. */
static int _number(const char *line, const char *key, uint64_t lo,
		   uint64_t hi, uint64_t *out)
{
	char word[32];
	int rc = cosched_request_word(line, key, word, sizeof(word));

	if (rc)
		return rc;	/* -2: too long for any number here */
	return num_parse_range(word, lo, hi, out) ? -2 : 0;
}

/* A whole number of KEY in lo..hi: 0, or -1 (absent or bad; the caller
 * names what it needs). */
static int _required(const char *line, const char *key, uint64_t lo,
		     uint64_t hi, uint64_t *out)
{
	return _number(line, key, lo, hi, out) ? -1 : 0;
}

/* An optional number: 0 when absent, or an error naming key and range. */
static int _optional(const char *line, const char *key, uint64_t lo,
		     uint64_t hi, uint64_t *out, char *err, size_t err_len)
{
	int rc = _number(line, key, lo, hi, out);

	if (rc == -1) {
		*out = 0;
		return 0;
	}
	if (rc)
		errbuf_set(err, err_len,
				"register: %s must be a whole number from %llu to %llu",
				key, (unsigned long long)lo,
				(unsigned long long)hi);
	return rc ? -1 : 0;
}

static int _ids(const char *line, struct cosched_register *r, char *err,
		size_t err_len)
{
	uint64_t job, step, uid, pid, rank;

	if (_required(line, "job", 0, UINT32_MAX, &job) ||
	    _required(line, "step", 0, UINT32_MAX, &step) ||
	    _required(line, "uid", 0, UINT32_MAX - 1, &uid) ||
	    _required(line, "pid", 2, INT32_MAX, &pid) ||
	    _required(line, "rank", 0, INT32_MAX, &rank)) {
		errbuf_set(err, err_len,
				"register needs job, step, uid, pid (>1) and rank");
		return -1;
	}
	r->job = (uint32_t)job;
	r->step = (uint32_t)step;
	r->uid = (uint32_t)uid;
	r->pid = (int32_t)pid;
	r->rank = (uint32_t)rank;
	return 0;
}

static int _mode(const char *line, struct cosched_register *r, char *err,
		 size_t err_len)
{
	char word[32], why[ERRBUF_LEN];

	if (cosched_request_word(line, "mode", word, sizeof(word)) ||
	    cosched_parse_mode(word, &r->mode, why, sizeof(why))) {
		errbuf_set(err, err_len, "register: bad or missing mode");
		return -1;
	}
	r->pb.heuristic = COSCHED_PB_D;
	r->pb.fair = false;
	switch (cosched_request_word(line, "pb", word, sizeof(word))) {
	case -1:
		return 0;
	case 0:
		if (!cosched_pb_parse(word, &r->pb, why, sizeof(why)))
			return 0;
		errbuf_set(err, err_len, "register: %.200s", why);
		return -1;
	default:
		errbuf_set(err, err_len, "register: pb too long");
		return -1;
	}
}

/* tick_us (0 or the tick setting's range) and spin_ns. */
static int _times(const char *line, struct cosched_register *r, char *err,
		  size_t err_len)
{
	const struct cosched_setting *tick = cosched_setting(COSCHED_SET_TICK_US);
	uint64_t max_spin_ns = cosched_setting(COSCHED_SET_MAX_SPIN_US)->hi * 1000;
	uint64_t tick_us, spin_ns;

	if (_optional(line, "tick_us", 0, tick->hi, &tick_us, err, err_len) ||
	    _optional(line, "spin_ns", 0, max_spin_ns, &spin_ns, err, err_len))
		return -1;
	if (tick_us && tick_us < tick->lo) {
		errbuf_set(err, err_len,
				"register: tick_us must be 0 or from %llu to %llu",
				(unsigned long long)tick->lo,
				(unsigned long long)tick->hi);
		return -1;
	}
	r->tick_us = (uint32_t)tick_us;
	r->spin_ns = spin_ns;
	return 0;
}

/* bw_mem=N bw_net=N: what a membus job declared, bytes/s per process */
static int _hints(const char *line, struct cosched_register *r, char *err,
		  size_t err_len)
{
	const char *keys[] = { "bw_mem", "bw_net" };
	double *vals[] = { &r->bw.mem, &r->bw.net };
	bool *set[] = { &r->bw.mem_set, &r->bw.net_set };

	for (size_t i = 0; i < 2; i++) {
		uint64_t v;
		int rc = _number(line, keys[i], 0, (uint64_t)COSCHED_BW_MAX, &v);

		*vals[i] = 0;
		*set[i] = false;
		if (rc == -1)
			continue;
		if (rc) {
			errbuf_set(err, err_len,
					"register: %s must be whole bytes per second, at most 1000T",
					keys[i]);
			return -1;
		}
		*vals[i] = (double)v;
		*set[i] = true;
	}
	return 0;
}

/* gang=1, or absent; membus steps switch by their own quanta. */
static int _gang(const char *line, struct cosched_register *r, char *err,
		 size_t err_len)
{
	uint64_t v;

	if (_optional(line, "gang", 0, 1, &v, err, err_len))
		return -1;
	r->gang = v;
	if (r->gang && cosched_mode_by_quanta(r->mode)) {
		errbuf_set(err, err_len,
				"register: a membus step cannot be in gang rows");
		return -1;
	}
	return 0;
}

int cosched_register_parse(const char *line, struct cosched_register *out,
			   char *err, size_t err_len)
{
	struct cosched_register r;

	memset(&r, 0, sizeof(r));
	if (cosched_request_check(line, "register", err, err_len) ||
	    _ids(line, &r, err, err_len) || _mode(line, &r, err, err_len) ||
	    _times(line, &r, err, err_len) || _hints(line, &r, err, err_len) ||
	    _gang(line, &r, err, err_len))
		return -1;
	*out = r;
	return 0;
}

/* " bw_mem=N bw_net=N", each only when set, into buf. */
static int _bw_words(const struct cosched_bw *bw, char *buf, size_t len)
{
	char mem[40] = "", net[40] = "";
	int n;

	if ((bw->mem_set && !(bw->mem >= 0 && bw->mem <= COSCHED_BW_MAX)) ||
	    (bw->net_set && !(bw->net >= 0 && bw->net <= COSCHED_BW_MAX)))
		return -1;
	/* at most 16 digits each: they fit */
	if (bw->mem_set)
		snprintf(mem, sizeof(mem), " bw_mem=%.0f", bw->mem);
	if (bw->net_set)
		snprintf(net, sizeof(net), " bw_net=%.0f", bw->net);
	n = snprintf(buf, len, "%s%s", mem, net);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int cosched_register_format(const struct cosched_register *r, char *buf,
			    size_t len)
{
	char bw[80];
	int n;

	if (!buf || !len)
		return -1;
	buf[0] = '\0';
	if (!cosched_mode_name(r->mode) || _bw_words(&r->bw, bw, sizeof(bw)) ||
	    (r->gang && cosched_mode_by_quanta(r->mode)))
		return -1;
	n = snprintf(buf, len,
		     "register job=%u step=%u uid=%u mode=%s pb=%s tick_us=%u spin_ns=%llu pid=%d rank=%u%s%s",
		     r->job, r->step, r->uid, cosched_mode_name(r->mode),
		     cosched_pb_name(&r->pb), r->tick_us,
		     (unsigned long long)r->spin_ns, (int)r->pid, r->rank, bw,
		     r->gang ? " gang=1" : "");
	if (n < 0 || (size_t)n >= len || n > COSCHED_REQUEST_LEN) {
		buf[0] = '\0';
		return -1;
	}
	return 0;
}

int cosched_end_format(uint32_t job, uint32_t step, char *buf, size_t len)
{
	int n = snprintf(buf, len, "end job=%u step=%u", job, step);

	if (n < 0 || (size_t)n >= len) {
		if (len)
			buf[0] = '\0';
		return -1;
	}
	return 0;
}

int cosched_end_parse(const char *line, uint32_t *job, uint32_t *step,
		      char *err, size_t err_len)
{
	uint64_t j, s;

	if (cosched_request_check(line, "end", err, err_len))
		return -1;
	if (_required(line, "job", 0, UINT32_MAX, &j) ||
	    _required(line, "step", 0, UINT32_MAX, &s)) {
		errbuf_set(err, err_len, "end needs job and step");
		return -1;
	}
	*job = (uint32_t)j;
	*step = (uint32_t)s;
	return 0;
}

bool cosched_reply_ok(const char *reply)
{
	return !strncmp(reply, "ok", 2);
}
