/*
 * test_plugstack_check.c - cosched.so's line found in a plugstack.conf as
 * Slurm reads it (comments, includes by glob, other plugins), and
 * coalloc.conf's GangPortOffset checked against its gang_port_offset.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coalloc_conf/coalloc_conf.h"
#include "cosched_proto/plugstack.h"
#include "tap.h"

static char dir[] = "/tmp/test_plugstack_XXXXXX";
static char path[512], err[1024];

static void _bail(const char *what)
{
	printf("Bail out! %s: %s\n", what, err);
	exit(1);
}

static const char *_file(const char *name, const char *text)
{
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(f = fopen(path, "w")) || fputs(text, f) < 0 || fclose(f))
		abort();
	return path;
}

static const char *_at(const char *name)
{
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void test_find(void)
{
	struct cosched_plugstack_line l;
	char want[600];

	is_int(cosched_plugstack_find(_at("absent.conf"), &l, err, sizeof(err)),
	       0, "no file: no line (Slurm: an empty stack)");
	_file("p1.conf", "# stack\n\noptional /x/pyxis.so\n"
		"required /usr/lib/slurm/notcosched.so gang_port_offset=7\n"
		"required  /usr/lib/slurm/cosched.so\tgang_port_offset=1002 idle_exit=0 # two\n"
		"required cosched.so gang_port_offset=9\n");
	is_int(cosched_plugstack_find(_at("p1.conf"), &l, err, sizeof(err)), 1,
	       "the line found");
	is_int(l.line, 5, "... the first cosched.so line, other plugins passed");
	is_int(l.argc, 2, "... its two arguments, the comment cut");
	is_str(l.argv[0], "gang_port_offset=1002", "... the first");
	is_str(l.argv[1], "idle_exit=0", "... the second");
	ok(l.argv[2] == NULL, "... argv ends in NULL");
	cosched_plugstack_line_free(&l);

	_file("p2.conf", "# nothing of ours\noptional /x/pyxis.so a=b\n");
	is_int(cosched_plugstack_find(_at("p2.conf"), &l, err, sizeof(err)), 0,
	       "a stack without cosched.so: none");

	snprintf(want, sizeof(want), "%s/plugstack.conf.d", dir);
	if (mkdir(want, 0755))
		abort();
	_file("plugstack.conf.d/a.conf", "optional /x/pyxis.so\n");
	_file("plugstack.conf.d/b.conf", "\nrequired cosched.so\n");
	_file("plugstack.conf.d/c.txt", "required cosched.so never=read\n");
	_file("p3.conf", "include plugstack.conf.d/*.conf\n");
	is_int(cosched_plugstack_find(_at("p3.conf"), &l, err, sizeof(err)), 1,
	       "found through an include, relative to the including file");
	snprintf(want, sizeof(want), "%s/plugstack.conf.d/b.conf", dir);
	is_str(l.file, want, "... in the included file");
	is_int(l.line, 2, "... at its line");
	is_int(l.argc, 0, "... with no arguments");
	cosched_plugstack_line_free(&l);

	snprintf(want, sizeof(want), "include %s/p3.conf\n", dir);
	_file("p4.conf", want);
	is_int(cosched_plugstack_find(_at("p4.conf"), &l, err, sizeof(err)), 1,
	       "an absolute include, two deep");
	cosched_plugstack_line_free(&l);

	_file("loop.conf", "include loop.conf\n");
	is_int(cosched_plugstack_find(_at("loop.conf"), &l, err, sizeof(err)),
	       -1, "a file that includes itself: an error, not a hang");
	ok(strstr(err, "includes nested deeper than 8") != NULL,
	   "... saying so: %s", err);

	_file("nul.conf", "required cosched.so a\001b\n");
	is_int(cosched_plugstack_find(_at("nul.conf"), &l, err, sizeof(err)),
	       -1, "a control character: refused as every text file");
}

/* coalloc.conf text with the agents' rows, and a GangPortOffset line. */
static int _conf(struct coalloc_conf *c, const char *extra)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "Matrix=gang MPL=2 TimeSlice=200ms%s\nSite=a Nodes=n[1-2]\n",
		 extra);
	return coalloc_conf_parse(text, "coalloc.conf", c, err, sizeof(err));
}

static void test_check(void)
{
	struct coalloc_conf c;
	const char *p;

	if (_conf(&c, ""))
		_bail("coalloc.conf");
	p = _file("same.conf", "required cosched.so gang_rows=yes\n");
	is_int(coalloc_conf_check_plugstack(&c, p, err, sizeof(err)), 0,
	       "both at the default offset: they agree");
	p = _file("other.conf", "\nrequired cosched.so gang_rows=yes gang_port_offset=1002\n");
	is_int(coalloc_conf_check_plugstack(&c, p, err, sizeof(err)), -1,
	       "gang_port_offset=1002 against the default 1001: they differ");
	ok(strstr(err, "coalloc.conf line 1: key 'GangPortOffset' (not given: its default): 1001 differs from gang_port_offset=1002 of cosched.so at ") &&
	   strstr(err, "other.conf line 2"), "... the message names both files, lines and keys: %s", err);
	coalloc_conf_free(&c);

	if (_conf(&c, " GangPortOffset=1002"))
		_bail("coalloc.conf");
	is_int(coalloc_conf_check_plugstack(&c, p, err, sizeof(err)), 0,
	       "GangPortOffset=1002 in both: they agree");
	p = _file("same.conf", "required cosched.so\n");
	is_int(coalloc_conf_check_plugstack(&c, p, err, sizeof(err)), -1,
	       "GangPortOffset=1002 against the agents' default: they differ");
	ok(strstr(err, "coalloc.conf line 1: key 'GangPortOffset': 1002 differs from gang_port_offset=1001") != NULL,
	   "... naming the line that sets it: %s", err);
	p = _file("bad.conf", "required cosched.so no_such_key=1\n");
	is_int(coalloc_conf_check_plugstack(&c, p, err, sizeof(err)), 1,
	       "arguments cosched.so refuses: no check, said");
	ok(strstr(err, "bad.conf line 1") && strstr(err, "no_such_key"),
	   "... naming the line and the argument: %s", err);
	is_int(coalloc_conf_check_plugstack(&c, _at("absent.conf"), err, sizeof(err)),
	       0, "no plugstack.conf on this host: nothing to check");
	is_int(coalloc_conf_check_plugstack(&c, _at("loop.conf"), err, sizeof(err)),
	       1, "an unreadable stack: no check, said");
	coalloc_conf_free(&c);

	if (coalloc_conf_parse("Matrix=gang MPL=2 TimeSlice=30\nSite=a Nodes=n1\n",
			       "coalloc.conf", &c, err, sizeof(err)))
		_bail("coalloc.conf");
	is_int(coalloc_conf_check_plugstack(&c, _at("other.conf"), err, sizeof(err)),
	       0, "rows slurmctld switches use no agent port: no check");
	coalloc_conf_free(&c);

	if (coalloc_conf_parse("Matrix=gang MPL=2 TimeSlice=30 GangGuard=yes\nSite=a Nodes=n1\n",
			       "coalloc.conf", &c, err, sizeof(err)))
		_bail("coalloc.conf");
	is_int(coalloc_conf_check_plugstack(&c, _at("other.conf"), err, sizeof(err)),
	       -1, "rows the agents guard: the port is checked");
	p = _file("norows.conf", "required cosched.so\n");
	is_int(coalloc_conf_check_plugstack(&c, p, err, sizeof(err)), -1,
	       "rows the agents guard and no gang_rows=yes: refused");
	ok(strstr(err, "GangGuard=yes: cosched.so at ") && strstr(err, "norows.conf line 1 has no gang_rows=yes"),
	   "... naming the line: %s", err);
	coalloc_conf_free(&c);
}

int main(void)
{
	if (!mkdtemp(dir))
		_bail("mkdtemp");
	test_find();
	test_check();
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		diag("temporary files left in %s", dir);
	return done_testing();
}
