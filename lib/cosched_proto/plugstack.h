/*
 * plugstack.h - cosched.so's line in a plugstack.conf, found as Slurm's
 * SPANK loader reads the file (src/common/plugstack.c): '#' starts a
 * comment, words are separated by blanks, a line is "required PATH
 * ARGS...", "optional PATH ARGS..." or "include PATTERN" (a glob,
 * relative to the including file's directory), and a missing file is an
 * empty one.  slurmctld's select/coalloc reads it to check its own
 * settings against the agents' (GangPortOffset against
 * gang_port_offset), so that the two files cannot disagree unseen.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_PROTO_PLUGSTACK_H
#define COSCHED_PROTO_PLUGSTACK_H

#include <stddef.h>

/* The plugin file name its line names (any directory, or PluginDir). */
#define COSCHED_PLUGSTACK_SO "cosched.so"
/* Includes followed within includes, at most. */
#define COSCHED_PLUGSTACK_DEPTH 8
/* Arguments kept from the line, at most (more is an error). */
#define COSCHED_PLUGSTACK_MAX_ARGS 64

struct cosched_plugstack_line {
	char *file;		/* the file that holds it */
	int line;		/* its number there, from 1 */
	int argc;
	char **argv;		/* the words after the plugin's path */
};

/*
 * The first cosched.so line of the plugstack.conf at path, following its
 * includes.  Returns 1 (found: *out to free with
 * cosched_plugstack_line_free), 0 (none, or no file), or -1 with "FILE:
 * why" or "FILE line N: why" in err (unreadable file, too many includes
 * or arguments).  Lines of other plugins are never judged: Slurm does.
 */
int cosched_plugstack_find(const char *path,
			   struct cosched_plugstack_line *out,
			   char *err, size_t errlen);

void cosched_plugstack_line_free(struct cosched_plugstack_line *l);

#endif /* COSCHED_PROTO_PLUGSTACK_H */
