/*
 * agent_harness.c - see agent_harness.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent_harness.h"
#include "cosched/shm.h"
#include "cosched_proto/client.h"

#define START_WAIT_MS 5000	/* generous: a loaded 2-core machine */
#define POLL_MS 20

/* what a test started, stopped at exit, and its run directory */
static pid_t kept[16];
static size_t nkept;
static char kept_dir[256];

static void _at_exit(void)
{
	char cmd[sizeof(kept_dir) + 32];

	for (size_t i = 0; i < nkept; i++)
		kill(kept[i], SIGKILL);
	while (wait(NULL) > 0)
		;
	if (kept_dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", kept_dir);
		(void)!system(cmd);
	}
}

int harness_private_run_dir(char *tmpl, char *buf, size_t len)
{
	if (!mkdtemp(tmpl) || chmod(tmpl, 0755) ||
	    (size_t)snprintf(kept_dir, sizeof(kept_dir), "%s", tmpl) >=
	    sizeof(kept_dir))
		return -1;
	snprintf(buf, len, "%s", tmpl);
	atexit(_at_exit);
	return 0;
}

pid_t harness_keep(pid_t pid)
{
	if (pid > 0 && nkept < sizeof(kept) / sizeof(kept[0]))
		kept[nkept++] = pid;
	return pid;
}

void harness_bail_out(const char *fmt, ...)
{
	va_list ap;

	printf("Bail out! ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(1);
}

uint64_t harness_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void harness_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

void harness_need_coschedd(const char *argv0, char *buf, size_t len)
{
	char *slash;

	if (geteuid() != 0) {
		printf("1..0 # SKIP coschedd needs root\n");
		exit(0);
	}
	snprintf(buf, len, "%s", argv0);
	for (int i = 0; i < 3 && (slash = strrchr(buf, '/')); i++)
		*slash = '\0';
	strncat(buf, "/sbin/coschedd", len - strlen(buf) - 1);
	if (access(buf, X_OK)) {
		printf("1..0 # SKIP %s is missing\n", buf);
		exit(0);
	}
}

int harness_request_within(const char *sock, const char *line, char *reply,
			   size_t len, int timeout_ms)
{
	size_t n;
	int rc;

	reply[0] = '\0';
	rc = cosched_agent_request(sock, line, reply, len, timeout_ms);
	n = strlen(reply);
	if (n && reply[n - 1] == '\n')
		reply[n - 1] = '\0';
	return rc;
}

int harness_request(const char *sock, const char *line, char *reply,
		    size_t len)
{
	return harness_request_within(sock, line, reply, len, 3000);
}

static int answers_ping(const char *sock)
{
	char reply[256];

	return !harness_request(sock, "ping", reply, sizeof(reply)) &&
	       !strncmp(reply, "ok", 2);
}

/* The value of option 'name' in argv, or NULL. */
static const char *_option(char *const argv[], const char *name)
{
	for (int i = 1; argv[i]; i++)
		if (!strcmp(argv[i], name))
			return argv[i + 1];
	return NULL;
}

/*
 * exec argv, with "--log RUN_DIR/NODE.log" added when it names no log:
 * the tests read that file, and without --log an agent whose stderr is
 * no terminal logs to syslog.
 */
static void _exec_agent(char *const argv[])
{
	const char *dir = _option(argv, "--run-dir");
	const char *node = _option(argv, "--node");
	char *with_log[64], log[512];
	int n = 0;

	if (_option(argv, "--log") || !dir || !node) {
		execv(argv[0], argv);
		return;
	}
	while (argv[n] && n < 61) {
		with_log[n] = argv[n];
		n++;
	}
	snprintf(log, sizeof(log), "%s/%s.log", dir, node);
	with_log[n++] = "--log";
	with_log[n++] = log;
	with_log[n] = NULL;
	execv(argv[0], with_log);
}

static pid_t _start_agent(char *const argv[], const char *sock,
			  int (*prepare)(void *arg), void *arg, bool add_log)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (prepare && prepare(arg))
			_exit(126);
		if (add_log)
			_exec_agent(argv);
		else
			execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0)
		return -1;
	for (int ms = 0; ms < START_WAIT_MS; ms += POLL_MS) {
		if (answers_ping(sock))
			return pid;
		harness_sleep_ms(POLL_MS);
	}
	harness_reap(pid);	/* leave nothing behind */
	return -1;
}

pid_t harness_start_agent_prepared(char *const argv[], const char *sock,
				   int (*prepare)(void *arg), void *arg)
{
	return _start_agent(argv, sock, prepare, arg, true);
}

pid_t harness_start_agent_as_given(char *const argv[], const char *sock,
				   int (*prepare)(void *arg), void *arg)
{
	return _start_agent(argv, sock, prepare, arg, false);
}

pid_t harness_start_agent(char *const argv[], const char *sock)
{
	return harness_start_agent_prepared(argv, sock, NULL, NULL);
}

bool harness_log_has(const char *run_dir, const char *node, const char *text)
{
	char path[PATH_MAX + 64], line[1024];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.log", run_dir, node);
	f = fopen(path, "r");
	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, text) != NULL;
	if (f)
		fclose(f);
	return found;
}

pid_t harness_guardian_of(pid_t agent)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t found = 0;

	while (d && !found && (e = readdir(d))) {
		char path[300], buf[256], comm[32], state;
		int pid, ppid;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) &&
		    sscanf(buf, "%d (%31[^)]) %c %d", &pid, comm, &state,
			   &ppid) == 4 &&
		    ppid == agent && !strcmp(comm, "coschedd-guard") &&
		    state != 'Z')
			found = pid;
		fclose(f);
	}
	if (d)
		closedir(d);
	return found;
}

/* A child that loops until killed, on a CPU (spin) or asleep. */
static pid_t looping_child(bool spin)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		alarm(120);	/* never outlive a broken test */
		for (;;)
			if (!spin)
				pause();
	}
	return pid;
}

bool harness_stop_agent(pid_t agent, int ms, int *status)
{
	pid_t got = 0;

	*status = -1;
	kill(agent, SIGTERM);
	for (int waited = 0; waited < ms && !got; waited += POLL_MS) {
		got = waitpid(agent, status, WNOHANG);
		if (!got)
			harness_sleep_ms(POLL_MS);
	}
	if (got == agent)
		return true;
	harness_reap(agent);
	return false;
}

pid_t harness_spinner(void)
{
	return looping_child(true);
}

pid_t harness_sleeper(void)
{
	return looping_child(false);
}

/* A vfork parent waits uninterruptibly for its child (harness.h). */
pid_t harness_slow_to_stop(pid_t *child)
{
	int fd[2];
	pid_t pid;

	*child = -1;
	if (pipe(fd))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		pid_t c;

		close(fd[0]);
		alarm(120);	/* never outlive a broken test */
		c = vfork();
		if (c == 0) {
			pid_t self = getpid();

			(void)!write(fd[1], &self, sizeof(self));
			alarm(120);
			for (;;)
				pause();
		}
		close(fd[1]);	/* a child that never wrote: EOF, not a hang */
		waitpid(c, NULL, 0);
		for (;;)
			pause();
	}
	close(fd[1]);
	if (pid < 0 || read(fd[0], child, sizeof(*child)) != sizeof(*child))
		*child = -1;
	close(fd[0]);
	return pid;
}

char harness_proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* the name may hold anything, even ')' */
	return p && p[1] == ' ' && p[2] ? p[2] : '?';
}

bool harness_in_d(pid_t pid, int ms)
{
	for (int waited = 0; waited <= ms; waited += POLL_MS) {
		if (harness_proc_state(pid) == 'D')
			return true;
		harness_sleep_ms(POLL_MS);
	}
	return false;
}

void harness_reap(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	kill(pid, SIGCONT);
	waitpid(pid, NULL, 0);
}

const char *harness_cgroup(pid_t pid, const char *ctrl)
{
	static char line[512];
	char path[64], key[32];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	snprintf(key, sizeof(key), ":%s:", ctrl);
	f = fopen(path, "r");
	if (!f)
		return "?";
	while (fgets(line, sizeof(line), f)) {
		char *at = strstr(line, key);

		/* the hierarchy's own controller list, not a path */
		if (at && at == strchr(line, ':')) {
			fclose(f);
			at[strcspn(at, "\n")] = '\0';
			return at + strlen(key);
		}
	}
	fclose(f);
	return "?";
}

const char *harness_cpu_cgroup(pid_t pid)
{
	return harness_cgroup(pid, "cpu");
}

int harness_free_udp_port(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_DGRAM, 0), port = -1;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&sa, sizeof(sa)) &&
	    !getsockname(fd, (struct sockaddr *)&sa, &len))
		port = ntohs(sa.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

int harness_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f)
		return -1;
	rc = fputs(text, f) < 0 ? -1 : 0;
	return fclose(f) ? -1 : rc;
}

int harness_write_page(const char *path, pid_t pid, int rank, uint32_t job,
		       uint32_t step, size_t size)
{
	struct cosched_shm page;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	int rc = 0;

	if (fd < 0)
		return -1;
	memset(&page, 0, sizeof(page));
	page.magic = COSCHED_SHM_MAGIC;
	page.version = COSCHED_SHM_VERSION;
	page.size = sizeof(page);
	page.pid = pid;
	page.rank = rank;
	page.job_id = job;
	page.step_id = step;
	page.start_ns = harness_now_ns();
	if (write(fd, &page, sizeof(page)) != (ssize_t)sizeof(page) ||
	    ftruncate(fd, (off_t)size))
		rc = -1;
	close(fd);
	return rc;
}

int harness_mkdir_p(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

bool harness_closed_within(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char c;
	ssize_t n;

	if (poll(&p, 1, ms) != 1)
		return false;
	n = recv(fd, &c, 1, MSG_DONTWAIT);
	return n == 0 || (n < 0 && errno == ECONNRESET);
}

uint64_t harness_cpu_ticks(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long utime = 0, stime = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	p = strrchr(buf, ')');
	if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			&utime, &stime) == 2)
		return utime + stime;
	return 0;
}

void harness_need_fuse(const char *argv0, char *stallfs, size_t len)
{
	char self[PATH_MAX];

	if (access("/dev/fuse", F_OK) || access(HARNESS_FUSERMOUNT, X_OK) ||
	    access("/etc/fuse.conf", F_OK)) {
		printf("1..0 # SKIP no /dev/fuse, %s or /etc/fuse.conf\n",
		       HARNESS_FUSERMOUNT);
		exit(0);
	}
	snprintf(self, sizeof(self), "%s", argv0);
	snprintf(stallfs, len, "%s/stallfs", dirname(self));
	if (access(stallfs, X_OK))
		harness_bail_out("%s: %s", stallfs, strerror(errno));
}

int64_t harness_agent_ticks(const char *sock)
{
	static char reply[65536];
	const char *at;
	long long n;

	if (harness_request(sock, "status json", reply, sizeof(reply)) ||
	    !(at = strstr(reply, "\"ticks\":")) ||
	    sscanf(at + strlen("\"ticks\":"), " %lld", &n) != 1)
		return -1;
	return n;
}

bool harness_responsive_for(const char *sock, int ms, int64_t *ticks_gained)
{
	int64_t before = harness_agent_ticks(sock);
	char reply[256];

	for (int waited = 0; waited < ms; waited += 250) {
		if (harness_request_within(sock, "ping", reply, sizeof(reply),
					   2000)) {
			printf("# ping unanswered within 2 s after %d ms\n", waited);
			return false;
		}
		harness_sleep_ms(250);
	}
	*ticks_gained = harness_agent_ticks(sock) - before;
	return before >= 0 && *ticks_gained > 0;
}

/* file under dir, made once: a node of /dev/fuse's device, or text. */
static int _fuse_file(const char *path, const char *text)
{
	struct stat st;

	if (!access(path, F_OK))
		return 0;
	if (text)
		return harness_write_file(path, text);
	if (stat("/dev/fuse", &st) || mknod(path, S_IFCHR | 0666, st.st_rdev))
		return -1;
	return chmod(path, 0666);
}

int harness_fuse_namespace(const char *dir, bool allow_other)
{
	char dev[PATH_MAX], conf[PATH_MAX];

	snprintf(dev, sizeof(dev), "%s/fuse", dir);
	snprintf(conf, sizeof(conf), "%s/fuse.conf", dir);
	/* the types are named ("none", ignored for these): valgrind
	 * flags a NULL */
	if (_fuse_file(dev, NULL) || _fuse_file(conf, "user_allow_other\n") ||
	    unshare(CLONE_NEWNS) ||
	    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
	    mount(dev, "/dev/fuse", "none", MS_BIND, NULL))
		return -1;
	return allow_other ?
	       mount(conf, "/etc/fuse.conf", "none", MS_BIND, NULL) : 0;
}
