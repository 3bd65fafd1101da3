/*
 * state.c - the agent's state file (see state.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "boost/boost_rt.h"
#include "freeze/freeze.h"
#include "state.h"
#include "num/errbuf.h"
#include "cosched/mode.h"

/* A state file lists a few hundred processes: far more is not ours. */
#define STATE_MAX_BYTES (4 << 20)
#define NO_OFFSET ((size_t)-1)	/* a problem with no place in the text */

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
	json_object_object_add(o, "nice_set",
			       json_object_new_int64((int64_t)saved->nice_set));
	/* cgroup2 in place: the weight the guardian puts back */
	if (saved->weight)
		json_object_object_add(o, "weight",
				       json_object_new_int64(saved->weight));
	/* rt: the policy the guardian puts back */
	if (saved->kind == BOOST_RT) {
		json_object_object_add(o, "policy",
				       json_object_new_int(saved->policy));
		json_object_object_add(o, "rt_priority",
				       json_object_new_int(saved->rt_priority));
		json_object_object_add(o, "reset_on_fork",
				       json_object_new_boolean(saved->reset_on_fork));
	}
	return o;
}

json_object *state_stopped_json(const struct proc_id *ids, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		json_object *pair = json_object_new_array();

		json_object_array_add(pair, json_object_new_int64(ids[i].pid));
		json_object_array_add(pair, json_object_new_int64(
					      (int64_t)ids[i].start_ticks));
		json_object_array_add(a, pair);
	}
	return a;
}

/* fsync the directory of path, so that a rename in it is durable. */
static int _sync_dir(const char *path)
{
	char dir[PATH_MAX];
	char *slash;
	int fd, rc;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -1;
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		slash[slash == dir] = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
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
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len || write(fd, "\n", 1) != 1 ||
	    fsync(fd))
		goto fail;
	rc = 0;
fail:
	if (close(fd))
		rc = -1;
	if (!rc && (rename(tmp, path) || _sync_dir(path)))
		rc = -1;
	if (rc) {
		int saved_errno = errno;

		(void)unlink(tmp);
		errno = saved_errno;
	}
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

/* rt: a normal policy at priority 0, never a real-time one (the state
 * file must not be a way to make the guardian hand out RT). */
static int _saved_rt(json_object *o, struct boost_saved *saved)
{
	json_object *flag;
	int64_t v;

	if (_int(o, "policy", 0, 7, &v))
		return -1;
	saved->policy = (int32_t)v;
	if (_int(o, "rt_priority", 0, 0, &v) ||
	    !json_object_object_get_ex(o, "reset_on_fork", &flag) ||
	    !json_object_is_type(flag, json_type_boolean))
		return -1;
	saved->reset_on_fork = json_object_get_boolean(flag);
	return boost_rt_saved_ok(saved) ? 0 : -1;
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
	/* optional: files of older agents have none */
	if (_int(o, "nice_set", 0, (1LL << 40) - 1, &nice) == 0)
		saved->nice_set = (uint64_t)nice;
	/* cgroup2 in place only (boost.c checks the range again) */
	if (json_object_object_get_ex(o, "weight", NULL)) {
		if (_int(o, "weight", 1, 10000, &nice))
			return -1;
		saved->weight = (uint32_t)nice;
	}
	return saved->kind == BOOST_RT ? _saved_rt(o, saved) : 0;
}

/* [[pid, start], ...] into a malloc'ed array.  0, or -1 if malformed. */
static int _stopped(json_object *a, struct proc_id **ids, size_t *n)
{
	size_t len = json_object_array_length(a);

	*ids = NULL;
	*n = 0;
	if (!len)
		return 0;
	*ids = calloc(len, sizeof(**ids));
	if (!*ids)
		return -1;
	for (size_t i = 0; i < len; i++) {
		json_object *pair = json_object_array_get_idx(a, i), *v[2];

		if (!json_object_is_type(pair, json_type_array) ||
		    json_object_array_length(pair) != 2)
			goto bad;
		v[0] = json_object_array_get_idx(pair, 0);
		v[1] = json_object_array_get_idx(pair, 1);
		if (!json_object_is_type(v[0], json_type_int) ||
		    !json_object_is_type(v[1], json_type_int) ||
		    json_object_get_int64(v[0]) < 2 ||
		    json_object_get_int64(v[0]) > INT32_MAX ||
		    json_object_get_int64(v[1]) < 0)
			goto bad;
		(*ids)[i].pid = (pid_t)json_object_get_int64(v[0]);
		(*ids)[i].start_ticks = (uint64_t)json_object_get_int64(v[1]);
	}
	*n = len;
	return 0;
bad:
	free(*ids);
	*ids = NULL;
	return -1;
}

/* One process entry; e->stopped is malloc'ed (the caller frees it). */
static int _entry(json_object *o, struct state_entry *e)
{
	char text[32], err[ERRBUF_LEN];
	int64_t v[8];
	json_object *att, *saved, *stopped, *gang;
	struct proc_id *ids;

	memset(e, 0, sizeof(*e));
	if (!json_object_is_type(o, json_type_object))
		return -1;
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
	e->saved.uid = e->uid;
	/* optional: only membus and gang processes have them */
	if (json_object_object_get_ex(o, "gang", &gang))
		e->gang = json_object_get_boolean(gang);
	if (!_str(o, "freeze", e->freeze, sizeof(e->freeze)) &&
	    _str(o, "freezer", e->freezer, sizeof(e->freezer)))
		e->freezer[0] = '\0';
	if (json_object_object_get_ex(o, "stopped", &stopped)) {
		if (!json_object_is_type(stopped, json_type_array) ||
		    _stopped(stopped, &ids, &e->nstopped))
			return -1;
		e->stopped = ids;
	}
	return 0;
}

int state_thaw(const struct state_entry *e)
{
	int rc = 0;

	/* freeze_thaw_path() tells v1 from v2 by the file system */
	if ((!strcmp(e->freeze, "cgroup") || !strcmp(e->freeze, "cgroup2")) &&
	    e->freezer[0])
		return freeze_thaw_path(e->freezer);
	if (strcmp(e->freeze, "signal"))
		return 0;
	/* Exactly what the agent stopped; a process whose start time
	 * differs is another one that got a recorded pid, left alone. */
	(void)freeze_continue_pid(&e->id);
	for (size_t i = 0; i < e->nstopped; i++)
		if (freeze_continue_pid(&e->stopped[i]) &&
		    proc_alive(&e->stopped[i]))
			rc = -1;
	return rc;
}

/* Pass one entry object to fn; 1 when it was well-formed, else 0. */
static int _visit(json_object *o,
		  int (*fn)(const struct state_entry *e, void *arg), void *arg,
		  bool *stop)
{
	struct state_entry e;
	int ok = !_entry(o, &e);

	if (ok && !*stop && fn(&e, arg))
		*stop = true;
	free((void *)e.stopped);
	return ok;
}

static void _problem(struct state_problem *p, const char *text, size_t at,
		     const char *what)
{
	p->corrupt = true;
	p->offset = at == NO_OFFSET ? 0 : at;
	p->line = at == NO_OFFSET ? 0 : 1;
	for (size_t i = 0; at != NO_OFFSET && i < at; i++)
		p->line += text[i] == '\n';
	snprintf(p->what, sizeof(p->what), "%s", what);
}

/* Whether text[at..] is only white space. */
static bool _blank_from(const char *text, size_t len, size_t at)
{
	for (; at < len; at++)
		if (!strchr(" \t\r\n", text[at]))
			return false;
	return true;
}

/*
 * A file that does not parse: every complete, well-formed entry object
 * in its text (tried at each '{', skipping the inside of one that was).
 */
static int _salvage(const char *text, size_t len,
		    int (*fn)(const struct state_entry *e, void *arg),
		    void *arg)
{
	struct json_tokener *tok = json_tokener_new();
	bool stop = false;
	int n = 0;

	if (!tok)
		return 0;
	for (size_t at = 1; at < len; at++) {
		json_object *o;

		if (text[at] != '{')
			continue;
		json_tokener_reset(tok);
		o = json_tokener_parse_ex(tok, text + at, (int)(len - at));
		if (!o)
			continue;
		if (_visit(o, fn, arg, &stop)) {
			n++;
			at += json_tokener_get_parse_end(tok) - 1;
		}
		json_object_put(o);
	}
	json_tokener_free(tok);
	return n;
}

/* Every entry of a file that parsed; a malformed one is a problem. */
static int _entries(json_object *root, const char *text,
		    int (*fn)(const struct state_entry *e, void *arg),
		    void *arg, struct state_problem *problem)
{
	json_object *procs;
	bool stop = false;
	int n = 0;

	if (!json_object_object_get_ex(root, "procs", &procs) ||
	    !json_object_is_type(procs, json_type_array)) {
		_problem(problem, text, 0, "no \"procs\" array");
		return 0;
	}
	for (size_t i = 0; i < json_object_array_length(procs); i++) {
		if (_visit(json_object_array_get_idx(procs, i), fn, arg, &stop))
			n++;
		else if (!problem->corrupt) {
			char what[64];

			snprintf(what, sizeof(what),
				 "entry %zu of \"procs\" is malformed", i);
			_problem(problem, text, NO_OFFSET, what);
		}
	}
	return n;
}

/* The whole file into a NUL-terminated buffer (freed by the caller). */
static char *_slurp(const char *path, size_t *len)
{
	char *text = NULL;
	struct stat st;
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size > STATE_MAX_BYTES ||
	    !(text = malloc((size_t)st.st_size + 1)))
		goto fail;
	got = pread(fd, text, (size_t)st.st_size, 0);
	if (got < 0)
		goto fail;
	text[got] = '\0';
	*len = (size_t)got;
	close(fd);
	return text;
fail:
	free(text);
	close(fd);
	return NULL;
}

int state_read(const char *path,
	       int (*fn)(const struct state_entry *e, void *arg), void *arg,
	       struct state_problem *problem)
{
	struct state_problem ignored;
	struct json_tokener *tok;
	json_object *root;
	size_t len, end;
	char *text;
	int n = 0;

	if (!problem)
		problem = &ignored;
	memset(problem, 0, sizeof(*problem));
	if (access(path, F_OK) && errno == ENOENT)
		return 0;
	text = _slurp(path, &len);
	tok = text ? json_tokener_new() : NULL;
	if (!tok) {
		free(text);
		return -1;
	}
	root = json_tokener_parse_ex(tok, text, (int)len);
	end = json_tokener_get_parse_end(tok);
	if (!root) {
		enum json_tokener_error err = json_tokener_get_error(tok);

		_problem(problem, text, end, err == json_tokener_continue
			 ? "it ends early" : "not JSON here");
		n = _salvage(text, len, fn, arg);
	} else if (!_blank_from(text, len, end)) {
		_problem(problem, text, end, "trailing bytes");
		n = _salvage(text, len, fn, arg);
	} else {
		n = _entries(root, text, fn, arg, problem);
	}
	json_object_put(root);
	json_tokener_free(tok);
	free(text);
	return n;
}

int state_for_each(const char *path,
		   int (*fn)(const struct state_entry *e, void *arg),
		   void *arg)
{
	struct state_problem problem;
	int n = state_read(path, fn, arg, &problem);

	return problem.corrupt && n == 0 ? -1 : n;
}

int state_keep_aside(const char *path, char *aside, size_t len)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	if (!gmtime_r(&now, &tm) ||
	    !strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm))
		return -1;
	for (int i = 0; i < 100; i++) {
		int w = i ? snprintf(aside, len, "%s.corrupt-%s.%d", path, stamp, i)
			  : snprintf(aside, len, "%s.corrupt-%s", path, stamp);

		if (w < 0 || (size_t)w >= len)
			return -1;
		if (!access(aside, F_OK))
			continue;	/* one kept this second already */
		if (rename(path, aside))
			return -1;
		return _sync_dir(path);
	}
	return -1;
}
