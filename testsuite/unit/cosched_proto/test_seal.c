/*
 * test_seal.c - one credential for many datagrams (lib/cosched_proto/
 * seal.c): SipHash-2-4 against the reference vectors, the credential's
 * payload and the datagram round trip, and every change to a datagram
 * (its text, its tag, another key) or a malformed one refused.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "cosched_proto/seal.h"
#include "tap.h"

/* Key 00..0f, message 00..n-1: vectors of the SipHash reference code. */
static void test_siphash(void)
{
	static const struct { size_t n; uint64_t want; } vec[] = {
		{ 0, 0x726fdb47dd0e0e31ULL }, { 1, 0x74f839c593dc67fdULL },
		{ 15, 0xa129ca6149be45e5ULL }, { 61, 0x9f626da15c9625f3ULL },
		{ 62, 0xe51b38608ef25f57ULL }, { 63, 0x958a324ceb064572ULL },
	};
	uint8_t key[SEAL_KEY_LEN], msg[64];

	for (int i = 0; i < SEAL_KEY_LEN; i++)
		key[i] = (uint8_t)i;
	for (int i = 0; i < 64; i++)
		msg[i] = (uint8_t)i;
	for (size_t i = 0; i < sizeof(vec) / sizeof(vec[0]); i++)
		ok(seal_siphash24(key, msg, vec[i].n) == vec[i].want,
		   "SipHash-2-4 of %zu bytes is the reference's", vec[i].n);
}

static void test_payload(void)
{
	uint8_t key[SEAL_KEY_LEN], back[SEAL_KEY_LEN];
	char buf[SEAL_PAYLOAD_LEN], bad[128];
	uint64_t seq = 0;
	int n;

	for (int i = 0; i < SEAL_KEY_LEN; i++)
		key[i] = (uint8_t)(0xf0 + i);
	n = seal_payload_format(key, UINT64_MAX, buf, sizeof(buf));
	ok(n > 0 && !strncmp(buf, "seal key=f0f1f2", 15),
	   "the payload names the key in hex (%s)", buf);
	ok(!seal_payload_parse(buf, (size_t)n, back, &seq) &&
	   !memcmp(back, key, sizeof(key)) && seq == UINT64_MAX,
	   "and parses back to the key and the largest seq");
	is_int(seal_payload_format(key, 1, buf, 20), -1,
	       "a buffer too short: refused");
	static const char *refused[] = {
		"seal key=f0 seq=1",
		"seal key=F0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF seq=1",
		"seal key=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff seq=",
		"seal key=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff seq=-1",
		"seal key=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff seq=18446744073709551616",
		"seal key=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff seq=1 x",
		"seal key=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeffseq=1",
		"gang node=n1",
		"",
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(bad, sizeof(bad), "%s", refused[i]);
		seq = 7;
		ok(seal_payload_parse(bad, strlen(bad), back, &seq) && seq == 7,
		   "payload refused: \"%s\"", refused[i]);
	}
}

static void test_datagram(void)
{
	static const char cred[] = "MUNGE:AwQFAAC0abc:", text[] =
		"gang node=n1 epoch=1 slice_ms=0 rows=2 first=0 priority=0 busy=3 run=1 jobs=5:1";
	uint8_t key[SEAL_KEY_LEN] = { 1, 2, 3 }, other[SEAL_KEY_LEN] = { 1, 2, 4 };
	char buf[512], copy[512];
	struct seal_parts p;
	int n;

	n = seal_datagram_format(cred, key, text, strlen(text), buf, sizeof(buf));
	snprintf(copy, sizeof(copy), "%s", cred);
	ok(n > 0 && seal_datagram_split(copy, strlen(copy), &p),
	   "a sealed datagram is told from a bare credential (which does not split)");
	memcpy(copy, buf, (size_t)n);
	ok(!seal_datagram_split(copy, (size_t)n, &p) && !strcmp(p.cred, cred) &&
	   p.text_len == strlen(text) && !memcmp(p.text, text, p.text_len),
	   "it splits into the credential and the text");
	ok(seal_tag_ok(key, p.text, p.text_len, p.tag), "the tag is the text's");
	ok(!seal_tag_ok(other, p.text, p.text_len, p.tag),
	   "under another key it is not");
	/* one byte of the text changed */
	memcpy(copy, buf, (size_t)n);
	copy[n - 1] = '2';
	ok(!seal_datagram_split(copy, (size_t)n, &p) &&
	   !seal_tag_ok(key, p.text, p.text_len, p.tag),
	   "a changed text fails its tag");
	/* one digit of the tag changed */
	memcpy(copy, buf, (size_t)n);
	copy[strlen(cred) + 1] ^= 1;
	ok(!seal_datagram_split(copy, (size_t)n, &p) &&
	   !seal_tag_ok(key, p.text, p.text_len, p.tag),
	   "a changed tag fails");
	is_int(seal_datagram_format(cred, key, text, strlen(text), buf, 60), -1,
	       "a datagram that does not fit: refused");
	is_int(seal_datagram_format("MUNGE:a\nb:", key, "x", 1, buf, sizeof(buf)),
	       -1, "a credential with a newline: refused");
	static const char *malformed[] = {
		"\n0123456789abcdef text",
		"MUNGE:x:\n0123456789abcdeftext",
		"MUNGE:x:\n0123456789ABCDEF text",
		"MUNGE:x:\n0123456789abcde",
		"MUNGE:x:\n",
	};
	for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		snprintf(copy, sizeof(copy), "%s", malformed[i]);
		ok(seal_datagram_split(copy, strlen(copy), &p),
		   "malformed datagram %zu refused", i);
	}
	static const char nul_cred[] = "MUNGE:\0x:\n0123456789abcdef gang",
			  nul_text[] = "MUNGE:x:\n0123456789abcdef ga\0ng";
	memcpy(copy, nul_cred, sizeof(nul_cred));
	ok(seal_datagram_split(copy, sizeof(nul_cred) - 1, &p),
	   "a NUL in the credential: refused");
	memcpy(copy, nul_text, sizeof(nul_text));
	ok(seal_datagram_split(copy, sizeof(nul_text) - 1, &p),
	   "a NUL in the text: refused");
	is_int(seal_datagram_format(cred, key, "ga\0ng", 5, buf, sizeof(buf)), -1,
	       "and the formatter makes none");
	snprintf(copy, sizeof(copy), "MUNGE:x:\n0123456789abcdef ");
	ok(!seal_datagram_split(copy, strlen(copy), &p) && p.text_len == 0,
	   "an empty text splits (its tag decides)");
}

int main(void)
{
	plan(35);
	test_siphash();
	test_payload();
	test_datagram();
	return done_testing();
}
