# ovs-bigtcp autotests, included from Open vSwitch's tests/automake.mk by
# patches/ovs/0001.  The files are links into the ovs-bigtcp tree.

TESTSUITE_AT += tests/bigtcp.at tests/bigtcp-malformed.at
SYSTEM_USERSPACE_TESTSUITE_AT += tests/system-bigtcp.at

# Unit test programs, run through "ovstest".
tests_ovstest_SOURCES += tests/test-bigtcp-reseg.c
