# ovs-bigtcp autotests, included from Open vSwitch's tests/automake.mk by
# the patch "tests: Include the ovs-bigtcp autotests".  The files are links
# into the ovs-bigtcp tree.

TESTSUITE_AT += tests/bigtcp.at tests/bigtcp-malformed.at tests/bigtcp-reseg.at \
	tests/bigtcp-upcall.at tests/bigtcp-gro.at tests/bigtcp-jumbo.at tests/bigtcp-tnl.at \
	tests/bigtcp-project.at
SYSTEM_USERSPACE_TESTSUITE_AT += tests/system-bigtcp-fixes.at tests/system-bigtcp.at \
	tests/system-bigtcp-faults.at tests/system-bigtcp-soak.at
SYSTEM_KMOD_TESTSUITE_AT += tests/system-kmod-bigtcp.at \
	tests/system-kmod-bigtcp-faults.at
SYSTEM_TESTSUITE_AT += tests/system-bigtcp-macros.at

# Unit test programs, run through "ovstest".
tests_ovstest_SOURCES += \
	tests/test-bigtcp-gro.c \
	tests/test-bigtcp-reseg.c \
	tests/test-dp-packet-pool.c \
	tests/bigtcp-reseg-check.c \
	tests/bigtcp-reseg-check.h
if LINUX
tests_ovstest_SOURCES += \
	tests/test-bigtcp-reseg-zerocopy.c \
	tests/test-bigtcp-tnl-limits.c \
	tests/bigtcp-reseg-zc-check.c \
	tests/bigtcp-reseg-zc-check.h
endif

# libFuzzer targets, built only on request in a tree configured for
# fuzzing, as tests/oss-fuzz/ does: with clang, "make bigtcp-fuzz-targets
# LIB_FUZZING_ENGINE=-fsanitize=fuzzer".
BIGTCP_FUZZ_TARGETS = \
	tests/fuzz-bigtcp-rx \
	tests/fuzz-bigtcp-reseg \
	tests/fuzz-bigtcp-tso-limits \
	tests/fuzz-bigtcp-dp-attrs \
	tests/fuzz-bigtcp-gro \
	tests/fuzz-bigtcp-tnl-rx
EXTRA_PROGRAMS += $(BIGTCP_FUZZ_TARGETS)
bigtcp-fuzz-targets: $(BUILT_SOURCES)
	$(MAKE) $(AM_MAKEFLAGS) $(BIGTCP_FUZZ_TARGETS)
.PHONY: bigtcp-fuzz-targets

tests_fuzz_bigtcp_rx_SOURCES = tests/fuzz-bigtcp-rx.c
tests_fuzz_bigtcp_rx_LDADD = lib/libopenvswitch.la
tests_fuzz_bigtcp_rx_LDFLAGS = $(LIB_FUZZING_ENGINE)

tests_fuzz_bigtcp_reseg_SOURCES = \
	tests/fuzz-bigtcp-reseg.c \
	tests/bigtcp-reseg-check.c \
	tests/bigtcp-reseg-check.h \
	tests/bigtcp-reseg-zc-check.c \
	tests/bigtcp-reseg-zc-check.h
tests_fuzz_bigtcp_reseg_LDADD = lib/libopenvswitch.la
tests_fuzz_bigtcp_reseg_LDFLAGS = $(LIB_FUZZING_ENGINE)

tests_fuzz_bigtcp_tso_limits_SOURCES = tests/fuzz-bigtcp-tso-limits.c
tests_fuzz_bigtcp_tso_limits_LDADD = lib/libopenvswitch.la
tests_fuzz_bigtcp_tso_limits_LDFLAGS = $(LIB_FUZZING_ENGINE)

tests_fuzz_bigtcp_dp_attrs_SOURCES = tests/fuzz-bigtcp-dp-attrs.c
tests_fuzz_bigtcp_dp_attrs_LDADD = lib/libopenvswitch.la
tests_fuzz_bigtcp_dp_attrs_LDFLAGS = $(LIB_FUZZING_ENGINE)

tests_fuzz_bigtcp_gro_SOURCES = tests/fuzz-bigtcp-gro.c
tests_fuzz_bigtcp_gro_LDADD = lib/libopenvswitch.la
tests_fuzz_bigtcp_gro_LDFLAGS = $(LIB_FUZZING_ENGINE)

tests_fuzz_bigtcp_tnl_rx_SOURCES = tests/fuzz-bigtcp-tnl-rx.c
tests_fuzz_bigtcp_tnl_rx_LDADD = lib/libopenvswitch.la
tests_fuzz_bigtcp_tnl_rx_LDFLAGS = $(LIB_FUZZING_ENGINE)
