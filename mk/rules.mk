# mk/rules.mk - canned rules the module.mk files call.

# $(call static_lib,OUT.a,SOURCES): a static library under $(O).
define static_lib
$(1): $(patsubst %.c,$(O)/%.o,$(2))
	@mkdir -p $$(@D)
	rm -f $$@
	$$(AR) rcs $$@ $$^
endef

# $(call program,OUT,SOURCES,DEPS,LDLIBS): an executable under $(O).
# DEPS are static libraries (linked in, listed before LDLIBS).
define program
$(1): $(patsubst %.c,$(O)/%.o,$(2)) $(3)
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_LDFLAGS) -o $$@ $$(filter %.o,$$^) $(3) $(4)
endef

# $(call unit_test,NAME,SOURCES,DEPS,LDLIBS): $(O)/tests/NAME.t, a TAP
# executable that check-unit, valgrind and check run.
define unit_test
$(call program,$(O)/tests/$(1).t,$(2),$(3),$(4))
UNIT_TESTS += $(O)/tests/$(1).t
endef
