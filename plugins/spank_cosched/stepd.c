/*
 * stepd.c - slurmstepd (remote context): the node side of --cosched.
 *
 * For a step whose mode is not none (the batch and extern steps never
 * are coscheduled), and with gang_rows=yes for every step but the extern
 * one (the agent then freezes and thaws it by gang rows, as select/
 * coalloc's tables say):
 *   post_opt        (slurmstepd, root) makes the step's page directory
 *                   for the shim, RUN_DIR/pages/JOB.STEP, the job user's
 *                   and no one else's (lib/cosched/pages.h);
 *   task_init       (in the task, as the user, before exec) preloads the
 *                   MPI shim and gives it its settings: COSCHED_WAIT,
 *                   COSCHED_SPIN_NS, COSCHED_PAGE_DIR, and Open MPI's
 *                   yield-when-idle for SY;
 *                   not for membus, which needs nothing in the tasks;
 *   task_post_fork  (slurmstepd, root) registers the task with the node's
 *                   agent, starting the agent if none answers; for membus
 *                   it first tells the agent, once, the step's nodes and
 *                   their agents' addresses (peers.c), for gang rows
 *                   where to take the tables;
 *   exit            removes the page directory and ends the step at the
 *                   agent, which restores priorities (or, for membus,
 *                   resumes the step for good).
 * Every failure here is logged and the step runs on uncoordinated: a job
 * never fails because coscheduling could not be set up (fail open).
 *
 * The settings come from the options forwarded with the step, else from
 * what sbatch/salloc recorded with the job (SLURM_SPANK_COSCHED_* in the
 * step's environment, see submit.c), else from plugstack.conf defaults.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <slurm/slurm.h>

#include "cosched.h"
#include "cosched/mode.h"
#include "cosched/pages.h"
#include "cosched/shim_env.h"
#include "cosched_proto/gang.h"
#include "cosched_proto/proto.h"
#include "num/num.h"
#include "num/errbuf.h"

#define AGENT_TIMEOUT_MS 3000
#define REPLY_LEN 512

static struct {
	bool active;		/* the agent takes the step's tasks */
	bool shim;		/* and the tasks get the MPI shim */
	enum cosched_mode mode;
	struct cosched_mode_parts parts;
	struct cosched_pb_rule pb;
	uint32_t spin_us, tick_us;
	uint32_t job, step;
	uid_t uid;
	char pages[COSCHED_ARG_PATH_LEN + 64];	/* page directory, "": none */
	char socket[COSCHED_ARG_PATH_LEN + COSCHED_NODE_NAME_LEN + 8];
	struct cosched_bw bw;	/* membus: declared bandwidth per process */
	bool agent_up, agent_failed;
	bool membus_joined, membus_failed;
	bool gang;		/* in gang rows the agents switch */
	bool gang_joined, gang_failed;
	/* the gang request's words, found once per step before the agent is
	 * asked (or started with --gang-self); gang_err: why not */
	bool gang_found;
	struct cosched_gang_req gang_req;
	char gang_err[512];
	int registered;
} step;

/* The value recorded with the job for name, from the step's env. */
static bool _job_env(spank_t sp, const char *name, char *buf, size_t len)
{
	char key[64];

	snprintf(key, sizeof(key), "SLURM_SPANK_%s", name);
	return spank_getenv(sp, key, buf, (int)len) == ESPANK_SUCCESS && *buf;
}

static uint32_t _job_env_u32(spank_t sp, const char *name, uint32_t dflt)
{
	char buf[32];
	uint64_t v;

	if (!_job_env(sp, name, buf, sizeof(buf)) ||
	    num_parse_range(buf, 0, UINT32_MAX, &v))
		return dflt;
	return (uint32_t)v;
}

/* --cosched-bw: option, else job record, else none declared. */
static void _resolve_bw(spank_t sp)
{
	const struct cosched_request *req = cosched_request();
	char buf[COSCHED_BW_TEXT_LEN + 16], err[ERRBUF_LEN];

	memset(&step.bw, 0, sizeof(step.bw));
	if (req->bw_set)
		step.bw = req->bw;
	else if (_job_env(sp, COSCHED_ENV_BW, buf, sizeof(buf)) &&
		 cosched_parse_bw(buf, &step.bw, err, sizeof(err)))
		slurm_error("cosched: job %u: recorded %s: %s: ignored",
			    step.job, COSCHED_ENV_BW, err);
}

/* The step's mode and parameters: option, else job record, else default. */
static void _resolve(spank_t sp)
{
	const struct cosched_request *req = cosched_request();
	const struct cosched_args *conf = cosched_config();
	char buf[32], err[ERRBUF_LEN];

	step.mode = cosched_mode_resolve(req->mode_set, req->mode,
					 _job_env(sp, COSCHED_ENV_MODE, buf,
						  sizeof(buf)) ? buf : NULL,
					 conf->default_mode);
	step.pb = conf->default_pb;
	if (req->pb_set)
		step.pb = req->pb;
	else if (_job_env(sp, COSCHED_ENV_PB, buf, sizeof(buf)) &&
		 cosched_pb_parse(buf, &step.pb, err, sizeof(err)))
		step.pb = conf->default_pb;
	step.spin_us = req->spin_us ? req->spin_us :
		       _job_env_u32(sp, COSCHED_ENV_SPIN, 0);
	step.tick_us = req->tick_us ? req->tick_us :
		       _job_env_u32(sp, COSCHED_ENV_TICK, conf->tick_us);
	if (step.spin_us > conf->max_spin_us)
		step.spin_us = conf->max_spin_us;
	if (step.tick_us < conf->min_tick_us || step.tick_us > conf->max_tick_us)
		step.tick_us = conf->tick_us;
	_resolve_bw(sp);
}

static void _debug_membus(void)
{
	char bw[COSCHED_BW_TEXT_LEN];

	if (cosched_format_bw(&step.bw, bw, sizeof(bw)))
		snprintf(bw, sizeof(bw), "none");
	slurm_debug("cosched: job %u step %u: mode %s, declared bandwidth %s",
		    step.job, step.step, cosched_mode_name(step.mode), bw);
}

/*
 * The step's page directory, made as root before the tasks start: no
 * other user can create or enter it, so no one can squat a page name.
 * Without it the tasks run without the shim (the agent still sees them
 * through /proc).
 */
static void _make_pages(void)
{
	const char *run_dir = cosched_config()->run_dir;
	char err[COSCHED_ARG_PATH_LEN + 256];

	if (cosched_page_dir_path(run_dir, step.job, step.step, step.pages,
				  sizeof(step.pages)))
		snprintf(err, sizeof(err), "run_dir too long");
	else if (!cosched_pages_create(run_dir, step.job, step.step, step.uid,
				       err, sizeof(err)))
		return;
	slurm_error("cosched: job %u: page directory: %s: running without the MPI shim",
		    step.job, err);
	step.pages[0] = '\0';
}

static void _remove_pages(void)
{
	const char *run_dir = cosched_config()->run_dir;
	char err[COSCHED_ARG_PATH_LEN + 256];

	if (step.pages[0] && cosched_pages_remove(run_dir, step.job, step.step,
						  err, sizeof(err)))
		slurm_error("cosched: job %u: %s", step.job, err);
	step.pages[0] = '\0';
}

int cosched_stepd_post_opt(spank_t sp)
{
	memset(&step, 0, sizeof(step));
	if (spank_get_item(sp, S_JOB_ID, &step.job) != ESPANK_SUCCESS ||
	    spank_get_item(sp, S_JOB_STEPID, &step.step) != ESPANK_SUCCESS ||
	    spank_get_item(sp, S_JOB_UID, &step.uid) != ESPANK_SUCCESS)
		return 0;
	if (step.step == SLURM_EXTERN_CONT)
		return 0;
	/* a membus step switches by its own quanta (gang.h) */
	step.gang = cosched_config()->gang_rows;
	if (step.step == SLURM_BATCH_SCRIPT) {
		step.active = step.gang;
		return 0;
	}
	_resolve(sp);
	if (!cosched_args_allows(cosched_config(), step.mode)) {
		slurm_error("cosched: job %u: mode %s is not allowed here: running without coscheduling",
			    step.job, cosched_mode_name(step.mode));
		step.mode = COSCHED_MODE_NONE;
	}
	step.gang &= !cosched_mode_by_quanta(step.mode);
	(void)cosched_mode_split(step.mode, &step.parts);
	step.shim = cosched_mode_needs_shim(step.mode);
	step.active = cosched_mode_for_agent(step.mode) || step.gang;
	if (step.shim)
		_make_pages();
	if (step.shim)
		slurm_debug("cosched: job %u step %u: mode %s, pb %s, tick %u us, spin %u us",
			    step.job, step.step, cosched_mode_name(step.mode),
			    cosched_pb_name(&step.pb), step.tick_us, step.spin_us);
	else if (step.active)
		_debug_membus();
	return 0;
}

int cosched_stepd_task_init(spank_t sp)
{
	const char *shim = cosched_config()->shim;
	char spin[32];

	if (!step.shim || !step.pages[0])
		return 0;
	if (access(shim, R_OK)) {
		slurm_error("cosched: job %u: MPI shim %s: %s: running without it",
			    step.job, shim, strerror(errno));
		return 0;
	}
	if (!cosched_shim_serves_task(sp, step.job))
		return 0;
	(void)cosched_preload_shim(sp, shim, step.job);
	(void)spank_setenv(sp, COSCHED_PAGE_DIR_ENV, step.pages, 1);
	(void)spank_setenv(sp, COSCHED_ENV_WAIT, cosched_wait_name(step.parts.wait), 1);
	if (step.spin_us) {
		snprintf(spin, sizeof(spin), "%llu",
			 (unsigned long long)step.spin_us * 1000ull);
		(void)spank_setenv(sp, COSCHED_ENV_SPIN_NS, spin, 1);
	}
	/* Open MPI's own waits (collectives) yield too; a user's value wins */
	if (step.parts.wait == COSCHED_WAIT_SY)
		(void)spank_setenv(sp, "OMPI_MCA_mpi_yield_when_idle", "1", 0);
	return 0;
}

/*
 * The agent's command line: AGENT_ARGS words always (its log the file
 * RUN_DIR/NODE.log: left to itself, a detached agent logs to syslog), two more for each
 * of allow_user, membus_mem, membus_net, munge_socket and gang_self (the
 * gang port, bound at the agent's start: no user's process can take it
 * between the start and the step's gang request) when set, and the NULL.
 */
#define AGENT_ARGS 22
#define AGENT_ARGV_MAX 34
_Static_assert(AGENT_ARGS + 2 * 5 + 1 <= AGENT_ARGV_MAX,
	       "the agent's argv must hold every argument");

/* Numbers of the command line, kept alive while it is used. */
struct agent_numbers {
	char tick[16], idle[16], quantum[16], window[16];
	char mem[32], net[32];	/* whole bytes/s, at most 1e15 */
	char log[COSCHED_ARG_PATH_LEN + COSCHED_NODE_NAME_LEN + 8];
};

static int _agent_argv(const char *node, struct agent_numbers *num,
		       char *argv[AGENT_ARGV_MAX])
{
	const struct cosched_args *conf = cosched_config();
	int argc = 0;

	snprintf(num->tick, sizeof(num->tick), "%u", conf->tick_us);
	snprintf(num->idle, sizeof(num->idle), "%u", conf->idle_exit);
	snprintf(num->quantum, sizeof(num->quantum), "%u",
		 conf->membus_quantum_ms);
	snprintf(num->window, sizeof(num->window), "%u", conf->membus_window);
	snprintf(num->mem, sizeof(num->mem), "%.0f", conf->membus_mem);
	snprintf(num->net, sizeof(num->net), "%.0f", conf->membus_net);
	snprintf(num->log, sizeof(num->log), "%s/%s.log", conf->run_dir, node);
	argv[argc++] = (char *)conf->agent;
	argv[argc++] = "--node";
	argv[argc++] = (char *)node;
	argv[argc++] = "--run-dir";
	argv[argc++] = (char *)conf->run_dir;
	argv[argc++] = "--boost";
	argv[argc++] = (char *)conf->boost;
	argv[argc++] = "--tick-us";
	argv[argc++] = num->tick;
	argv[argc++] = "--idle-exit";
	argv[argc++] = num->idle;
	argv[argc++] = "--detach";
	argv[argc++] = "--log";
	argv[argc++] = num->log;
	argv[argc++] = "--membus-quantum-ms";
	argv[argc++] = num->quantum;
	argv[argc++] = "--membus-window";
	argv[argc++] = num->window;
	argv[argc++] = "--freeze";
	argv[argc++] = (char *)conf->freeze;
	argv[argc++] = "--energy";
	argv[argc++] = (char *)cosched_energy_variant_name(conf->energy);
	if (conf->allow_user[0]) {
		argv[argc++] = "--allow-user";
		argv[argc++] = (char *)conf->allow_user;
	}
	if (conf->membus_mem > 0) {
		argv[argc++] = "--membus-mem";
		argv[argc++] = num->mem;
	}
	if (conf->membus_net > 0) {
		argv[argc++] = "--membus-net";
		argv[argc++] = num->net;
	}
	if (conf->munge_socket[0]) {
		argv[argc++] = "--munge-socket";
		argv[argc++] = (char *)conf->munge_socket;
	}
	if (step.gang && !step.gang_err[0]) {
		argv[argc++] = "--gang-self";
		argv[argc++] = step.gang_req.self;
	}
	argv[argc] = NULL;
	return argc;
}

/* The agent of this node answers, or was started; false: run without. */
static bool _agent(void)
{
	const struct cosched_args *conf = cosched_config();
	const char *node = getenv("SLURMD_NODENAME");
	char err[256], reply[64];
	char *argv[AGENT_ARGV_MAX];
	struct agent_numbers num;

	if (step.agent_up || step.agent_failed)
		return step.agent_up;
	step.agent_failed = true;
	if (!node || !cosched_node_name_ok(node) ||
	    cosched_socket_path(conf->run_dir, node, step.socket,
				sizeof(step.socket))) {
		slurm_error("cosched: no usable node name (SLURMD_NODENAME) or run_dir too long");
		return false;
	}
	if (!cosched_agent_request(step.socket, "ping", reply, sizeof(reply), 1000) &&
	    cosched_reply_ok(reply))
		goto up;
	(void)_agent_argv(node, &num, argv);
	if (cosched_agent_start(argv, step.socket, AGENT_TIMEOUT_MS, err,
				sizeof(err))) {
		slurm_error("cosched: job %u: %s: running without coscheduling",
			    step.job, err);
		return false;
	}
	slurm_info("cosched: started node agent %s for %s", conf->agent, node);
up:
	step.agent_failed = false;
	step.agent_up = true;
	return true;
}

/*
 * Send the agent a step's set-up request (what: "membus" or "gang rows"),
 * NULL when it could not be built (err says why); false, logged with
 * what the step falls back to, unless the agent accepted it.
 */
static bool _agent_accepts(const char *what, const char *request,
			   const char *err, const char *fallback)
{
	char reply[REPLY_LEN];

	if (!request) {
		slurm_error("cosched: job %u: %s: %s: %s", step.job, what, err,
			    fallback);
		return false;
	}
	if (cosched_agent_request(step.socket, request, reply, sizeof(reply),
				  AGENT_TIMEOUT_MS)) {
		slurm_error("cosched: job %u: %s: node agent did not answer: %s: %s",
			    step.job, what, strerror(errno), fallback);
		return false;
	}
	if (!cosched_reply_ok(reply)) {
		reply[strcspn(reply, "\n")] = '\0';
		slurm_error("cosched: job %u: %s: node agent: %s: %s", step.job,
			    what, reply, fallback);
		return false;
	}
	slurm_debug("cosched: job %u step %u: %s", step.job, step.step,
		    request);
	return true;
}

/*
 * membus: tell the agent, once per step, which nodes the step spans and
 * where their agents listen; until it has accepted, no task registers.
 * False: the step runs without coscheduling on this node.
 */
static bool _membus_joined(spank_t sp)
{
	const char *node = getenv("SLURMD_NODENAME");	/* checked by _agent() */
	char request[COSCHED_REQUEST_LEN], err[512];
	bool built;

	if (step.membus_joined || step.membus_failed)
		return step.membus_joined;
	built = !cosched_peers_request(sp, step.job, step.step, node, request,
				       sizeof(request), err, sizeof(err));
	step.membus_joined = _agent_accepts("membus", built ? request : NULL,
					    err, "running without coscheduling");
	step.membus_failed = !step.membus_joined;
	return step.membus_joined;
}

/* Gang rows: the words of the gang request, once per step, before the
 * agent is asked or started (gang_err says why there are none). */
static void _gang_find(void)
{
	const char *node = getenv("SLURMD_NODENAME");

	if (step.gang_found)
		return;
	step.gang_found = true;
	if (!node || !cosched_node_name_ok(node))
		snprintf(step.gang_err, sizeof(step.gang_err), "no usable node name (SLURMD_NODENAME)");
	else if (cosched_gang_join(node, &step.gang_req, step.gang_err,
				   sizeof(step.gang_err)) && !step.gang_err[0])
		snprintf(step.gang_err, sizeof(step.gang_err), "internal error");
}

/*
 * Gang rows: tell the agent, once per step, where select/coalloc sends
 * this node's tables and from which addresses (it binds there at its
 * start, or at the first such request).  False: the step runs in every
 * row on this node.
 */
static bool _gang_joined(void)
{
	char request[COSCHED_REQUEST_LEN];
	bool built;

	if (step.gang_joined || step.gang_failed)
		return step.gang_joined;
	built = !step.gang_err[0];
	if (built && cosched_gang_request_format(&step.gang_req, request,
						 sizeof(request))) {
		snprintf(step.gang_err, sizeof(step.gang_err),
			 "the gang request for %s does not fit %zu bytes",
			 step.gang_req.self, sizeof(request));
		built = false;
	}
	step.gang_joined = _agent_accepts("gang rows", built ? request : NULL,
					  step.gang_err,
					  "it runs in every row here");
	step.gang_failed = !step.gang_joined;
	return step.gang_joined;
}

/* The register request of task pid, rank into buf: 0, or -1 (too long). */
static int _register_request(pid_t pid, uint32_t rank, char *buf, size_t len)
{
	struct cosched_register r = {
		.job = step.job, .step = step.step, .uid = (uint32_t)step.uid,
		.pid = (int32_t)pid, .rank = rank, .mode = step.mode,
		.pb = step.pb, .tick_us = step.tick_us,
		.spin_ns = (uint64_t)step.spin_us * 1000ull,
		.gang = step.gang,
	};

	/* the declared bandwidth counts for membus only */
	if (cosched_mode_by_quanta(step.mode))
		r.bw = step.bw;
	return cosched_register_format(&r, buf, len);
}

int cosched_stepd_task_post_fork(spank_t sp)
{
	char request[COSCHED_REQUEST_LEN], reply[REPLY_LEN];
	uint32_t rank = 0;
	pid_t pid = 0;

	if (!step.active)
		return 0;
	if (step.gang)
		_gang_find();	/* the agent may need its --gang-self */
	if (!_agent())
		return 0;
	if (cosched_mode_by_quanta(step.mode) && !_membus_joined(sp))
		return 0;
	if (step.gang && !_gang_joined()) {
		step.gang = false;
		if (!cosched_mode_for_agent(step.mode))
			return 0;	/* nothing else to ask the agent */
	}
	if (spank_get_item(sp, S_TASK_PID, &pid) != ESPANK_SUCCESS ||
	    spank_get_item(sp, S_TASK_GLOBAL_ID, &rank) != ESPANK_SUCCESS) {
		slurm_error("cosched: job %u: cannot get a task's pid or rank: it runs without coscheduling",
			    step.job);
		return 0;
	}
	if (_register_request(pid, rank, request, sizeof(request))) {
		slurm_error("cosched: job %u task %u: internal error: register request too long",
			    step.job, rank);
		return 0;
	}
	if (cosched_agent_request(step.socket, request, reply, sizeof(reply),
			    AGENT_TIMEOUT_MS)) {
		slurm_error("cosched: job %u: node agent did not answer: %s: the step's further tasks run without coscheduling",
			    step.job, strerror(errno));
		/* a stalled agent costs one timeout per step, not per task */
		step.agent_up = false;
		step.agent_failed = true;
		return 0;
	}
	if (!cosched_reply_ok(reply)) {
		reply[strcspn(reply, "\n")] = '\0';
		slurm_error("cosched: job %u task %u: node agent: %s",
			    step.job, rank, reply);
		return 0;
	}
	step.registered++;
	return 0;
}

int cosched_stepd_exit(spank_t sp)
{
	char request[64], reply[REPLY_LEN];

	(void)sp;
	/* with the pages the killed processes left */
	_remove_pages();
	/* a membus step the agent knows of ends even without tasks */
	if (!step.registered && !step.membus_joined)
		return 0;
	if (cosched_end_format(step.job, step.step, request, sizeof(request)) ||
	    cosched_agent_request(step.socket, request, reply, sizeof(reply),
				  AGENT_TIMEOUT_MS))
		slurm_error("cosched: job %u: could not end the step at the node agent (it restores exited processes itself): %s",
			    step.job, strerror(errno));
	step.registered = 0;
	step.membus_joined = false;
	return 0;
}
