/*
 * options.c - this process's settings, read by every topic file: the
 * site's (the plugstack.conf arguments, parsed once by slurm_spank_init)
 * and the user's (--coalloc=SIZES, --cosched=MODE and the --cosched-*
 * settings: registration and validation).  A leaf, so that no topic file
 * needs the entry file.
 *
 * Slurm calls the callbacks where the user submits (sbatch, also for each
 * #SBATCH line, salloc, srun: remote == 0) and again in slurmstepd with
 * the forwarded value (remote == 1).  A non-zero return at submit time
 * makes the command print "Invalid --<option> argument" and exit(-1)
 * before anything is sent to slurmctld, so our message, logged first,
 * says what exactly is wrong.  In slurmstepd a non-zero return would fail
 * the step: there a value this node refuses (its plugstack.conf differs
 * from the submit host's) is logged and the step runs without
 * coscheduling (fail open), and the node's limits are applied by stepd.c
 * (a spin time cut, a tick replaced, a mode not allowed run without).
 *
 * The callbacks get no spank_t, hence the request lives in this file;
 * a later occurrence of an option replaces an earlier one, which gives the
 * command line precedence over #SBATCH lines (Slurm processes those first).
 * What depends on two options (--cosched-bw needs the membus mode) is
 * checked once all are known, in submit.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "cosched.h"
#include "num/num.h"
#include "num/errbuf.h"
#include "coalloc/sizes.h"
#include "cosched/mode.h"

enum option_id {
	OPT_COALLOC = 1,
	OPT_COSCHED,
	OPT_PB,
	OPT_SPIN,
	OPT_TICK,
	OPT_BW,
};

static struct cosched_args config;
static struct cosched_request request;

/* slurmstepd refused an option: the step runs without coscheduling. */
static bool refused_remotely;

/* What a callback returns for a refused value: see the top of the file. */
static int _refused(const char *opt, int remote)
{
	if (!remote)
		return -1;
	slurm_error("cosched: --%s refused on this node: the step runs without coscheduling",
		    opt);
	refused_remotely = true;
	request.mode = COSCHED_MODE_NONE;
	request.mode_set = true;
	return 0;
}

static int _coalloc_cb(int val, const char *optarg, int remote)
{
	char err[ERRBUF_LEN];
	struct coalloc_sizes sizes;

	(void)val;
	if (coalloc_parse_sizes(optarg, &sizes, err, sizeof(err))) {
		slurm_error("cosched: %s", err);
		return _refused("coalloc", remote);
	}
	request.sizes = sizes;
	request.sizes_set = true;
	slurm_debug("cosched: --coalloc=%s accepted (%u components, %u nodes%s)",
		    optarg, (unsigned int)sizes.count,
		    (unsigned int)coalloc_sizes_total(&sizes),
		    remote ? ", remote" : "");
	return 0;
}

static int _cosched_cb(int val, const char *optarg, int remote)
{
	char err[ERRBUF_LEN];
	enum cosched_mode mode;

	(void)val;
	if (cosched_parse_mode(optarg, &mode, err, sizeof(err))) {
		slurm_error("cosched: %s", err);
		return _refused("cosched", remote);
	}
	/* in slurmstepd, stepd.c runs a mode not allowed without it */
	if (!remote && !cosched_args_allows(cosched_config(), mode)) {
		slurm_error("cosched: --cosched=%s is not allowed on this cluster (plugstack.conf allowed_modes)",
			    cosched_mode_name(mode));
		return -1;
	}
	if (refused_remotely)
		return 0;
	request.mode = mode;
	request.mode_set = true;
	slurm_debug("cosched: --cosched=%s accepted%s",
		    cosched_mode_name(mode), remote ? " (remote)" : "");
	return 0;
}

static int _pb_cb(int val, const char *optarg, int remote)
{
	char err[ERRBUF_LEN];
	struct cosched_pb_rule rule;

	(void)val;
	if (cosched_pb_parse(optarg, &rule, err, sizeof(err))) {
		slurm_error("cosched: --cosched-pb: %s", err);
		return _refused("cosched-pb", remote);
	}
	request.pb = rule;
	request.pb_set = true;
	return 0;
}

/*
 * A whole number of microseconds in [lo, hi] at submit; in slurmstepd any
 * from 1, since stepd.c applies this node's limits to it.
 */
static int _us(const char *opt, const char *text, uint32_t lo, uint32_t hi,
	       int remote, uint32_t *out)
{
	uint64_t v;

	if (remote) {
		lo = 1;
		hi = UINT32_MAX;
	}
	if (!num_parse_range(text, lo, hi, &v)) {
		*out = (uint32_t)v;
		return 0;
	}
	slurm_error("cosched: --%s=%s: expected whole microseconds from %u to %u",
		    opt, text, lo, hi);
	return _refused(opt, remote);
}

static int _spin_cb(int val, const char *optarg, int remote)
{
	(void)val;
	return _us("cosched-spin", optarg, 1, cosched_config()->max_spin_us,
		   remote, &request.spin_us);
}

static int _tick_cb(int val, const char *optarg, int remote)
{
	const struct cosched_args *conf = cosched_config();

	(void)val;
	return _us("cosched-tick", optarg, conf->min_tick_us,
		   conf->max_tick_us, remote, &request.tick_us);
}

static int _bw_cb(int val, const char *optarg, int remote)
{
	char err[ERRBUF_LEN];
	struct cosched_bw bw;

	(void)val;
	if (cosched_parse_bw(optarg, &bw, err, sizeof(err))) {
		slurm_error("cosched: %s", err);
		return _refused("cosched-bw", remote);
	}
	request.bw = bw;
	request.bw_set = true;
	return 0;
}

/*
 * The usage texts are built once from the library's tables so that the
 * help never lists a mode the parser would reject (Slurm copies them).
 */
static char coalloc_usage[320];
static char cosched_usage[200];
static char pb_usage[160];
static char spin_usage[160];
static char tick_usage[160];
static char bw_usage[200];

static struct spank_option cosched_options[] = {
	{ "coalloc", "SIZES", coalloc_usage, 1, OPT_COALLOC, _coalloc_cb },
	{ "cosched", "MODE", cosched_usage, 1, OPT_COSCHED, _cosched_cb },
	{ "cosched-pb", "H", pb_usage, 1, OPT_PB, _pb_cb },
	{ "cosched-spin", "US", spin_usage, 1, OPT_SPIN, _spin_cb },
	{ "cosched-tick", "US", tick_usage, 1, OPT_TICK, _tick_cb },
	{ "cosched-bw", "mem=RATE,net=RATE", bw_usage, 1, OPT_BW, _bw_cb },
	SPANK_OPTIONS_TABLE_END
};

static void _build_usage(void)
{
	snprintf(coalloc_usage, sizeof(coalloc_usage),
		 "[cosched] co-allocate the job on distinct sites: SIZES nodes per component, comma-separated, at most %d; SIZE@SITE pins a component to a site (e.g. 4,4 or 16@siteA,8); or %s: the job's -N over as few sites as hold it",
		 COALLOC_MAX_COMPONENTS, COALLOC_FLEX_KEYWORD);
	const struct cosched_args *conf = cosched_config();

	snprintf(cosched_usage, sizeof(cosched_usage),
		 "[cosched] coscheduling MODE: %s (default: %s)",
		 cosched_mode_names(), cosched_mode_name(conf->default_mode));
	snprintf(pb_usage, sizeof(pb_usage),
		 "[cosched] periodic boost heuristic A-E, with ' for the fair-share variant (default: %s)",
		 cosched_pb_name(&conf->default_pb));
	snprintf(spin_usage, sizeof(spin_usage),
		 "[cosched] spin time of SB/SY receives in microseconds, at most %u (default: 1.5 x the measured latency)",
		 conf->max_spin_us);
	snprintf(tick_usage, sizeof(tick_usage),
		 "[cosched] node agent tick in microseconds, %u to %u (default: %u)",
		 conf->min_tick_us, conf->max_tick_us, conf->tick_us);
	snprintf(bw_usage, sizeof(bw_usage),
		 "[cosched] membus: bandwidth per process in bytes/s when it cannot be measured, memory and/or network (e.g. mem=600M,net=40M)");
}

int cosched_options_register(spank_t sp)
{
	int rc = -1;

	_build_usage();
	for (struct spank_option *opt = cosched_options; opt->name; opt++) {
		spank_err_t e = spank_option_register(sp, opt);

		if (e != ESPANK_SUCCESS) {
			slurm_error("cosched: cannot register --%s: %s",
				    opt->name, spank_strerror(e));
			goto fail;
		}
	}
	rc = 0;
fail:
	return rc;
}

const struct cosched_request *cosched_request(void)
{
	return &request;
}

void cosched_request_reset(void)
{
	memset(&request, 0, sizeof(request));
	refused_remotely = false;
}

int cosched_config_load(int ac, char **av, char *err, size_t err_len)
{
	return cosched_args_parse(ac, av, &config, err, err_len);
}

const struct cosched_args *cosched_config(void)
{
	return &config;
}
