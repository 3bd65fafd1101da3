/*
 * test_mbmsg.c - the MemBUS messages' parser and formatter (agent/membus/mbmsg.c).
 *
 * A vote and a decision as agents write them parse into the struct; what
 * the formatter writes parses back to the same struct.  Everything else
 * is refused with a reason and never crashes: the class that fuzzing
 * found crashing the agent (apps, order or forced missing or not arrays,
 * null elements), wrong types, q out of range, overlong or foreign
 * strings, too many or repeated entries, extra or missing keys, a text
 * that is not one JSON object, and a message addressed to another node.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "membus/mbmsg.h"
#include "tap.h"

#define VOTE_HEAD "{\"t\":\"vote\",\"q\":7,\"from\":\"n2\",\"to\":\"n1\","
#define DEC_HEAD "{\"t\":\"decision\",\"q\":7,\"from\":\"n1\",\"to\":\"n2\","
#define APP "{\"id\":\"5.0\",\"sel\":1,\"nodes\":2}"

static struct mbmsg msg;
static char err[MBMSG_ERR_LEN];

static int parse(const char *text, const char *self)
{
	return mbmsg_parse(text, strlen(text), self, &msg, err, sizeof(err));
}

/* text is refused, the reason containing want. */
static void refused(const char *text, const char *want, const char *what)
{
	int rc = parse(text, NULL);

	ok(rc == -1 && strstr(err, want) != NULL, "%s: refused (%s)", what,
	   rc ? err : "accepted");
}

static void test_accepted(void)
{
	is_int(parse(VOTE_HEAD "\"apps\":[" APP ",{\"id\":\"6.1\",\"sel\":0,\"nodes\":1}]}",
		     "n1"), 0, "a vote parses (%s)", err);
	ok(msg.type == MBMSG_VOTE && msg.q == 7 && !strcmp(msg.from, "n2") &&
	   !strcmp(msg.to, "n1"), "... type, q, from, to");
	ok(msg.napps == 2 && !strcmp(msg.apps[0].id, "5.0") && msg.apps[0].sel &&
	   msg.apps[0].nodes == 2 && !strcmp(msg.apps[1].id, "6.1") &&
	   !msg.apps[1].sel && msg.apps[1].nodes == 1, "... its applications");
	is_int(parse(DEC_HEAD "\"order\":[\"5.0\",\"6.1\"],\"forced\":[\"6.1\"]}",
		     "n2"), 0, "a decision parses (%s)", err);
	ok(msg.type == MBMSG_DECISION && msg.norder == 2 && msg.nforced == 1 &&
	   !strcmp(msg.order[1], "6.1") && !strcmp(msg.forced[0], "6.1"),
	   "... its order and forced steps");
	is_int(parse(VOTE_HEAD "\"apps\":[]}", NULL), 0, "a vote with no application");
	is_int(parse(" \n" DEC_HEAD "\"order\":[],\"forced\":[]}\n", NULL), 0,
	       "white space around the object");
	is_int(parse(VOTE_HEAD "\"apps\":[],\"q\":8}", NULL), 0,
	       "a repeated key: json-c keeps the last one");
	ok(msg.q == 8, "... (q = 8)");
}

/* The fuzzers' finds: json-c asserted, or strcmp got NULL. */
static void test_crashers(void)
{
	refused("{\"t\":\"decision\",\"q\":5,\"from\":\"n1\",\"od\":[\"1.0\"]}",
		"unknown key", "the fuzzers' example (order and forced missing)");
	refused(DEC_HEAD "\"forced\":[]}", "lacks a key", "a decision without order");
	refused(DEC_HEAD "\"order\":[]}", "lacks a key", "a decision without forced");
	refused(DEC_HEAD "\"order\":\"5.0\",\"forced\":[]}",
		"\"order\" is not an array", "order a string");
	refused(DEC_HEAD "\"order\":{},\"forced\":[]}",
		"\"order\" is not an array", "order an object");
	refused(DEC_HEAD "\"order\":null,\"forced\":[]}",
		"\"order\" is not an array", "order null");
	refused(DEC_HEAD "\"order\":[],\"forced\":5}",
		"\"forced\" is not an array", "forced a number");
	refused(DEC_HEAD "\"order\":[null],\"forced\":[]}",
		"\"order\" is not a string", "a null in order");
	refused(DEC_HEAD "\"order\":[],\"forced\":[null]}",
		"\"forced\" is not a string", "a null in forced");
	refused(DEC_HEAD "\"order\":[5],\"forced\":[]}",
		"\"order\" is not a string", "a number in order");
	refused(VOTE_HEAD "\"app\":[]}", "unknown key", "a vote without apps");
	refused(VOTE_HEAD "\"apps\":{}}", "\"apps\" is not an array", "apps an object");
	refused(VOTE_HEAD "\"apps\":true}", "\"apps\" is not an array", "apps a boolean");
	refused(VOTE_HEAD "\"apps\":[null]}", "not an object", "a null in apps");
	refused(VOTE_HEAD "\"apps\":[\"5.0\"]}", "not an object", "a string in apps");
	refused(VOTE_HEAD "\"apps\":[{\"id\":null,\"sel\":1,\"nodes\":2}]}",
		"\"id\" is not a string", "a null id");
	refused(VOTE_HEAD "\"apps\":[{\"sel\":1,\"nodes\":2}]}", "lacks a key",
		"an app without id");
}

static void test_types_and_ranges(void)
{
	refused(VOTE_HEAD "\"apps\":[{\"id\":\"5.0\",\"sel\":2,\"nodes\":2}]}",
		"\"sel\" is out of range", "sel 2");
	refused(VOTE_HEAD "\"apps\":[{\"id\":\"5.0\",\"sel\":true,\"nodes\":2}]}",
		"\"sel\" is not an integer", "sel a boolean");
	refused(VOTE_HEAD "\"apps\":[{\"id\":\"5.0\",\"sel\":1,\"nodes\":0}]}",
		"\"nodes\" is out of range", "nodes 0");
	refused(VOTE_HEAD "\"apps\":[{\"id\":\"5.0\",\"sel\":1,\"nodes\":4294967296}]}",
		"\"nodes\" is out of range", "nodes 2^32");
	refused(VOTE_HEAD "\"apps\":[{\"id\":\"5.0\",\"sel\":1,\"nodes\":1.5}]}",
		"\"nodes\" is not an integer", "nodes a fraction");
	refused(VOTE_HEAD "\"apps\":[{\"id\":\"5.0\",\"sel\":1,\"nodes\":2,\"x\":1}]}",
		"unknown key", "an app with an extra key");
	refused("{\"t\":\"vote\",\"from\":\"n2\",\"to\":\"n1\",\"apps\":[],\"x\":1}",
		"unknown key", "a vote without q");
	refused("{\"t\":\"vote\",\"q\":\"7\",\"from\":\"n2\",\"to\":\"n1\",\"apps\":[]}",
		"\"q\" is not an integer", "q a string");
	refused("{\"t\":\"vote\",\"q\":7.0,\"from\":\"n2\",\"to\":\"n1\",\"apps\":[]}",
		"\"q\" is not an integer", "q a double");
	refused("{\"t\":\"vote\",\"q\":1e300,\"from\":\"n2\",\"to\":\"n1\",\"apps\":[]}",
		"\"q\" is not an integer", "q 1e300");
	refused("{\"t\":\"vote\",\"q\":0,\"from\":\"n2\",\"to\":\"n1\",\"apps\":[]}",
		"\"q\" is out of range", "q 0");
	refused("{\"t\":\"vote\",\"q\":-3,\"from\":\"n2\",\"to\":\"n1\",\"apps\":[]}",
		"\"q\" is out of range", "q negative");
	refused("{\"t\":\"vote\",\"q\":1000000000000001,\"from\":\"n2\",\"to\":\"n1\",\"apps\":[]}",
		"\"q\" is out of range", "q above 1e15");
	refused("{\"t\":\"vote\",\"q\":99999999999999999999999,\"from\":\"n2\",\"to\":\"n1\",\"apps\":[]}",
		"\"q\"", "q beyond 64 bits");
	refused("{\"q\":7,\"from\":\"n2\",\"to\":\"n1\",\"apps\":[]}",
		"\"t\" is missing", "no type");
	refused("{\"t\":\"hello\",\"q\":7,\"from\":\"n2\",\"to\":\"n1\",\"apps\":[]}",
		"neither vote nor decision", "an unknown type");
	refused("{\"t\":1,\"q\":7,\"from\":\"n2\",\"to\":\"n1\",\"apps\":[]}",
		"\"t\" is missing or not a string", "a type that is a number");
	refused(VOTE_HEAD "\"apps\":[],\"extra\":1}", "unknown key", "an extra key");
	refused(DEC_HEAD "\"order\":[],\"forced\":[],\"apps\":[]}", "unknown key",
		"a decision with a vote's key");
	refused("{\"t\":\"vote\",\"q\":7,\"from\":5,\"to\":\"n1\",\"apps\":[]}",
		"\"from\" is not a string", "from a number");
	refused("{\"t\":\"vote\",\"q\":7,\"from\":\"n2\",\"to\":null,\"apps\":[]}",
		"\"to\" is not a string", "to null");
}

static void test_strings_and_counts(void)
{
	char text[MBMSG_TEXT_MAX * 2], name[200];
	size_t used;

	memset(name, 'a', 64);
	name[64] = '\0';
	snprintf(text, sizeof(text),
		 "{\"t\":\"vote\",\"q\":7,\"from\":\"%s\",\"to\":\"n1\",\"apps\":[]}", name);
	refused(text, "\"from\" is too long", "a 64-byte node name");
	refused("{\"t\":\"vote\",\"q\":7,\"from\":\"n 2\",\"to\":\"n1\",\"apps\":[]}",
		"\"from\" is not a valid value", "a node name with a space");
	refused("{\"t\":\"vote\",\"q\":7,\"from\":\"\",\"to\":\"n1\",\"apps\":[]}",
		"\"from\" is not a valid value", "an empty node name");
	refused("{\"t\":\"vote\",\"q\":7,\"from\":\"n\\u00002\",\"to\":\"n1\",\"apps\":[]}",
		"holds a NUL", "a node name with an escaped NUL");
	refused(DEC_HEAD "\"order\":[\"1234567890123456789.12345678901234567890\"],\"forced\":[]}",
		"\"order\" is too long", "an overlong id");
	refused(DEC_HEAD "\"order\":[\"12345678901.1\"],\"forced\":[]}",
		"\"order\" is not a valid value", "an id part of 11 digits");
	refused(DEC_HEAD "\"order\":[\"1.2.3\"],\"forced\":[]}",
		"\"order\" is not a valid value", "an id with two dots");
	refused(DEC_HEAD "\"order\":[\"abc\"],\"forced\":[]}",
		"\"order\" is not a valid value", "an id not J.S");
	refused(DEC_HEAD "\"order\":[\"1.\"],\"forced\":[]}",
		"\"order\" is not a valid value", "an id without its step");
	refused(DEC_HEAD "\"order\":[\"5.0\",\"5.0\"],\"forced\":[]}",
		"names an application twice", "an id twice in order");
	refused(VOTE_HEAD "\"apps\":[" APP "," APP "]}",
		"names an application twice", "an application twice in a vote");

	/* MBMSG_APPS_MAX entries pass, one more does not */
	for (int extra = 0; extra <= 1; extra++) {
		used = (size_t)snprintf(text, sizeof(text), DEC_HEAD "\"order\":[");
		for (int i = 0; i < MBMSG_APPS_MAX + extra; i++)
			used += (size_t)snprintf(text + used, sizeof(text) - used,
						 "%s\"%d.0\"", i ? "," : "", i);
		snprintf(text + used, sizeof(text) - used, "],\"forced\":[]}");
		if (!extra)
			is_int(parse(text, NULL), 0, "%d entries in order are accepted (%s)",
			       MBMSG_APPS_MAX, err);
		else
			refused(text, "more than 256 entries", "257 entries in order");
	}
	memset(text, ' ', MBMSG_TEXT_MAX + 1);
	memcpy(text, VOTE_HEAD "\"apps\":[]}", strlen(VOTE_HEAD "\"apps\":[]}"));
	text[MBMSG_TEXT_MAX + 1] = '\0';
	refused(text, "longer than", "a text longer than MBMSG_TEXT_MAX");
}

/* Exactly len bytes, no NUL after them (ASan sees any read beyond). */
static int parse_unterminated(const char *text)
{
	size_t len = strlen(text);
	char *copy = malloc(len);
	int rc;

	memcpy(copy, text, len);
	rc = mbmsg_parse(copy, len, NULL, &msg, err, sizeof(err));
	free(copy);
	return rc;
}

static void test_texts(void)
{
	static const char nul[] = VOTE_HEAD "\"apps\":[]}\0junk";

	is_int(parse_unterminated(VOTE_HEAD "\"apps\":[]}"), 0,
	       "a text without a NUL after it (the fuzzer's find: read to its end only)");
	is_int(parse_unterminated(VOTE_HEAD "\"apps\":[]}  "), 0,
	       "... with white space at its end");

	ok(mbmsg_parse(nul, sizeof(nul) - 1, NULL, &msg, err, sizeof(err)) == -1 &&
	   strstr(err, "NUL"), "a NUL byte inside the text (%s)", err);
	refused(VOTE_HEAD "\"apps\":[]}{}", "not one JSON text", "two objects");
	refused(VOTE_HEAD "\"apps\":[]} x", "not one JSON text", "trailing garbage");
	refused(VOTE_HEAD "\"apps\":[", "not one JSON text", "cut short");
	refused("[]", "not a JSON object", "an array");
	refused("7", "JSON", "a number");
	refused("", "not one JSON text", "nothing");
	refused(VOTE_HEAD "\"apps\":[{\"id\":\"5.0\",\"sel\":1,\"nodes\":[[[1]]]}]}",
		"not one JSON text", "nesting deeper than a vote's");
	refused("{\"t\":\"vote\",\"q\":NaN,\"from\":\"n2\",\"to\":\"n1\",\"apps\":[]}",
		"\"q\"", "NaN");
	refused("{'t':'vote'}", "not one JSON text", "single quotes (not strict JSON)");
	ok(parse(VOTE_HEAD "\"apps\":[]}", "n3") == -1 &&
	   !strcmp(err, "addressed to another node"),
	   "a message to another node, read on n3: refused (%s)", err);
	is_int(parse(VOTE_HEAD "\"apps\":[]}", "n1"), 0, "... and accepted on n1");
}

static void test_format(void)
{
	struct mbmsg *out = calloc(1, sizeof(*out));
	char text[MBMSG_TEXT_MAX + 1];
	int n;

	memset(out, 0, sizeof(*out));
	out->type = MBMSG_VOTE;
	out->q = 12;
	strcpy(out->from, "n2");
	strcpy(out->to, "n10");
	out->napps = 1;
	strcpy(out->apps[0].id, "40.3");
	out->apps[0].sel = true;
	out->apps[0].nodes = 3;
	n = mbmsg_format(out, text, sizeof(text));
	is_str(n > 0 ? text : "", "{\"t\":\"vote\",\"q\":12,\"from\":\"n2\",\"to\":\"n10\","
	       "\"apps\":[{\"id\":\"40.3\",\"sel\":1,\"nodes\":3}]}", "a vote's text");
	is_int(mbmsg_roundtrip(text, (size_t)n), 1, "... parses back to the same");
	ok(mbmsg_format(out, text, 20) == -1, "a buffer too small: -1");
	strcpy(out->to, "bad name");
	ok(mbmsg_format(out, text, sizeof(text)) == -1,
	   "a message the parser would refuse is not written");
	memset(out, 0, sizeof(*out));
	out->type = MBMSG_DECISION;
	out->q = 12;
	strcpy(out->from, "n1");
	strcpy(out->to, "n2");
	for (int i = 0; i < MBMSG_APPS_MAX; i++)
		snprintf(out->order[i], sizeof(out->order[i]), "%d.%d", 1000000 + i, i);
	out->norder = MBMSG_APPS_MAX;
	strcpy(out->forced[0], "1000000.0");
	out->nforced = 1;
	n = mbmsg_format(out, text, sizeof(text));
	ok(n > 0, "a decision of %d steps is written (%d bytes)", MBMSG_APPS_MAX, n);
	is_int(mbmsg_roundtrip(text, (size_t)n), 1, "... and parses back to the same");
	is_int(mbmsg_roundtrip("{\"t\":\"vote\"}", 12), 0, "roundtrip of a refused text: 0");
	free(out);
}

int main(void)
{
	plan(82);
	test_accepted();
	test_crashers();
	test_types_and_ranges();
	test_strings_and_counts();
	test_texts();
	test_format();
	return done_testing();
}
