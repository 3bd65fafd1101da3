/*
 * proc.c - what the node agent reads of a process in /proc.
 *
 * Every reader takes a pid and opens /proc/PID/... afresh: the agent
 * watches a few dozen processes, and a fresh read is what proves the
 * process is still the one it identified (pid plus start time).  The
 * exceptions are proc_open(), a handle the hot path of boost.c keeps so the
 * re-check costs a read, not a path lookup, and proc_running()'s
 * /proc/loadavg, which names no process.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"

/* Longest /proc/PID/stat: a 64-byte comm and 50 numbers of 20 digits. */
#define STAT_BUF_LEN 2048
/* Fields of /proc/PID/stat we read (proc(5) numbering, from 1). */
#define STAT_STATE 3
#define STAT_PPID 4
#define STAT_UTIME 14
#define STAT_STIME 15
#define STAT_STARTTIME 22
#define STAT_PROCESSOR 39
#define DESCENT_MAX_STEPS 64
/* /proc/PID/status: about 1.5 KiB, more with long CPU and node lists. */
#define STATUS_BUF_LEN 8192
/* TCP_LISTEN in the st column: rx_queue there counts connections. */
#define TCP_STATE_LISTEN 0x0A

struct stat_fields {
	char state;
	pid_t ppid;
	uint64_t utime;
	uint64_t stime;
	uint64_t start_ticks;
	int processor;
};

/* ------------------------------------------------------------ stat */

static bool _stat_field_wanted(int field)
{
	return field == STAT_PPID || field == STAT_UTIME ||
	       field == STAT_STIME || field == STAT_STARTTIME ||
	       field == STAT_PROCESSOR;
}

/*
 * Parse one /proc/PID/stat line.  The comm (field 2) is in parentheses
 * and may itself hold spaces and ')', so fields 3.. start after the LAST
 * ')' of the line.  Only the fields we keep are converted (all of them
 * unsigned); the others are skipped as words.
 */
static int _parse_stat(const char *line, struct stat_fields *f)
{
	uint64_t v[STAT_PROCESSOR + 1] = { 0 };
	const char *p = strrchr(line, ')');
	char state = 0;

	if (!p)
		return -1;
	p++;
	for (int field = STAT_STATE; field <= STAT_PROCESSOR; field++) {
		while (*p == ' ')
			p++;
		if (!*p || *p == '\n')
			return -1;	/* short line: not a stat file */
		if (field == STAT_STATE) {
			state = *p;
		} else if (_stat_field_wanted(field)) {
			char *end;

			errno = 0;
			v[field] = strtoull(p, &end, 10);
			if (errno || end == p)
				return -1;
		}
		while (*p && *p != ' ' && *p != '\n')
			p++;
	}
	f->state = state;
	f->ppid = (pid_t)v[STAT_PPID];
	f->utime = v[STAT_UTIME];
	f->stime = v[STAT_STIME];
	f->start_ticks = v[STAT_STARTTIME];
	f->processor = (int)v[STAT_PROCESSOR];
	return 0;
}

/* Read a stat file already open on fd (from offset 0) and parse it. */
static int _read_stat_fd(int fd, struct stat_fields *f)
{
	char buf[STAT_BUF_LEN];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return _parse_stat(buf, f);
}

static int _read_stat(pid_t pid, struct stat_fields *f)
{
	char path[64];
	int fd, rc;

	if (pid <= 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = _read_stat_fd(fd, f);
	close(fd);
	return rc;
}

/* Whether a stat describes id's process and it has not exited. */
static bool _stat_is_live(const struct stat_fields *f,
			  const struct proc_id *id)
{
	return f->start_ticks == id->start_ticks && f->state != 'Z' &&
	       f->state != 'X' && f->state != 'x';
}

static uint64_t _ticks_to_ns(uint64_t ticks)
{
	static long hz;

	if (!hz)
		hz = sysconf(_SC_CLK_TCK);
	if (hz <= 0)
		hz = 100;
	return ticks * (1000000000ULL / (uint64_t)hz);
}

int proc_identify(pid_t pid, struct proc_id *id)
{
	struct stat_fields f;

	if (_read_stat(pid, &f))
		return -1;
	id->pid = pid;
	id->start_ticks = f.start_ticks;
	return 0;
}

bool proc_alive(const struct proc_id *id)
{
	struct stat_fields f;

	return !_read_stat(id->pid, &f) && _stat_is_live(&f, id);
}

int proc_open(const struct proc_id *id)
{
	struct stat_fields f;
	char path[64];
	int fd;

	if (id->pid <= 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)id->pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* Checked through the fd itself, so the fd is pinned to id. */
	if (_read_stat_fd(fd, &f) || !_stat_is_live(&f, id)) {
		close(fd);
		return -1;
	}
	return fd;
}

bool proc_alive_fd(int fd)
{
	struct stat_fields f;

	/* Once the process is reaped the read fails with ESRCH. */
	return !_read_stat_fd(fd, &f) && f.state != 'Z' && f.state != 'X' &&
	       f.state != 'x';
}

int proc_descends_from(pid_t pid, pid_t ancestor)
{
	struct stat_fields f;
	pid_t cur = pid;

	for (int step = 0; step <= DESCENT_MAX_STEPS; step++) {
		if (cur == ancestor)
			return 1;
		if (cur <= 1)
			return 0;
		if (_read_stat(cur, &f))
			/* An ancestor that exited mid-walk breaks the chain. */
			return step ? 0 : -1;
		cur = f.ppid;
	}
	return 0;
}

int proc_id_descends_from(const struct proc_id *id, pid_t ancestor)
{
	int rc;

	if (!proc_alive(id))
		return -1;
	rc = proc_descends_from(id->pid, ancestor);
	return proc_alive(id) ? rc : -1;
}

/* pidfd_open(2) without the libc wrapper (glibc < 2.36 has none). */
static int _pidfd_open(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

static int _pidfd_signal(int pidfd, int sig)
{
#ifdef SYS_pidfd_send_signal
	return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
#else
	(void)pidfd;
	(void)sig;
	errno = ENOSYS;
	return -1;
#endif
}

int proc_pidfd(const struct proc_id *id)
{
	int pidfd;

	if (!id || id->pid <= 0)
		return -1;
	pidfd = _pidfd_open(id->pid);
	if (pidfd < 0)
		return -1;
	/* id started before the pidfd was opened and lives after it: the
	 * pidfd is id's (a reused pid would show another start time). */
	if (proc_alive(id))
		return pidfd;
	close(pidfd);
	return -1;
}

int proc_signal(const struct proc_id *id, int sig)
{
	int pidfd, rc;

	if (!id || id->pid <= 0)
		return -1;
	pidfd = _pidfd_open(id->pid);
	if (pidfd < 0) {
		if (errno != ENOSYS && errno != EINVAL)
			return -1;	/* ESRCH: gone */
		return proc_alive(id) ? kill(id->pid, sig) : -1;
	}
	/* id started before the pidfd was opened and lives after it: the
	 * pidfd is id's (a reused pid would show another start time). */
	rc = proc_alive(id) ? _pidfd_signal(pidfd, sig) : -1;
	if (rc && errno == ENOSYS)
		rc = kill(id->pid, sig);
	close(pidfd);
	return rc;
}

/* ------------------------------------------------------------ trees */

/* What one read of /proc/PID/stat tells a tree walk. */
struct tree_entry {
	struct proc_id id;
	pid_t ppid;
	bool live;
	bool marked;		/* a root or a descendant of one */
};

struct tree {
	struct tree_entry *entries;	/* sorted by pid */
	size_t n;
};

static int _tree_cmp(const void *a, const void *b)
{
	pid_t x = ((const struct tree_entry *)a)->id.pid;
	pid_t y = ((const struct tree_entry *)b)->id.pid;

	return (x > y) - (x < y);
}

static struct tree_entry *_tree_find(const struct tree *t, pid_t pid)
{
	struct tree_entry key = { .id.pid = pid };

	return t->n ? bsearch(&key, t->entries, t->n, sizeof(key), _tree_cmp)
		    : NULL;
}

/* Every process of /proc, sorted by pid.  0, or -1 when unreadable. */
static int _tree_read(struct tree *t)
{
	DIR *dir = opendir("/proc");
	struct dirent *de;
	size_t cap = 0;

	t->entries = NULL;
	t->n = 0;
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		pid_t pid = (pid_t)atoi(de->d_name);
		struct stat_fields f;
		struct tree_entry *e;

		if (pid <= 0 || _read_stat(pid, &f))
			continue;	/* exited meanwhile: not listed */
		if (t->n == cap) {
			size_t more = cap ? 2 * cap : 512;
			void *grown = realloc(t->entries,
					      more * sizeof(*t->entries));

			if (!grown) {
				closedir(dir);
				free(t->entries);
				return -1;
			}
			t->entries = grown;
			cap = more;
		}
		e = &t->entries[t->n++];
		e->id.pid = pid;
		e->id.start_ticks = f.start_ticks;
		e->ppid = f.ppid;
		e->live = f.state != 'Z' && f.state != 'X' && f.state != 'x';
		e->marked = false;
	}
	closedir(dir);
	qsort(t->entries, t->n, sizeof(*t->entries), _tree_cmp);
	return 0;
}

/* Mark the live roots, then every live descendant of a marked process. */
static void _tree_mark(struct tree *t, const struct proc_id *roots, size_t n)
{
	bool changed = true;

	for (size_t i = 0; i < n; i++) {
		struct tree_entry *e = _tree_find(t, roots[i].pid);

		if (e && e->id.start_ticks == roots[i].start_ticks && e->live)
			e->marked = true;
	}
	while (changed) {
		changed = false;
		for (size_t i = 0; i < t->n; i++) {
			struct tree_entry *e = &t->entries[i], *parent;

			if (e->marked || !e->live)
				continue;
			parent = _tree_find(t, e->ppid);
			if (parent && parent->marked) {
				e->marked = true;
				changed = true;
			}
		}
	}
}

int proc_tree(const struct proc_id *roots, size_t n, struct proc_id **ids,
	      size_t *nids)
{
	struct tree t;
	size_t kept = 0;
	int rc = 0;

	*ids = NULL;
	*nids = 0;
	if (_tree_read(&t))
		return -1;
	_tree_mark(&t, roots, n);
	for (size_t i = 0; i < t.n; i++)
		kept += t.entries[i].marked;
	if (kept && !(*ids = malloc(kept * sizeof(**ids))))
		rc = -1;
	for (size_t i = 0; *ids && i < t.n; i++)
		if (t.entries[i].marked)
			(*ids)[(*nids)++] = t.entries[i].id;
	free(t.entries);
	return rc;
}

/* ------------------------------------------------------------ status */

/*
 * Find "key" at the start of a line of /proc/PID/status and parse the
 * first number after it.  Returns 0 or -1.
 */
static int _status_number(const char *status, const char *key,
			  unsigned long long *value)
{
	size_t len = strlen(key);
	const char *p = status;

	while (p && *p) {
		if (!strncmp(p, key, len)) {
			char *end;

			errno = 0;
			*value = strtoull(p + len, &end, 10);
			return errno || end == p + len ? -1 : 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

/* Read /proc/PID/status into buf (NUL-terminated).  Returns 0 or -1. */
static int _read_status(pid_t pid, char *buf, size_t len)
{
	char path[64];
	size_t used = 0;
	ssize_t n;
	int fd;

	if (pid <= 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (used < len - 1 &&
	       (n = read(fd, buf + used, len - 1 - used)) > 0)
		used += (size_t)n;
	close(fd);
	buf[used] = '\0';
	return used ? 0 : -1;
}

int proc_brief(pid_t pid, struct proc_brief *brief)
{
	struct stat_fields f;

	if (_read_stat(pid, &f))
		return -1;
	brief->state = f.state;
	brief->ppid = f.ppid;
	brief->start_ticks = f.start_ticks;
	return 0;
}

int proc_uid(pid_t pid, uid_t *uid)
{
	char buf[STATUS_BUF_LEN];
	unsigned long long v;

	/* "Uid:" lists real, effective, saved and filesystem uids. */
	if (_read_status(pid, buf, sizeof(buf)) ||
	    _status_number(buf, "Uid:", &v))
		return -1;
	*uid = (uid_t)v;
	return 0;
}

int proc_owner(const struct proc_id *id, uid_t *uid)
{
	uid_t read;

	if (!proc_alive(id) || proc_uid(id->pid, &read) || !proc_alive(id))
		return -1;
	*uid = read;
	return 0;
}

static uint64_t _now_boot_ns(void)
{
	struct timespec ts;

	/* Field 22 counts from boot, suspend included, as this clock does. */
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int proc_sample(const struct proc_id *id, struct proc_sample *sample)
{
	struct stat_fields f;
	char buf[STATUS_BUF_LEN];
	unsigned long long vol, invol;
	uint64_t now, start;

	if (_read_stat(id->pid, &f) || !_stat_is_live(&f, id))
		return -1;
	/*
	 * status is a second read: a pid reused in between would lend us
	 * another process's switch count for one sample, which a scheduling
	 * heuristic tolerates; the next sample fails on the start time.
	 */
	if (_read_status(id->pid, buf, sizeof(buf)) ||
	    _status_number(buf, "voluntary_ctxt_switches:", &vol) ||
	    _status_number(buf, "nonvoluntary_ctxt_switches:", &invol))
		return -1;
	now = _now_boot_ns();
	start = _ticks_to_ns(f.start_ticks);
	sample->state = f.state;
	sample->cpu = f.processor;
	sample->cpu_ns = _ticks_to_ns(f.utime + f.stime);
	sample->age_ns = now > start ? now - start : 0;
	sample->ctx_switches = vol + invol;
	return 0;
}

/* ------------------------------------------------------------ sockets */

struct inode_set {
	uint64_t *v;
	size_t n;
	size_t cap;
};

static int _inode_add(struct inode_set *s, uint64_t inode)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		uint64_t *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = inode;
	return 0;
}

static int _cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a;
	uint64_t y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int proc_for_each_socket(pid_t pid, size_t max_entries,
			 int (*fn)(int fd, uint64_t inode, void *arg),
			 void *arg)
{
	char path[64];
	struct dirent *de;
	size_t seen = 0;
	DIR *dir;
	int rc = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while (!rc && (!max_entries || seen < max_entries) &&
	       (de = readdir(dir))) {
		char link[64];
		unsigned long long inode;
		int fd;
		ssize_t n;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		seen++;
		n = readlinkat(dirfd(dir), de->d_name, link, sizeof(link) - 1);
		if (n <= 0)
			continue;	/* closed meanwhile */
		link[n] = '\0';
		if (sscanf(link, "socket:[%llu]", &inode) != 1 ||
		    sscanf(de->d_name, "%d", &fd) != 1)
			continue;
		rc = fn(fd, inode, arg);
	}
	closedir(dir);
	return rc < 0 ? -1 : 0;
}

static int _inode_of(int fd, uint64_t inode, void *arg)
{
	(void)fd;
	return _inode_add(arg, inode);
}

/* The inodes of the sockets among /proc/PID/fd, sorted: a bounded scan,
 * since a process of the job's user chooses how many entries there are. */
static int _socket_inodes(pid_t pid, struct inode_set *s)
{
	int rc = proc_for_each_socket(pid, PROC_FD_SCAN_MAX, _inode_of, s);

	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), _cmp_u64);
	return rc;
}

int proc_socket_inodes(pid_t pid, uint64_t **inodes, size_t *n)
{
	struct inode_set s = { 0 };

	if (pid <= 0 || _socket_inodes(pid, &s)) {
		free(s.v);
		return -1;
	}
	*inodes = s.v;
	*n = s.n;
	return 0;
}

/*
 * Add the rx_queue of every socket of file (/proc/PID/net/tcp or tcp6)
 * whose inode is in s.  Lines: "sl local rem st tx_queue:rx_queue tr:when
 * retrnsmt uid timeout inode ...", queues in hex.
 */
static int _sum_rx(const char *file, const struct inode_set *s,
		   uint64_t *bytes)
{
	char line[512];
	FILE *f = fopen(file, "re");

	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f)) {	/* header */
		fclose(f);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned int st;
		unsigned long tx, rx;
		unsigned long long ino;
		uint64_t inode;

		if (sscanf(line, "%*s %*s %*s %x %lx:%lx %*s %*s %*s %*s %llu",
			   &st, &tx, &rx, &ino) != 4)
			continue;
		if (st == TCP_STATE_LISTEN)
			continue;
		inode = ino;
		if (bsearch(&inode, s->v, s->n, sizeof(*s->v), _cmp_u64))
			*bytes += rx;
	}
	fclose(f);
	return 0;
}

int proc_socket_rx_bytes(pid_t pid, uint64_t *bytes)
{
	struct inode_set s = { 0 };
	char path[64];
	uint64_t sum = 0;
	int rc = -1;

	if (pid <= 0 || _socket_inodes(pid, &s))
		goto out;
	if (s.n) {
		snprintf(path, sizeof(path), "/proc/%d/net/tcp", (int)pid);
		if (_sum_rx(path, &s, &sum))
			goto out;
		/* No tcp6 when IPv6 is disabled: nothing to add. */
		snprintf(path, sizeof(path), "/proc/%d/net/tcp6", (int)pid);
		_sum_rx(path, &s, &sum);
	}
	*bytes = sum;
	rc = 0;
out:
	free(s.v);
	return rc;
}

/* ------------------------------------------------------------ threads */

int proc_for_each_thread(pid_t pid, int (*fn)(pid_t tid, void *arg),
			 void *arg)
{
	char path[64];
	struct dirent *de;
	DIR *dir;
	int count = 0;

	if (pid <= 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);

		if (end == de->d_name || *end || tid <= 0)
			continue;
		count++;
		if (fn((pid_t)tid, arg))
			break;
	}
	closedir(dir);
	return count;
}

/* ------------------------------------------------------------ node */

/* "0.50 0.40 0.30 3/456 7890": the three load averages, running/total. */
int proc_loadavg_running(const char *text, uint32_t *running)
{
	const char *p = text;
	unsigned long n;
	char *end;

	for (int field = 0; field < 3; field++) {
		p += strspn(p, " ");
		p += strcspn(p, " \n");
	}
	p += strspn(p, " ");
	if (!isdigit((unsigned char)*p))
		return -1;
	errno = 0;
	n = strtoul(p, &end, 10);
	if (errno || *end != '/' || !isdigit((unsigned char)end[1]) ||
	    n > UINT32_MAX)
		return -1;
	*running = (uint32_t)n;
	return 0;
}

/*
 * /proc/loadavg is one short line where /proc/stat, which has the same
 * count (procs_running), has a line per CPU and every interrupt's count;
 * it is kept open because at a 1 ms tick the path lookup would cost more
 * than the read.  A failed read closes it, to be opened afresh.
 */
int proc_running(uint32_t *running)
{
	static int fd = -1;
	char buf[128];
	ssize_t n;

	if (fd < 0)
		fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0) {
		close(fd);
		fd = -1;
		return -1;
	}
	buf[n] = '\0';
	return proc_loadavg_running(buf, running);
}
