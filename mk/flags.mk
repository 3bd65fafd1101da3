# mk/flags.mk - compiler and linker flags, in one place.
#
# Release builds are hardened the way Debian builds Slurm itself; DEBUG=1
# swaps optimisation and fortification for ASan/UBSan.  The two kinds of
# build live in separate output trees so switching never mixes objects.

CC       ?= cc
AR       ?= ar
WARNINGS := -Wall -Wextra -Werror
BASE_CFLAGS := -std=gnu11 -g -fPIC -fstack-protector-strong $(WARNINGS)
BASE_LDFLAGS := -Wl,-z,relro -Wl,-z,now

ifeq ($(DEBUG),1)
O := $(BUILD)/debug$(SLURM_TREE_SUFFIX)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	     -fno-omit-frame-pointer
OPT_CFLAGS := -O1 $(SAN_FLAGS)
OPT_LDFLAGS := $(SAN_FLAGS)
else
O := $(BUILD)/release$(SLURM_TREE_SUFFIX)
OPT_CFLAGS := -O2 -D_FORTIFY_SOURCE=2
OPT_LDFLAGS :=
endif

# Project-wide include paths: the TAP header, every pure library, and the
# public Slurm API's release differences (compat/).
PROJECT_CPPFLAGS := -Itestsuite/tap -Ilib -Icompat

ALL_CFLAGS  = $(BASE_CFLAGS) $(OPT_CFLAGS) $(PROJECT_CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(BASE_LDFLAGS) $(OPT_LDFLAGS) $(LDFLAGS)

# A make variable, so that a test can stand in for it.
PKG_CONFIG ?= pkg-config
JSONC_CFLAGS := $(shell $(PKG_CONFIG) --cflags json-c 2>/dev/null)
JSONC_LIBS   := $(shell $(PKG_CONFIG) --libs json-c 2>/dev/null || echo -ljson-c)
