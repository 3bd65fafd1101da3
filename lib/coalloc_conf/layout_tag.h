/*
 * layout_tag.h - a job's layout in its comments: "coalloc:LAYOUT" in the
 * SystemComment (scontrol show job) and, for accounting, the
 * AdminComment.
 *
 * Slurm 22.05 and 24.11 send slurmdbd a finished job's AdminComment but
 * never its SystemComment (the job-complete message has the field; the
 * controller leaves it empty), so sacct can show the layout only from
 * the AdminComment.  That field belongs to the site's administrators and
 * job_submit plugins too: the layout is one word tagged "coalloc:" added
 * to whatever is there, and replaces the word an earlier start of the
 * same job (a requeue) left.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_LAYOUT_TAG_H
#define COALLOC_LAYOUT_TAG_H

#define COALLOC_LAYOUT_TAG "coalloc:"

/*
 * old with every word that starts with COALLOC_LAYOUT_TAG left out
 * (words are separated by blanks; the other text is kept as it was),
 * then, after one space if anything is left, the tag and layout.  A NULL
 * or empty layout only removes.  Returns a malloc'd string ("" when
 * nothing is left), or NULL when out of memory.
 */
char *coalloc_comment_with_layout(const char *old, const char *layout);

#endif /* COALLOC_LAYOUT_TAG_H */
