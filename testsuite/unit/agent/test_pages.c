/*
 * test_pages.c - the shim's pages as the root node agent meets them
 * (lib/cosched/pages.h, agent/sched.c): a private coschedd in a temporary
 * run directory, with registered processes whose pages this test writes
 * the way the shim does, or replaces by what a hostile user could put
 * there.
 *
 * Checked: the step's page directory as slurmstepd makes it (owners and
 * modes; refused under a run dir others may write to or a pages directory
 * of another user; another user can neither make a step's directory nor
 * a page in one; a symbolic link in its place is replaced, never
 * followed; removal follows no link and takes what the user left); a
 * valid page is read
 * (status shows "shim": true); a FIFO in a page's place does not block
 * the agent (it keeps ticking and answering, and SIGTERM still stops it
 * within 2 s); a page truncated to 0 bytes after the agent read it is
 * dropped and the agent lives on (no SIGBUS); pages of another user, of
 * the wrong size, with a second link or behind a symbolic link are
 * ignored; a page name squatted in /dev/shm by another user no longer
 * matters.  And the cost of reading 64 pages with pread, against reading
 * them from shared mappings, per tick.  Needs root (the agent refuses
 * otherwise).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <json-c/json.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent_harness.h"
#include "cosched_proto/client.h"
#include "cosched/pages.h"
#include "cosched/shm.h"
#include "tap.h"

#define REPLY_LEN 65536
#define NOBODY 65534
#define BENCH_PAGES 64
#define BENCH_ROUNDS 2000

static char coschedd[PATH_MAX];
static char run_dir[256], node[32], sock[PATH_MAX + 64];
static char reply[REPLY_LEN];
static uint32_t job;		/* this run's job ids: job, job + 1, ... */
static int request(const char *line)
{
	return harness_request(sock, line, reply, sizeof(reply));
}

static bool pings(void)
{
	return !request("ping") && !strncmp(reply, "ok", 2);
}

static pid_t start_agent(void)
{
	char *argv[] = { coschedd, "--node", node, "--run-dir", run_dir,
			 "--tick-us", "1000", NULL };

	return harness_keep(harness_start_agent(argv, sock));
}

/* A registered "MPI process": sleeps until killed. */
static pid_t sleeper(void)
{
	return harness_keep(harness_sleeper());
}

static bool register_proc(uint32_t j, uint32_t step, pid_t pid, int rank)
{
	char line[256];

	snprintf(line, sizeof(line),
		 "register job=%u step=%u uid=0 mode=pb pb=D tick_us=1000 spin_ns=0 pid=%d rank=%d",
		 j, step, (int)pid, rank);
	return !request(line) && !strncmp(reply, "ok registered", 13);
}

/* Ask the agent for its status in JSON: the parsed object or NULL. */
static json_object *status(void)
{
	if (request("status json"))
		return NULL;
	return json_tokener_parse(reply);
}

static int64_t ticks(void)
{
	json_object *o = status(), *ov, *t;
	int64_t n = -1;

	if (o && json_object_object_get_ex(o, "overhead", &ov) &&
	    json_object_object_get_ex(ov, "ticks", &t))
		n = json_object_get_int64(t);
	json_object_put(o);
	return n;
}

/* "shim" of rank's process of j.step: 1 true, 0 false, -1 not found. */
static int shim_of(uint32_t j, uint32_t step, int rank)
{
	json_object *o = status(), *jobs, *procs, *v;
	int found = -1;

	if (!o || !json_object_object_get_ex(o, "jobs", &jobs))
		goto out;
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		json_object *s = json_object_array_get_idx(jobs, i);

		if (!json_object_object_get_ex(s, "job", &v) ||
		    json_object_get_int64(v) != j ||
		    !json_object_object_get_ex(s, "step", &v) ||
		    json_object_get_int64(v) != step ||
		    !json_object_object_get_ex(s, "procs", &procs))
			continue;
		for (size_t k = 0; k < json_object_array_length(procs); k++) {
			json_object *p = json_object_array_get_idx(procs, k);

			if (json_object_object_get_ex(p, "rank", &v) &&
			    json_object_get_int(v) == rank &&
			    json_object_object_get_ex(p, "shim", &v))
				found = json_object_get_boolean(v);
		}
	}
out:
	json_object_put(o);
	return found;
}

/* shim_of becomes want within ms. */
static bool shim_becomes(uint32_t j, uint32_t step, int rank, int want, int ms)
{
	for (int waited = 0; waited < ms; waited += 20) {
		if (shim_of(j, step, rank) == want)
			return true;
		harness_sleep_ms(20);
	}
	return shim_of(j, step, rank) == want;
}

/* shim_of stays want for ms (the agent looks for pages every 100 ms). */
static bool shim_stays(uint32_t j, uint32_t step, int rank, int want, int ms)
{
	for (int waited = 0; waited < ms; waited += 50) {
		if (shim_of(j, step, rank) != want)
			return false;
		harness_sleep_ms(50);
	}
	return true;
}

static void step_dir(uint32_t j, uint32_t step, char *buf, size_t len)
{
	if (cosched_page_dir_path(run_dir, j, step, buf, len))
		harness_bail_out("run dir too long");
}

static void page_path(uint32_t j, uint32_t step, const char *name, char *buf,
		      size_t len)
{
	char dir[PATH_MAX];

	step_dir(j, step, dir, sizeof(dir));
	if ((size_t)snprintf(buf, len, "%s/%s", dir, name) >= len)
		harness_bail_out("page path too long");
}

/* Run fn(arg) in a child as nobody: its exit status, or -1. */
static int as_nobody(int (*fn)(const char *), const char *arg)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		if (setgid(NOBODY) || setuid(NOBODY))
			_exit(99);
		_exit(fn(arg));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* 0: created; 1: refused for want of permission; 2: other. */
static int try_mkdir(const char *path)
{
	if (!mkdir(path, 0700))
		return 0;
	return errno == EACCES ? 1 : 2;
}

static int try_create(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno == EACCES ? 1 : 2;
}

static bool is_dir(const char *path, uid_t uid, mode_t mode)
{
	struct stat st;

	return !lstat(path, &st) && S_ISDIR(st.st_mode) && st.st_uid == uid &&
	       (st.st_mode & 07777) == mode;
}

static void test_directory(void)
{
	char pages[PATH_MAX], dir[PATH_MAX], path[PATH_MAX + 64],
	     outside[300], err[512] = "";

	ok(!cosched_pages_create(run_dir, job, 0, 0, err, sizeof(err)),
	   "slurmstepd's page directory for uid 0 is made (%s)", err);
	snprintf(pages, sizeof(pages), "%s/" COSCHED_PAGES_SUBDIR, run_dir);
	ok(is_dir(pages, 0, 0711), "RUN_DIR/pages is root's, mode 0711");
	step_dir(job, 0, dir, sizeof(dir));
	ok(is_dir(dir, 0, 0700), "RUN_DIR/pages/JOB.STEP is the user's, mode 0700");
	ok(!cosched_pages_create(run_dir, job, 0, 0, err, sizeof(err)) &&
	   is_dir(dir, 0, 0700),
	   "a second slurmstepd of the step takes the same directory");
	ok(!cosched_pages_create(run_dir, job + 9, 0, NOBODY, err, sizeof(err)),
	   "one for nobody is made (%s)", err);
	step_dir(job + 9, 0, path, sizeof(path));
	ok(is_dir(path, NOBODY, 0700), "  and is nobody's, mode 0700");

	/* a run dir others may write to: no page directory (fail open) */
	chmod(run_dir, 0775);
	ok(cosched_pages_create(run_dir, job + 6, 0, 0, err, sizeof(err)) &&
	   strstr(err, "no one else may write to"),
	   "a run dir others may write to is refused (%s)", err);
	is_int(cosched_pages_open(run_dir, job, 0, 0), -1,
	       "  and the agent reads no page there");
	chmod(run_dir, 0755);
	if (chown(pages, NOBODY, 0))
		harness_bail_out("chown %s", pages);
	ok(cosched_pages_create(run_dir, job + 6, 0, 0, err, sizeof(err)),
	   "RUN_DIR/pages of another user is refused (%s)", err);
	if (chown(pages, 0, 0))
		harness_bail_out("chown %s", pages);

	/* squatting: nobody can make neither a step's directory nor a page */
	step_dir(job + 8, 0, path, sizeof(path));
	is_int(as_nobody(try_mkdir, path), 1,
	       "another user cannot make a step's directory first (EACCES)");
	page_path(job, 0, "0", path, sizeof(path));
	is_int(as_nobody(try_create, path), 1,
	       "another user cannot create a page in a step's directory (EACCES)");

	/* a link in the place of a step's directory: replaced, not followed */
	snprintf(outside, sizeof(outside), "%s/outside", run_dir);
	if (mkdir(outside, 0755))
		harness_bail_out("mkdir %s", outside);
	step_dir(job + 7, 0, path, sizeof(path));
	if (symlink(outside, path))
		harness_bail_out("symlink %s", path);
	is_int(cosched_pages_open(run_dir, job + 7, 0, 0), -1,
	       "the agent does not open a step directory that is a symlink");
	ok(!cosched_pages_create(run_dir, job + 7, 0, NOBODY, err, sizeof(err)) &&
	   is_dir(path, NOBODY, 0700) && is_dir(outside, 0, 0755),
	   "slurmstepd replaces the link by a directory, the target untouched");

	/* removal: what the user left goes, links are not followed */
	snprintf(path, sizeof(path), "%s/file", outside);
	if (harness_write_page(path, 1, 0, 0, 0, 10))
		harness_bail_out("write %s", path);
	page_path(job + 7, 0, "link", dir, sizeof(dir));
	page_path(job + 7, 0, "sub", pages, sizeof(pages));
	ok(!symlink(outside, dir) && !mkdir(pages, 0700) &&
	   !harness_write_page(strcat(pages, "/x"), 1, 0, 0, 0, 1), "the user leaves a link, a directory and files");
	ok(!cosched_pages_remove(run_dir, job + 7, 0, err, sizeof(err)),
	   "the step's directory is removed (%s)", err);
	step_dir(job + 7, 0, dir, sizeof(dir));
	ok(access(dir, F_OK) && errno == ENOENT && !access(path, F_OK),
	   "  all of it, and nothing the link pointed at");
	ok(!cosched_pages_remove(run_dir, job + 7, 0, err, sizeof(err)),
	   "removing it again (the other slurmstepd of the step) is no error");
}

/* A valid page is read; truncated to 0 bytes, it is dropped, no SIGBUS. */
static void test_truncate(pid_t agent, pid_t proc)
{
	char path[PATH_MAX + 64];
	int status;

	ok(register_proc(job, 0, proc, 0), "a process is registered (%s)", reply);
	page_path(job, 0, "0", path, sizeof(path));
	ok(!harness_write_page(path, proc, 0, job, 0, sizeof(struct cosched_shm)),
	   "its page is written");
	ok(shim_becomes(job, 0, 0, 1, 2000), "the agent reads a valid page");
	ok(!truncate(path, 0), "the user truncates the page to 0 bytes");
	harness_sleep_ms(300);
	ok(pings() && waitpid(agent, &status, WNOHANG) == 0,
	   "the agent lives on (no SIGBUS) and answers");
	ok(shim_stays(job, 0, 0, 0, 500), "  and ignores the page");
}

/* A FIFO in a page's place: the agent never blocks on it. */
static void test_fifo(pid_t proc)
{
	char path[PATH_MAX + 64], err[512] = "";
	int64_t before, after;
	bool answered = true;

	ok(!cosched_pages_create(run_dir, job + 1, 0, 0, err, sizeof(err)),
	   "a second step's directory (%s)", err);
	page_path(job + 1, 0, "0", path, sizeof(path));
	ok(!mkfifo(path, 0600), "a FIFO has the page's name");
	ok(register_proc(job + 1, 0, proc, 0), "its process is registered (%s)",
	   reply);
	before = ticks();
	for (int i = 0; i < 10; i++) {	/* 1 s: ten looks for the page */
		harness_sleep_ms(100);
		answered = answered && pings();
	}
	after = ticks();
	ok(answered, "the agent answers ping all along");
	ok(before >= 0 && after > before + 100,
	   "  and keeps ticking (%lld ticks in 1 s)", (long long)(after - before));
	is_int(shim_of(job + 1, 0, 0), 0, "  and uses no page for the process");
}

/* Hostile files with a page's name: each ignored, the valid one read. */
static void test_hostile(pid_t procs[5])
{
	const uint32_t j = job + 2;
	char path[PATH_MAX + 64], other[PATH_MAX + 64], err[512] = "";
	const size_t size = sizeof(struct cosched_shm);

	ok(!cosched_pages_create(run_dir, j, 0, 0, err, sizeof(err)),
	   "a third step's directory (%s)", err);
	for (int r = 0; r < 5; r++)
		if (!register_proc(j, 0, procs[r], r))
			harness_bail_out("register rank %d: %s", r, reply);
	page_path(j, 0, "0", path, sizeof(path));
	ok(!harness_write_page(path, procs[0], 0, j, 0, size), "rank 0: a valid page");
	page_path(j, 0, "1", path, sizeof(path));
	ok(!harness_write_page(path, procs[1], 1, j, 0, size) &&
	   !chown(path, NOBODY, NOBODY), "rank 1: a page of another user");
	page_path(j, 0, "2", path, sizeof(path));
	ok(!harness_write_page(path, procs[2], 2, j, 0, size + 1),
	   "rank 2: a page one byte too long");
	page_path(j, 0, "3", path, sizeof(path));
	page_path(j, 0, "3.elsewhere", other, sizeof(other));
	ok(!harness_write_page(other, procs[3], 3, j, 0, size) && !link(other, path),
	   "rank 3: a page with a second link");
	page_path(j, 0, "4", path, sizeof(path));
	page_path(j, 0, "4.target", other, sizeof(other));
	ok(!harness_write_page(other, procs[4], 4, j, 0, size) && !symlink(other, path),
	   "rank 4: a symbolic link to a page");
	ok(shim_becomes(j, 0, 0, 1, 2000), "the valid page is read");
	for (int r = 1; r < 5; r++)
		ok(shim_stays(j, 0, r, 0, r == 1 ? 500 : 100),
		   "rank %d's file is ignored", r);
}

/* A name squatted in /dev/shm (the old place) by another user: no matter. */
static int squat(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);

	if (fd < 0)
		return 1;
	close(fd);
	return 0;
}

static void test_squat(pid_t proc)
{
	const uint32_t j = job + 3;
	char path[PATH_MAX + 64], old[128], err[512] = "";

	snprintf(old, sizeof(old), "/dev/shm/cosched.%u.0.0", j);
	is_int(as_nobody(squat, old), 0,
	       "another user squats the page's old name in /dev/shm");
	ok(!cosched_pages_create(run_dir, j, 0, 0, err, sizeof(err)),
	   "the step's directory is made all the same (%s)", err);
	page_path(j, 0, "0", path, sizeof(path));
	is_int(as_nobody(try_create, path), 1,
	       "  and the other user cannot squat the name there");
	ok(register_proc(j, 0, proc, 0) &&
	   !harness_write_page(path, proc, 0, j, 0, sizeof(struct cosched_shm)),
	   "the rank registers and writes its page");
	ok(shim_becomes(j, 0, 0, 1, 2000), "the rank is coordinated (page read)");
	unlink(old);
}

/* SIGTERM stops the agent within 2 s, FIFO and all. */
static void test_sigterm(pid_t agent)
{
	int status;
	bool stopped = harness_stop_agent(agent, 2000, &status);

	ok(stopped && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "SIGTERM stops the agent within 2 s (status 0x%x)", status);
}

/* Reading the CPU time of BENCH_PAGES processes, as a tick does: ns. */
static uint64_t schedstat_ns(void)
{
	char buf[128];
	uint64_t t0 = harness_now_ns();

	for (int n = 0; n < BENCH_ROUNDS / 10; n++)
		for (int i = 0; i < BENCH_PAGES; i++) {
			int fd = open("/proc/self/schedstat", O_RDONLY | O_CLOEXEC);

			if (fd >= 0 && read(fd, buf, sizeof(buf)) < 0)
				buf[0] = '\0';
			if (fd >= 0)
				close(fd);
		}
	return (harness_now_ns() - t0) / (BENCH_ROUNDS / 10);
}

/*
 * What a tick pays per page: pread of the whole page into a copy, against
 * the loads of the fields the tick reads from a shared mapping.
 */
static void bench(void)
{
	static struct cosched_shm copy[BENCH_PAGES];
	struct cosched_shm *maps[BENCH_PAGES];
	char path[PATH_MAX + 64];
	int fds[BENCH_PAGES];
	uint64_t t0, t_pread, t_map, sum = 0;
	bool fine = true;

	for (int i = 0; i < BENCH_PAGES; i++) {
		snprintf(path, sizeof(path), "%s/bench.%d", run_dir, i);
		fine = fine && !harness_write_page(path, 1, i, 1, 0, sizeof(copy[0]));
		fds[i] = open(path, O_RDONLY);
		maps[i] = mmap(NULL, sizeof(copy[0]), PROT_READ, MAP_SHARED,
			       fds[i], 0);
		fine = fine && fds[i] >= 0 && maps[i] != MAP_FAILED;
	}
	if (!fine)
		harness_bail_out("bench pages");
	t0 = harness_now_ns();
	for (int n = 0; n < BENCH_ROUNDS; n++)
		for (int i = 0; i < BENCH_PAGES; i++)
			fine = fine && pread(fds[i], &copy[i], sizeof(copy[i]), 0) ==
				       (ssize_t)sizeof(copy[i]);
	t_pread = (harness_now_ns() - t0) / BENCH_ROUNDS;
	t0 = harness_now_ns();
	for (int n = 0; n < BENCH_ROUNDS; n++)
		for (int i = 0; i < BENCH_PAGES; i++) {
			const struct cosched_shm *m = maps[i];

			sum += atomic_load(&m->in_recv) + atomic_load(&m->yielding) +
			       atomic_load(&m->in_comm) + atomic_load(&m->awaited_arrived) +
			       cosched_shm_pending(m) + atomic_load(&m->heartbeat_ns) +
			       atomic_load(&m->msgs_received) + atomic_load(&m->bytes_received);
		}
	t_map = (harness_now_ns() - t0) / BENCH_ROUNDS;
	diag("for scale, what a tick reads per process anyway: %.1f us for %d "
	     "/proc/PID/schedstat", (double)schedstat_ns() / 1e3, BENCH_PAGES);
	ok(fine && t_pread < 1000000,
	   "pread of %d pages: %.1f us per tick (shared mapping: %.1f us), "
	   "within the 1 ms tick", BENCH_PAGES, (double)t_pread / 1e3,
	   (double)t_map / 1e3);
	for (int i = 0; i < BENCH_PAGES; i++) {
		munmap(maps[i], sizeof(copy[0]));
		close(fds[i]);
	}
	(void)sum;
}

int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/test_pages.XXXXXX";
	pid_t agent, procs[5];

	(void)argc;
	harness_need_coschedd(argv[0], coschedd, sizeof(coschedd));
	if (harness_private_run_dir(tmpl, run_dir, sizeof(run_dir)))
		return 1;
	snprintf(node, sizeof(node), "p%d", (int)getpid());
	cosched_socket_path(run_dir, node, sock, sizeof(sock));
	job = 900000000u + (uint32_t)getpid() % 1000000u * 10u;

	test_directory();
	agent = start_agent();
	ok(agent > 0, "the agent starts and answers ping");
	if (agent < 0)
		harness_bail_out("no agent");
	test_truncate(agent, sleeper());
	test_fifo(sleeper());
	for (int r = 0; r < 5; r++)
		procs[r] = sleeper();
	test_hostile(procs);
	test_squat(sleeper());
	test_sigterm(agent);
	bench();
	return done_testing();
}
