/*
 * test_mix.c - ESP mix files: the shipped mixes load with the paper's
 * numbers, every kind of mistake is refused naming line and key, and the
 * scaling rule keeps the work profile for many machine sizes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "esp/mix.h"
#include "tap.h"

#ifndef ESP_MIX_DIR
#define ESP_MIX_DIR "contribs/esp"
#endif

static char err[ESP_ERR_LEN];

static void test_esp1(void)
{
	struct esp_mix m;
	int rc = esp_mix_load(ESP_MIX_DIR "/esp1.mix", &m, err, sizeof(err));

	is_int(rc, 0, "esp1.mix loads");
	if (rc)
		diag("%s", err);
	is_str(m.name, "esp1", "esp1: name");
	is_int(m.nclasses, 18, "esp1: the 18 rows of Table III");
	is_int(esp_mix_jobs(&m), 82, "esp1: 82 jobs");
	is_int(esp_mix_full_jobs(&m), 2, "esp1: two full-configuration jobs");
	/* Table IV gives 7,437,860 CPU-seconds; Table III's rows sum to
	 * 7,438,090.1 (the paper rounded): T_min = that / 512. */
	is_double(esp_mix_min_time(&m, false) * 512, 7438090.1, 0.5,
		  "esp1: work of Table III");
	ok(!m.has_light, "esp1: no light times");
}

static void test_esp2(void)
{
	struct esp_mix m;
	int rc = esp_mix_load(ESP_MIX_DIR "/esp2.mix", &m, err, sizeof(err));

	is_int(rc, 0, "esp2.mix loads");
	is_int(m.nclasses, 14, "esp2: 14 types A-M and Z");
	is_int(esp_mix_jobs(&m), 230, "esp2: 230 jobs");
	is_int(esp_mix_full_jobs(&m), 2, "esp2: two Z jobs");
	ok(m.has_light, "esp2: light times");
	is_double(esp_mix_min_time(&m, true), 935.2093, 0.001,
		  "esp2: light minimum 935 s");
	is_double(esp_mix_min_time(&m, false), 11002.95, 0.05,
		  "esp2: normal minimum from the table's numbers");
}

/* The text must be refused with exactly this message. */
static void refused(const char *text, const char *want, const char *what)
{
	struct esp_mix m;

	is_int(esp_mix_parse(text, "t.mix", &m, err, sizeof(err)), -1,
	       "%s: refused", what);
	is_str(err, want, "%s: message", what);
	is_int(m.nclasses, 0, "%s: nothing kept", what);
}

#define HEAD "Mix=t Processors=64\n"

static void test_errors(void)
{
	struct esp_mix m;

	is_int(esp_mix_parse(HEAD "# c\n\nClass=a Size=8 Count=2 Time=10 # x\n"
			     "Class=z Fraction=1 Count=2 Time=5\n", "t.mix", &m,
			     err, sizeof(err)), 0, "comments and blank lines");
	is_double(m.classes[0].fraction, 0.125, 1e-12, "Size over Processors");
	ok(m.classes[1].full && !m.classes[0].full, "Fraction=1 is a Z class");

	refused(HEAD "Class=a Size=8 Count=2 Time=10 Colour=red\n",
		"t.mix line 2: key 'Colour': unknown key (known: Mix, "
		"Processors, Class, Size, Fraction, Count, Time, Light)",
		"unknown key");
	refused(HEAD "Class=a Size=8 Count=2 Time=ten\n",
		"t.mix line 2: key 'Time': 'ten' is not a positive number",
		"bad time");
	refused(HEAD "Class=a Size=8 Count=0 Time=1\n",
		"t.mix line 2: key 'Count': '0' is not a count (1-100000)",
		"zero count");
	refused(HEAD "Class=a Size=80 Count=1 Time=1\n",
		"t.mix line 2: key 'Size': 80 is more than Processors=64",
		"size over the machine");
	refused("Mix=t\nClass=a Size=8 Count=1 Time=1\n",
		"t.mix line 2: key 'Size': needs Processors= on the Mix= line",
		"size without processors");
	refused(HEAD "Class=a Size=8 Fraction=0.1 Count=1 Time=1\n",
		"t.mix line 2: key 'Class': give exactly one of Size= and "
		"Fraction=", "size and fraction");
	refused(HEAD "Class=a Fraction=1.5 Count=1 Time=1\n",
		"t.mix line 2: key 'Fraction': '1.5' is more than the whole "
		"machine", "fraction over 1");
	refused(HEAD "Class=a Size=8 Count=1 Time=1\nClass=a Size=4 Count=1 "
		"Time=1\n", "t.mix line 3: key 'Class': 'a' given twice",
		"duplicate class");
	refused(HEAD "Class=a Size=8 Count=1 Time=1 Time=2\n",
		"t.mix line 2: key 'Time': given twice on the line",
		"key twice");
	refused("Class=a Fraction=0.5 Count=1 Time=1\n",
		"t.mix line 1: key 'Class': before the Mix= line",
		"class before mix");
	refused(HEAD "Class=a Size=8 Count=1 Time=1 Light=1\n"
		"Class=b Size=8 Count=1 Time=1\n",
		"t.mix: key 'Light': given for 1 of 2 classes (all or none)",
		"light for some");
	refused("# nothing\n", "t.mix: no Mix= line", "empty file");
	refused(HEAD "Class=a Size=8 Count=1\n",
		"t.mix line 2: key 'Class': needs Count= and Time=",
		"missing time");
	refused(HEAD "Count=3\n",
		"t.mix line 2: key 'Count': a line starts with Mix= or Class=",
		"orphan key");
	refused(HEAD "Class=a b\n", "t.mix line 2: 'b' is not Key=Value",
		"not key=value");
	is_int(esp_mix_load("/nonexistent/x.mix", &m, err, sizeof(err)), -1,
	       "missing file refused");
	is_str(err, "/nonexistent/x.mix: No such file or directory",
	       "missing file: message");
}

/*
 * A NUL byte used to end the mix for the parser (the classes after it were
 * dropped), and Time=0x10 was sixteen seconds.
 */
static void test_strict_text(void)
{
	static const char text[] = HEAD "Class=a Size=8 Count=1 Time=1\n"
		"Class=b Size=8 Count=1\0 Time=1\n";
	char path[] = "/tmp/test_mix.XXXXXX";
	struct esp_mix m;
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, text, sizeof(text) - 1) != sizeof(text) - 1)
		diag("cannot write %s", path);
	close(fd);
	is_int(esp_mix_load(path, &m, err, sizeof(err)), -1,
	       "NUL byte: the mix is refused");
	ok(!strncmp(err, path, strlen(path)) &&
	   !strcmp(err + strlen(path), " line 3: column 23: NUL byte (what follows it would be ignored)"),
	   "NUL byte: file, line and column named (%s)", err);
	unlink(path);
	refused(HEAD "Class=a Size=8 Count=1 Time=1\x08\n",
		"t.mix line 2: column 30: control character 0x08 (only tab, CR and LF are allowed)",
		"backspace");
	refused(HEAD "Class=a Size=8 Count=1 Time=0x10\n",
		"t.mix line 2: key 'Time': '0x10' is not a positive number",
		"hexadecimal time");
	refused(HEAD "Class=a Size=8 Count=1 Time=+5\n",
		"t.mix line 2: key 'Time': '+5' is not a positive number",
		"time with a '+'");
	refused(HEAD "Class=a Fraction=0x1p-3 Count=1 Time=5\n",
		"t.mix line 2: key 'Fraction': '0x1p-3' is not a positive number",
		"hexadecimal fraction");
	/* fuzz_esp_mix: 1e306 s scaled to infinity, 1e-300 summed to 0 */
	refused(HEAD "Class=a Size=64 Count=1 Time=1e306\n",
		"t.mix line 2: key 'Time': '1e306' is outside 0.001..1e+07 seconds",
		"a time that would scale to infinity");
	refused(HEAD "Class=a Fraction=1e-300 Count=1 Time=5\n",
		"t.mix line 2: key 'Fraction': '1e-300' is less than 1e-09 of the machine",
		"a fraction that would make the minimum time 0");
	/* fuzz_esp_mix (make fuzz, 2026-11-28): the same through Size= */
	refused("Mix=t Processors=5122e300\nClass=a Size=510e-30 Count=1 Time=5\n",
		"t.mix line 2: key 'Size': '510e-30' is less than 1e-09 of the machine",
		"a size that makes the class's share of the machine 0");
	refused(HEAD "Class=a Size=8 Count=1 Time=5 Light=1e-300\n",
		"t.mix line 2: key 'Light': '1e-300' is outside 0.001..1e+07 seconds",
		"a light time below a millisecond");
}

/* Per class, the scaled CPU-seconds equal the mix's share of P exactly. */
static void test_scaling(void)
{
	static const uint32_t sizes[] = { 1, 7, 16, 32, 64, 100, 512, 4096 };
	struct esp_mix m;

	esp_mix_load(ESP_MIX_DIR "/esp1.mix", &m, err, sizeof(err));
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint32_t p = sizes[s];
		double worst = 0;
		bool in_range = true, z_whole = true;

		for (size_t i = 0; i < m.nclasses; i++) {
			const struct esp_class *c = &m.classes[i];
			struct esp_scaled x = esp_class_scale(c, p, false);
			double want = c->fraction * p * c->seconds;

			worst = fmax(worst, fabs(x.size * x.seconds / want - 1));
			in_range &= x.size >= 1 && x.size <= p;
			z_whole &= !c->full || x.size == p;
		}
		ok(worst < 1e-12, "P=%u: every class keeps its CPU-seconds "
		   "(worst %.2g)", p, worst);
		ok(in_range, "P=%u: sizes within 1..P", p);
		ok(z_whole, "P=%u: Z jobs take the whole machine", p);
	}
	/* The rounding itself: 81/512 of 32 is 5.06 -> 5 processors. */
	is_int(esp_class_scale(&m.classes[11], 32, false).size, 5,
	       "81 of 512 on 32 processors: 5");
	is_double(esp_class_scale(&m.classes[11], 32, false).seconds,
		  4578.0 * 5.0625 / 5, 1e-9, "... its time stretched by 5.0625/5");
}

int main(void)
{
	test_esp1();
	test_esp2();
	test_errors();
	test_strict_text();
	test_scaling();
	return done_testing();
}
