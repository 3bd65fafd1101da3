/*
 * fuzz_seal.c - the sealed datagram a node agent reads from its UDP port
 * before and after munge (lib/cosched_proto/seal.c): the envelope split
 * (credential, tag, text), the credential's payload, and the tag.
 *
 * The first byte picks the case, the rest is the input.  Promises checked
 * (seal.h): a datagram with a NUL is refused; a split one's credential
 * is NUL-terminated inside it and its text is the rest, to the end; a payload is taken only when it reads
 * back the same through the formatter, and a refused one leaves key and
 * seq untouched; a datagram made from any key and text splits back to
 * that text with a tag that checks, and a changed byte of the text fails
 * it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"

#include "cosched_proto/seal.h"

static void _split(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	struct seal_parts p;

	memcpy(buf, data, size);
	buf[size] = '\0';
	if (!seal_datagram_split(buf, size, &p)) {
		size_t clen = strlen(p.cred);

		FUZZ_CHECK(!memchr(data, '\0', size));
		FUZZ_CHECK(p.cred == buf && clen < size && !memchr(data, '\n', clen));
		FUZZ_CHECK(data[clen] == '\n');
		FUZZ_CHECK(p.text == buf + clen + 1 + SEAL_TAG_HEX + 1);
		FUZZ_CHECK(p.text + p.text_len == buf + size);
	}
	free(buf);
}

static void _payload(const uint8_t *data, size_t size)
{
	uint8_t key[SEAL_KEY_LEN], back[SEAL_KEY_LEN];
	uint64_t seq = 7, seq2 = 0;
	char text[SEAL_PAYLOAD_LEN];
	int n;

	memset(key, 0xa5, sizeof(key));
	if (seal_payload_parse((const char *)data, size, key, &seq)) {
		FUZZ_CHECK(seq == 7);
		for (size_t i = 0; i < sizeof(key); i++)
			FUZZ_CHECK(key[i] == 0xa5);
		return;
	}
	n = seal_payload_format(key, seq, text, sizeof(text));
	FUZZ_CHECK(n > 0);
	FUZZ_CHECK(!seal_payload_parse(text, (size_t)n, back, &seq2));
	FUZZ_CHECK(!memcmp(key, back, sizeof(key)) && seq2 == seq);
}

static void _roundtrip(const uint8_t *data, size_t size)
{
	static const char cred[] = "MUNGE:AwQDAAD:";
	char buf[4096];
	uint8_t key[SEAL_KEY_LEN] = { 0 };
	struct seal_parts p;
	size_t tlen;
	int n;

	if (size < SEAL_KEY_LEN)
		return;
	memcpy(key, data, SEAL_KEY_LEN);
	data += SEAL_KEY_LEN;
	tlen = size - SEAL_KEY_LEN;
	n = seal_datagram_format(cred, key, (const char *)data, tlen, buf,
				 sizeof(buf));
	if (n < 0) {
		FUZZ_CHECK(tlen + sizeof(cred) + SEAL_TAG_HEX + 1 >= sizeof(buf) ||
			   memchr(data, '\0', tlen));
		return;
	}
	FUZZ_CHECK(!seal_datagram_split(buf, (size_t)n, &p));
	FUZZ_CHECK(!strcmp(p.cred, cred) && p.text_len == tlen &&
		   !memcmp(p.text, data, tlen));
	FUZZ_CHECK(seal_tag_ok(key, p.text, p.text_len, p.tag));
	if (tlen) {
		((char *)p.text)[tlen / 2] ^= 0x20;
		FUZZ_CHECK(!seal_tag_ok(key, p.text, p.text_len, p.tag));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	switch (data[0] % 3) {
	case 0: _split(data + 1, size - 1); break;
	case 1: _payload(data + 1, size - 1); break;
	default: _roundtrip(data + 1, size - 1); break;
	}
	return 0;
}
