/*
 * mbmsg.c - the MemBUS messages between node agents: a strict parser and
 * the formatter (see mbmsg.h).
 *
 * json-c reads the text (strict JSON, nesting at most MBMSG_DEPTH), then
 * every key is checked against the message type's list: a key missing,
 * one not on the list, a value of another type, a number out of range, a
 * string too long or outside its alphabet, an array too long or naming an
 * application twice: each is refused with a fixed reason.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbmsg.h"
#include "num/errbuf.h"

/* object > array > object: a vote's deepest value is at depth 3 */
#define MBMSG_DEPTH 4
#define ID_PART_DIGITS 10	/* a uint32_t in decimal */

/* The message, then -1. */
#define _fail errbuf_fail

/* ---- values ---- */

static bool _digits(const char *s, size_t n)
{
	return n > 0 && n <= ID_PART_DIGITS && strspn(s, "0123456789") >= n;
}

bool mbmsg_id_ok(const char *id)
{
	size_t len = id ? strnlen(id, MEMBUS_ID_LEN) : 0;
	const char *dot = len ? memchr(id, '.', len) : NULL;

	return len > 0 && len < MEMBUS_ID_LEN && dot &&
	       strspn(id, "0123456789.") == len &&
	       _digits(id, (size_t)(dot - id)) &&
	       _digits(dot + 1, len - (size_t)(dot - id) - 1);
}

/* An integer (never a double) in [min, max]. */
static int _int(json_object *v, const char *key, int64_t min, int64_t max,
		int64_t *out, char *err, size_t len)
{
	int64_t n;

	if (!json_object_is_type(v, json_type_int))
		return _fail(err, len, "\"%s\" is not an integer", key);
	n = json_object_get_int64(v);	/* saturates: out of range below */
	if (n < min || n > max)
		return _fail(err, len, "\"%s\" is out of range", key);
	*out = n;
	return 0;
}

/* A string that ok() accepts, copied into buf[size]. */
static int _str(json_object *v, const char *key, bool (*ok)(const char *),
		char *buf, size_t size, char *err, size_t len)
{
	const char *s;

	if (!json_object_is_type(v, json_type_string))
		return _fail(err, len, "\"%s\" is not a string", key);
	s = json_object_get_string(v);
	if ((size_t)json_object_get_string_len(v) >= size ||
	    strlen(s) != (size_t)json_object_get_string_len(v))
		return _fail(err, len, "\"%s\" is too long or holds a NUL", key);
	if (!ok(s))
		return _fail(err, len, "\"%s\" is not a valid value", key);
	memcpy(buf, s, strlen(s) + 1);
	return 0;
}

static bool _name_ok(const char *s)
{
	return cosched_node_name_ok(s);
}

/* An array of at most MBMSG_APPS_MAX elements. */
static int _array(json_object *v, const char *key, size_t *n, char *err,
		  size_t len)
{
	if (!json_object_is_type(v, json_type_array))
		return _fail(err, len, "\"%s\" is not an array", key);
	*n = json_object_array_length(v);
	if (*n > MBMSG_APPS_MAX)
		return _fail(err, len, "\"%s\" has more than %d entries", key,
			     MBMSG_APPS_MAX);
	return 0;
}

/* ---- objects: exactly the keys listed ---- */

static int _keys(json_object *o, const char *const *keys, size_t nkeys,
		 const char *what, char *err, size_t len)
{
	size_t found = 0;

	json_object_object_foreach(o, key, val) {
		bool known = false;

		(void)val;
		for (size_t i = 0; i < nkeys && !known; i++)
			known = !strcmp(key, keys[i]);
		if (!known)
			return _fail(err, len, "%s has an unknown key", what);
		found++;
	}
	if (found != nkeys)
		return _fail(err, len, "%s lacks a key", what);
	return 0;
}

static bool _listed(char (*ids)[MEMBUS_ID_LEN], size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(ids[i], id))
			return true;
	return false;
}

static bool _app_listed(const struct mbmsg *msg, const char *id)
{
	for (size_t i = 0; i < msg->napps; i++)
		if (!strcmp(msg->apps[i].id, id))
			return true;
	return false;
}

static int _app(json_object *o, struct mbmsg *msg, char *err, size_t len)
{
	static const char *const keys[] = { "id", "sel", "nodes" };
	struct mbmsg_app *app = &msg->apps[msg->napps];
	int64_t sel, nodes;

	if (!json_object_is_type(o, json_type_object))
		return _fail(err, len, "an entry of \"apps\" is not an object");
	if (_keys(o, keys, 3, "an entry of \"apps\"", err, len) ||
	    _str(json_object_object_get(o, "id"), "id", mbmsg_id_ok, app->id,
		 sizeof(app->id), err, len) ||
	    _int(json_object_object_get(o, "sel"), "sel", 0, 1, &sel, err, len) ||
	    _int(json_object_object_get(o, "nodes"), "nodes", 1, UINT32_MAX,
		 &nodes, err, len))
		return -1;
	if (_app_listed(msg, app->id))
		return _fail(err, len, "\"apps\" names an application twice");
	app->sel = sel != 0;
	app->nodes = (uint32_t)nodes;
	msg->napps++;
	return 0;
}

static int _vote(json_object *o, struct mbmsg *msg, char *err, size_t len)
{
	json_object *apps = json_object_object_get(o, "apps");
	size_t n;

	if (_array(apps, "apps", &n, err, len))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (_app(json_object_array_get_idx(apps, i), msg, err, len))
			return -1;
	return 0;
}

/* "order" or "forced": distinct application ids. */
static int _ids(json_object *arr, const char *key,
		char (*ids)[MEMBUS_ID_LEN], size_t *count, char *err,
		size_t len)
{
	size_t n;

	if (_array(arr, key, &n, err, len))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (_str(json_object_array_get_idx(arr, i), key, mbmsg_id_ok,
			 ids[i], MEMBUS_ID_LEN, err, len))
			return -1;
		if (_listed(ids, i, ids[i]))
			return _fail(err, len, "\"%s\" names an application twice",
				     key);
	}
	*count = n;
	return 0;
}

static int _decision(json_object *o, struct mbmsg *msg, char *err, size_t len)
{
	return _ids(json_object_object_get(o, "order"), "order", msg->order,
		    &msg->norder, err, len) ||
	       _ids(json_object_object_get(o, "forced"), "forced", msg->forced,
		    &msg->nforced, err, len) ? -1 : 0;
}

static int _message(json_object *o, struct mbmsg *msg, char *err, size_t len)
{
	static const char *const vote_keys[] = { "t", "q", "from", "to", "apps" };
	static const char *const decision_keys[] = {
		"t", "q", "from", "to", "order", "forced"
	};
	json_object *t = json_object_object_get(o, "t");
	const char *type = json_object_is_type(t, json_type_string) ?
			   json_object_get_string(t) : NULL;
	int64_t q;

	if (!type)
		return _fail(err, len, "\"t\" is missing or not a string");
	if (!strcmp(type, "vote"))
		msg->type = MBMSG_VOTE;
	else if (!strcmp(type, "decision"))
		msg->type = MBMSG_DECISION;
	else
		return _fail(err, len, "\"t\" is neither vote nor decision");
	if (msg->type == MBMSG_VOTE ? _keys(o, vote_keys, 5, "a vote", err, len) :
	    _keys(o, decision_keys, 6, "a decision", err, len))
		return -1;
	if (_int(json_object_object_get(o, "q"), "q", 1, (int64_t)MBMSG_Q_MAX,
		 &q, err, len) ||
	    _str(json_object_object_get(o, "from"), "from", _name_ok,
		 msg->from, sizeof(msg->from), err, len) ||
	    _str(json_object_object_get(o, "to"), "to", _name_ok, msg->to,
		 sizeof(msg->to), err, len))
		return -1;
	msg->q = (uint64_t)q;
	return msg->type == MBMSG_VOTE ? _vote(o, msg, err, len) :
					 _decision(o, msg, err, len);
}

/* The text as one JSON object, nothing after it but white space. */
static json_object *_json(const char *data, size_t len, char *err,
			  size_t err_len)
{
	json_tokener *tok;
	json_object *o;
	size_t end;

	if (len > MBMSG_TEXT_MAX) {
		_fail(err, err_len, "longer than %d bytes", MBMSG_TEXT_MAX);
		return NULL;
	}
	if (memchr(data, '\0', len)) {
		_fail(err, err_len, "holds a NUL byte");
		return NULL;
	}
	tok = json_tokener_new_ex(MBMSG_DEPTH);
	if (!tok) {
		_fail(err, err_len, "out of memory");
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
				    JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, data, (int)len);
	end = json_tokener_get_parse_end(tok);
	/* data need not end in a NUL: no strspn here */
	while (end < len && data[end] && strchr(" \t\r\n", data[end]))
		end++;
	if (!o || json_tokener_get_error(tok) != json_tokener_success ||
	    end < len) {
		json_object_put(o);
		o = NULL;
		_fail(err, err_len, "not one JSON text");
	} else if (!json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		o = NULL;
		_fail(err, err_len, "not a JSON object");
	}
	json_tokener_free(tok);
	return o;
}

int mbmsg_parse(const char *data, size_t len, const char *self,
		struct mbmsg *msg, char *err, size_t err_len)
{
	json_object *o;
	int rc;

	memset(msg, 0, sizeof(*msg));
	if (!data)
		return _fail(err, err_len, "no text");
	o = _json(data, len, err, err_len);
	if (!o)
		return -1;
	rc = _message(o, msg, err, err_len);
	json_object_put(o);
	if (!rc && self && strcmp(msg->to, self))
		rc = _fail(err, err_len, "addressed to another node");
	if (rc)
		memset(msg, 0, sizeof(*msg));
	return rc;
}

/* ---- the formatter ---- */

static bool _ids_ok(char (*ids)[MEMBUS_ID_LEN], size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!mbmsg_id_ok(ids[i]) || _listed(ids, i, ids[i]))
			return false;
	return true;
}

static bool _apps_ok(const struct mbmsg *msg)
{
	for (size_t i = 0; i < msg->napps; i++) {
		const struct mbmsg_app *app = &msg->apps[i];

		if (!mbmsg_id_ok(app->id) || !app->nodes)
			return false;
		for (size_t k = 0; k < i; k++)
			if (!strcmp(msg->apps[k].id, app->id))
				return false;
	}
	return true;
}

/* What the parser would accept. */
static bool _formattable(const struct mbmsg *msg)
{
	if (msg->q < 1 || msg->q > MBMSG_Q_MAX ||
	    !cosched_node_name_ok(msg->from) || !cosched_node_name_ok(msg->to))
		return false;
	if (msg->type == MBMSG_VOTE)
		return msg->napps <= MBMSG_APPS_MAX && _apps_ok(msg);
	return msg->type == MBMSG_DECISION && msg->norder <= MBMSG_APPS_MAX &&
	       msg->nforced <= MBMSG_APPS_MAX &&
	       _ids_ok((char (*)[MEMBUS_ID_LEN])msg->order, msg->norder) &&
	       _ids_ok((char (*)[MEMBUS_ID_LEN])msg->forced, msg->nforced);
}

static json_object *_id_array(const char (*ids)[MEMBUS_ID_LEN], size_t n)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(arr, json_object_new_string(ids[i]));
	return arr;
}

static json_object *_apps_array(const struct mbmsg *msg)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < msg->napps; i++) {
		json_object *app = json_object_new_object();

		json_object_object_add(app, "id",
				       json_object_new_string(msg->apps[i].id));
		json_object_object_add(app, "sel",
				       json_object_new_int(msg->apps[i].sel));
		json_object_object_add(app, "nodes",
				       json_object_new_int64(msg->apps[i].nodes));
		json_object_array_add(arr, app);
	}
	return arr;
}

int mbmsg_format(const struct mbmsg *msg, char *buf, size_t len)
{
	json_object *o;
	const char *text;
	size_t n;
	int rc = -1;

	if (!buf || !len || !_formattable(msg))
		return -1;
	o = json_object_new_object();
	json_object_object_add(o, "t", json_object_new_string(
				       msg->type == MBMSG_VOTE ? "vote" : "decision"));
	json_object_object_add(o, "q", json_object_new_int64((int64_t)msg->q));
	json_object_object_add(o, "from", json_object_new_string(msg->from));
	json_object_object_add(o, "to", json_object_new_string(msg->to));
	if (msg->type == MBMSG_VOTE) {
		json_object_object_add(o, "apps", _apps_array(msg));
	} else {
		json_object_object_add(o, "order",
				       _id_array(msg->order, msg->norder));
		json_object_object_add(o, "forced",
				       _id_array(msg->forced, msg->nforced));
	}
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	n = text ? strlen(text) : 0;
	if (n && n < len && n <= MBMSG_TEXT_MAX) {
		memcpy(buf, text, n + 1);
		rc = (int)n;
	}
	json_object_put(o);
	return rc;
}

int mbmsg_roundtrip(const char *data, size_t len)
{
	struct mbmsg *first = malloc(sizeof(*first));
	struct mbmsg *second = malloc(sizeof(*second));
	char *text = malloc(MBMSG_TEXT_MAX + 1);
	char err[MBMSG_ERR_LEN];
	int n, rc = 0;

	if (!first || !second || !text)
		abort();	/* a harness must not take this for a refusal */
	if (!mbmsg_parse(data, len, NULL, first, err, sizeof(err))) {
		n = mbmsg_format(first, text, MBMSG_TEXT_MAX + 1);
		rc = n < 0 || mbmsg_parse(text, (size_t)n, NULL, second, err,
					  sizeof(err)) ||
		     memcmp(first, second, sizeof(*first)) ? -1 : 1;
	}
	free(first);
	free(second);
	free(text);
	return rc;
}
