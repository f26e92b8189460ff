#!/bin/sh
# check-build.sh TOP BUILD DEPS PIN
#
# "make check-build": the build's own behaviour when the archive moves on,
# against the real archive and the real download cache.
#
#  1. A pin the archive no longer carries (openvswitch 4.0.0-1, which
#     4.0.0-2 replaced) gives the newest 4.0.x, verified, with one line
#     saying so.
#  2. Without any package lists (as offline), the pin comes from the cache
#     and a vanished pin falls back to the newest 4.0.x downloaded before.
#  3. The same for Linux: a 6.12 version the archive no longer carries
#     gives the newest 6.12 it does.
#  4. A patch that no longer applies stops ovs-tree, named.
#  5. The DKMS package's sources build openvswitch.ko against the pinned
#     kernel's headers, as DKMS runs it.
#  6. The distribution ("make distdir", as "make dist" makes it) carries
#     every file that git tracks, but the CI script and .gitignore.
#  7. The documents name only patches of the two series, by subject, and
#     every patch of every series is authored and signed off by the
#     project's identity alone (build-aux/check-docs, also "make
#     check-docs").
#  8. Every Python program that git tracks compiles and passes pyflakes.
#  9. Every shell script that git tracks passes shellcheck (warnings and
#     errors).
# 10. The upstream form of the OVS series (build-aux/upstream-series)
#     is refused where an ovs-appctl command has no man-page entry or an
#     option that vswitch.xml documents is not in NEWS, at its patch.
# 11. The Python helpers that the upstream form adds to Open vSwitch's
#     CHECK_PYFILES (the .py files of patches/ovs/upstream-files' "tests"
#     lines) pass Open vSwitch's flake8 rules: pycodestyle with the
#     FLAKE8_IGNORE of the Open vSwitch tree's Makefile.am, and pyflakes
#     (item 8).
# 12. check-upstream-series counts a prefix that built in an earlier run
#     (--record) as passed without building it, builds a prefix whose
#     patch changed, and never records one that failed (a toy project of
#     two patches, so that it takes seconds).
#
# Ends with "N passed, N failed".

top=$1
build=$2
deps=$3
pin=$4
work=$build/check-build
rm -rf "$work"
mkdir -p "$work"
pass=0
fail=0

result() {
    if [ "$1" = 0 ]; then
        pass=$((pass + 1))
        echo "ok $((pass + fail)) - $2"
    else
        fail=$((fail + 1))
        echo "not ok $((pass + fail)) - $2"
        sed 's/^/    /' "$work/out" "$work/err" 2>/dev/null | tail -n 20
    fi
}

"$top/build-aux/fetch-ovs" "$pin" "$deps" > "$work/out" 2> "$work/err"
have=$(sed 's|.*/openvswitch_||; s|\.dsc$||' "$work/out")

# 1.
"$top/build-aux/fetch-ovs" 4.0.0-1 "$deps" > "$work/out" 2> "$work/err"
rc=$?
[ $rc = 0 ] && grep -q "openvswitch_4\.0\..*\.dsc$" "$work/out" \
    && grep -q "^fetch-ovs: building Open vSwitch 4\.0\..*, the newest 4\.0\.x in the archive: the pinned 4\.0\.0-1 is no longer there$" "$work/err" \
    && [ "$(wc -l < "$work/err")" = 1 ]
result $? "fetch-ovs: a pin gone from the archive gives the newest 4.0.x"

# 2. An apt configuration with empty package lists.
mkdir -p "$work/lists/partial"
cat > "$work/apt.conf" <<EOF
Dir::State::Lists "$work/lists";
Dir::Etc::SourceList "/dev/null";
Dir::Etc::SourceParts "$work/lists";
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
APT_CONFIG=$work/apt.conf "$top/build-aux/fetch-ovs" "$pin" "$deps" \
    > "$work/out" 2> "$work/err"
rc=$?
[ $rc = 0 ] && [ "$(sed 's|.*/openvswitch_||; s|\.dsc$||' "$work/out")" = "$have" ] \
    && [ ! -s "$work/err" ]
result $? "fetch-ovs: offline, the pin comes from the cache silently"
APT_CONFIG=$work/apt.conf "$top/build-aux/fetch-ovs" 4.0.0-1 "$deps" \
    > "$work/out" 2> "$work/err"
rc=$?
[ $rc = 0 ] && grep -q "(downloaded earlier) instead of 4\.0\.0-1" "$work/err"
result $? "fetch-ovs: offline, a vanished pin falls back to the cache"

# 3.
OVS_BIGTCP_LINUX_PIN=6.12.1-1~deb12u1 "$top/datapath-ext/fetch-linux" \
    "$deps" > "$work/out" 2> "$work/err"
rc=$?
[ $rc = 0 ] && grep -q "/linux-6\.12\.[0-9]*-.*/root$" "$work/out" \
    && grep -q "^fetch-linux: using Linux 6\.12\..*, the newest 6\.12 in the archive: the pinned 6\.12\.1-1~deb12u1 is no longer there$" "$work/err"
result $? "fetch-linux: a pin gone from the archive gives the newest 6.12"

# 4. A project whose series has a patch against a line that is not there.
fake=$work/top
mkdir -p "$fake/patches/ovs" "$fake/lib" "$fake/ofproto" "$fake/tests" \
         "$fake/build-aux" "$fake/utilities"
cp "$top/build-aux/fetch-ovs" "$fake/build-aux/"
cp "$top/utilities/ovs-bigtcp-link" "$fake/utilities/"
cat > "$fake/patches/ovs/0001-stale.patch" <<'EOF'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: ovs-bigtcp developers <devel@ovs-bigtcp.invalid>
Subject: [PATCH] README: A change written for another release

---
 README.rst | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/README.rst b/README.rst
--- a/README.rst
+++ b/README.rst
@@ -1,3 +1,3 @@
-This line is in no release of Open vSwitch.
+Nor is this one.
 ..
 ..
EOF
echo 0001-stale.patch > "$fake/patches/ovs/series"
"$top/build-aux/ovs-tree" --kind patched --no-configure \
    --tree "$work/ovs" --top "$fake" --deps "$deps" --version "$pin" \
    > "$work/out" 2> "$work/err"
rc=$?
[ $rc != 0 ] \
    && grep -q "^ovs-tree: 0001-stale.patch does not apply to Open vSwitch 4\.0\." "$work/err"
result $? "ovs-tree: a patch that no longer applies stops the build, named"

# 5.
# In its own folder: "make deb"'s package in BUILD/deb stays.
"$top/datapath-ext/make-dkms-deb" "$build" "$deps" 0.0.0-check "$work/deb" \
    > "$work/out" 2> "$work/err" \
    && root=$("$top/datapath-ext/fetch-linux" "$deps") \
    && . "$(dirname "$root")/linux.env" \
    && dpkg-deb -x "$work"/deb/openvswitch-bigtcp-dkms_0.0.0-check-1_all.deb \
                   "$work/dkms" \
    && src=$work/dkms/usr/src/openvswitch-bigtcp-0.0.0-check \
    && grep -q '^BUILD_EXCLUSIVE_KERNEL="^6\\.12\\."$' "$src/dkms.conf" \
    && make -s -j"$(nproc)" -C "$root/usr/src/linux-headers-$LINUX_ABI-$LINUX_FLAVOUR" \
            M="$src/net/openvswitch" modules >> "$work/out" 2>> "$work/err" \
    && test -f "$src/net/openvswitch/openvswitch.ko" \
    && test -f "$src/net/openvswitch/vport-vxlan.ko" \
    && test -f "$src/net/openvswitch/vport-geneve.ko" \
    && test -f "$src/net/openvswitch/vport-gre.ko" \
    && grep -q -- "-I$src/net/openvswitch/../../include" \
            "$src/net/openvswitch/.datapath.o.cmd" \
    && make -s -j"$(nproc)" -C "$root/usr/src/linux-headers-$LINUX_ABI-$LINUX_FLAVOUR" \
            M="$src/drivers/net" modules >> "$work/out" 2>> "$work/err" \
    && test -f "$src/drivers/net/tun.ko" \
    && test -f "$src/drivers/net/veth.ko" \
    && grep -q '^BUILT_MODULE_NAME\[4\]="tun"$' "$src/dkms.conf" \
    && grep -q '^BUILT_MODULE_NAME\[5\]="veth"$' "$src/dkms.conf"
result $? "DKMS sources build the six modules against the pinned headers"

# 6.
dist=$work/dist
make -s -C "$top" distdir distdir="$dist" > "$work/out" 2> "$work/err" \
    && (cd "$top" && git ls-files) | grep -v '^\.ci/\|^\.gitignore$' \
       | while read -r f; do
             [ -e "$dist/$f" ] || echo "not in the distribution: $f"
         done > "$work/err" \
    && [ ! -s "$work/err" ]
result $? "the distribution carries every tracked file"
rm -rf "$dist"

# 7.
python3 "$top/build-aux/check-docs" "$top" > "$work/out" 2> "$work/err"
result $? "the documents name only patches of the series, every patch is by the project (check-docs)"

# 10.
up=$work/upstream
mkdir -p "$up/patches" && cp -r "$top/patches/ovs" "$up/patches/ovs" \
    && for d in lib ofproto tests utilities; do ln -s "$top/$d" "$up/$d"; done \
    && sed -i 's|fBnetdev-tso/show|fBnetdev-tso/shox|' \
           "$up"/patches/ovs/*-netdev-Add-per-port-TSO-limits.patch \
    && sed -i '/^+.*userspace-tso-resegment-steps (default false)/s/steps/stepz/' \
           "$up"/patches/ovs/*-netdev-linux-Send-a-resegmented-packet-s-outputs-in-.patch \
    && python3 "$top/build-aux/upstream-series" --top "$up" \
           --gitdir "$build/ovs.git" --out "$up/out" > "$work/out" 2> "$work/err"
rc=$?
[ $rc != 0 ] \
    && grep -q 'registers command netdev-tso/show, which no man-page fragment names' "$work/err" \
    && grep -q 'documents option userspace-tso-resegment-steps, which NEWS does not name' "$work/err" \
    && [ "$(grep -c 'which no man-page\|which NEWS' "$work/err")" = 2 ]
result $? "upstream-series: an undocumented command or option is refused at its patch"
rm -rf "$up"

# The files that git tracks whose name or first line says they are Python
# (tracked_scripts python) or POSIX/bash shell (tracked_scripts sh).
tracked_scripts() {
    (cd "$top" && git ls-files) | while read -r f; do
        case $1:${f##*/} in
            python:*.py|sh:*.sh) echo "$top/$f" ;;
            python:*.*|sh:*.*) ;;
            *) head -n 1 "$top/$f" 2>/dev/null \
                   | grep -q "^#! *\(/usr/bin/env \)\?/\?[a-z/]*$1" \
                   && echo "$top/$f" ;;
        esac
    done
}

# 8.
tracked_scripts python > "$work/py"
# shellcheck disable=SC2046 # file names without spaces
{ [ -s "$work/py" ] \
      && PYTHONPYCACHEPREFIX=$work/pycache python3 -m py_compile $(cat "$work/py") \
      && pyflakes3 $(cat "$work/py"); } > "$work/out" 2> "$work/err"
result $? "$(wc -l < "$work/py") Python programs compile and pass pyflakes"

# 9.
tracked_scripts sh > "$work/sh"
# shellcheck disable=SC2046 # file names without spaces
{ [ -s "$work/sh" ] && shellcheck -S warning $(cat "$work/sh"); } \
    > "$work/out" 2> "$work/err"
result $? "$(wc -l < "$work/sh") shell scripts pass shellcheck"

# 11.
ignore=$(sed -n 's/^FLAKE8_IGNORE = //p' "$build/ovs/Makefile.am")
sed -n 's/#.*//; /^tests /p' "$top/patches/ovs/upstream-files" \
    | tr ' ' '\n' | grep '\.py$' | sed "s|^|$top/|" > "$work/helpers"
# shellcheck disable=SC2046 # file names without spaces
{ [ -n "$ignore" ] && [ -s "$work/helpers" ] \
      && pycodestyle --ignore="$ignore" $(cat "$work/helpers"); } \
    > "$work/out" 2> "$work/err"
result $? "$(wc -l < "$work/helpers") Python helpers of the upstream form pass Open vSwitch's pycodestyle rules"

# 12.
toy=$work/toy
mkdir -p "$toy/src" "$toy/series"
toy_git() {
    git -C "$toy/src" -c user.name=toy -c user.email=toy@localhost "$@"
}
toy_git init -q
printf '#!/bin/sh\n' > "$toy/src/boot.sh"
cat > "$toy/src/configure" <<'EOF'
#!/bin/sh
printf 'all: prog\nprog: prog.c\n\t$(CC) -Werror -o prog prog.c\n' > Makefile
printf 'clean:\n\trm -f prog\n' >> Makefile
EOF
chmod +x "$toy/src/boot.sh" "$toy/src/configure"
printf 'Makefile\nprog\n' > "$toy/src/.gitignore"
toy_git add -A && toy_git commit -q -m base && toy_git tag pristine
printf 'int main(void) { return 0; }\n' > "$toy/src/prog.c"
toy_git add prog.c && toy_git commit -q -m "prog: Add"
printf 'int main(void) { return 1; }\n' > "$toy/src/prog.c"
toy_git commit -q -a -m "prog: Return 1"
toy_git format-patch -q -o "$toy/series" pristine
(cd "$toy/series" && ls 0*.patch > series)
toy_check() {
    "$top/build-aux/check-upstream-series" --series "$toy/series" \
        --gitdir "$toy/src/.git" --work "$toy/work" --jobs 1 \
        --record "$toy/record" > "$work/out" 2> "$work/err"
}
toy_check && ! grep -q 'recorded' "$work/out" \
    && grep -q '^check-upstream-series: 2 of 2 prefixes built' "$work/out" \
    && toy_check && [ "$(grep -c '(recorded ' "$work/out")" = 2 ] \
    && grep -q '2 of them passed in an earlier run' "$work/out" \
    && grep -q '^4 passed, 0 failed$' "$work/out"
rc=$?
if [ $rc = 0 ]; then
    # The second patch now does not compile: the first prefix is still
    # recorded, the second is built, fails, and fails again next time.
    sed -i 's/return 1;/return 1/' "$toy/series/0002-prog-Return-1.patch"
    ! toy_check && grep -q '^   1 ok .*(recorded ' "$work/out" \
        && grep -q '^   2 FAILED' "$work/out" \
        && ! toy_check && grep -q '^   2 FAILED' "$work/out" \
        && grep -q '^3 passed, 1 failed$' "$work/out"
    rc=$?
fi
result $rc "check-upstream-series: a recorded prefix is not built again, a changed or failing one is"

echo "check-build: $pass passed, $fail failed"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
