/*
 * test_cosched_bw.c - parsing and canonical text of
 * --cosched-bw=mem=RATE,net=RATE.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "cosched/bw.h"
#include "tap.h"
#include "num/errbuf.h"

static char err[ERRBUF_LEN];

/* Parse text; on success return its canonical form, else "ERR". */
static const char *canon(const char *text)
{
	static char buf[COSCHED_BW_TEXT_LEN];
	struct cosched_bw bw;

	err[0] = '\0';
	if (cosched_parse_bw(text, &bw, err, sizeof(err)))
		return "ERR";
	if (cosched_format_bw(&bw, buf, sizeof(buf)))
		return "FORMAT-ERR";
	return buf;
}

/* The parse of text fails, with exactly want / a message naming part. */
#define rejects_with(text, want) tap_refused(canon(text), err, (text), (want))
#define rejects_naming(text, part) \
	tap_refused_naming(canon(text), err, (text), (part))

static void test_valid(void)
{
	struct cosched_bw bw;

	is_str(canon("mem=600M,net=40M"), "mem=600000000,net=40000000",
	       "both, with suffixes");
	is_str(canon("net=40M,mem=600M"), "mem=600000000,net=40000000",
	       "any order, mem first in the canonical text");
	is_str(canon("mem=1G"), "mem=1000000000", "mem alone");
	is_str(canon("net=2.5k"), "net=2500", "net alone, a fraction");
	is_str(canon("net=1K"), "net=1000", "K is 1e3 too");
	is_str(canon("mem=0"), "mem=0", "zero: a job that declares none");
	is_str(canon("mem=1.4"), "mem=1", "rounded down to whole bytes");
	is_str(canon("mem=1.5"), "mem=2", "rounded up to whole bytes");
	is_str(canon("mem=1000T"), "mem=1000000000000000", "the maximum");
	is_str(canon("mem=1e9,net=12345"), "mem=1000000000,net=12345",
	       "plain numbers and exponents");

	ok(!cosched_parse_bw("mem=600M,net=40M", &bw, err, sizeof(err)),
	   "parses into the struct");
	ok(bw.mem_set && bw.net_set, "both set");
	is_double(bw.mem, 6e8, 0, "mem 6e8");
	is_double(bw.net, 4e7, 0, "net 4e7");
	ok(!cosched_parse_bw("net=3M", &bw, err, sizeof(err)) &&
	   !bw.mem_set && bw.net_set, "net only: mem not set");
	ok(!cosched_parse_bw("mem=3M", NULL, NULL, 0),
	   "output and message buffer are optional");
}

static void test_rejections(void)
{
	char long_rate[100];

	rejects_with("", "--cosched-bw: nothing given (expected e.g. --cosched-bw=mem=600M,net=40M)");
	rejects_naming(NULL, "nothing given");
	rejects_with("mem=600M,mem=1G",
		     "--cosched-bw: mem given twice (item 2 of \"mem=600M,mem=1G\")");
	rejects_with("disk=1G",
		     "--cosched-bw: unknown key 'disk' (item 1 of \"disk=1G\"): expected mem or net");
	rejects_with("mem=600M,",
		     "--cosched-bw: empty item (item 2 of \"mem=600M,\"): stray comma");
	rejects_with("600M",
		     "--cosched-bw: bad item '600M' (item 1 of \"600M\"): expected mem=RATE or net=RATE");
	rejects_with("mem=fast",
		     "--cosched-bw: bad rate 'mem=fast' (item 1 of \"mem=fast\"): expected bytes per second per process, a number with an optional k, M, G or T suffix, at most 1000T");
	rejects_naming(",mem=1", "empty item (item 1 of");
	rejects_naming("mem=1,,net=1", "empty item (item 2 of");
	rejects_naming("MEM=1G", "unknown key 'MEM'");
	rejects_naming("=1G", "unknown key ''");
	rejects_naming("memory=1G", "unknown key 'memory'");
	rejects_naming("mem=", "bad rate 'mem='");
	rejects_naming("mem=-1", "bad rate 'mem=-1'");
	rejects_naming("mem= 1", "bad rate 'mem= 1'");
	rejects_naming("mem=1 ", "bad rate 'mem=1 '");
	rejects_naming("mem=1M/s", "bad rate 'mem=1M/s'");
	rejects_naming("mem=1MB", "bad rate 'mem=1MB'");
	rejects_naming("mem=1m", "bad rate 'mem=1m'");
	rejects_naming("mem=1001T", "at most 1000T");
	rejects_naming("mem=inf", "bad rate 'mem=inf'");
	rejects_naming("mem=nan", "bad rate 'mem=nan'");
	rejects_naming("mem=1e400", "bad rate");
	rejects_naming("mem=1G;net=1M", "bad rate 'mem=1G;net=1M'");
	rejects_naming("mem=1G net=1M", "bad rate");
	rejects_naming("net=1M,net=1M", "net given twice (item 2 of");

	memset(long_rate, '1', sizeof(long_rate) - 1);
	memcpy(long_rate, "mem=", 4);
	long_rate[sizeof(long_rate) - 1] = '\0';
	rejects_naming(long_rate, "bad rate 'mem=11111111111111111...'");
	ok(strstr(err, "...\")") != NULL, "a long list is abridged");
	ok(strlen(err) < sizeof(err) - 1, "the message is not truncated");
}

static void test_untouched(void)
{
	struct cosched_bw bw = { .mem = 7, .mem_set = true };
	char small[12];

	ok(cosched_parse_bw("mem=1,net=x", &bw, err, sizeof(err)), "fails");
	ok(bw.mem == 7 && bw.mem_set && !bw.net_set, "output untouched");
	strcpy(err, "keep");
	ok(!cosched_parse_bw("net=1", &bw, err, sizeof(err)), "parses");
	is_str(err, "keep", "message buffer untouched on success");
	ok(cosched_parse_bw("x", &bw, small, sizeof(small)),
	   "fails with a small message buffer");
	is_int(strlen(small), sizeof(small) - 1, "cut and terminated");
}

static void test_format(void)
{
	struct cosched_bw bw = { .mem = 6e8, .net = 4e7, .mem_set = true,
				 .net_set = true };
	struct cosched_bw none = { .mem = 1 };
	char buf[COSCHED_BW_TEXT_LEN];

	ok(!cosched_format_bw(&bw, buf, sizeof(buf)), "formats");
	is_str(buf, "mem=600000000,net=40000000", "canonical text");
	ok(cosched_format_bw(&bw, buf, 10), "too small a buffer fails");
	is_str(buf, "", "and leaves it empty");
	ok(cosched_format_bw(&none, buf, sizeof(buf)), "nothing set fails");
	bw.net = -1;
	ok(cosched_format_bw(&bw, buf, sizeof(buf)), "a negative rate fails");
	bw.net = 2e15;
	ok(cosched_format_bw(&bw, buf, sizeof(buf)), "above the maximum fails");
	bw.net_set = false;
	ok(!cosched_format_bw(&bw, buf, sizeof(buf)) &&
	   !strcmp(buf, "mem=600000000"), "an unset field is not checked");
	bw = (struct cosched_bw){ .mem = 1e15, .net = 1e15, .mem_set = true,
				  .net_set = true };
	ok(!cosched_format_bw(&bw, buf, sizeof(buf)),
	   "the largest hint fits COSCHED_BW_TEXT_LEN");
	ok(cosched_format_bw(NULL, buf, sizeof(buf)), "NULL fails");
	ok(cosched_format_bw(&bw, NULL, 8), "no buffer fails");
}

int main(void)
{
	test_valid();
	test_rejections();
	test_untouched();
	test_format();
	return done_testing();
}
