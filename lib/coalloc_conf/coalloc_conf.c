/*
 * coalloc_conf.c - strict parser of coalloc.conf (see coalloc_conf.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "coalloc_conf/coalloc_conf.h"
#include "coalloc/site_name.h"
#include "cosched_proto/gang.h"
#include "cosched_proto/settings.h"
#include "num/num.h"

_Static_assert(COALLOC_CONF_MAX_MPL <= GANG_ROWS_MAX,
	       "the agents must take every row the matrix may have");
#include "num/text.h"
#include "num/errbuf.h"

/* One KEY=VALUE of a line, pointing into the line buffer. */
struct pair {
	char *key;
	char *value;
};

#define MAX_PAIRS 32

struct parser {
	const char *file;
	int line;
	char *err;
	size_t errlen;
	struct coalloc_conf *conf;
	unsigned seen;			/* bit per scalar key already given */
	/* LocalPartition lines, attached to their sites at the end */
	struct local_line {
		char *partition;
		char *site;
		int line;
	} *locals;
	size_t nlocals;
};

/* A message about the line being parsed (errbuf_at), then -1. */
#define _fail(p, key, ...) \
	errbuf_at((p)->err, (p)->errlen, (p)->file, (unsigned long)(p)->line, \
		  (key), __VA_ARGS__)

/* ------------------------------------------------------------ values */

static int _parse_uint(struct parser *p, const struct pair *kv,
		       unsigned min, unsigned max, unsigned *out)
{
	uint64_t v;

	if (num_parse_range(kv->value, min, max, &v))
		return _fail(p, kv->key, "'%s' is not a whole number from %u to %u",
			     kv->value, min, max);
	*out = (unsigned)v;
	return 0;
}

/* Site and partition names: what Slurm accepts in a partition name. */
static int _check_name(struct parser *p, const struct pair *kv)
{
	for (const char *c = kv->value; *c; c++)
		if (!coalloc_name_char_ok(*c))
			return _fail(p, kv->key, "'%s' is not a valid name (letters, digits, '_', '-', '.')",
				     kv->value);
	return 0;
}

static int _set_string(struct parser *p, const struct pair *kv, char **out)
{
	if (_check_name(p, kv))
		return -1;
	*out = strdup(kv->value);
	return *out ? 0 : _fail(p, kv->key, "out of memory");
}

static int _set_policy(struct parser *p, const struct pair *kv)
{
	char names[128];

	if (!coalloc_policy_parse(kv->value, &p->conf->policy))
		return 0;
	return _fail(p, kv->key, "unknown policy '%s' (expected %s)",
		     kv->value, coalloc_policy_list(names, sizeof(names)));
}

static int _set_order(struct parser *p, const struct pair *kv)
{
	if (!coalloc_order_parse(kv->value, &p->conf->queue_order))
		return 0;
	return _fail(p, kv->key, "'%s' is not %s", kv->value,
		     coalloc_order_names());
}

static int _set_matrix(struct parser *p, const struct pair *kv)
{
	static const char *names[] = { "off", "gang", "local" };

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcasecmp(kv->value, names[i])) {
			p->conf->matrix.mode = (enum coalloc_conf_matrix)i;
			return 0;
		}
	}
	return _fail(p, kv->key, "'%s' is not off, gang or local", kv->value);
}

static int _set_yes_no(struct parser *p, const struct pair *kv, bool *out)
{
	if (strcasecmp(kv->value, "yes") && strcasecmp(kv->value, "no"))
		return _fail(p, kv->key, "'%s' is not yes or no", kv->value);
	*out = !strcasecmp(kv->value, "yes");
	return 0;
}

/* ------------------------------------------------------------ lines */

enum scalar {
	KEY_POLICY, KEY_AGING, KEY_ORDER, KEY_MATRIX, KEY_MPL, KEY_TIMESLICE,
	KEY_GLOBAL, KEY_PREEMPT, KEY_PREEMPT_HOLD, KEY_GANG_PORT, KEY_GANG_GUARD,
	KEY_COUNT
};

static const char *scalar_keys[KEY_COUNT] = {
	"Policy", "AgingTime", "QueueOrder", "Matrix", "MPL", "TimeSlice",
	"GlobalPartition", "PreemptPartition", "PreemptHold", "GangPortOffset",
	"GangGuard",
};

static int _scalar_index(const char *key)
{
	for (int i = 0; i < KEY_COUNT; i++)
		if (!strcasecmp(key, scalar_keys[i]))
			return i;
	return -1;
}

/*
 * Whole seconds: slurmctld suspends and resumes rows.  "NNNms", below a
 * second: the node agents switch them (cosched_proto/gang.h's bounds).
 */
static int _set_time_slice(struct parser *p, const struct pair *kv)
{
	struct coalloc_conf *c = p->conf;
	size_t len = strlen(kv->value);
	char ms[32];
	uint64_t v;

	if (len < 3 || strcasecmp(kv->value + len - 2, "ms"))
		return _parse_uint(p, kv, 1, 86400, &c->matrix.time_slice);
	snprintf(ms, sizeof(ms), "%.*s", (int)(len - 2), kv->value);
	if (len - 2 >= sizeof(ms) ||
	    num_parse_range(ms, GANG_SLICE_MS_MIN, GANG_SLICE_MS_MAX, &v))
		return _fail(p, kv->key, "'%s' is neither whole seconds from 1 to 86400 nor milliseconds from %ums to %ums",
			     kv->value, GANG_SLICE_MS_MIN, GANG_SLICE_MS_MAX);
	c->matrix.time_slice_ms = (unsigned)v;
	return 0;
}

static int _set_scalar(struct parser *p, const struct pair *kv, int k)
{
	struct coalloc_conf *c = p->conf;
	const struct cosched_setting *port_offset =
		cosched_setting(COSCHED_SET_GANG_PORT_OFFSET);

	if (p->seen & (1u << k))
		return _fail(p, kv->key, "given twice");
	p->seen |= 1u << k;
	switch (k) {
	case KEY_POLICY:
		return _set_policy(p, kv);
	case KEY_AGING:
		return _parse_uint(p, kv, 0, 365 * 86400, &c->aging_time);
	case KEY_ORDER:
		return _set_order(p, kv);
	case KEY_MATRIX:
		c->matrix_line = p->line;
		return _set_matrix(p, kv);
	case KEY_MPL:
		return _parse_uint(p, kv, 1, COALLOC_CONF_MAX_MPL, &c->matrix.mpl);
	case KEY_TIMESLICE:
		return _set_time_slice(p, kv);
	case KEY_GANG_PORT:
		c->gang_port_line = p->line;
		return _parse_uint(p, kv, (unsigned)port_offset->lo,
				   (unsigned)port_offset->hi, &c->matrix.gang_port_offset);
	case KEY_GANG_GUARD:
		return _set_yes_no(p, kv, &c->matrix.gang_guard);
	case KEY_PREEMPT:
		c->preempt_line = p->line;
		return _set_string(p, kv, &c->preempt_partition);
	case KEY_PREEMPT_HOLD:
		c->preempt_hold_line = p->line;
		return _parse_uint(p, kv, 0, COALLOC_CONF_MAX_PREEMPT_HOLD,
				   &c->preempt_hold);
	default:
		c->global_line = p->line;
		return _set_string(p, kv, &c->global_partition);
	}
}

/* "Policy, AgingTime, ... or GangPortOffset", from the table. */
static const char *_scalar_key_list(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < KEY_COUNT && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i == 0 ? "" : i == KEY_COUNT - 1 ? " or " : ", ",
					 scalar_keys[i]);
	return buf;
}

static int _scalar_line(struct parser *p, struct pair *kv, int n)
{
	char keys[256];

	for (int i = 0; i < n; i++) {
		int k = _scalar_index(kv[i].key);

		if (k < 0 && !i)
			return _fail(p, kv[i].key, "unknown key");
		if (k < 0)
			return _fail(p, kv[i].key, "unknown key (a line of %s takes only those)",
				     _scalar_key_list(keys, sizeof(keys)));
		if (_set_scalar(p, &kv[i], k))
			return -1;
	}
	return 0;
}

static int _site_line(struct parser *p, struct pair *kv, int n)
{
	struct coalloc_conf *c = p->conf;
	struct coalloc_conf_site *s, *grown;
	const char *nodes = NULL;

	if (_check_name(p, &kv[0]))
		return -1;
	/* --coalloc=SIZE@SITE quotes it: keep it short enough to type */
	if (strlen(kv[0].value) > COALLOC_SITE_NAME_MAX)
		return _fail(p, kv[0].key, "site name '%.20s...' is longer than %d characters",
			     kv[0].value, COALLOC_SITE_NAME_MAX);
	for (int i = 1; i < n; i++) {
		if (strcasecmp(kv[i].key, "Nodes"))
			return _fail(p, kv[i].key, "unknown key (a Site line takes only Nodes)");
		if (nodes)
			return _fail(p, kv[i].key, "given twice");
		nodes = kv[i].value;
	}
	if (!nodes)
		return _fail(p, kv[0].key, "site '%s' has no Nodes=", kv[0].value);
	if (coalloc_conf_find_site(c, kv[0].value))
		return _fail(p, kv[0].key, "site '%s' is defined twice", kv[0].value);
	if (c->nsites >= COALLOC_MAX_SITES)
		return _fail(p, kv[0].key, "more than %d sites", COALLOC_MAX_SITES);
	grown = realloc(c->sites, (c->nsites + 1) * sizeof(*grown));
	if (!grown)
		return _fail(p, kv[0].key, "out of memory");
	c->sites = grown;
	s = &c->sites[c->nsites];
	memset(s, 0, sizeof(*s));
	s->line = p->line;
	s->name = strdup(kv[0].value);
	s->nodes = strdup(nodes);
	c->nsites++;
	return (s->name && s->nodes) ? 0 : _fail(p, kv[0].key, "out of memory");
}

static int _local_line(struct parser *p, struct pair *kv, int n)
{
	struct local_line *grown, *l;
	const char *site = NULL;

	if (_check_name(p, &kv[0]))
		return -1;
	for (int i = 1; i < n; i++) {
		if (strcasecmp(kv[i].key, "Site"))
			return _fail(p, kv[i].key, "unknown key (a LocalPartition line takes only Site)");
		if (site)
			return _fail(p, kv[i].key, "given twice");
		if (_check_name(p, &kv[i]))
			return -1;
		site = kv[i].value;
	}
	if (!site)
		return _fail(p, kv[0].key, "partition '%s' names no Site=", kv[0].value);
	grown = realloc(p->locals, (p->nlocals + 1) * sizeof(*grown));
	if (!grown)
		return _fail(p, kv[0].key, "out of memory");
	p->locals = grown;
	l = &p->locals[p->nlocals++];
	l->partition = strdup(kv[0].value);
	l->site = strdup(site);
	l->line = p->line;
	return (l->partition && l->site) ? 0 : _fail(p, kv[0].key, "out of memory");
}

/* ------------------------------------------------------------ tokens */

/*
 * Split one logical line in place into KEY=VALUE pairs.  Quotes group
 * blanks into a value; '#' outside quotes starts a comment.
 */
static int _split(struct parser *p, char *s, struct pair *kv, int *n)
{
	*n = 0;
	while (*s) {
		char *out;

		while (isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			break;
		if (*n == MAX_PAIRS)
			return _fail(p, NULL, "more than %d keys on one line", MAX_PAIRS);
		kv[*n].key = s;
		while (*s && *s != '=' && !isspace((unsigned char)*s) && *s != '#')
			s++;
		if (*s != '=') {
			*s = '\0';
			return _fail(p, kv[*n].key, "expected Key=Value");
		}
		*s++ = '\0';
		kv[*n].value = out = s;
		if (*s == '"') {
			char *close = strchr(++s, '"');

			if (!close)
				return _fail(p, kv[*n].key, "unterminated quote");
			memmove(out, s, close - s);
			out[close - s] = '\0';
			s = close + 1;
			if (*s && !isspace((unsigned char)*s) && *s != '#')
				return _fail(p, kv[*n].key, "text after the closing quote");
		} else {
			while (*s && !isspace((unsigned char)*s) && *s != '#')
				s++;
			if (*s == '#') {	/* comment glued to the value */
				*s = '\0';
				if (!*kv[*n].value)
					return _fail(p, kv[*n].key, "empty value");
				(*n)++;
				break;
			}
			if (*s)
				*s++ = '\0';
		}
		if (!*kv[*n].value)
			return _fail(p, kv[*n].key, "empty value");
		if (!*kv[*n].key)
			return _fail(p, NULL, "'=' without a key");
		(*n)++;
	}
	return 0;
}

static int _parse_line(struct parser *p, char *text)
{
	struct pair kv[MAX_PAIRS];
	int n;

	if (_split(p, text, kv, &n))
		return -1;
	if (!n)
		return 0;
	if (!strcasecmp(kv[0].key, "Site"))
		return _site_line(p, kv, n);
	if (!strcasecmp(kv[0].key, "LocalPartition"))
		return _local_line(p, kv, n);
	return _scalar_line(p, kv, n);
}

/* Next logical line: physical lines joined where one ends in '\'. */
static char *_next_line(const char **cursor, int *physical)
{
	const char *s = *cursor;
	size_t cap = 128, len = 0;
	char *buf;

	if (!*s)
		return NULL;
	buf = malloc(cap);
	if (!buf)
		return NULL;
	for (;;) {
		const char *eol = strchr(s, '\n');
		size_t n = eol ? (size_t)(eol - s) : strlen(s);
		bool more = n && s[n - 1] == '\\';

		if (len + n + 2 > cap) {
			char *grown;

			cap = (len + n + 2) * 2;
			grown = realloc(buf, cap);
			if (!grown) {
				free(buf);
				return NULL;
			}
			buf = grown;
		}
		memcpy(buf + len, s, more ? n - 1 : n);
		len += more ? n - 1 : n;
		if (more)
			buf[len++] = ' ';
		(*physical)++;
		s = eol ? eol + 1 : s + n;
		if (!more || !*s)
			break;
	}
	buf[len] = '\0';
	*cursor = s;
	return buf;
}

/* ------------------------------------------------------------ checks */

static int _attach_locals(struct parser *p)
{
	struct coalloc_conf *c = p->conf;

	for (size_t i = 0; i < p->nlocals; i++) {
		struct local_line *l = &p->locals[i];
		struct coalloc_conf_site *s = (struct coalloc_conf_site *)
			coalloc_conf_find_site(c, l->site);

		p->line = l->line;
		if (!s)
			return _fail(p, "Site", "no Site=%s line defines that site", l->site);
		if (s->local_partition)
			return _fail(p, "LocalPartition", "site '%s' already has local partition '%s' (line %d)",
				     s->name, s->local_partition, s->local_line);
		if (c->global_partition && !strcmp(c->global_partition, l->partition))
			return _fail(p, "LocalPartition", "'%s' is also the GlobalPartition (line %d)",
				     l->partition, c->global_line);
		for (size_t j = 0; j < c->nsites; j++)
			if (c->sites[j].local_partition &&
			    !strcmp(c->sites[j].local_partition, l->partition))
				return _fail(p, "LocalPartition", "'%s' is already the local partition of site '%s'",
					     l->partition, c->sites[j].name);
		s->local_partition = l->partition;
		s->local_line = l->line;
		l->partition = NULL;
	}
	return 0;
}

/* What the policy needs: queues for the global and the local schedulers. */
static int _check_policy_queues(struct parser *p)
{
	struct coalloc_conf *c = p->conf;
	const char *name = coalloc_policy_name(c->policy);
	bool needs_local = coalloc_policy_has_local(c->policy);
	bool has_global = coalloc_policy_has_global(c->policy);

	if (!has_global && c->global_partition) {
		p->line = c->global_line;
		return _fail(p, "GlobalPartition", "Policy=%s has no global queue", name);
	}
	if (has_global && needs_local && !c->global_partition) {
		p->line = 0;
		return _fail(p, "GlobalPartition", "Policy=%s needs a GlobalPartition= line", name);
	}
	for (size_t i = 0; needs_local && i < c->nsites; i++) {
		if (c->sites[i].local_partition)
			continue;
		p->line = c->sites[i].line;
		return _fail(p, "Site", "site '%s' has no LocalPartition, which Policy=%s needs",
			     c->sites[i].name, name);
	}
	return 0;
}

static int _check_matrix(struct parser *p)
{
	struct coalloc_conf *c = p->conf;

	p->line = 0;
	if (c->matrix.mode != COALLOC_CONF_MATRIX_OFF && c->matrix.mpl < 2)
		return _fail(p, "MPL", "Matrix=%s needs MPL=2 or more",
			     coalloc_conf_matrix_name(c->matrix.mode));
	if (c->matrix.mode == COALLOC_CONF_MATRIX_OFF && c->matrix.mpl > 1)
		return _fail(p, "MPL", "MPL=%u needs Matrix=gang or Matrix=local", c->matrix.mpl);
	if (c->matrix.mode != COALLOC_CONF_MATRIX_GANG && (p->seen & (1u << KEY_TIMESLICE)))
		return _fail(p, "TimeSlice", "only Matrix=gang rows are time-sliced");
	if (c->matrix.gang_guard &&
	    (coalloc_conf_fast_gang(&c->matrix) ||
	     c->matrix.mode == COALLOC_CONF_MATRIX_LOCAL ||
	     (c->matrix.mode == COALLOC_CONF_MATRIX_OFF && !c->preempt_partition)))
		return _fail(p, "GangGuard", "only rows slurmctld suspends are guarded (Matrix=gang with a TimeSlice in seconds, or a PreemptPartition); the agents switch rows of a TimeSlice in ms themselves");
	if (!coalloc_conf_agent_tables(&c->matrix) && (p->seen & (1u << KEY_GANG_PORT)))
		return _fail(p, "GangPortOffset", "only rows the node agents switch (Matrix=gang, TimeSlice below a second, e.g. 200ms) or guard (GangGuard=yes) use it");
	return 0;
}

/* The preempting partition is a queue of its own, outside the policy. */
static int _check_preempt(struct parser *p)
{
	struct coalloc_conf *c = p->conf;
	const char *part = c->preempt_partition;

	if (!part && c->preempt_hold_line) {
		p->line = c->preempt_hold_line;
		return _fail(p, "PreemptHold", "no PreemptPartition whose jobs would hold the others");
	}
	if (!part)
		return 0;
	p->line = c->preempt_line;
	if (c->matrix.mode == COALLOC_CONF_MATRIX_LOCAL)
		return _fail(p, "PreemptPartition", "Matrix=local has no rows to suspend jobs in: use Matrix=off or Matrix=gang");
	if (c->global_partition && !strcmp(part, c->global_partition))
		return _fail(p, "PreemptPartition", "'%s' is also the GlobalPartition (line %d)",
			     part, c->global_line);
	for (size_t i = 0; i < c->nsites; i++)
		if (c->sites[i].local_partition &&
		    !strcmp(part, c->sites[i].local_partition))
			return _fail(p, "PreemptPartition", "'%s' is also the local partition of site '%s' (line %d)",
				     part, c->sites[i].name, c->sites[i].local_line);
	return 0;
}

static int _check_whole(struct parser *p)
{
	if (!p->conf->nsites) {
		p->line = 0;
		return _fail(p, "Site", "no Site= line: every node must belong to a site");
	}
	if (_attach_locals(p) || _check_policy_queues(p) || _check_matrix(p) ||
	    _check_preempt(p))
		return -1;
	return 0;
}

/* ------------------------------------------------------------ API */

void coalloc_matrix_settings_init(struct coalloc_matrix_settings *m)
{
	*m = (struct coalloc_matrix_settings) {
		.mode = COALLOC_CONF_MATRIX_OFF,
		.mpl = COALLOC_CONF_DEFAULT_MPL,
		.time_slice = COALLOC_CONF_DEFAULT_TIMESLICE,
		.gang_port_offset = (unsigned)
			cosched_setting(COSCHED_SET_GANG_PORT_OFFSET)->dflt,
	};
}

static void _defaults(struct coalloc_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->policy = COALLOC_CONF_DEFAULT_POLICY;
	c->aging_time = COALLOC_CONF_DEFAULT_AGING;
	c->queue_order = COALLOC_CONF_DEFAULT_ORDER;
	c->preempt_hold = COALLOC_CONF_DEFAULT_PREEMPT_HOLD;
	coalloc_matrix_settings_init(&c->matrix);
}

static void _free_locals(struct parser *p)
{
	for (size_t i = 0; i < p->nlocals; i++) {
		free(p->locals[i].partition);
		free(p->locals[i].site);
	}
	free(p->locals);
}

int coalloc_conf_parse(const char *text, const char *file,
		       struct coalloc_conf *conf, char *err, size_t errlen)
{
	struct parser p = { .file = file, .err = err, .errlen = errlen,
			    .conf = conf };
	const char *cursor = text;
	int physical = 0, rc = -1;
	char *line;

	_defaults(conf);
	if (text_check(text, strlen(text), file, err, errlen))
		return -1;
	conf->file = strdup(file);
	if (!conf->file)
		goto fail;
	for (;;) {
		/* a continued line is reported at its first physical line */
		int start = physical + 1;

		line = _next_line(&cursor, &physical);
		if (!line)
			break;
		p.line = start;
		rc = _parse_line(&p, line);
		free(line);
		if (rc)
			goto fail;
	}
	rc = _check_whole(&p);
fail:
	_free_locals(&p);
	if (rc)
		coalloc_conf_free(conf);
	return rc;
}

int coalloc_conf_load(const char *path, struct coalloc_conf *conf,
		      char *err, size_t errlen)
{
	char *text = text_load(path, err, errlen);
	int rc;

	_defaults(conf);
	if (!text)
		return -1;
	rc = coalloc_conf_parse(text, path, conf, err, errlen);
	free(text);
	return rc;
}

void coalloc_conf_free(struct coalloc_conf *conf)
{
	for (size_t i = 0; i < conf->nsites; i++) {
		free(conf->sites[i].name);
		free(conf->sites[i].nodes);
		free(conf->sites[i].local_partition);
	}
	free(conf->sites);
	free(conf->global_partition);
	free(conf->preempt_partition);
	free(conf->file);
	_defaults(conf);
}

const struct coalloc_conf_site *
coalloc_conf_find_site(const struct coalloc_conf *conf, const char *name)
{
	for (size_t i = 0; i < conf->nsites; i++)
		if (!strcmp(conf->sites[i].name, name))
			return &conf->sites[i];
	return NULL;
}

const char *coalloc_conf_matrix_name(enum coalloc_conf_matrix matrix)
{
	switch (matrix) {
	case COALLOC_CONF_MATRIX_GANG:
		return "gang";
	case COALLOC_CONF_MATRIX_LOCAL:
		return "local";
	default:
		return "off";
	}
}
