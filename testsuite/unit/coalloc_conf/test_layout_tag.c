/*
 * test_layout_tag.c - the layout word in a job's AdminComment: added to
 * what administrators wrote, replacing an earlier start's word.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coalloc_conf/layout_tag.h"
#include "tap.h"

static void check(const char *old, const char *layout, const char *want,
		  const char *what)
{
	char *got = coalloc_comment_with_layout(old, layout);

	is_str(got ? got : "(null)", want, "%s", what);
	free(got);
}

static const struct {
	const char *old, *layout, *want, *what;
} cases[] = {
	{ NULL, "s1:n[1-2];s2:n3", "coalloc:s1:n[1-2];s2:n3",
	  "no comment: the layout alone" },
	{ "", "s1:n1", "coalloc:s1:n1", "an empty comment: the layout alone" },
	{ "audited by ops", "s1:n1", "audited by ops coalloc:s1:n1",
	  "an administrator's words stay, the layout after them" },
	{ "a  b\tc", "s1:n1", "a  b\tc coalloc:s1:n1", "  their spacing too" },
	{ "coalloc:s1:n1", "s2:n2", "coalloc:s2:n2",
	  "a requeued job's old layout is replaced" },
	{ "coalloc:s1:n1 note", "s2:n2", "note coalloc:s2:n2",
	  "  also when it leads" },
	{ "pre coalloc:s1:n1 post", "s2:n2", "pre post coalloc:s2:n2",
	  "  and in the middle" },
	{ "note coalloc:s1:n1", NULL, "note", "no layout: only removed" },
	{ "coalloc:s1:n1", "", "", "  down to nothing" },
	{ "note   ", "s1:n1", "note coalloc:s1:n1",
	  "trailing blanks are not doubled" },
	{ "xcoalloc:s1:n1", "s2:n2", "xcoalloc:s1:n1 coalloc:s2:n2",
	  "only words that start with the tag are ours" },
	{ "  lead", "s1:n1", "  lead coalloc:s1:n1",
	  "leading blanks of the administrator's text stay" },
};

int main(void)
{
	char *once, *twice;

	plan(13);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check(cases[i].old, cases[i].layout, cases[i].want,
		      cases[i].what);

	once = coalloc_comment_with_layout("ops", "s1:n1");
	twice = coalloc_comment_with_layout(once, "s1:n1");
	is_str(twice, once, "applied twice, as once");
	free(once);
	free(twice);
	return done_testing();
}
