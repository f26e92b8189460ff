# ovs-bigtcp sources compiled into libopenvswitch, included from Open
# vSwitch's lib/automake.mk by the patch series.  The files are links into
# the ovs-bigtcp tree.

lib_libopenvswitch_la_SOURCES += \
	lib/bigtcp-framing.c \
	lib/bigtcp-framing.h \
	lib/bigtcp-rx.c \
	lib/bigtcp-rx.h \
	lib/bigtcp-tnl.c \
	lib/bigtcp-tnl.h \
	lib/dp-packet-pool.c \
	lib/dp-packet-pool.h \
	lib/dp-packet-reseg.c \
	lib/dp-packet-reseg.h \
	lib/dp-packet-segs.c \
	lib/dp-packet-segs.h \
	lib/dpif-netlink-gso.c \
	lib/dpif-netlink-gso.h \
	lib/netdev-gro.c \
	lib/netdev-gro-parse.c \
	lib/netdev-gro-port.c \
	lib/netdev-gro-port.h \
	lib/netdev-gro-private.h \
	lib/netdev-gro.h \
	lib/netdev-jumbo.c \
	lib/netdev-jumbo.h \
	lib/netdev-show.c \
	lib/netdev-show.h \
	lib/netdev-tso-enforce.c \
	lib/netdev-tso-enforce.h \
	lib/netdev-tso-limits.c \
	lib/netdev-tso-limits.h

if LINUX
lib_libopenvswitch_la_SOURCES += \
	lib/dpif-netlink-tnl-limits.c \
	lib/dpif-netlink-tnl-limits.h \
	lib/netdev-linux-probe.c \
	lib/netdev-linux-probe.h \
	lib/netdev-linux-reseg.c \
	lib/netdev-linux-reseg.h \
	lib/netdev-linux-tnl.c \
	lib/netdev-linux-tnl.h \
	lib/netdev-linux-tnl-probe.c \
	lib/netdev-linux-tnl-probe.h
endif
