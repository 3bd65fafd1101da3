/*
 * words.c - the KEY=VALUE words of a request line (see proto.h).
 *
 * The agent reads a key's first value, so "pid=A ... pid=B" would mean A
 * to the agent and maybe B to whoever checked the line before: every
 * parser first checks the whole line (cosched_request_check).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "proto.h"
#include "num/errbuf.h"

/* Keys and words are quoted in messages cut to this length. */
#define QUOTE_MAX 32

int cosched_request_word(const char *line, const char *key, char *buf,
			 size_t len)
{
	size_t klen = strlen(key);

	for (const char *p = strchr(line, ' '); p; p = strchr(p + 1, ' ')) {
		const char *w = p + 1;
		size_t vlen;

		if (strncmp(w, key, klen) || w[klen] != '=')
			continue;
		vlen = strcspn(w + klen + 1, " ");
		if (vlen >= len)
			return -2;
		memcpy(buf, w + klen + 1, vlen);
		buf[vlen] = '\0';
		return 0;
	}
	return -1;
}

bool cosched_request_is(const char *line, const char *verb)
{
	size_t n = strlen(verb);

	return !strncmp(line, verb, n) && (line[n] == '\0' || line[n] == ' ');
}

/* The length of the key of the word at w (up to '=', a blank or the end). */
static size_t _key_len(const char *w)
{
	return strcspn(w, "= ");
}

/* Whether the key of w is given again in a later word. */
static bool _again(const char *w)
{
	size_t len = _key_len(w);

	for (const char *v = strchr(w, ' '); v; v = strchr(v + 1, ' '))
		if (_key_len(v + 1) == len && !strncmp(v + 1, w, len))
			return true;
	return false;
}

/* The word at w, up to a blank, quoted into err's message. */
static int _bad_word(const char *w, const char *why, char *err,
		     size_t err_len)
{
	int len = (int)strcspn(w, " ");

	errbuf_set(err, err_len, "request: %s '%.*s%s'", why,
			len > QUOTE_MAX ? QUOTE_MAX : len, w,
			len > QUOTE_MAX ? "..." : "");
	return -1;
}

int cosched_request_check(const char *line, const char *verb, char *err,
			  size_t err_len)
{
	const char *w;

	if (strnlen(line, COSCHED_REQUEST_LEN + 1) > COSCHED_REQUEST_LEN) {
		errbuf_set(err, err_len, "request: longer than %d bytes",
				COSCHED_REQUEST_LEN);
		return -1;
	}
	if (!cosched_request_is(line, verb)) {
		errbuf_set(err, err_len, "request: not a %s request", verb);
		return -1;
	}
	for (w = strchr(line, ' '); w; w = strchr(w, ' ')) {
		w++;
		if (!_key_len(w) || w[_key_len(w)] != '=')
			return _bad_word(w, "not KEY=VALUE:", err, err_len);
		if (_again(w)) {
			errbuf_set(err, err_len,
					"request: key '%.*s%s' given twice",
					(int)(_key_len(w) > QUOTE_MAX ?
					      QUOTE_MAX : _key_len(w)), w,
					_key_len(w) > QUOTE_MAX ? "..." : "");
			return -1;
		}
	}
	return 0;
}
