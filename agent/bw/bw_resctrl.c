/*
 * bw_resctrl.c - resctrl memory-bandwidth monitoring as a bandwidth
 * source of the node agent's MemBUS mode (bw.h; bw.c says how each source
 * counts).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <limits.h>
#include <mntent.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/perf_event.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>

#include "bw.h"
#include "bw_internal.h"
#include "host/proc.h"
#include "num/errbuf.h"

#define RESCTRL_FS "resctrl"
#define RESCTRL_MBM "mbm_total_bytes"
#define RESCTRL_L3_DOMAIN "mon_L3_"	/* mon_data/mon_L3_00, ... */

/* ------------------------------------------------------------ resctrl */

/* The resctrl mount point into mount; 0 or -1 (not mounted). */
static int _resctrl_mount(char *mount, size_t len)
{
	struct mntent ent;
	char buf[1024];
	int rc = -1;
	FILE *f = setmntent("/proc/mounts", "re");

	if (!f)
		return -1;
	while (rc && getmntent_r(f, &ent, buf, sizeof(buf))) {
		if (strcmp(ent.mnt_type, RESCTRL_FS))
			continue;
		if ((size_t)snprintf(mount, len, "%s", ent.mnt_dir) < len)
			rc = 0;
	}
	endmntent(f);
	return rc;
}

/* A resctrl mount with MBM into mount; 0, or -1 with the reason. */
static int _resctrl_usable(char *mount, size_t len, char *err, size_t elen)
{
	char path[PATH_MAX];

	if (_resctrl_mount(mount, len)) {
		if (bw_file_has_word("/proc/filesystems", RESCTRL_FS))
			errbuf_set(err, elen,
					"resctrl not mounted (mount -t resctrl "
					"resctrl /sys/fs/resctrl)");
		else
			errbuf_set(err, elen,
					"kernel has no resctrl (not in "
					"/proc/filesystems: kernel config, "
					"or a CPU without RDT/QoS)");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/info/L3_MON/mon_features", mount);
	if (access(path, R_OK)) {
		errbuf_set(err, elen,
				"resctrl at %s has no L3 monitoring (%s: %s)",
				mount, path, strerror(errno));
		return -1;
	}
	if (!bw_file_has_word(path, RESCTRL_MBM)) {
		errbuf_set(err, elen,
				"resctrl at %s monitors no memory bandwidth "
				"(no " RESCTRL_MBM " in %s)",
				mount, path);
		return -1;
	}
	return 0;
}

/* A group name is one directory component. */
static bool _valid_group(const char *name)
{
	size_t len = name ? strlen(name) : 0;

	return len && len <= NAME_MAX && !strchr(name, '/') &&
	       strcmp(name, ".") && strcmp(name, "..");
}

/* mbm_total_bytes of every domain of group dir, summed; 0 or -1. */
static int _resctrl_sum(const char *dir, uint64_t *sum)
{
	char path[PATH_MAX], line[64];
	struct dirent *de;
	DIR *d;
	int rc = -1, domains = 0;

	snprintf(path, sizeof(path), "%s/mon_data", dir);
	d = opendir(path);
	if (!d)
		return -1;
	*sum = 0;
	while ((de = readdir(d))) {
		char *end;
		unsigned long long v;

		/* mon_L3_<domain>; other monitors have no MBM file. */
		if (strncmp(de->d_name, RESCTRL_L3_DOMAIN,
			    strlen(RESCTRL_L3_DOMAIN)))
			continue;
		snprintf(path, sizeof(path), "%s/mon_data/%s/" RESCTRL_MBM,
			 dir, de->d_name);
		/* "Unavailable" while a domain is offline: no figure. */
		if (bw_read_line(path, line, sizeof(line)))
			goto out;
		errno = 0;
		v = strtoull(line, &end, 10);
		if (errno || end == line || *end)
			goto out;
		*sum += v;
		domains++;
	}
	rc = domains ? 0 : -1;
out:
	closedir(d);
	return rc;
}

int bw_resctrl_open(const char *name, struct bw_resctrl *r, char *err,
		    size_t len)
{
	char mount[PATH_MAX];
	bool created = true;

	r->dir[0] = '\0';
	r->last = 0;
	if (!_valid_group(name)) {
		errbuf_set(err, len, "resctrl: bad group name \"%s\"",
				name ? name : "(null)");
		return -1;
	}
	if (_resctrl_usable(mount, sizeof(mount), err, len))
		return -1;
	if ((size_t)snprintf(r->dir, sizeof(r->dir), "%s/mon_groups/%s",
			     mount, name) >= sizeof(r->dir)) {
		errbuf_set(err, len, "resctrl: group path too long");
		goto fail;
	}
	if (mkdir(r->dir, 0755)) {
		/* Left by an agent that died: take it over. */
		if (errno != EEXIST) {
			errbuf_set(err, len, "resctrl: mkdir %s: %s",
					r->dir, strerror(errno));
			goto fail;
		}
		created = false;
	}
	if (_resctrl_sum(r->dir, &r->last)) {
		errbuf_set(err, len, "resctrl: cannot read %s/mon_data/*/"
				RESCTRL_MBM, r->dir);
		if (created)
			rmdir(r->dir);
		goto fail;
	}
	return 0;
fail:
	r->dir[0] = '\0';
	return -1;
}

int bw_resctrl_add(struct bw_resctrl *r, pid_t pid)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *tasks;
	int fd, moved = 0;

	if (!r->dir[0])
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	tasks = opendir(path);
	if (!tasks)
		return -1;
	snprintf(path, sizeof(path), "%s/tasks", r->dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		goto out;
	while ((de = readdir(tasks))) {
		char tid[24];
		int n;

		if (de->d_name[0] == '.')
			continue;
		/* One tid per write(); a thread that just exited fails
		 * with ESRCH and is simply not there to count. */
		n = snprintf(tid, sizeof(tid), "%s\n", de->d_name);
		if (n > 0 && (size_t)n < sizeof(tid) &&
		    write(fd, tid, (size_t)n) == n)
			moved++;
	}
	close(fd);
out:
	closedir(tasks);
	return moved ? 0 : -1;
}

int bw_resctrl_delta(struct bw_resctrl *r, uint64_t *bytes)
{
	uint64_t sum;

	if (!r->dir[0] || _resctrl_sum(r->dir, &sum))
		return -1;
	*bytes = sum > r->last ? sum - r->last : 0;
	if (sum > r->last)
		r->last = sum;
	return 0;
}

void bw_resctrl_close(struct bw_resctrl *r)
{
	if (r->dir[0])
		rmdir(r->dir);
	r->dir[0] = '\0';
}

void bw_resctrl_detect(struct bw_sources *have)
{
	char mount[PATH_MAX];

	have->resctrl = !_resctrl_usable(mount, sizeof(mount),
					 have->resctrl_why,
					 sizeof(have->resctrl_why));
	if (have->resctrl)
		have->resctrl_why[0] = '\0';
}
