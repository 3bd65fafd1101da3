/*
 * test_settings.c - the one table of the settings the plugin and the
 * agent both check (lib/cosched_proto/settings.c): every default lies
 * within its limits, every entry is named, and the register request's
 * limits follow it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "cosched_proto/proto.h"
#include "cosched_proto/settings.h"
#include "membus/membus.h"
#include "tap.h"
#include "num/errbuf.h"

int main(void)
{
	char err[ERRBUF_LEN], line[160];
	struct cosched_register r;
	const struct cosched_setting *tick;

	for (int i = 0; i < COSCHED_SET_COUNT; i++) {
		const struct cosched_setting *s =
			cosched_setting((enum cosched_setting_id)i);

		if (!ok(s && s->key && s->unit, "setting %d is named", i))
			continue;
		ok(s->lo <= s->dflt && s->dflt <= s->hi,
		   "%s: default %llu within %llu..%llu %s", s->key,
		   (unsigned long long)s->dflt, (unsigned long long)s->lo,
		   (unsigned long long)s->hi, s->unit);
		ok(cosched_setting_ok((enum cosched_setting_id)i, s->lo) &&
		   cosched_setting_ok((enum cosched_setting_id)i, s->hi) &&
		   (s->hi == UINT64_MAX ||
		    !cosched_setting_ok((enum cosched_setting_id)i, s->hi + 1)) &&
		   (!s->lo || !cosched_setting_ok((enum cosched_setting_id)i, s->lo - 1)),
		   "%s: the limits are the edges", s->key);
		ok(s->hi <= UINT32_MAX || !strcmp(s->unit, "B/s"),
		   "%s: fits the uint32_t fields that hold it", s->key);
	}
	ok(cosched_setting(COSCHED_SET_COUNT) == NULL, "no setting past the last");
	tick = cosched_setting(COSCHED_SET_TICK_US);
	ok(cosched_setting(COSCHED_SET_MIN_TICK_US)->dflt <= tick->dflt &&
	   tick->dflt <= cosched_setting(COSCHED_SET_MAX_TICK_US)->dflt,
	   "min_tick_us <= tick_us <= max_tick_us by default");
	is_int((int)cosched_setting(COSCHED_SET_MEMBUS_WINDOW)->hi,
	       MEMBUS_WINDOW_MAX, "the window's limit is lib/membus's");
	ok(cosched_setting(COSCHED_SET_MEMBUS_PORT_OFFSET)->hi + 1024 <= 65535,
	   "a port offset leaves room for slurmd's privileged port");

	snprintf(line, sizeof(line),
		 "register job=1 step=0 uid=0 mode=pb pid=2 rank=0 tick_us=%llu",
		 (unsigned long long)tick->hi);
	ok(!cosched_register_parse(line, &r, err, sizeof(err)) &&
	   r.tick_us == tick->hi, "a register takes the highest tick");
	snprintf(line, sizeof(line),
		 "register job=1 step=0 uid=0 mode=pb pid=2 rank=0 tick_us=%llu",
		 (unsigned long long)tick->lo);
	ok(!cosched_register_parse(line, &r, err, sizeof(err)) &&
	   r.tick_us == tick->lo, "and the lowest");
	return done_testing();
}
