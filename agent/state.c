/*
 * state.c - the agent's state file (see state.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "freeze.h"
#include "state.h"

json_object *state_saved_json(const struct boost_saved *saved)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "kind",
			       json_object_new_string(boost_kind_name(saved->kind)));
	json_object_object_add(o, "nice", json_object_new_int(saved->nice));
	json_object_object_add(o, "cpu_cgroup",
			       json_object_new_string(saved->cpu_cgroup));
	json_object_object_add(o, "our_cgroup",
			       json_object_new_string(saved->our_cgroup));
	return o;
}

int state_write(const char *path, json_object *root)
{
	char tmp[1100];
	const char *text = json_object_to_json_string_ext(root,
							  JSON_C_TO_STRING_PRETTY);
	size_t len = strlen(text);
	int fd, rc = -1;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len || write(fd, "\n", 1) != 1 ||
	    fsync(fd))
		goto fail;
	rc = 0;
fail:
	if (close(fd))
		rc = -1;
	if (!rc && rename(tmp, path))
		rc = -1;
	if (rc)
		(void)unlink(tmp);
	return rc;
}

static int _int(json_object *o, const char *key, int64_t lo, int64_t hi,
		int64_t *out)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return -1;
	*out = json_object_get_int64(v);
	return *out < lo || *out > hi ? -1 : 0;
}

static int _str(json_object *o, const char *key, char *buf, size_t len)
{
	json_object *v;
	const char *s;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return -1;
	s = json_object_get_string(v);
	if (strlen(s) >= len)
		return -1;
	memcpy(buf, s, strlen(s) + 1);
	return 0;
}

static int _saved(json_object *o, struct boost_saved *saved)
{
	char kind[16];
	int64_t nice;

	memset(saved, 0, sizeof(*saved));
	if (_str(o, "kind", kind, sizeof(kind)) ||
	    boost_kind_parse(kind, &saved->kind) ||
	    _int(o, "nice", -20, 19, &nice) ||
	    _str(o, "cpu_cgroup", saved->cpu_cgroup, sizeof(saved->cpu_cgroup)) ||
	    _str(o, "our_cgroup", saved->our_cgroup, sizeof(saved->our_cgroup)))
		return -1;
	saved->nice = (int)nice;
	return 0;
}

static int _entry(json_object *o, struct state_entry *e)
{
	char text[32], err[COSCHED_ERR_LEN];
	int64_t v[8];
	json_object *att, *saved;

	memset(e, 0, sizeof(*e));
	if (_int(o, "job", 0, UINT32_MAX, &v[0]) ||
	    _int(o, "step", 0, UINT32_MAX, &v[1]) ||
	    _int(o, "uid", 0, UINT32_MAX, &v[2]) ||
	    _int(o, "tick_us", 0, UINT32_MAX, &v[3]) ||
	    _int(o, "spin_ns", 0, INT64_MAX, &v[4]) ||
	    _int(o, "pid", 2, INT32_MAX, &v[5]) ||
	    _int(o, "start", 0, INT64_MAX, &v[6]) ||
	    _int(o, "rank", 0, INT32_MAX, &v[7]))
		return -1;
	if (_str(o, "mode", text, sizeof(text)) ||
	    cosched_parse_mode(text, &e->mode, err, sizeof(err)) ||
	    _str(o, "pb", text, sizeof(text)) ||
	    cosched_pb_parse(text, &e->pb, err, sizeof(err)))
		return -1;
	if (!json_object_object_get_ex(o, "attached", &att) ||
	    !json_object_object_get_ex(o, "saved", &saved) ||
	    _saved(saved, &e->saved))
		return -1;
	e->job = (uint32_t)v[0];
	e->step = (uint32_t)v[1];
	e->uid = (uint32_t)v[2];
	e->tick_us = (uint32_t)v[3];
	e->spin_ns = (uint64_t)v[4];
	e->id.pid = (pid_t)v[5];
	e->id.start_ticks = (uint64_t)v[6];
	e->rank = (int)v[7];
	e->attached = json_object_get_boolean(att);
	/* optional: only membus processes have them */
	if (!_str(o, "freeze", e->freeze, sizeof(e->freeze)) &&
	    _str(o, "freezer", e->freezer, sizeof(e->freezer)))
		e->freezer[0] = '\0';
	return 0;
}

int state_thaw(const struct state_entry *e)
{
	if (!strcmp(e->freeze, "cgroup") && e->freezer[0])
		return freeze_thaw_path(e->freezer);
	if (!strcmp(e->freeze, "signal"))
		return freeze_continue_pid(&e->id);
	return 0;
}

int state_for_each(const char *path,
		   int (*fn)(const struct state_entry *e, void *arg),
		   void *arg)
{
	json_object *root, *procs;
	int n = 0;

	if (access(path, F_OK))
		return 0;
	root = json_object_from_file(path);
	if (!root)
		return -1;
	if (!json_object_object_get_ex(root, "procs", &procs) ||
	    !json_object_is_type(procs, json_type_array)) {
		json_object_put(root);
		return -1;
	}
	for (size_t i = 0; i < json_object_array_length(procs); i++) {
		struct state_entry e;

		if (_entry(json_object_array_get_idx(procs, i), &e))
			continue;
		n++;
		if (fn(&e, arg))
			break;
	}
	json_object_put(root);
	return n;
}
