# SPDX-License-Identifier: GPL-2.0
#
# TAP for the tools' guest tests (POSIX sh, sourced): one line per check,
# the plan at the end, then the kselftest "# Totals:" line that
# scripts/run-selftests counts.
#
#   ok DESCRIPTION
#   nok DESCRIPTION [LINE...]   the lines are printed as "#   " diagnostics
#   skip DESCRIPTION WHY
#   finish                      plan, totals; exits 0 if nothing failed

n=0 pass=0 fail=0 skipped=0
ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n $1"; }
nok() {
	n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n $1"; shift
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/#   /'; done
}
skip() { n=$((n + 1)); skipped=$((skipped + 1)); echo "ok $n $1 # SKIP $2"; }
finish() {
	echo "1..$n"
	echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skipped error:0"
	[ $fail = 0 ]
	exit $?
}
