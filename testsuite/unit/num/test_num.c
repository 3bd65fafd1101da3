/*
 * test_num.c - the strict number parsers of lib/num.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "num/num.h"
#include "tap.h"

static void test_u64(void)
{
	uint64_t v = 7;

	ok(!num_parse_u64("0", &v) && v == 0, "u64: 0");
	ok(!num_parse_u64("18446744073709551615", &v) && v == UINT64_MAX,
	   "u64: the largest");
	ok(num_parse_u64("18446744073709551616", &v), "u64: overflow refused");
	ok(num_parse_u64("+1", &v) || num_parse_u64(" 1", &v) ||
	   num_parse_u64("-1", &v), "u64: a sign or a blank refused");
	ok(num_parse_u64("1x", &v), "u64: trailing text refused");
	ok(num_parse_u64("", &v), "u64: empty refused");
	ok(num_parse_u64("0x10", &v) && num_parse_u64("010x", &v),
	   "u64: hexadecimal refused");
	ok(num_parse_u64("1e3", &v) && num_parse_u64("1.0", &v),
	   "u64: an exponent or a fraction refused");
	ok(!num_parse_u64("010", &v) && v == 10, "u64: 010 is ten (decimal)");
	ok(num_parse_range("5", 1, 4, &v), "range: above max refused");
	ok(!num_parse_range("4", 1, 4, &v) && v == 4, "range: max accepted");
}

static void test_signed(void)
{
	int64_t v = 7;

	ok(!num_parse_signed("-39", -39, -1, &v) && v == -39, "signed: -39");
	ok(!num_parse_signed("12", 0, 20, &v) && v == 12, "signed: 12");
	ok(num_parse_signed("-40", -39, -1, &v) && v == 12,
	   "signed: below min refused, out untouched");
	ok(num_parse_signed("+5", -9, 9, &v) && num_parse_signed(" 5", -9, 9, &v) &&
	   num_parse_signed("- 5", -9, 9, &v) && num_parse_signed("--5", -9, 9, &v) &&
	   num_parse_signed("-", -9, 9, &v) && num_parse_signed("0x5", -9, 9, &v),
	   "signed: '+', blanks, hexadecimal and a bare sign refused");
	ok(!num_parse_signed("-9223372036854775808", INT64_MIN, INT64_MAX, &v) &&
	   v == INT64_MIN, "signed: the smallest");
	ok(num_parse_signed("9223372036854775808", INT64_MIN, INT64_MAX, &v),
	   "signed: overflow refused");
}

static void test_double(void)
{
	double d = 0;

	ok(!num_parse_double("2.5", &d) && d == 2.5, "double: 2.5");
	ok(num_parse_double(" 2.5", &d), "double: leading blank refused");
	ok(num_parse_double("2.5s", &d), "double: trailing text refused");
	ok(num_parse_double("inf", &d), "double: infinity refused");
	ok(num_parse_double("1e999", &d), "double: overflow refused");
	ok(num_parse_double("0x10", &d) && num_parse_double("0x1p3", &d) &&
	   num_parse_double("0X1P-2", &d), "double: hexadecimal refused");
	ok(num_parse_double("+5", &d) && num_parse_double("+.5", &d),
	   "double: a '+' sign refused");
	ok(num_parse_double("nan", &d) && num_parse_double("NAN(1)", &d) &&
	   num_parse_double("-infinity", &d), "double: nan and infinity refused");
	ok(num_parse_double("\t5", &d) && num_parse_double("5 ", &d) &&
	   num_parse_double("\n5", &d), "double: blanks around refused");
	ok(num_parse_double(".", &d) && num_parse_double("-", &d) &&
	   num_parse_double("1e", &d) && num_parse_double("e3", &d) &&
	   num_parse_double("1e+", &d) && num_parse_double("1..2", &d),
	   "double: incomplete numbers refused");
	ok(!num_parse_double("1e3", &d) && d == 1000 &&
	   !num_parse_double("-2.5E-1", &d) && d == -0.25 &&
	   !num_parse_double(".5", &d) && d == 0.5 &&
	   !num_parse_double("5.", &d) && d == 5,
	   "double: decimal fractions and exponents accepted");
}

static void test_rate(void)
{
	double d = 0;

	ok(!num_parse_rate("600M", &d) && d == 600e6, "rate: 600M");
	ok(!num_parse_rate("40k", &d) && d == 40e3, "rate: 40k");
	ok(!num_parse_rate("1.5G", &d) && d == 1.5e9, "rate: 1.5G");
	ok(!num_parse_rate("2T", &d) && d == 2e12, "rate: 2T");
	ok(!num_parse_rate("123", &d) && d == 123, "rate: no suffix");
	ok(!num_parse_rate("0", &d) && d == 0, "rate: 0");
	ok(num_parse_rate("-1M", &d), "rate: negative refused");
	ok(num_parse_rate("M", &d), "rate: suffix alone refused");
	ok(num_parse_rate("10MB", &d), "rate: unknown suffix refused");
	ok(num_parse_rate("", &d), "rate: empty refused");
	ok(num_parse_rate("1e308G", &d), "rate: overflow refused");
	ok(num_parse_rate("0x10M", &d) && num_parse_rate("+1M", &d) &&
	   num_parse_rate("nanM", &d), "rate: hexadecimal, '+' and nan refused");
}

int main(void)
{
	plan(40);
	test_u64();
	test_signed();
	test_double();
	test_rate();
	return done_testing();
}
