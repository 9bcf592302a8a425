#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# smartctl in the guest (POSIX sh, busybox; run as root by scripts/run-selftests):
#
#  - get/set round trips of priority, share, notify signal and the
#    reset-on-fork flag on a sleeping child, and --all-tasks;
#  - run: the command starts in SCHED_SMART with the values given (it
#    reports them itself with smartctl get), exit statuses 126/127, what
#    its children inherit with and without --reset-on-fork;
#  - every error path with its documented message and a non-zero exit:
#    bad and non-numeric pids, out-of-range priority and share, unknown
#    signals, and an unprivileged user (nobody, through su) raising
#    priority or share, touching root's thread, entering SCHED_SMART in
#    opt-in mode, writing a tunable;
#  - tune: list, read, write (and restore), out-of-range, bad syntax,
#    unknown name, read-only mode;
#  - top: the fixtures (text, JSON validated by json_check), then the live
#    debugfs queues with a spinning child at priority 3, share 777 pinned
#    to CPU 0 (SKIP when the kernel has no queues file).
#
# The expectations that differ by mode (/proc/sys/kernel/sched_smart_all)
# say so.  Output: TAP with a kselftest "# Totals:" line, for scripts/run-selftests.
#
#   SMARTCTL=/host/build/tools/smartctl JSON_CHECK=/host/build/tools/json_check \
#       sh tools/smartctl/tests/guest_test.sh

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
S=${SMARTCTL:-$repo/build/tools/smartctl}
J=${JSON_CHECK:-$repo/build/tools/json_check}
F=$repo/tools/smartctl/tests/fixtures
QUEUES=/sys/kernel/debug/sched/smart/queues
SYSCTL=/proc/sys/kernel/smart

tmp=$(mktemp -d 2>/dev/null || echo /tmp/smartctl-test.$$)
mkdir -p "$tmp"
kids=
cleanup() {
	for k in $kids; do kill -9 "$k" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

. "$repo/scripts/guest-tap.sh"

# check NAME WANT_RC FRAGMENT CMD...: exit status WANT_RC ('!0': any
# failure) and FRAGMENT in stdout+stderr; leaves $out and $rc
check() {
	name=$1 want=$2 frag=$3; shift 3
	out=$("$@" 2>&1); rc=$?
	case $want in
	'!0') [ "$rc" != 0 ]; rc_ok=$? ;;
	*) [ "$rc" = "$want" ]; rc_ok=$? ;;
	esac
	case $out in *"$frag"*) frag_ok=0 ;; *) frag_ok=1 ;; esac
	if [ $rc_ok = 0 ] && [ $frag_ok = 0 ]; then
		ok "$name"
	else
		nok "$name" "expected exit $want and '$frag'" "seen exit $rc: $out"
	fi
}

# has NAME TEXT LINE...: every LINE is a whole line of TEXT
has() {
	name=$1 text=$2; shift 2
	for l in "$@"; do
		if ! printf '%s\n' "$text" | grep -qxF "$l"; then
			nok "$name" "expected the line '$l'" "seen: $text"
			return 1
		fi
	done
	ok "$name"
}

# the value of one "pid N's current SMART <field>: <value>" line
field() { "$S" get -p "$1" 2>/dev/null | sed -n "s/^pid $1's current SMART $2: //p"; }

# start CMD... in the background, remember its pid in $kid
spawn() { "$@" </dev/null >/dev/null 2>&1 & kid=$!; kids="$kids $kid"; }

# wait up to 5 s until /proc/PID/comm is COMM (an exec happened)
wait_comm() {
	i=0
	while [ $i -lt 50 ]; do
		[ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ] && return 0
		usleep 100000; i=$((i + 1))
	done
	return 1
}

# a pid that does not exist: a reaped child's
dead_pid() { sh -c 'exit 0' & p=$!; wait $p; echo $p; }

as_nobody() { su -s /bin/sh nobody -c "$*"; }

echo "TAP version 13"
echo "# smartctl: $S"

# --- the binary --------------------------------------------------------------
if [ ! -x "$S" ] && command -v make >/dev/null 2>&1 &&
   command -v "${CC:-gcc}" >/dev/null 2>&1; then
	echo "# building the tools: make -C $repo/tools" >&2
	make -s -C "$repo/tools" >&2
fi
if [ ! -x "$S" ]; then
	nok "smartctl is built" "$S missing: make tools (or make -C tools)"
	finish
fi
check "smartctl --version" 0 "SCHED_SMART scheduler" "$S" --version
check "smartctl --help" 0 "Usage:" "$S" --help

case $(cat /proc/sys/kernel/sched_smart_all 2>/dev/null) in
0) mode=opt-in ;;
1) mode=all ;;
*) mode= ;;
esac
echo "# mode: ${mode:-absent}, uid $(id -u), $(grep -c ^processor /proc/cpuinfo) CPUs"

# --- top on the fixtures (no kernel state needed) -----------------------------
check "top --once --file fixture: text" 0 "" "$S" top --once --file "$F/queues-2cpu.txt"
if printf '%s\n' "$out" | grep -Eq '^ +301 spin +running +3 +777 '; then
	ok "top --once --file fixture: task 301 spin running 3 777"
else
	nok "top --once --file fixture: task 301 spin running 3 777" "$out"
fi
"$S" top --json --file "$F/queues-2cpu.txt" >"$tmp/fx.json" 2>&1
if "$J" "$tmp/fx.json" >/dev/null 2>"$tmp/fx.err"; then
	ok "top --json --file fixture: valid JSON"
else
	nok "top --json --file fixture: valid JSON" "$(cat "$tmp/fx.err")" "$(cat "$tmp/fx.json")"
fi
flat=$("$J" -f "$tmp/fx.json" 2>&1)
if [ -n "$mode" ]; then jmode="\"$mode\""; else jmode=null; fi
has "top --json --file fixture: values and mode" "$flat" \
	'.cpus[0].tasks[0].pid=301' '.cpus[0].tasks[0].prio=3' '.cpus[0].tasks[0].share=777' \
	".mode=$jmode"

if [ -z "$mode" ]; then
	skip "SCHED_SMART tests" "no SCHED_SMART in this kernel (/proc/sys/kernel/sched_smart_all missing)"
	check "no SMART: get explains" 1 "no SCHED_SMART in this kernel" "$S" get -p $$
	finish
fi
if [ "$(id -u)" != 0 ]; then
	skip "SCHED_SMART tests" "need root (uid $(id -u))"
	finish
fi

# --- get/set round trips on a sleeping child ----------------------------------
spawn sleep 1000
c=$kid
if [ $mode = all ]; then class="SMART (sched_smart=all)"; else class=fair; fi
check "get: a new child" 0 "" "$S" get -p $c
has "get: a new child is SCHED_OTHER, class $class, priority 0, share 1024" "$out" \
	"pid $c's current scheduling policy: SCHED_OTHER" \
	"pid $c's current scheduling class: $class" \
	"pid $c's current SMART priority: 0" \
	"pid $c's current SMART share: 1024" \
	"pid $c's current SMART notify signal: default (SIGXCPU)" \
	"pid $c's current SMART flags: none"
check "get: the default command (smartctl -p PID)" 0 "pid $c's current SMART share: 1024" "$S" -p $c
check "get: a positional pid (smartctl PID)" 0 "pid $c's current SMART share: 1024" "$S" $c

check "set --priority 3" 0 "" "$S" set -p $c --priority 3
has "set --priority 3: the child is SCHED_SMART at priority 3" "$("$S" get -p $c 2>&1)" \
	"pid $c's current scheduling policy: SCHED_SMART" \
	"pid $c's current scheduling class: SMART" \
	"pid $c's current SMART priority: 3"
check "set --share 777" 0 "" "$S" set -p $c --share 777
v="$(field $c priority)/$(field $c share)"
[ "$v" = 3/777 ] && ok "set --share 777: priority 3, share 777" ||
	nok "set --share 777: priority 3, share 777" "seen $v"
for sig in "USR1:SIGUSR1 (10)" "SIGRTMIN+1:SIGRTMIN+1 (35)" "12:SIGUSR2 (12)" \
	   "rtmax-2:SIGRTMIN+28 (62)" "xcpu:SIGXCPU (24)" "default:default (SIGXCPU)"; do
	arg=${sig%%:*} want=${sig#*:}
	"$S" set -p $c --signal "$arg" >"$tmp/o" 2>&1; rc=$?
	v=$(field $c "notify signal")
	if [ $rc = 0 ] && [ "$v" = "$want" ]; then ok "set --signal $arg: $want"
	else nok "set --signal $arg: $want" "exit $rc: $(cat "$tmp/o")" "seen '$v'"; fi
done
check "set --reset-on-fork" 0 "" "$S" set -p $c --reset-on-fork
v=$(field $c flags)
[ "$v" = reset-on-fork ] && ok "set --reset-on-fork: flags reset-on-fork" ||
	nok "set --reset-on-fork: flags reset-on-fork" "seen '$v'"
"$S" set -p $c --no-reset-on-fork
v=$(field $c flags)
[ "$v" = none ] && ok "set --no-reset-on-fork: flags none" || nok "set --no-reset-on-fork: flags none" "seen '$v'"
check "set -v: all at once, shown after" 0 "" "$S" set -v -p $c -P -16 -s 1 -S RTMIN -R
has "set -v: priority -16, share 1, SIGRTMIN, reset-on-fork" "$out" \
	"pid $c's current SMART priority: -16" "pid $c's current SMART share: 1" \
	"pid $c's current SMART notify signal: SIGRTMIN (34)" "pid $c's current SMART flags: reset-on-fork"
check "set: the limits 16 and 1048576" 0 "" "$S" set -p $c -P 16 -s 1048576
v="$(field $c priority)/$(field $c share)"
[ "$v" = 16/1048576 ] && ok "set: priority 16, share 1048576 read back" ||
	nok "set: priority 16, share 1048576 read back" "seen $v"
"$S" set -p $c -P 3 -s 777 --no-reset-on-fork -S default
check "get: lag, bias and the counters" 0 "" "$S" get -p $c
if printf '%s\n' "$out" | grep -Eq "^pid $c's current SMART lag: -?[0-9]+ ns\$" &&
   printf '%s\n' "$out" | grep -Eq "^pid $c's current SMART bias: [0-9]+ ns\$" &&
   printf '%s\n' "$out" | grep -qx "pid $c's SMART constraints met: 0" &&
   printf '%s\n' "$out" | grep -qx "pid $c's SMART constraints missed: 0" &&
   printf '%s\n' "$out" | grep -qx "pid $c's SMART notifications: 0"; then
	ok "get: lag and bias in ns, constraint counters 0"
else
	nok "get: lag and bias in ns, constraint counters 0" "$out"
fi
printf '%s\n' "$out" | grep -qx "pid $c's inferred SMART period: none" &&
	ok "get: no inferred period for a sleeper" || nok "get: no inferred period for a sleeper" "$out"
check "set --no-infer" 0 "" "$S" set -p $c --no-infer
v=$(field $c flags)
[ "$v" = no-infer ] && ok "set --no-infer: flags no-infer" || nok "set --no-infer: flags no-infer" "seen '$v'"
check "set -R keeps no-infer" 0 "" "$S" set -p $c -R
v=$(field $c flags)
[ "$v" = "reset-on-fork|no-infer" ] && ok "set -R: flags reset-on-fork|no-infer" ||
	nok "set -R: flags reset-on-fork|no-infer" "seen '$v'"
check "set --infer --no-reset-on-fork" 0 "" "$S" set -p $c --infer --no-reset-on-fork
v=$(field $c flags)
[ "$v" = none ] && ok "set --infer --no-reset-on-fork: flags none" ||
	nok "set --infer --no-reset-on-fork: flags none" "seen '$v'"
check "get -a: every thread of the process" 0 "" "$S" get -a -p $c
v=$(printf '%s\n' "$out" | grep -c "current scheduling policy")
[ "$v" = "$(ls /proc/$c/task | wc -l)" ] && ok "get -a: one block per thread ($v)" ||
	nok "get -a: one block per thread" "seen $v blocks: $out"
check "set -a: every thread of the process" 0 "" "$S" set -a -p $c -s 778
v=$(field $c share)
[ "$v" = 778 ] && ok "set -a: share 778" || nok "set -a: share 778" "seen $v"

# --- run ---------------------------------------------------------------------
check "run -P 3 -s 777 -S USR2: the command reports itself" 0 "" \
	"$S" run -P 3 -s 777 -S USR2 -- sh -c "exec '$S' get -p \$\$"
pid=$(printf '%s\n' "$out" | sed -n "s/^pid \([0-9]*\)'s current scheduling policy: .*/\1/p")
has "run: SCHED_SMART, priority 3, share 777, SIGUSR2" "$out" \
	"pid $pid's current scheduling policy: SCHED_SMART" "pid $pid's current SMART priority: 3" \
	"pid $pid's current SMART share: 777" "pid $pid's current SMART notify signal: SIGUSR2 (12)" \
	"pid $pid's current SMART flags: none"
check "run -R: flags reset-on-fork" 0 "current SMART flags: reset-on-fork" \
	"$S" run -R -- sh -c "exec '$S' get -p \$\$"
check "run: children inherit priority and share" 0 "" \
	"$S" run -P 2 -s 600 -- sh -c "sleep 100 & p=\$!; '$S' get -p \$p; kill \$p"
v=$(printf '%s\n' "$out" | sed -nE "s/.*current SMART (priority|share): //p" | tr '\n' /)
[ "$v" = 2/600/ ] && ok "run: a child of the command has priority 2, share 600" ||
	nok "run: a child of the command has priority 2, share 600" "seen $v: $out"
check "run -R: children start at most at the defaults" 0 "" \
	"$S" run -P 2 -s 2000 -R -- sh -c "sleep 100 & p=\$!; '$S' get -p \$p; kill \$p"
v=$(printf '%s\n' "$out" | sed -nE "s/.*current SMART (priority|share): //p" | tr '\n' /)
[ "$v" = 0/1024/ ] && ok "run -R: a child of a prio 2 / share 2000 command has priority 0, share 1024" ||
	nok "run -R: a child of a prio 2 / share 2000 command has priority 0, share 1024" "seen $v: $out"
check "run -R: a reset never raises" 0 "" \
	"$S" run -P -1 -s 600 -R -- sh -c "sleep 100 & p=\$!; '$S' get -p \$p; kill \$p"
v=$(printf '%s\n' "$out" | sed -nE "s/.*current SMART (priority|share): //p" | tr '\n' /)
[ "$v" = -1/600/ ] && ok "run -R: a child of a prio -1 / share 600 command keeps priority -1, share 600" ||
	nok "run -R: a child of a prio -1 / share 600 command keeps priority -1, share 600" "seen $v: $out"
check "run: the command's exit status" 7 "" "$S" run -P 1 -- sh -c 'exit 7'
check "run: command not found: 127" 127 "failed to execute /nonexistent/cmd: No such file or directory" \
	"$S" run -- /nonexistent/cmd
check "run: not executable: 126" 126 "failed to execute /etc/passwd: Permission denied" \
	"$S" run -- /etc/passwd
check "run: bad priority: 125" 125 "invalid priority '20': must be an integer in -16..16" \
	"$S" run -P 20 -- true

# --- errors ------------------------------------------------------------------
d=$(dead_pid)
check "get: no such pid" 1 "failed to get pid $d's policy: No such process" "$S" get -p $d
check "set: no such pid" 1 "failed to set pid $d's priority: No such process" "$S" set -p $d -P 1
check "get -a: no such pid" 1 "failed to list pid $d's threads: No such process" "$S" get -a -p $d
check "get: non-numeric pid" 1 "invalid pid 'abc': must be a positive integer" "$S" get -p abc
check "set: non-numeric pid" 1 "invalid pid '12x'" "$S" set -p 12x -P 1
check "set: priority 17" 1 "invalid priority '17': must be an integer in -16..16" "$S" set -p $c -P 17
check "set: priority -17" 1 "invalid priority '-17': must be an integer in -16..16" "$S" set -p $c -P -17
check "set: share 0" 1 "invalid share '0': must be an integer in 1..1048576" "$S" set -p $c -s 0
check "set: share 1048577" 1 "invalid share '1048577': must be an integer in 1..1048576" \
	"$S" set -p $c -s 1048577
check "set: unknown signal" 1 "unknown signal 'FOO'" "$S" set -p $c -S FOO
check "set: signal 65" 1 "invalid signal '65': must be in 1..64" "$S" set -p $c -S 65
v="$(field $c priority)/$(field $c share)"
[ "$v" = 3/778 ] && ok "errors: nothing changed (priority 3, share 778)" ||
	nok "errors: nothing changed (priority 3, share 778)" "seen $v"

# unprivileged: nobody (65534) through busybox su
if ! as_nobody "'$S' --version" >/dev/null 2>&1; then
	for t in "raise priority" "raise share" "lower" "another user's thread" "opt-in entry" "tune write"; do
		skip "unprivileged: $t" "nobody cannot run $S (su or permissions)"
	done
else
	spawn su -s /bin/sh nobody -c 'exec sleep 1000'
	np=$kid
	if ! wait_comm $np sleep || ! grep -q '^Uid:[[:space:]]*65534' /proc/$np/status; then
		nok "unprivileged: nobody's sleeper started" "$(cat /proc/$np/status 2>&1 | head -9)"
	elif [ $mode = opt-in ]; then
		check "unprivileged: entering SCHED_SMART in opt-in mode" 1 \
			"failed to set pid $np's policy: Operation not permitted (entering SCHED_SMART in opt-in mode needs CAP_SYS_NICE)" \
			as_nobody "'$S' set -p $np -P -1"
	else
		check "unprivileged: entering SCHED_SMART in all mode, lowering" 0 "" \
			as_nobody "'$S' set -p $np -P -1"
	fi
	"$S" set -p $np -P 0 -s 1024 >/dev/null 2>&1
	check "unprivileged: raising the priority" 1 \
		"failed to set pid $np's priority: Operation not permitted (raising it from 0 to 5 needs CAP_SYS_NICE)" \
		as_nobody "'$S' set -p $np -P 5"
	check "unprivileged: raising the share" 1 \
		"failed to set pid $np's share: Operation not permitted (raising it from 1024 to 2048 needs CAP_SYS_NICE)" \
		as_nobody "'$S' set -p $np -s 2048"
	check "unprivileged: lowering priority and share is allowed" 0 "" \
		as_nobody "'$S' set -p $np -P -2 -s 512"
	v="$(field $np priority)/$(field $np share)"
	[ "$v" = -2/512 ] && ok "unprivileged: lowered to -2/512" || nok "unprivileged: lowered to -2/512" "seen $v"
	check "unprivileged: another user's thread" 1 \
		"failed to set pid $c's priority: Operation not permitted (pid $c belongs to another user" \
		as_nobody "'$S' set -p $c -P -1"
	check "unprivileged: get works on any thread" 0 "pid $c's current SMART priority: 3" \
		as_nobody "'$S' get -p $c"
	check "unprivileged: writing a tunable" 1 \
		"failed to set quantum_ns to 5000000: Permission denied (the tunables are writable by root only)" \
		as_nobody "'$S' tune quantum_ns=5ms"
fi

# --- tune --------------------------------------------------------------------
check "tune: list" 0 "" "$S" tune
for t in quantum_ns bias_step_ns bias_max_ns sleep_credit_ns resolution_ns handoff_ns \
	long_sleep_ns infer; do
	want="$t = $(cat $SYSCTL/$t)"
	printf '%s\n' "$out" | grep -qxF "$want" || { nok "tune: list has $want" "$out"; continue; }
	ok "tune: list has $want"
done
[ "$(printf '%s\n' "$out" | tail -n 1)" = "mode = $mode" ] && ok "tune: mode = $mode, last" ||
	nok "tune: mode = $mode, last" "$out"
q0=$(cat $SYSCTL/quantum_ns)
check "tune NAME" 0 "" "$S" tune quantum_ns
[ "$out" = "quantum_ns = $q0" ] && ok "tune quantum_ns: quantum_ns = $q0" || nok "tune quantum_ns" "seen $out"
check "tune -n NAME" 0 "" "$S" tune -n quantum_ns mode
[ "$out" = "$q0
$mode" ] && ok "tune -n: values only" || nok "tune -n: values only" "seen $out"
check "tune NAME=VALUE with a unit" 0 "quantum_ns = 5000000" "$S" tune quantum_ns=5ms
[ "$(cat $SYSCTL/quantum_ns)" = 5000000 ] && ok "tune: quantum_ns is 5000000 in /proc" ||
	nok "tune: quantum_ns is 5000000 in /proc" "seen $(cat $SYSCTL/quantum_ns)"
check "tune: restore" 0 "quantum_ns = $q0" "$S" tune quantum_ns=$q0
check "tune: out of range" 1 \
	"failed to set quantum_ns to 1: Invalid argument (out of range: valid 1000000..1000000000 ns)" \
	"$S" tune quantum_ns=1
[ "$(cat $SYSCTL/quantum_ns)" = "$q0" ] && ok "tune: out of range left the value" ||
	nok "tune: out of range left the value" "seen $(cat $SYSCTL/quantum_ns)"
check "tune: bad syntax" 1 "invalid value 'abc' for quantum_ns" "$S" tune quantum_ns=abc
check "tune: unknown name" 1 "unknown tunable 'nosuch' (known: bias_max_ns bias_step_ns" "$S" tune nosuch
check "tune: unknown name to write" 1 "unknown tunable 'nosuch'" "$S" tune nosuch=5
check "tune: mode is read-only" 1 "failed to set mode: it is read-only" "$S" tune mode=1

# --- top, live ---------------------------------------------------------------
[ -d /sys/kernel/debug/sched ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
if [ ! -e $QUEUES ]; then
	check "top: a missing queues file is explained" 1 "cannot open $QUEUES" "$S" top --once
	for t in "JSON valid" "the spinner with its values" "text line" "--cpu 0"; do
		skip "top live: $t" "$QUEUES missing (kernel without the queues file)"
	done
	finish
fi
if [ "$(grep -c ^processor /proc/cpuinfo)" -lt 2 ]; then
	for t in "JSON valid" "the spinner with its values" "text line" "--cpu 0"; do
		skip "top live: $t" "needs 2 CPUs (the spinner takes CPU 0)"
	done
	finish
fi
# a spinner at priority 3 share 777 on CPU 0; everything else can use CPU 1
spawn taskset 1 "$S" run -P 3 -s 777 -- sh -c 'while :; do :; done'
sp=$kid
wait_comm $sp sh
"$S" top --once --json >"$tmp/live.json" 2>"$tmp/live.err"; rc=$?
if [ $rc = 0 ] && "$J" "$tmp/live.json" 2>>"$tmp/live.err"; then
	ok "top live: JSON valid"
else
	nok "top live: JSON valid" "exit $rc: $(cat "$tmp/live.err")" "$(cat "$tmp/live.json")"
fi
flat=$("$J" -f "$tmp/live.json" 2>/dev/null)
at=$(printf '%s\n' "$flat" | sed -n "s/^\(\.cpus\[[0-9]*\]\.tasks\[[0-9]*\]\)\.pid=$sp\$/\1/p" | head -n 1)
cpuat=${at%%.tasks*}
if [ -n "$at" ] &&
   printf '%s\n' "$flat" | grep -qxF "$at.prio=3" &&
   printf '%s\n' "$flat" | grep -qxF "$at.share=777" &&
   printf '%s\n' "$flat" | grep -qxF "$at.comm=\"sh\"" &&
   printf '%s\n' "$flat" | grep -qxF -e "$at.state=\"running\"" -e "$at.state=\"runnable\"" &&
   printf '%s\n' "$flat" | grep -qxF "$cpuat.cpu=0"; then
	ok "top live: the spinner $sp on cpu 0, prio 3, share 777, running or runnable"
else
	nok "top live: the spinner $sp on cpu 0, prio 3, share 777, running or runnable" \
		"found at '${at:-nowhere}'" "$(printf '%s\n' "$flat" | grep -F "${at:-.pid=}")"
fi
check "top live: --once text" 0 "" "$S" top --once
if printf '%s\n' "$out" | grep -Eq "^ +$sp sh +(running|runnable) +3 +777 "; then
	ok "top live: text line of the spinner"
else
	nok "top live: text line of the spinner" "$out"
fi
check "top live: --cpu 0" 0 "cpu 0:" "$S" top --once --cpu 0
case $out in *"cpu 1:"*) nok "top live: --cpu 0 shows only cpu 0" "$out" ;;
*) ok "top live: --cpu 0 shows only cpu 0" ;; esac
if as_nobody "'$S' --version" >/dev/null 2>&1; then
	check "top: unprivileged gets a clear error" 1 "cannot open $QUEUES" as_nobody "'$S' top --once"
fi
kill -9 $sp 2>/dev/null

finish
