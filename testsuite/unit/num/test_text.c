/*
 * test_text.c - checked text files (lib/num/text.c): a NUL byte or a
 * control character is refused with the file, line and column, never
 * silently cut short.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "num/text.h"
#include "tap.h"

static char err[256];

static int check(const char *text, size_t len)
{
	err[0] = '\0';
	return text_check(text, len, "f.conf", err, sizeof(err));
}

static void test_check(void)
{
	static const char nul[] = "a=1\nb=2\0c=3\n";
	static const char esc[] = "a=1\n\tb=\x1b[2J\n";
	static const char text[] = "a=1\tb=2\r\n# caf\xc3\xa9\n";

	is_int(check(text, sizeof(text) - 1), 0,
	       "tab, CR, LF and UTF-8 are text");
	is_int(check(nul, sizeof(nul) - 1), -1, "a NUL byte is refused");
	is_str(err, "f.conf line 2: column 4: NUL byte (what follows it would be ignored)",
	       "  naming file, line and column");
	is_int(check(esc, sizeof(esc) - 1), -1, "an escape is refused");
	is_str(err, "f.conf line 2: column 4: control character 0x1B (only tab, CR and LF are allowed)",
	       "  naming file, line and column");
	is_int(check("x\x7f", 2), -1, "DEL is refused");
	is_int(check("", 0), 0, "an empty text is fine");
}

/* A file of len bytes of text in a fresh temporary name into path. */
static void write_file(char *path, const char *text, size_t len)
{
	int fd;

	strcpy(path, "/tmp/test_text.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len)
		diag("cannot write %s", path);
	close(fd);
}

static void test_load(void)
{
	static const char nul[] = "Site=a Nodes=n1\n\0Site=b Nodes=n2\n";
	char path[64], *text, *big;

	write_file(path, nul, sizeof(nul) - 1);
	text = text_load(path, err, sizeof(err));
	ok(!text, "load: a file with a NUL byte is refused");
	ok(strstr(err, " line 2: column 1: NUL byte") != NULL,
	   "  at line 2 column 1 (%s)", err);
	free(text);
	unlink(path);

	write_file(path, "a=1\nb=2", 7);
	text = text_load(path, err, sizeof(err));
	is_str(text ? text : "(null)", "a=1\nb=2", "load: the whole text");
	free(text);
	unlink(path);

	big = malloc(TEXT_MAX_BYTES + 2);
	memset(big, 'x', TEXT_MAX_BYTES + 1);
	write_file(path, big, TEXT_MAX_BYTES + 1);
	text = text_load(path, err, sizeof(err));
	ok(!text && strstr(err, "larger than 1048576 bytes"),
	   "load: a file over 1 MiB is refused (%s)", err);
	free(text);
	unlink(path);
	write_file(path, big, TEXT_MAX_BYTES);
	text = text_load(path, err, sizeof(err));
	ok(text && strlen(text) == TEXT_MAX_BYTES, "load: 1 MiB is read whole");
	free(text);
	unlink(path);
	free(big);

	text = text_load("/nonexistent/f", err, sizeof(err));
	is_str(text ? text : err, "/nonexistent/f: No such file or directory",
	       "load: a missing file is named");
}

int main(void)
{
	plan(13);
	test_check();
	test_load();
	return done_testing();
}
