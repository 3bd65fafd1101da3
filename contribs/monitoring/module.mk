# contribs/monitoring - a Grafana dashboard (coalloc-dashboard.json) and
# Prometheus alert rules (coalloc-alerts.yml) for the suite's metrics:
# coalloc-status --prometheus and coschedctl status --prometheus through
# node-exporter's textfile collector, for admins to load into theirs.
#
# SPDX-License-Identifier: GPL-2.0-or-later

MONITORING_FILES := contribs/monitoring/coalloc-dashboard.json \
	contribs/monitoring/coalloc-alerts.yml

# The agent's metrics without an agent, for the test: agent/metrics.c on
# a status fixture.
$(eval $(call program,$(O)/tests/monitoring/agent_metrics,testsuite/unit/monitoring/agent_metrics.c,$(LIBCOSCHEDD) $(LIBCOSCHEDD_DEPS),$(LIBCOSCHEDD_LDLIBS)))
CFLAGS_testsuite/unit/monitoring := $(AGENT_CFLAGS)
$(eval $(call unit_test,monitoring/test_monitoring,$(SCRIPT_TEST),,))
$(O)/tests/monitoring/test_monitoring.t: testsuite/unit/monitoring/test_monitoring.sh \
	$(MONITORING_FILES) $(O)/tests/monitoring/agent_metrics $(O)/bin/coalloc-status \
	testsuite/unit/monitoring/coalloc_status.json testsuite/unit/monitoring/agent_status.json
