# ovs-bigtcp autotests, included from Open vSwitch's tests/automake.mk by
# patches/ovs/0001.  The files are links into the ovs-bigtcp tree.

TESTSUITE_AT += tests/bigtcp.at
SYSTEM_USERSPACE_TESTSUITE_AT += tests/system-bigtcp.at

# Unit test programs, run through "ovstest".
tests_ovstest_SOURCES += tests/test-bigtcp-reseg.c
SYSTEM_KMOD_TESTSUITE_AT += tests/system-kmod-bigtcp.at
SYSTEM_TESTSUITE_AT += tests/system-bigtcp-macros.at
