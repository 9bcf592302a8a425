#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make -C tools install` into scratch DESTDIRs: the files and symlinks,
# libsmart.pc with the install prefix, a program built against the
# installed header and library (shared and static, through pkg-config),
# NAME=smart-schedctl, the default PREFIX, the refusal to overwrite
# smartmontools' smartctl, and a warning-free man page.  TAP on stdout.
#
#   O=build/tools sh tools/tests/install_test.sh

here=$(cd "$(dirname "$0")" && pwd)
tools=$(cd "$here/.." && pwd)
O=${O:-$tools/../build/tools}
MAKE=${MAKE:-make}
base=$O/install-test
rm -rf "$base"; mkdir -p "$base"

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() {
	n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/#   /'; done
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
files_exist() { # name dir paths...
	name=$1 dir=$2; shift 2; missing=
	for p in "$@"; do [ -e "$dir/$p" ] || [ -L "$dir/$p" ] || missing="$missing $p"; done
	if [ -z "$missing" ]; then ok "$name"; else nok "$name" "missing:$missing" "$(cd "$dir" && find . | sort)"; fi
}
mk() { $MAKE --no-print-directory -C "$tools" O="$O" "$@"; }

# --- PREFIX=/usr -------------------------------------------------------------
D=$base/usr
if mk install DESTDIR="$D" PREFIX=/usr >"$base/usr.log" 2>&1; then
	ok "install DESTDIR PREFIX=/usr"
else
	nok "install DESTDIR PREFIX=/usr" "$(cat "$base/usr.log")"
fi
files_exist "PREFIX=/usr: library, headers, pkg-config, program, man page" "$D" \
	usr/lib/libsmart.a usr/lib/libsmart.so.0.1.0 usr/lib/libsmart.so.0 usr/lib/libsmart.so \
	usr/include/smart.h usr/include/linux/smart_sched.h usr/lib/pkgconfig/libsmart.pc \
	usr/sbin/smartctl usr/share/man/man8/smartctl.8
if [ "$(readlink "$D/usr/lib/libsmart.so")" = libsmart.so.0 ] &&
   [ "$(readlink "$D/usr/lib/libsmart.so.0")" = libsmart.so.0.1.0 ]; then
	ok "libsmart.so -> libsmart.so.0 -> libsmart.so.0.1.0"
else
	nok "libsmart.so -> libsmart.so.0 -> libsmart.so.0.1.0" "$(ls -l "$D/usr/lib")"
fi
soname=$(readelf -d "$D/usr/lib/libsmart.so.0.1.0" 2>/dev/null | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = libsmart.so.0 ] && ok "SONAME libsmart.so.0" || nok "SONAME libsmart.so.0" "seen '$soname'"
if cmp -s "$D/usr/include/linux/smart_sched.h" "$tools/../include/uapi/linux/smart_sched.h"; then
	ok "linux/smart_sched.h is the repository's uapi header"
else
	nok "linux/smart_sched.h is the repository's uapi header"
fi
if grep -qx 'prefix=/usr' "$D/usr/lib/pkgconfig/libsmart.pc" &&
   grep -qx 'libdir=/usr/lib' "$D/usr/lib/pkgconfig/libsmart.pc"; then
	ok "libsmart.pc has the install prefix"
else
	nok "libsmart.pc has the install prefix" "$(cat "$D/usr/lib/pkgconfig/libsmart.pc")"
fi

# a program against the installed header and library
cat >"$base/prog.c" <<'EOF'
#include <stdio.h>
#include <smart.h>

int main(void)
{
	struct smart_estimator e;
	struct smart_attr a = { .size = sizeof(a) };

	smart_estimator_init(&e, 0.5, SMART_ESTIMATOR_MARGIN_PAPER);
	smart_estimator_update(&e, 10000000);
	smart_estimator_update(&e, 20000000);
	printf("estimate %llu prio-range %d..%d getattr %s\n",
	       (unsigned long long)smart_estimator_get(&e), SMART_PRIO_MIN, SMART_PRIO_MAX,
	       smart_getattr(0, &a, sizeof(a), 0) == 0 ? "ok" : "failed");
	return 0;
}
EOF
if command -v pkg-config >/dev/null 2>&1; then
	flags=$(PKG_CONFIG_PATH=$D/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D pkg-config --cflags --libs libsmart)
	case $flags in
	*"-I$D/usr/include"*"-lsmart"*) ok "pkg-config --cflags --libs libsmart" ;;
	*) nok "pkg-config --cflags --libs libsmart" "seen: $flags" ;;
	esac
else
	flags="-I$D/usr/include -L$D/usr/lib -lsmart"
	skip "pkg-config --cflags --libs libsmart" "no pkg-config"
fi
# shellcheck disable=SC2086
if ${CC:-gcc} -Wall -Wextra -Werror -o "$base/prog" "$base/prog.c" $flags 2>"$base/cc.log" &&
   out=$(LD_LIBRARY_PATH=$D/usr/lib "$base/prog") &&
   case $out in "estimate 16500000 prio-range -16..16 getattr "*) true ;; *) false ;; esac; then
	ok "a program links the shared libsmart and runs ($out)"
else
	nok "a program links the shared libsmart and runs" "$(cat "$base/cc.log")" "seen: ${out:-}"
fi
if readelf -d "$base/prog" 2>/dev/null | grep -q 'NEEDED.*libsmart.so.0'; then
	ok "the program needs libsmart.so.0"
else
	nok "the program needs libsmart.so.0"
fi
if ${CC:-gcc} -Wall -Wextra -Werror -I"$D/usr/include" -o "$base/prog-static" "$base/prog.c" \
	"$D/usr/lib/libsmart.a" 2>"$base/cc2.log" && "$base/prog-static" >/dev/null; then
	ok "a program links libsmart.a and runs"
else
	nok "a program links libsmart.a and runs" "$(cat "$base/cc2.log")"
fi
if file -L "$D/usr/sbin/smartctl" 2>/dev/null | grep -q 'statically linked'; then
	ok "the installed smartctl is static"
elif ! command -v file >/dev/null 2>&1; then
	skip "the installed smartctl is static" "no file(1)"
else
	nok "the installed smartctl is static" "$(file -L "$D/usr/sbin/smartctl")"
fi
if command -v groff >/dev/null 2>&1; then
	warn=$(groff -man -Tutf8 -ww -z "$D/usr/share/man/man8/smartctl.8" 2>&1)
	[ -z "$warn" ] && ok "man page: groff -ww reports nothing" || nok "man page: groff -ww reports nothing" "$warn"
	for sec in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS OUTPUT "EXIT STATUS" FILES EXAMPLES NOTES "SEE ALSO"; do
		grep -q "^\.SH \"\{0,1\}$sec\"\{0,1\}\$" "$D/usr/share/man/man8/smartctl.8" || { missing_sec=$sec; break; }
	done
	[ -z "${missing_sec:-}" ] && ok "man page: all sections" || nok "man page: all sections" "no $missing_sec"
else
	skip "man page: groff -ww reports nothing" "no groff"
	skip "man page: all sections" "no groff"
fi

# --- NAME=smart-schedctl -----------------------------------------------------
D=$base/name
if mk install DESTDIR="$D" NAME=smart-schedctl >"$base/name.log" 2>&1; then
	ok "install NAME=smart-schedctl"
else
	nok "install NAME=smart-schedctl" "$(cat "$base/name.log")"
fi
files_exist "NAME=smart-schedctl: default PREFIX /usr/local, renamed program and page" "$D" \
	usr/local/sbin/smart-schedctl usr/local/share/man/man8/smart-schedctl.8 \
	usr/local/lib/libsmart.a usr/local/include/smart.h usr/local/lib/pkgconfig/libsmart.pc
[ -e "$D/usr/local/sbin/smartctl" ] && nok "NAME=smart-schedctl: no smartctl installed" || ok "NAME=smart-schedctl: no smartctl installed"
if grep -qx '.ds N smart-schedctl' "$D/usr/local/share/man/man8/smart-schedctl.8" &&
   grep -q '^.TH SMART-SCHEDCTL 8' "$D/usr/local/share/man/man8/smart-schedctl.8"; then
	ok "NAME=smart-schedctl: the man page names it"
else
	nok "NAME=smart-schedctl: the man page names it"
fi
out=$("$D/usr/local/sbin/smart-schedctl" --help 2>&1)
case $out in *" smart-schedctl set "*) ok "NAME=smart-schedctl: --help uses the name" ;;
*) nok "NAME=smart-schedctl: --help uses the name" "$out" ;; esac
grep -qx 'prefix=/usr/local' "$D/usr/local/lib/pkgconfig/libsmart.pc" &&
	ok "default PREFIX in libsmart.pc is /usr/local" ||
	nok "default PREFIX in libsmart.pc is /usr/local" "$(cat "$D/usr/local/lib/pkgconfig/libsmart.pc")"

# --- never overwrite smartmontools ------------------------------------------
D=$base/guard
mkdir -p "$D/usr/sbin"
printf '#!/bin/sh\necho smartmontools\n' >"$D/usr/sbin/smartctl"
if mk install DESTDIR="$D" PREFIX=/usr >"$base/guard.log" 2>&1; then
	nok "install refuses to overwrite smartmontools' smartctl" "$(cat "$base/guard.log")"
elif grep -q "not SMART's smartctl" "$base/guard.log" && grep -q smartmontools "$D/usr/sbin/smartctl"; then
	ok "install refuses to overwrite smartmontools' smartctl"
else
	nok "install refuses to overwrite smartmontools' smartctl" "$(cat "$base/guard.log")"
fi
if mk install DESTDIR="$base/usr" PREFIX=/usr >"$base/again.log" 2>&1; then
	ok "install over our own smartctl works"
else
	nok "install over our own smartctl works" "$(cat "$base/again.log")"
fi

rm -rf "$base"
echo "1..$n"
[ $failed = 0 ]
