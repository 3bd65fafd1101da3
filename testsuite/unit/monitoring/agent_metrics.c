/*
 * agent_metrics.c - coschedctl status --prometheus without an agent: the
 * agent's status JSON on stdin (a fixture) through the agent's own
 * agent_status_metrics() (agent/metrics.c), the metrics on stdout.  For
 * test_monitoring.sh, which checks that what the dashboard and the alert
 * rules use exists.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

#include "metrics.h"

int main(void)
{
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof(buf) - 1, stdin);
	json_object *o;
	char *text;

	buf[n] = '\0';
	o = json_tokener_parse(buf);
	if (!o || !(text = agent_status_metrics(o))) {
		fprintf(stderr, "agent_metrics: no JSON on stdin, or no memory\n");
		return 1;
	}
	fputs(text, stdout);
	free(text);
	json_object_put(o);
	return 0;
}
