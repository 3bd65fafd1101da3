/*
 * agent.h - what the files of the node agent coschedd share.
 *
 *   coschedd.c  main: options, start-up and teardown in reverse
 *   conf.c      command-line options, strictly parsed; the defaults and
 *               limits the plugin shares: lib/cosched_proto/settings.c
 *   server.c    the UNIX socket: peer credentials, requests, replies
 *               (the requests' text: lib/cosched_proto, shared with the
 *               plugin, with the client and the settings' limits)
 *   jobs.c      registered job steps and processes; the state file
 *   sched.c     the tick: sample processes, decide (lib/cosched), apply
 *   status.c    status as text or JSON
 *   guardian.c  a watcher process that restores everything if we die
 *   proc.c, boost.c  /proc and the boost mechanisms (proc.h, boost.h)
 *   membus.c    --cosched=membus: quanta, sampling, selection, switching
 *   gang.c      gang rows switched here, by slurmctld's tables
 *   switch.c    freezing and thawing a quantum's steps (membus, gang)
 *   peer.c      membus messages between agents (UDP, munge, JSON)
 *   bw.c, freeze.c   bandwidth sources and step freezing (bw.h, freeze.h)
 *   cgroup.c    cgroup v1 helpers of boost.c and freeze.c (cgroup.h)
 *   arrivals.c  arrivals from other hosts: sockets watched by epoll
 *   closer.c    closing what was taken from a user's processes (closer.h)
 *
 * The agent is single-threaded: the socket, the tick timer, membus's
 * quantum timer and peer socket and the arrivals' epoll are served by one
 * poll loop, so nothing here needs a lock.  (closer.c has one thread
 * per user that only close()s the socket duplicates handed to it.)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHEDD_AGENT_H
#define COSCHEDD_AGENT_H

#include <limits.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

#include "arrivals.h"
#include "boost/boost.h"
#include "bw/bw.h"
#include "freeze/freeze.h"
#include "cosched/mode.h"
#include "cosched/pb.h"
#include "cosched/shm.h"
#include "cosched/tick.h"
#include "cosched_proto/client.h"
#include "cosched_proto/proto.h"
#include "cosched_proto/settings.h"
#include "membus/membus.h"
#include "host/proc.h"

#define AGENT_PATH_LEN 1024
#define AGENT_ERR_LEN 256
#define AGENT_ENDED_KEEP 32	/* ended steps kept for status */

struct agent_conf {
	char node[COSCHED_NODE_NAME_LEN];
	char run_dir[AGENT_PATH_LEN - 128];	/* room for /NODE.state */
	char socket[AGENT_PATH_LEN];	/* RUN_DIR/NODE.sock */
	char state[AGENT_PATH_LEN];	/* RUN_DIR/NODE.state */
	char lock[AGENT_PATH_LEN];	/* RUN_DIR/NODE.pid, locked while we run */
	char log[AGENT_PATH_LEN];	/* a file, "-" stderr, "syslog", or ""
					 * (syslog, stderr on a terminal) */
	enum boost_kind boost;
	uint32_t tick_us;		/* default when a job asks none */
	uint32_t idle_exit;		/* seconds, 0: never */
	bool detach;			/* leave the starter's cgroups */
	bool allow_uid_set;
	uid_t allow_uid;		/* SlurmUser, besides root */
	struct cosched_tick_params tick;
	/* membus */
	uint32_t membus_quantum_ms;
	uint32_t membus_window;
	double membus_mem, membus_net;	/* bytes/s, 0: measure */
	uint32_t cpus;			/* P, 0: our affinity mask */
	enum freeze_kind freeze;
	char munge_socket[AGENT_PATH_LEN];	/* "": munge's default */
	/* gang rows: NAME@HOST:PORT bound at start, "": at the first gang
	 * request (the plugin passes what its gang request would say) */
	char gang_self[COSCHED_PEER_LEN];
};

/* The shim's page of a process (sched.c reads it): the open file and this
 * tick's copy. */
struct agent_page {
	int fd;
	struct cosched_shm copy;
};

struct agent_proc {
	struct proc_id id;
	int rank;
	bool attached;			/* boost mechanism prepared */
	struct boost_saved saved;
	int level;			/* level applied now */
	struct agent_page *shm;		/* NULL until the shim's page is found */
	uint64_t next_shm_try_ns;
	uint64_t exec_ns;		/* main thread CPU time, last sample */
	int schedstat_fd;		/* /proc/PID/schedstat, kept open */
	bool schedstat_open;		/* (zeroed procs have none) */
	uint64_t next_exec_ns;		/* when CPU time is sampled slowly */
	bool ran;			/* ran most of the last tick */
	double cpu_share;
	uint64_t rx_bytes;		/* socket receive queues, sampled */
	uint64_t next_rx_ns;
	double energy;
	enum cosched_reason reason;	/* of the level applied */
	uint64_t msgs_seen, bytes_seen;	/* for f and m */
	struct arrivals_proc *arrivals;	/* its sockets watched, or NULL */
	uint64_t arrived_seen;		/* the page's msgs_arrived, counted */
	/* membus: this process's bandwidth counters */
	struct bw_tcp_track tcp;
	struct bw_perf perf;		/* fd -1 when not used */
};

struct agent_counters {
	uint64_t boosts[COSCHED_WHY_COUNT];
	uint64_t by_state[COSCHED_NSTATES];	/* PB and SY boosts */
	uint64_t dcs_detect_ns_sum, dcs_detect_ns_max, dcs_detect_count;
	/* the shim's counters, summed over the step's processes */
	uint64_t msgs, bytes, blocks, yields, spins_satisfied, collectives;
	uint32_t shim_procs;		/* processes whose page was found */
	struct arrivals_stats arrivals;	/* local and remote, delays */
};

/* A step that quanta stop and resume (membus, gang rows): its freezer
 * group and what the quanta did with it (switch.c). */
struct agent_switched {
	struct freeze_group *freeze;	/* NULL: cannot be frozen, runs */
	bool runs;			/* in the current quantum */
	bool unstopped;			/* runs though its quantum stops it */
	unsigned slow;			/* freezes in a row not done in time */
	uint64_t quanta_run, quanta_frozen, quanta_unstopped;
	/* guard tables (gang.c): stopped by a signal while it should run */
	uint64_t runs_since_ns, stopped_since_ns;	/* 0: not so */
	uint64_t continued;		/* SIGCONTs that repaired it */
};

/* What a membus step has besides its processes (membus.c). */
struct agent_mb_step {
	uint32_t nnodes;		/* nodes the step spans */
	double hint_mem, hint_net;	/* declared, bytes/s per process */
	bool hint_mem_set, hint_net_set;
	enum bw_source mem_src, net_src;
	struct bw_resctrl resctrl;
	struct membus_window win;	/* per-process means, quanta it ran */
	struct membus_sample estimate;	/* the window's mean, last vote */
	struct agent_switched sw;	/* its freezer, the quanta it ran */
	uint64_t seq;			/* its place in the node's list: the quantum it joined or last ran in */
};

struct agent_step {
	uint32_t job, step;
	uid_t uid;
	enum cosched_mode mode;
	struct cosched_mode_parts parts;
	struct cosched_pb_rule pb;
	uint32_t tick_us;
	uint64_t spin_ns;
	struct agent_proc *procs;
	size_t nprocs, cap;
	struct agent_counters count;
	struct agent_mb_step *mb;	/* membus steps only */
	struct agent_switched *gang;	/* steps in gang rows only */
	uint64_t started_ns, ended_ns;
	struct agent_step *next;
};

struct agent_membus;	/* membus.c: the node's MemBUS scheduler */
struct agent_rt_lease;	/* guardian.c: how long rt boosts may last */
struct agent_gang;	/* gang.c: the node's gang rows */

struct agent {
	struct agent_conf conf;
	struct boost *boost;
	int listen_fd;
	int timer_fd;
	uint32_t timer_us;		/* 0: disarmed */
	int guardian_fd;		/* write end; our death closes it */
	pid_t guardian_pid;
	int guardian_pidfd;		/* readable when it died; -1: none */
	struct agent_rt_lease *lease;	/* rt: shared with the guardian */
	uint64_t lease_ended_seen;	/* its count of passes, last seen */
	struct agent_step *steps;	/* registered, live */
	struct agent_step *ended;	/* most recent first */
	uint64_t started_ns;
	uint64_t last_job_ns;		/* for idle_exit */
	uint64_t last_tick_ns;
	int last_boosted;
	uint64_t ticks, tick_ns_sum, tick_ns_max;
	struct agent_membus *mb;	/* NULL until a membus step comes */
	struct agent_gang *gang;	/* NULL until a gang request or step */
	struct agent_server *server;	/* server.c: pending connections */
	struct arrivals *arr;		/* arrivals.c; NULL: none watched */
	bool stop;
};

/* time */
uint64_t agent_now_ns(void);

/* logging: "coschedd[NODE]: ..." to the log file, stderr or syslog */
#define AGENT_LOG_SYSLOG "syslog"
void agent_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int agent_log_open(const char *path, const char *node);
const char *agent_log_where(void);	/* "syslog", "stderr", "its file" */
int agent_log_fd(void);			/* -1: syslog */
void agent_log_close(void);

/*
 * Messages that an outsider (a socket client, a datagram) can trigger are
 * rate limited per kind: at most AGENT_LOG_BURST lines per
 * AGENT_LOG_WINDOW_S seconds, then one "suppressed K similar messages"
 * line when the window has passed (or when the agent stops), so nobody
 * can fill the RAM-backed log.  One static limit per kind:
 *   static struct agent_log_limit refused = AGENT_LOG_LIMIT("refused requests");
 *   if (agent_log_allow(&refused))
 *           agent_log("refused '%s'", agent_log_escape(line, len, buf, sizeof(buf)));
 */
#define AGENT_LOG_BURST 10
#define AGENT_LOG_WINDOW_S 10
#define AGENT_LOG_QUOTE 40	/* client bytes quoted at most */
#define AGENT_LOG_QUOTE_LEN (4 * AGENT_LOG_QUOTE + 4)	/* escaped, "..." */

struct agent_log_limit {
	const char *kind;		/* names the messages when suppressed */
	unsigned window_s;		/* 0: AGENT_LOG_WINDOW_S */
	uint64_t window_ns;		/* start of the current window, 0: none */
	unsigned logged;		/* lines in this window */
	unsigned long suppressed;	/* not logged in this window */
	struct agent_log_limit *next;	/* in the list of limits that suppressed */
	bool listed;
};
#define AGENT_LOG_LIMIT(what) { .kind = (what) }
/* the same with a window of its own (membus refusals: a minute) */
#define AGENT_LOG_LIMIT_WINDOW(what, seconds) \
	{ .kind = (what), .window_s = (seconds) }

/* true: log this one; false: count it as suppressed */
bool agent_log_allow(struct agent_log_limit *l);
/* Log the counts of windows that have passed (all: every count, at stop). */
void agent_log_flush_suppressed(bool all);
/* At most AGENT_LOG_QUOTE bytes of data, non-printable bytes, quotes and
 * backslashes escaped (\xHH), "..." when cut, into buf (of at least
 * AGENT_LOG_QUOTE_LEN bytes); returns buf. */
const char *agent_log_escape(const void *data, size_t len, char *buf,
			     size_t buf_len);

/* conf.c */
int agent_conf_parse(int argc, char **argv, struct agent_conf *conf,
		     char *err, size_t err_len);
void agent_usage(FILE *to);

/* server.c */
#define AGENT_CONN_MAX 64		/* connections served at once */
#define AGENT_REQUEST_MS 500		/* from accept to the whole line */
#define AGENT_ACCEPT_BACKOFF_MS 100	/* the listener rests after EMFILE */
#define AGENT_REPLY_MS 2000		/* to send the reply */
struct pollfd;
int agent_listen(struct agent *a, char *err, size_t err_len);
void agent_accept(struct agent *a);
/* The listener's fd for poll, -1 while it rests after EMFILE. */
int agent_listen_pollfd(const struct agent *a);
void agent_unlisten(struct agent *a);
/* (agent_unlisten also closes the connections) */
/* The connections' fds to poll into fds (AGENT_CONN_MAX of them); how many. */
size_t agent_conn_pollfds(struct agent *a, struct pollfd *fds);
/* Serve what poll reported on those n fds, then close connections past
 * their deadline. */
void agent_conn_serve(struct agent *a, const struct pollfd *fds, size_t n);
/* ms until the nearest connection deadline (at most max_ms). */
int agent_conn_timeout_ms(const struct agent *a, int max_ms);

/*
 * The live step job.step, or NULL.  Here, not in jobs.c, as are the two
 * releases below (not in sched.c): every file may look a step up or
 * release a process without a call into the file that registers steps or
 * ticks, so none of those calls back into another.
 */
static inline struct agent_step *agent_find_step(struct agent *a,
						 uint32_t job, uint32_t step)
{
	for (struct agent_step *s = a->steps; s; s = s->next)
		if (s->job == job && s->step == step)
			return s;
	return NULL;
}

/* A process's page copy and its schedstat file, at release. */
static inline void agent_shm_close(struct agent_page *page)
{
	if (!page)
		return;
	close(page->fd);
	free(page);
}

static inline void agent_proc_stat_close(struct agent_proc *p)
{
	if (p->schedstat_open)
		close(p->schedstat_fd);
	p->schedstat_open = false;
}

/* jobs.c */
int agent_register(struct agent *a, const char *request, pid_t peer_pid,
		   char *reply, size_t len);
int agent_end(struct agent *a, const char *request, char *reply, size_t len);
void agent_prune(struct agent *a);	/* drop dead processes and steps */
void agent_release_all(struct agent *a); /* restore everything, forget */
int agent_state_save(const struct agent *a);
int agent_state_recover(struct agent *a); /* restore, then re-adopt */
void agent_steps_free(struct agent *a);
uint32_t agent_wanted_tick_us(const struct agent *a); /* 0: no tick */

/* sched.c */
void agent_tick(struct agent *a);

/* membus.c */
int agent_membus_request(struct agent *a, const char *request, char *reply,
			 size_t len);
/* make s a membus step: declared hints (bytes/s per process, < 0: none),
 * sources, freezer group, its place in the node's list */
int agent_membus_step_init(struct agent *a, struct agent_step *s,
			   double hint_mem, double hint_net, char *why,
			   size_t len);
int agent_membus_proc_add(struct agent *a, struct agent_step *s,
			  struct agent_proc *p, char *why, size_t len);
void agent_membus_proc_release(struct agent_proc *p);
void agent_membus_step_release(struct agent_step *s);	/* thaws */
/* poll: the fds membus wants watched (-1: none), and their service */
int agent_membus_timer_fd(const struct agent *a);
int agent_membus_peer_fd(const struct agent *a);
void agent_membus_timer(struct agent *a);
void agent_membus_peer(struct agent *a);
void agent_membus_close(struct agent *a);
struct json_object *agent_membus_status(const struct agent *a);
struct json_object *agent_membus_step_status(const struct agent_step *s);

/* switch.c */
/* CLOCK_REALTIME in ns: quanta are numbered on it */
uint64_t agent_wall_ns(void);
/* a CLOCK_REALTIME timerfd (non-blocking), or -1 with why filled */
int agent_wall_timer_new(char *why, size_t len);
/* arm it to fire once at the wall-clock time at_ns / disarm it */
void agent_wall_timer_at(int fd, uint64_t at_ns);
void agent_wall_timer_off(int fd);
/* quantum q's set: freeze first the steps run[i] leaves out, then thaw
 * the others, so the node never runs more than the set; a step whose
 * freezing fails, or is not done in time FREEZE_SLOW_MAX quanta in a
 * row, runs from then on (its group is dropped); one not done in time
 * fewer times runs this quantum (unstopped) */
#define FREEZE_SLOW_MAX 3
void agent_switch_apply(struct agent_step **steps, struct agent_switched **sw,
			size_t n, const uint8_t *run);
/* freeze, running, quanta_run, quanta_frozen into a step's status */
void agent_switched_status(struct json_object *o,
			   const struct agent_switched *sw);

/* gang.c */
/* At start, with --gang-self: bind the gang port now, before any user's
 * step can take it (a failure turns gang rows off, logged, in status). */
void agent_gang_open(struct agent *a);
int agent_gang_request(struct agent *a, const char *request, char *reply,
		       size_t len);
/* make s a step in gang rows: its freezer group */
int agent_gang_step_init(struct agent *a, struct agent_step *s, char *why,
			 size_t len);
int agent_gang_proc_add(struct agent *a, struct agent_step *s,
			const struct agent_proc *p, char *why, size_t len);
void agent_gang_step_release(struct agent_step *s);	/* thaws */
/* poll: the fds gang rows want watched (-1: none), and their service */
int agent_gang_timer_fd(const struct agent *a);
int agent_gang_peer_fd(const struct agent *a);
void agent_gang_timer(struct agent *a);
void agent_gang_peer(struct agent *a);
void agent_gang_close(struct agent *a);
struct json_object *agent_gang_status(const struct agent *a);
struct json_object *agent_gang_step_status(const struct agent_step *s);

/* status.c */
enum agent_status_format {
	AGENT_STATUS_TEXT,
	AGENT_STATUS_JSON,
	AGENT_STATUS_METRICS,	/* node-exporter textfile (metrics.c) */
};
int agent_status(const struct agent *a, enum agent_status_format format,
		 char **out);

/* guardian.c */
int agent_guardian_start(struct agent *a, char *err, size_t err_len);
/* The guardian died (its pidfd is readable, or no pidfd): reap it and
 * start a new one.  0: a guardian runs; -1: none could be started. */
int agent_guardian_check(struct agent *a);
void agent_guardian_stop(struct agent *a);
/* rt, every tick: whether a process is boosted now.  The guardian puts
 * the rt processes back when that is not said again within two ticks
 * and 100 ms (an agent stopped or stalled).  Nothing for other kinds. */
void agent_guardian_lease(struct agent *a, bool rt_boosted);
/* rt: whether the guardian has put processes back since the last call
 * (their levels are then to be applied again). */
bool agent_guardian_took_back(struct agent *a);

#endif /* COSCHEDD_AGENT_H */
