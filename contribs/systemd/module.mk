# contribs/systemd - units for sites that run coschedd permanently instead
# of on demand: coschedd.service (the host name is the node name) and the
# template coschedd@.service (one per node name, slurmd -N).  Written at
# install time, so that ExecStart names the agent of that install's
# PREFIX (PREFIX/sbin/coschedd).

SYSTEMD_UNITS_IN := contribs/systemd/coschedd.service.in \
	contribs/systemd/coschedd@.service.in
SYSTEMD_UNIT_DIR ?= $(PREFIX)/lib/systemd/system

.PHONY: install-systemd
# compute hosts' (mk/roles.mk)
ifneq ($(call role_has,systemd-units),)
install: install-systemd
endif
install-systemd: all
	install -d $(DESTDIR)$(SYSTEMD_UNIT_DIR)
	@for u in $(SYSTEMD_UNITS_IN); do \
		f=$${u##*/}; \
		sed 's|@SBINDIR@|$(PREFIX)/sbin|g' $$u > $(DESTDIR)$(SYSTEMD_UNIT_DIR)/$${f%.in}; \
		chmod 0644 $(DESTDIR)$(SYSTEMD_UNIT_DIR)/$${f%.in}; \
	done
