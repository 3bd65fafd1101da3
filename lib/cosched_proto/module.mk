# lib/cosched_proto - the plugin-agent protocol in one place (pure C, no
# Slurm headers): the request lines cosched.so sends and coschedd parses
# (one formatter and one parser per message), the client transport, the
# one table of the settings both sides check, and cosched.so's
# plugstack.conf arguments (args.c), which slurmctld checks too.  Linked by the cosched
# SPANK plugin, coschedd, coschedctl and the agent's tests; its users link
# libcosched and libnum after it.
#
# SPDX-License-Identifier: GPL-2.0-or-later

LIBCOSCHED_PROTO := $(O)/lib/libcosched_proto.a
LIBCOSCHED_PROTO_SRCS := $(addprefix lib/cosched_proto/,client.c words.c \
	register.c membus_req.c settings.c gang.c peer.c peer_hosts.c args.c \
	plugstack.c seal.c)
$(eval $(call static_lib,$(LIBCOSCHED_PROTO),$(LIBCOSCHED_PROTO_SRCS)))
TARGETS += $(LIBCOSCHED_PROTO)
# Where the agent and the shim will be installed: the defaults of
# cosched.so's agent= and shim= arguments (args.c; plugstack.conf may say
# otherwise).
CFLAGS_lib/cosched_proto = \
	-DCOSCHED_AGENT_DEFAULT='"$(PREFIX)/sbin/coschedd"' \
	-DCOSCHED_SHIM_DEFAULT='"$(PREFIX)/lib/coalloc/libcosched_mpi.so"'
# What it needs, after it on a link line.
LIBCOSCHED_PROTO_DEPS := $(O)/lib/libcosched.a $(LIBNUM)

$(eval $(call unit_test,cosched_proto/test_proto,testsuite/unit/cosched_proto/test_proto.c,$(LIBCOSCHED_PROTO) $(LIBCOSCHED_PROTO_DEPS),))
$(eval $(call unit_test,cosched_proto/test_settings,testsuite/unit/cosched_proto/test_settings.c,$(LIBCOSCHED_PROTO) $(LIBCOSCHED_PROTO_DEPS),))
$(eval $(call unit_test,cosched_proto/test_gang,testsuite/unit/cosched_proto/test_gang.c,$(LIBCOSCHED_PROTO) $(LIBCOSCHED_PROTO_DEPS),))
$(eval $(call unit_test,cosched_proto/test_seal,testsuite/unit/cosched_proto/test_seal.c,$(LIBCOSCHED_PROTO) $(LIBCOSCHED_PROTO_DEPS),))
$(eval $(call unit_test,cosched_proto/test_args,testsuite/unit/cosched_proto/test_args.c,$(LIBCOSCHED_PROTO) $(LIBCOSCHED_PROTO_DEPS),))
