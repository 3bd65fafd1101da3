/*
 * peers.c - slurmstepd: who the node agents of a membus step are, and
 * where this node's agent takes gang tables.
 *
 * The agents of a step's nodes gang-switch the step together: each needs
 * the number of nodes the step spans, its own UDP address and those of the
 * coordinators, the first nodes of the step's node list (every node
 * computes the same list, so all pick the same coordinators without
 * talking first).  A node's address is the one slurmctld has for its
 * slurmd (NodeAddr, else NodeHostname, else the name), its port the
 * slurmd's plus membus_port_offset, so that no port needs configuring.
 *
 * Only Slurm's public API: the step's layout from slurmctld (its node
 * list: the job's environment is the user's), the hostlist functions of
 * <slurm/slurm.h> and one slurm_load_node_single() RPC per node named.
 * Hostlists are 'struct hostlist *', which both Slurm 22.05 (hostlist_t
 * is that pointer) and 24.11 (hostlist_t is the struct) accept.
 * The text itself is built by lib/cosched_proto (membus_req.c).
 *
 * Gang tables are taken only from slurmctld's addresses: those of
 * SlurmctldHost and its backups in slurmstepd's configuration (or as
 * slurmctld reports it, where that is missing: control_addr, else the
 * host name), resolved here,
 * in slurmstepd, so that the agent gets numbers and never waits on a
 * name service.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm_public.h"

#include "cosched.h"
#include "cosched_proto/gang.h"
#include "cosched_proto/peer_hosts.h"
#include "cosched_proto/proto.h"

/* Large enough for the node list of any step (Slurm compresses it). */
#define NODELIST_LEN 65536

/* What the step's node list says. */
struct step_nodes {
	uint32_t count;
	size_t ncoord;
	char coord[COSCHED_COORD_MAX][COSCHED_NODE_NAME_LEN];
	bool has_self;
};

/*
 * The step's node list as slurmctld has it (the step layout).  Not the
 * job's environment: SLURM_STEP_NODELIST and friends are whatever the
 * user's srun or sbatch --export put there, and slurmstepd passes them on.
 */
static int _nodelist(uint32_t job, uint32_t step, char *buf, size_t len,
		     char *err, size_t err_len)
{
	slurm_step_id_t id = { .job_id = job, .step_het_comp = NO_VAL,
			       .step_id = step };
	slurm_step_layout_t *layout = slurm_job_step_layout_get(&id);
	int rc = -1;

	if (!layout || !layout->node_list || !*layout->node_list)
		snprintf(err, err_len, "cannot load the layout of step %u.%u from slurmctld: %s",
			 job, step, slurm_strerror(errno));
	else if (strlen(layout->node_list) >= len)
		snprintf(err, err_len, "the node list of step %u.%u is longer than %zu bytes",
			 job, step, len - 1);
	else
		rc = snprintf(buf, len, "%s", layout->node_list) < 0 ? -1 : 0;
	if (layout)
		slurm_job_step_layout_free(layout);
	return rc;
}

/* Count the nodes of list, keep the first ones, look for self. */
static int _expand(const char *list, const char *self, struct step_nodes *out,
		   char *err, size_t err_len)
{
	struct hostlist *hl = slurm_hostlist_create(list);
	bool bad_name = false;
	char *host;
	int count;

	memset(out, 0, sizeof(*out));
	if (!hl || (count = slurm_hostlist_count(hl)) <= 0) {
		snprintf(err, err_len, "cannot expand node list '%.64s'", list);
		if (hl)
			slurm_hostlist_destroy(hl);
		return -1;
	}
	out->count = (uint32_t)count;
	while ((host = slurm_hostlist_shift(hl))) {
		if (!strcmp(host, self))
			out->has_self = true;
		/* a bad name fails every node alike: none ever picks other
		 * coordinators than the rest */
		if (out->ncoord < COSCHED_COORD_MAX && !bad_name) {
			bad_name = !cosched_node_name_ok(host);
			if (bad_name)
				snprintf(err, err_len,
					 "unusable node name '%.64s'", host);
			else
				memcpy(out->coord[out->ncoord++], host,
				       strlen(host) + 1);
		}
		free(host);
	}
	slurm_hostlist_destroy(hl);
	if (bad_name)
		return -1;
	if (!out->has_self) {
		snprintf(err, err_len, "this node is not in node list '%.64s'",
			 list);
		return -1;
	}
	return 0;
}

/* NAME@ADDR:PORT of node name, from slurmctld's record of it, by the rule
 * select/coalloc's gang_tables.c sends by too (cosched_agent_peer). */
static int _peer(const char *name, uint32_t offset, char *buf, size_t len,
		 char *err, size_t err_len)
{
	char node[COSCHED_NODE_NAME_LEN];
	node_info_msg_t *msg = NULL;
	const node_info_t *info;
	int rc = -1;

	snprintf(node, sizeof(node), "%s", name);
	if (slurm_load_node_single(&msg, node, SHOW_ALL) != SLURM_SUCCESS ||
	    !msg || msg->record_count < 1 || !msg->node_array) {
		snprintf(err, err_len, "cannot load node %s from slurmctld: %s",
			 name, slurm_strerror(errno));
		goto fail;
	}
	info = &msg->node_array[0];
	if (cosched_agent_peer(name, info->node_addr, info->node_hostname,
			       info->port, offset, buf, len, err, err_len))
		goto fail;
	rc = 0;
fail:
	if (msg)
		slurm_free_node_info_msg(msg);
	return rc;
}

/* The coordinators' PEERs; self's is reused rather than loaded again. */
static int _coord_peers(const struct step_nodes *nodes, const char *self,
			const char *self_peer, uint32_t offset,
			char peers[][COSCHED_PEER_LEN], char *err,
			size_t err_len)
{
	for (size_t i = 0; i < nodes->ncoord; i++) {
		if (!strcmp(nodes->coord[i], self))
			memcpy(peers[i], self_peer, strlen(self_peer) + 1);
		else if (_peer(nodes->coord[i], offset, peers[i],
			       COSCHED_PEER_LEN, err, err_len))
			return -1;
	}
	return 0;
}

int cosched_peers_request(spank_t sp, uint32_t job, uint32_t step,
			  const char *self, char *request, size_t len,
			  char *err, size_t err_len)
{
	uint32_t offset = cosched_config()->membus_port_offset;
	char self_peer[COSCHED_PEER_LEN];
	char peers[COSCHED_COORD_MAX][COSCHED_PEER_LEN];
	const char *coord[COSCHED_COORD_MAX];
	struct step_nodes nodes;
	char *list = malloc(NODELIST_LEN);
	int rc = -1;

	if (!list) {
		snprintf(err, err_len, "out of memory");
		goto fail;
	}
	(void)sp;	/* the node list comes from slurmctld, not the job */
	if (_nodelist(job, step, list, NODELIST_LEN, err, err_len) ||
	    _expand(list, self, &nodes, err, err_len) ||
	    _peer(self, offset, self_peer, sizeof(self_peer), err, err_len) ||
	    _coord_peers(&nodes, self, self_peer, offset, peers, err, err_len))
		goto fail;
	for (size_t i = 0; i < nodes.ncoord; i++)
		coord[i] = peers[i];
	if (cosched_membus_request(request, len, job, step, nodes.count,
				   self_peer, coord, nodes.ncoord) < 0) {
		snprintf(err, err_len, "the membus request for %s does not fit %zu bytes",
			 self_peer, len);
		goto fail;
	}
	rc = 0;
fail:
	free(list);
	return rc;
}

/* Every address name resolves to, into h (those beyond its room left). */
static void _resolve(const char *name, struct peer_hosts *h)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM };
	struct addrinfo *res = NULL;

	if (!name || !*name || getaddrinfo(name, NULL, &hints, &res))
		return;
	for (const struct addrinfo *ai = res; ai; ai = ai->ai_next)
		(void)peer_hosts_add(h, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(res);
}

/*
 * slurmstepd's own copy of the configuration (libslurm's global, not in
 * Slurm's public headers; weak: absent outside a Slurm process).  Read
 * here rather than asked of slurmctld: slurm_load_ctl_conf at every
 * step's start is one more RPC per node and step, and on Slurm 24.11 it
 * sometimes took 5 s, holding the step's tasks (29-gang-agents.t).
 */
extern slurm_conf_t slurm_conf __attribute__((weak));

/* Every address of conf's SlurmctldHost lines into h. */
static void _control_hosts(const slurm_conf_t *conf, struct peer_hosts *h)
{
	for (uint32_t i = 0; i < conf->control_cnt; i++) {
		const char *addr = conf->control_addr ? conf->control_addr[i] : NULL;

		_resolve(addr && *addr ? addr : conf->control_machine ?
			 conf->control_machine[i] : NULL, h);
	}
}

/* slurmctld's addresses, primary and backups, as "A,B,..." into buf:
 * from slurmstepd's configuration, or else from slurmctld. */
static int _slurmctld_hosts(char *buf, size_t len, char *err, size_t err_len)
{
	slurm_conf_t *conf = NULL;
	struct peer_hosts h = { 0 };

	if (&slurm_conf && slurm_conf.control_cnt)
		_control_hosts(&slurm_conf, &h);
	if (!h.n) {
		if (slurm_load_ctl_conf((time_t)0, &conf) != SLURM_SUCCESS ||
		    !conf) {
			snprintf(err, err_len, "cannot load slurmctld's configuration: %s",
				 slurm_strerror(errno));
			return -1;
		}
		_control_hosts(conf, &h);
		coalloc_free_ctl_conf(conf);
	}
	if (!h.n) {
		snprintf(err, err_len, "no address of SlurmctldHost resolves");
		return -1;
	}
	return peer_hosts_format(&h, buf, len);
}

int cosched_gang_join(const char *self, struct cosched_gang_req *g,
		      char *err, size_t err_len)
{
	memset(g, 0, sizeof(*g));
	if (_peer(self, cosched_config()->gang_port_offset, g->self,
		  sizeof(g->self), err, err_len) ||
	    _slurmctld_hosts(g->from, sizeof(g->from), err, err_len))
		return -1;
	return 0;
}
