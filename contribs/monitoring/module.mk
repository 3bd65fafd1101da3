# contribs/monitoring - a Grafana dashboard (coalloc-dashboard.json) and
# Prometheus alert rules (coalloc-alerts.yml) for the suite's metrics:
# coalloc-status --prometheus and coschedctl status --prometheus through
# node-exporter's textfile collector, for admins to load into theirs.
#
# SPDX-License-Identifier: GPL-2.0-or-later

MONITORING_FILES := contribs/monitoring/coalloc-dashboard.json \
	contribs/monitoring/coalloc-alerts.yml

# With coalloc-status, on the controller's role (mk/roles.mk), for the
# admin to load into Grafana and Prometheus.
.PHONY: install-monitoring
ifneq ($(call role_has,monitoring-files),)
install: install-monitoring
endif
install-monitoring: all
	$(call install_files,0644,$(MONITORING_FILES),$(PREFIX)/share/coalloc/monitoring)

# The agent's metrics without an agent, for the test: agent/metrics.c on
# a status fixture.
$(eval $(call program,$(O)/tests/monitoring/agent_metrics,testsuite/unit/monitoring/agent_metrics.c,$(LIBCOSCHEDD) $(LIBCOSCHEDD_DEPS),$(LIBCOSCHEDD_LDLIBS)))
CFLAGS_testsuite/unit/monitoring := $(AGENT_CFLAGS)
$(eval $(call unit_test,monitoring/test_monitoring,$(SCRIPT_TEST),,))
$(O)/tests/monitoring/test_monitoring.t: testsuite/unit/monitoring/test_monitoring.sh \
	$(MONITORING_FILES) $(O)/tests/monitoring/agent_metrics $(O)/bin/coalloc-status \
	testsuite/unit/monitoring/coalloc_status.json testsuite/unit/monitoring/agent_status.json
