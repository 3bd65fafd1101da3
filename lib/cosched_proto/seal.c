/*
 * seal.c - the sealed datagram's format and MAC (seal.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "cosched_proto/seal.h"
#include "num/num.h"

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

static uint64_t _le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void _sipround(uint64_t v[4])
{
	v[0] += v[1];
	v[1] = ROTL(v[1], 13);
	v[1] ^= v[0];
	v[0] = ROTL(v[0], 32);
	v[2] += v[3];
	v[3] = ROTL(v[3], 16);
	v[3] ^= v[2];
	v[0] += v[3];
	v[3] = ROTL(v[3], 21);
	v[3] ^= v[0];
	v[2] += v[1];
	v[1] = ROTL(v[1], 17);
	v[1] ^= v[2];
	v[2] = ROTL(v[2], 32);
}

/* One message word: two compression rounds. */
static void _absorb(uint64_t v[4], uint64_t m)
{
	v[3] ^= m;
	_sipround(v);
	_sipround(v);
	v[0] ^= m;
}

uint64_t seal_siphash24(const uint8_t key[SEAL_KEY_LEN], const void *data,
			size_t len)
{
	const uint8_t *p = data;
	uint64_t k0 = _le64(key), k1 = _le64(key + 8), last;
	uint64_t v[4] = { k0 ^ 0x736f6d6570736575ULL, k1 ^ 0x646f72616e646f6dULL,
			  k0 ^ 0x6c7967656e657261ULL, k1 ^ 0x7465646279746573ULL };
	size_t whole = len - len % 8;

	for (size_t i = 0; i < whole; i += 8)
		_absorb(v, _le64(p + i));
	/* the last word: the remaining bytes, the length's low byte on top */
	last = (uint64_t)(len & 0xff) << 56;
	for (size_t i = 0; i < len % 8; i++)
		last |= (uint64_t)p[whole + i] << (8 * i);
	_absorb(v, last);
	v[2] ^= 0xff;
	for (int i = 0; i < 4; i++)
		_sipround(v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}

int seal_payload_format(const uint8_t key[SEAL_KEY_LEN], uint64_t seq,
			char *buf, size_t len)
{
	char hex[2 * SEAL_KEY_LEN + 1];
	int n;

	for (int i = 0; i < SEAL_KEY_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", key[i]);
	n = snprintf(buf, len, "seal key=%s seq=%llu", hex,
		     (unsigned long long)seq);
	return n < 0 || (size_t)n >= len ? -1 : n;
}

static int _hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* n lowercase hex digits into a number (n <= 16): 0 or -1. */
static int _hex_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++) {
		int d = _hex_digit(s[i]);

		if (d < 0)
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return 0;
}

int seal_payload_parse(const char *text, size_t len,
		       uint8_t key[SEAL_KEY_LEN], uint64_t *seq)
{
	static const char head[] = "seal key=", mid[] = " seq=";
	const size_t hex = 2 * SEAL_KEY_LEN;
	char digits[24];
	size_t at = sizeof(head) - 1, ndigits;
	uint8_t k[SEAL_KEY_LEN];

	if (len < at + hex + sizeof(mid) || memcmp(text, head, at))
		return -1;
	for (int i = 0; i < SEAL_KEY_LEN; i++) {
		uint64_t byte;

		if (_hex_u64(text + at + 2 * i, 2, &byte))
			return -1;
		k[i] = (uint8_t)byte;
	}
	at += hex;
	if (memcmp(text + at, mid, sizeof(mid) - 1))
		return -1;
	at += sizeof(mid) - 1;
	ndigits = len - at;
	if (ndigits >= sizeof(digits))
		return -1;
	memcpy(digits, text + at, ndigits);
	digits[ndigits] = '\0';
	if (num_parse_u64(digits, seq))
		return -1;
	memcpy(key, k, SEAL_KEY_LEN);
	return 0;
}

int seal_datagram_format(const char *cred, const uint8_t key[SEAL_KEY_LEN],
			 const char *text, size_t text_len, char *buf,
			 size_t len)
{
	size_t clen = strlen(cred);
	size_t total = clen + 1 + SEAL_TAG_HEX + 1 + text_len;
	uint64_t tag;

	if (total >= len || memchr(cred, '\n', clen) ||
	    memchr(text, '\0', text_len))
		return -1;
	tag = seal_siphash24(key, text, text_len);
	memcpy(buf, cred, clen);
	buf[clen] = '\n';
	/* 16 hex digits by hand: once a node a pass (snprintf costs more) */
	for (int i = 0; i < SEAL_TAG_HEX; i++)
		buf[clen + 1 + i] = "0123456789abcdef"[(tag >> (60 - 4 * i)) & 0xf];
	buf[clen + 1 + SEAL_TAG_HEX] = ' ';
	memcpy(buf + clen + 2 + SEAL_TAG_HEX, text, text_len);
	buf[total] = '\0';
	return (int)total;
}

int seal_datagram_split(char *buf, size_t len, struct seal_parts *p)
{
	char *nl = memchr(buf, '\n', len);
	size_t rest;

	/* text on both sides: a NUL would cut the credential short for
	 * munge, or the text short for whoever reads it as a string */
	if (!nl || nl == buf || memchr(buf, '\0', len))
		return -1;
	rest = len - (size_t)(nl + 1 - buf);
	if (rest < SEAL_TAG_HEX + 1 || nl[1 + SEAL_TAG_HEX] != ' ' ||
	    _hex_u64(nl + 1, SEAL_TAG_HEX, &p->tag))
		return -1;
	*nl = '\0';
	p->cred = buf;
	p->text = nl + 2 + SEAL_TAG_HEX;
	p->text_len = rest - SEAL_TAG_HEX - 1;
	return 0;
}

bool seal_tag_ok(const uint8_t key[SEAL_KEY_LEN], const char *text,
		 size_t text_len, uint64_t tag)
{
	/* every bit compared: no early exit that times the match */
	return (seal_siphash24(key, text, text_len) ^ tag) == 0;
}
