/*
 * bw.c - parsing of --cosched-bw=mem=RATE,net=RATE, the per-process
 * bandwidth a membus job declares (see bw.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "cosched/bw.h"
#include "num/errbuf.h"
#include "num/num.h"

/* Quoted input is cut to these lengths (with "...") to fit ERRBUF_LEN. */
#define QUOTE_ITEM_MAX 24
#define QUOTE_LIST_MAX 48

#define BW_EXAMPLE "expected e.g. --cosched-bw=mem=600M,net=40M"

/* "(item N of "LIST")" for messages. */
static void _where(char *buf, size_t len, const char *text, unsigned int index)
{
	struct errbuf_quote ql = errbuf_quote(strlen(text), QUOTE_LIST_MAX);

	snprintf(buf, len, "(item %u of \"%.*s%s\")", index, ql.len, text,
		 ql.more);
}

/* A RATE within 0..COSCHED_BW_MAX, rounded to whole bytes per second. */
static int _parse_rate(const char *s, double *out)
{
	double v;

	if (num_parse_rate(s, &v) || v > COSCHED_BW_MAX)
		return -1;
	/* v <= 1e15 < 2^63: the cast is exact enough and needs no libm */
	*out = (double)(uint64_t)(v + 0.5);
	return 0;
}

/*
 * One KEY=RATE item of len bytes at item (not NUL-terminated) into bw;
 * index and text for messages.
 */
static int _parse_item(const char *item, size_t len, unsigned int index,
		       const char *text, struct cosched_bw *bw, char *err,
		       size_t err_len)
{
	struct errbuf_quote qi = errbuf_quote(len, QUOTE_ITEM_MAX);
	char where[96], word[32];
	const char *eq = memchr(item, '=', len);
	size_t key_len = eq ? (size_t)(eq - item) : len;
	double *value;
	bool *set;

	_where(where, sizeof(where), text, index);
	if (!len) {
		errbuf_set(err, err_len,
				"--cosched-bw: empty item %s: stray comma", where);
		return -1;
	}
	if (!eq) {
		errbuf_set(err, err_len,
				"--cosched-bw: bad item '%.*s%s' %s: expected mem=RATE or net=RATE",
				qi.len, item, qi.more, where);
		return -1;
	}
	if (key_len == 3 && !strncmp(item, "mem", 3)) {
		value = &bw->mem;
		set = &bw->mem_set;
	} else if (key_len == 3 && !strncmp(item, "net", 3)) {
		value = &bw->net;
		set = &bw->net_set;
	} else {
		struct errbuf_quote qk = errbuf_quote(key_len, QUOTE_ITEM_MAX);

		errbuf_set(err, err_len,
				"--cosched-bw: unknown key '%.*s%s' %s: expected mem or net",
				qk.len, item, qk.more, where);
		return -1;
	}
	if (*set) {
		errbuf_set(err, err_len,
				"--cosched-bw: %.3s given twice %s", item, where);
		return -1;
	}
	/* a rate longer than word is not a rate: refused below as such */
	snprintf(word, sizeof(word), "%.*s", (int)(len - key_len - 1), eq + 1);
	if (len - key_len - 1 >= sizeof(word) || _parse_rate(word, value)) {
		errbuf_set(err, err_len,
				"--cosched-bw: bad rate '%.*s%s' %s: expected bytes per second per process, a number with an optional k, M, G or T suffix, at most 1000T",
				qi.len, item, qi.more, where);
		return -1;
	}
	*set = true;
	return 0;
}

int cosched_parse_bw(const char *text, struct cosched_bw *bw, char *err,
		     size_t err_len)
{
	struct cosched_bw parsed = { 0 };
	const char *item = text;
	unsigned int index = 0;

	if (!text || !*text) {
		errbuf_set(err, err_len, "--cosched-bw: nothing given (%s)",
				BW_EXAMPLE);
		return -1;
	}
	for (;;) {
		size_t len = strcspn(item, ",");

		if (_parse_item(item, len, ++index, text, &parsed, err,
				err_len))
			return -1;
		if (!item[len])
			break;
		item += len + 1;
	}
	if (bw)
		*bw = parsed;
	return 0;
}

int cosched_format_bw(const struct cosched_bw *bw, char *buf, size_t buf_len)
{
	int n;

	if (!buf || !buf_len)
		return -1;
	buf[0] = '\0';
	if (!bw || (!bw->mem_set && !bw->net_set) ||
	    (bw->mem_set && !(bw->mem >= 0 && bw->mem <= COSCHED_BW_MAX)) ||
	    (bw->net_set && !(bw->net >= 0 && bw->net <= COSCHED_BW_MAX)))
		return -1;
	if (bw->mem_set && bw->net_set)
		n = snprintf(buf, buf_len, "mem=%.0f,net=%.0f", bw->mem,
			     bw->net);
	else if (bw->mem_set)
		n = snprintf(buf, buf_len, "mem=%.0f", bw->mem);
	else
		n = snprintf(buf, buf_len, "net=%.0f", bw->net);
	if (n < 0 || (size_t)n >= buf_len) {
		buf[0] = '\0';
		return -1;
	}
	return 0;
}
