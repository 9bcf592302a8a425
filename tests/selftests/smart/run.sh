#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run the SCHED_SMART selftests (POSIX sh; runs under busybox in the guest).
#
#   run.sh [-b BINDIR] [-t STRESS_SECONDS] [TEST ...]
#
#   -b BINDIR          where the test binaries are (default: $SMART_TEST_BIN,
#                      else <repo>/build/selftests); built there with make if
#                      missing and a compiler is available
#   -t STRESS_SECONDS  duration of smart_stress_test and of smart_rt_test's
#                      stress test (default 30; also SMART_STRESS_SECONDS)
#   TEST ...           run only these binaries (e.g. smart_api_test) or
#                      scripts of this directory (smartctl_test.sh, run with
#                      sh; it uses $SMARTCTL and $JSON_CHECK, default
#                      <repo>/build/tools/, built by make tools); a binary
#                      may carry harness options after a colon, commas for
#                      spaces: smart_tc_test:-f,used_exact
#
# Every binary's TAP output is passed through indented as "# " lines (as the
# kselftest runner does), followed by one "ok"/"not ok" line per binary and a
# one-line summary.  The mode comes from /proc/sys/kernel/sched_smart_all
# (0 opt-in, 1 all); tests that differ by mode check it themselves.
# Exit status: 0 if nothing failed, 1 if anything failed, 2 on usage errors.

ALL_TESTS="smart_api_test smart_sysctl_test smart_sched_test smart_smp_test smart_tc_test smart_rt_test smart_trace_test
libsmart_test smartctl_test.sh smart_harden_test smart_abuse_test smart_cgroup_test smart_infer_test smart_play_test.sh smart_stress_test smart_fuzz_test"

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
bindir=${SMART_TEST_BIN:-$repo/build/selftests}
# smartctl_test.sh (a script, run with sh from here) tests these (make tools)
SMARTCTL=${SMARTCTL:-$repo/build/tools/smartctl}
JSON_CHECK=${JSON_CHECK:-$repo/build/tools/json_check}
export SMARTCTL JSON_CHECK

while getopts "b:t:h" opt; do
	case $opt in
	b) bindir=$OPTARG ;;
	t) SMART_STRESS_SECONDS=$OPTARG; export SMART_STRESS_SECONDS ;;
	h) sed -n '4,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "usage: $0 [-b BINDIR] [-t STRESS_SECONDS] [TEST ...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
tests=${*:-$ALL_TESTS}

missing=
for t in $tests; do
	t=${t%%:*}
	case $t in
	*.sh) [ -f "$here/$t" ] || { echo "# no such test: $here/$t" >&2; exit 2; } ;;
	*) [ -x "$bindir/$t" ] || missing="$missing $t" ;;
	esac
done
if [ -n "$missing" ]; then
	if command -v make >/dev/null 2>&1 && command -v "${CC:-gcc}" >/dev/null 2>&1; then
		echo "# building:$missing" >&2
		make -s -C "$here" O="$bindir" >&2 || exit 2
	else
		echo "# test binaries missing in $bindir:$missing" >&2
		echo "# build them first: make -C tests/selftests/smart O=$bindir" >&2
		exit 2
	fi
fi

case $(cat /proc/sys/kernel/sched_smart_all 2>/dev/null) in
0) mode=opt-in ;;
1) mode=all ;;
*) mode="absent (no SCHED_SMART in this kernel: tests SKIP)" ;;
esac

tmp=$(mktemp -d 2>/dev/null || echo /tmp/smart-selftests.$$)
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM

n=0
for t in $tests; do n=$((n + 1)); done

echo "TAP version 13"
echo "1..$n"
echo "# smart selftests: mode $mode, kernel $(uname -r), $(grep -c '^processor' /proc/cpuinfo) CPUs"

KSFT_TAP_LEVEL=1
export KSFT_TAP_LEVEL


# a binary from $bindir, a script (*.sh) from here with sh
run_one() {
	case $1 in
	*.sh) sh "$here/$1" ;;
	*:*)
		# shellcheck disable=SC2046 # the options split on purpose
		"$bindir/${1%%:*}" $(echo "${1#*:}" | tr , ' ') ;;
	*) "$bindir/$1" ;;
	esac
}

i=0; bins_failed=0; tpass=0; tfail=0; tskip=0
for t in $tests; do
	i=$((i + 1))
	start=$(date +%s)
	{ run_one "$t" 2>&1; echo $? > "$tmp/rc"; } | tee "$tmp/out" | sed 's/^/# /'
	rc=$(cat "$tmp/rc" 2>/dev/null || echo 99)
	secs=$(( $(date +%s) - start ))
	totals=$(grep '^# Totals:' "$tmp/out" | tail -n 1)
	# "# Totals: pass:N fail:N xfail:N xpass:N skip:N error:N"
	p=$(echo "$totals" | sed -n 's/.*Totals: pass:\([0-9]*\).*/\1/p')
	f=$(echo "$totals" | sed -n 's/.* fail:\([0-9]*\).*/\1/p')
	s=$(echo "$totals" | sed -n 's/.* skip:\([0-9]*\).*/\1/p')
	e=$(echo "$totals" | sed -n 's/.* error:\([0-9]*\).*/\1/p')
	p=${p:-0}; f=${f:-0}; s=${s:-0}; e=${e:-0}
	tpass=$((tpass + p)); tskip=$((tskip + s)); tfail=$((tfail + f + e))
	if [ "$rc" != 0 ] || [ "$f" != 0 ] || [ "$e" != 0 ] || [ -z "$totals" ]; then
		bins_failed=$((bins_failed + 1))
		[ -z "$totals" ] && tfail=$((tfail + 1))
		echo "not ok $i $t # exit $rc, ${secs}s"
	elif [ "$p" = 0 ] && [ "$s" != 0 ]; then
		echo "ok $i $t # SKIP all $s tests skipped, ${secs}s"
	else
		echo "ok $i $t # ${secs}s"
	fi
done

if [ "$bins_failed" = 0 ]; then result=PASS; else result=FAIL; fi
echo "# smart selftests $result: mode $mode: $tpass passed, $tfail failed, $tskip skipped ($n binaries, $bins_failed failed)"
[ "$bins_failed" = 0 ]
