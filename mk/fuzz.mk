# mk/fuzz.mk - libFuzzer harnesses of every parser an outsider reaches
# (testsuite/fuzz/fuzz_NAME.c), built with clang, ASan and UBSan into
# $(BUILD)/fuzz, apart from the gcc builds and not part of 'make all'.
#
#   make fuzz             build, then run each target FUZZ_SECONDS (60)
#   make -j2 fuzz         two targets at a time
#   make fuzz-smoke       the same for FUZZ_SMOKE_SECONDS (3) each
#   make fuzz-build       build only;  make fuzz-list: the target names
#   make fuzz-NAME        one target (FUZZ_SECONDS)
#
# Each run first replays every seed of testsuite/fuzz/corpus/NAME once (a
# regression), then fuzzes with that directory read-only and a scratch
# corpus $(BUILD)/fuzz/corpus/NAME that grows from run to run.  A crash
# goes to $(BUILD)/fuzz/crashes/NAME/ and fails the run; so does a run
# without executions.  testsuite/fuzz/run.sh does one run and prints its
# numbers; testsuite/fuzz/smoke.t is the smoke run as TAP for 'make check'.
#
# SPDX-License-Identifier: GPL-2.0-or-later

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 3
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_OBJ := $(FUZZ_DIR)/obj

# Debian's clang and its libFuzzer/sanitizer runtimes (make deps).
DEPS += clang libclang-rt-14-dev

FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
FUZZ_CFLAGS := -std=gnu11 -g -O1 $(WARNINGS) $(FUZZ_SAN) \
	-fsanitize=fuzzer-no-link $(PROJECT_CPPFLAGS) -Iagent \
	$(JSONC_CFLAGS)

$(FUZZ_OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_EXTRA) -MMD -MP -c -o $@ $<

# The suite's version, which the agent's status reports.
$(FUZZ_OBJ)/lib/version/version.o: FUZZ_EXTRA := -DCOALLOC_VERSION='"$(COALLOC_VERSION)"'
# clang, not gcc, warns about glibc's NLMSG_OK macro (int against __u32).
$(FUZZ_OBJ)/agent/bw/bw_tcp.o: FUZZ_EXTRA := -Wno-sign-compare

FUZZ_TARGETS :=

# $(call fuzz_target,NAME,SOURCES,LDLIBS): $(FUZZ_DIR)/fuzz_NAME from
# testsuite/fuzz/fuzz_NAME.c and SOURCES (compiled by clang here).
define fuzz_target
$(FUZZ_DIR)/fuzz_$(1): $(FUZZ_OBJ)/testsuite/fuzz/fuzz_$(1).o \
		$(patsubst %.c,$(FUZZ_OBJ)/%.o,$(2))
	$$(FUZZ_CC) $$(FUZZ_SAN) -fsanitize=fuzzer -o $$@ $$^ $(3)
FUZZ_TARGETS += $(1)
endef

# lib/num: numbers, checked text files and error buffers (LIBNUM), under
# most parsers.
FUZZ_NUM := lib/num/num.c lib/num/text.c lib/num/errbuf.c
# --coalloc's request: its parser, its site names, its check on sites.
FUZZ_COALLOC_REQUEST := lib/coalloc/sizes.c lib/coalloc/site_name.c \
	lib/coalloc/shape.c lib/coalloc/placement.c
FUZZ_COSCHED_OPTS := $(LIBCOSCHED_SRCS) $(FUZZ_COALLOC_REQUEST) $(FUZZ_NUM)
# lib/cosched_proto and what it needs.
# (without peer.c, the munge transport: fuzz_agent_request includes it
# for its address splitter, the other harnesses need no munge)
FUZZ_COSCHED_PROTO := $(filter-out lib/cosched_proto/peer.c,$(LIBCOSCHED_PROTO_SRCS)) \
	$(FUZZ_COSCHED_OPTS)
# Every source of the agent but its own main(); a harness that includes
# an agent file (to reach its static parsing) leaves it out.
FUZZ_AGENT := $(LIBCOSCHEDD_SRCS) $(LIBCOSCHED_PROTO_SRCS) $(LIBCOSCHED_SRCS) \
	lib/membus/membus.c \
	lib/membus/reduce.c $(FUZZ_COALLOC_REQUEST) \
	lib/version/version.c \
	lib/promtext/promtext.c $(FUZZ_NUM)
FUZZ_AGENT_LIBS := -lcgroup -lmunge -pthread $(JSONC_LIBS) -lm

$(eval $(call fuzz_target,coalloc_conf,lib/coalloc_conf/coalloc_conf.c lib/coalloc_conf/layout.c lib/cosched_proto/settings.c $(COALLOC_SRCS) $(FUZZ_NUM),-lm))
$(eval $(call fuzz_target,cosched_opts,$(FUZZ_COSCHED_OPTS),))
$(eval $(call fuzz_target,plugstack_args,$(FUZZ_COSCHED_PROTO),))
$(eval $(call fuzz_target,num,$(FUZZ_NUM),))
$(eval $(call fuzz_target,esp_mix,lib/esp/mix.c $(FUZZ_NUM),-lm))
$(eval $(call fuzz_target,agent_request,$(filter-out lib/cosched_proto/peer.c,$(FUZZ_AGENT)),$(FUZZ_AGENT_LIBS)))
$(eval $(call fuzz_target,agent_state,$(FUZZ_AGENT),$(FUZZ_AGENT_LIBS)))
# The MemBUS messages between agents (agent/membus/mbmsg.c, a leaf: the
# sources MBMSG_SRCS and lib/cosched_proto, agent/membus/module.mk).
$(eval $(call fuzz_target,mbmsg,$(MBMSG_SRCS) $(FUZZ_COSCHED_PROTO),$(MBMSG_LDLIBS)))
# The gang table slurmctld sends the agents (lib/cosched_proto/gang.c).
$(eval $(call fuzz_target,gang_table,$(FUZZ_COSCHED_PROTO),))
# The gang request the plugin sends the agent, and its from= list
# (lib/cosched_proto/gang.c, peer_hosts.c; peer.c's splitter, included).
$(eval $(call fuzz_target,gang_request,$(FUZZ_COSCHED_PROTO),-lmunge))
# A datagram's envelope up to munge: the source filter and peer_recv
# (lib/cosched_proto/peer.c, peer_hosts.c).
$(eval $(call fuzz_target,peer_source,lib/cosched_proto/peer.c $(FUZZ_COSCHED_PROTO),-lmunge))
# A sealed datagram's envelope, payload and tag (lib/cosched_proto/seal.c).
$(eval $(call fuzz_target,seal,$(FUZZ_COSCHED_PROTO),))
# A job's AdminComment, which select/coalloc rewrites with its layout
# (lib/coalloc_conf/layout_tag.c).
$(eval $(call fuzz_target,layout_tag,lib/coalloc_conf/layout_tag.c,))
# which MPI a program links: the user's program file, read in the task
$(eval $(call fuzz_target,elf_mpi,lib/cosched/elf_mpi.c,))
# The select plugin's state file (lib/coalloc/statefile.c, pure).
$(eval $(call fuzz_target,select_state,$(COALLOC_SRCS) $(FUZZ_NUM),-lm))

# The smoke run as TAP, which 'make check' runs after the unit tests.
FUZZ_SMOKE_TEST := testsuite/fuzz/smoke.t

FUZZ_BINS := $(addprefix $(FUZZ_DIR)/fuzz_,$(FUZZ_TARGETS))

-include $(shell find $(FUZZ_OBJ) -name '*.d' 2>/dev/null)

FUZZ_RUN = testsuite/fuzz/run.sh $(FUZZ_DIR) $(1) $(2)

.PHONY: fuzz fuzz-smoke fuzz-build fuzz-list $(addprefix fuzz-,$(FUZZ_TARGETS))
fuzz-build: $(FUZZ_BINS)
fuzz-list:
	@echo $(FUZZ_TARGETS)

$(addprefix fuzz-,$(FUZZ_TARGETS)): fuzz-%: $(FUZZ_DIR)/fuzz_%
	@$(call FUZZ_RUN,$*,$(FUZZ_SECONDS))

fuzz: $(addprefix fuzz-,$(FUZZ_TARGETS))

fuzz-smoke: $(FUZZ_BINS)
	@rc=0; for t in $(FUZZ_TARGETS); do \
		$(call FUZZ_RUN,$$t,$(FUZZ_SMOKE_SECONDS)) || rc=1; \
	done; exit $$rc
