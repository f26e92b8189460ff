# ovs-bigtcp sources compiled into libofproto, included from Open vSwitch's
# ofproto/automake.mk by the patch series.  The files are links into the
# ovs-bigtcp tree.

ofproto_libofproto_la_SOURCES += \
	ofproto/ofproto-dpif-gso.c \
	ofproto/ofproto-dpif-gso.h
