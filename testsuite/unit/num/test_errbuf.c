/*
 * test_errbuf.c - the parsers' error buffer: messages about a place in a
 * file in the one form every config error of the suite has, cut safely.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "num/errbuf.h"
#include "tap.h"

int main(void)
{
	char err[ERRBUF_LEN], small[12];
	struct errbuf_quote q;

	plan(14);
	is_int(errbuf_at(err, sizeof(err), "coalloc.conf", 3, "Site",
			 "site '%s' is defined twice", "a"), -1, "returns -1");
	is_str(err, "coalloc.conf line 3: key 'Site': site 'a' is defined twice",
	       "file, line, key and what");
	errbuf_at(err, sizeof(err), "coalloc.conf", 0, "Site", "no Site= line");
	is_str(err, "coalloc.conf: key 'Site': no Site= line",
	       "line 0: about the file as a whole");
	errbuf_at(err, sizeof(err), "esp1.mix", 7, NULL, "expected KEY=VALUE");
	is_str(err, "esp1.mix line 7: expected KEY=VALUE", "no key");
	errbuf_at(err, sizeof(err), NULL, 12, NULL, "too many words");
	is_str(err, "line 12: too many words", "no file");
	errbuf_at(err, sizeof(err), NULL, 0, "k", "bad");
	is_str(err, "key 'k': bad", "key alone");
	errbuf_at(small, sizeof(small), "coalloc.conf", 3, "Site", "x");
	is_str(small, "coalloc.con", "cut to the buffer, terminated");
	is_int(errbuf_at(NULL, 0, "f", 1, NULL, "x"), -1, "no buffer: -1");

	is_int(errbuf_fail(err, sizeof(err), "bad %d", 5), -1, "fail: -1");
	is_str(err, "bad 5", "  with the message");
	is_int(errbuf_fail(NULL, 0, "x"), -1, "  and without a buffer");
	errbuf_set(small, sizeof(small), "%s", "a long message here");
	is_str(small, "a long mess", "set: cut, terminated");

	q = errbuf_quote(10, 24);
	ok(q.len == 10 && !strcmp(q.more, ""), "a short input is quoted whole");
	q = errbuf_quote(100, 24);
	ok(q.len == 21 && !strcmp(q.more, "..."), "a long one cut with ...");
	return done_testing();
}
