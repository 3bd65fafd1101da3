/*
 * limits.h - the one site limit of the suite: coalloc.conf's parser, the
 * policy engine, the placement and the --coalloc parser (a job has at
 * most one component per site) all take it from here, so that a file
 * the parser accepts is one the engine runs and a request the SPANK
 * plugin accepts is one the controller can place.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_LIMITS_H
#define COALLOC_LIMITS_H

/*
 * Most sites of a cluster, and so most components of one job.  The
 * engine keeps per-site arrays of this size in every job and row; the
 * paper's systems have 4 clusters, multiclusters in use a few dozen.
 */
#define COALLOC_MAX_SITES 32
/* The same number as text, for messages built at compile time. */
#define COALLOC_LIMIT_TEXT_(n) #n
#define COALLOC_LIMIT_TEXT(n) COALLOC_LIMIT_TEXT_(n)
#define COALLOC_MAX_SITES_TEXT COALLOC_LIMIT_TEXT(COALLOC_MAX_SITES)

/*
 * Longest site name.  An ordered request names its sites
 * (--coalloc=16@siteA), so the request's text and the job's record of it
 * stay bounded only if the names are; coalloc.conf refuses longer ones.
 */
#define COALLOC_SITE_NAME_MAX 63
#define COALLOC_SITE_NAME_MAX_TEXT COALLOC_LIMIT_TEXT(COALLOC_SITE_NAME_MAX)

#endif /* COALLOC_LIMITS_H */
