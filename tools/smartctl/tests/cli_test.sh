#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of the smartctl binary that need no SMART kernel: --help and
# --version, every command-line validation error (message and exit
# status), top on the fixtures (text and JSON against the golden files,
# JSON validated by json_check), the smartmontools hand-over, the ENOSYS
# messages on a kernel without SCHED_SMART, and json_check itself.
# TAP on stdout.
#
#   SMARTCTL=build/tools/smartctl JSON_CHECK=build/tools/json_check sh cli_test.sh

here=$(cd "$(dirname "$0")" && pwd)
S=${SMARTCTL:-$here/../../../build/tools/smartctl}
J=${JSON_CHECK:-$here/../../../build/tools/json_check}
F=$here/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() {
	n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/#   /'; done
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

# check NAME WANT_RC FRAGMENT CMD...: exit status WANT_RC ("!0": any
# failure) and FRAGMENT somewhere in stdout+stderr
check() {
	name=$1 want=$2 frag=$3; shift 3
	out=$("$@" 2>&1); rc=$?
	case $want in
	'!0') [ "$rc" != 0 ] && rc_ok=1 || rc_ok=0 ;;
	*) [ "$rc" = "$want" ] && rc_ok=1 || rc_ok=0 ;;
	esac
	case $out in *"$frag"*) frag_ok=1 ;; *) frag_ok=0 ;; esac
	if [ $rc_ok = 1 ] && [ $frag_ok = 1 ]; then
		ok "$name"
	else
		nok "$name" "expected exit $want and '$frag'" "seen exit $rc: $out"
	fi
}

if [ ! -x "$S" ] || [ ! -x "$J" ]; then
	echo "not ok 1 - smartctl and json_check built ($S, $J)"
	echo "1..1"
	exit 1
fi
smart=0
[ -e /proc/sys/kernel/sched_smart_all ] && smart=1
echo "# smartctl: $S; SCHED_SMART on this host: $smart"

# --- help and version always work -----------------------------------------
for args in "--help" "-h" "help" "set --help" "top -h" "tune --help" "run --help"; do
	# shellcheck disable=SC2086
	check "help: smartctl $args" 0 "Usage:" "$S" $args
done
check "help: lists the commands and units" 0 "-P, --priority <n>       priority, -16..16" "$S" --help
for args in "--version" "-V" "get -V"; do
	# shellcheck disable=SC2086
	check "version: smartctl $args" 0 "SCHED_SMART scheduler" "$S" $args
done

# --- validation errors: message names field and range, exit 1 -------------
check "priority 17 out of range" 1 "invalid priority '17': must be an integer in -16..16" \
	"$S" set -p 1 --priority 17
check "priority -17 out of range" 1 "invalid priority '-17'" "$S" set -p 1 -P -17
check "priority not a number" 1 "invalid priority 'high'" "$S" set -p 1 -P high
check "share 0 out of range" 1 "invalid share '0': must be an integer in 1..1048576" \
	"$S" set -p 1 --share 0
check "share 1048577 out of range" 1 "invalid share '1048577'" "$S" set -p 1 -s 1048577
check "unknown signal name" 1 "unknown signal 'FOO'" "$S" set -p 1 --signal FOO
check "signal 65 out of range" 1 "invalid signal '65': must be in 1..64" "$S" set -p 1 -S 65
check "signal RTMIN+99 out of range" 1 "invalid signal 'RTMIN+99'" "$S" set -p 1 -S RTMIN+99
check "pid not a number" 1 "invalid pid 'abc'" "$S" get -p abc
check "pid 0" 1 "invalid pid '0'" "$S" -p 0
check "positional pid not a number" 1 "invalid pid '12x'" "$S" get 12x
check "unknown command" 1 "unknown command 'frob'" "$S" frob
check "unknown option" 1 "unrecognized option '--frob'" "$S" get --frob
check "usage errors point to --help" 1 "Try 'smartctl --help'" "$S" get --frob
check "an option of another command" 1 "option --share is not used by 'get'" "$S" get -p 1 --share 5
check "get without a pid" 1 "no pid given" "$S" get
check "set without a pid" 1 "no pid given" "$S" set --priority 1
check "run without a command: exit 125" 125 "no command given" "$S" run --priority 1
check "run: a bad value exits 125" 125 "invalid share 'x'" "$S" run -s x -- true
check "top: unexpected argument" 1 "unexpected argument 'x'" "$S" top x
check "top: interval 0" 1 "invalid interval '0'" "$S" top --interval 0
check "top: cpu not a number" 1 "invalid cpu 'x'" "$S" top --cpu x

# --- top on fixtures ---------------------------------------------------------
if [ $smart = 0 ]; then
	check "top --once: text of the fixture" 0 "" "$S" top --once --file "$F/queues-2cpu.txt"
	if [ "$out" = "$(cat "$F/queues-2cpu.out")" ]; then ok "top --once: identical to queues-2cpu.out"
	else nok "top --once: identical to queues-2cpu.out" "seen: $out"; fi
	"$S" top --json --file "$F/queues-2cpu.txt" >"$tmp/q.json" 2>&1
	if cmp -s "$tmp/q.json" "$F/queues-2cpu.json"; then ok "top --json: identical to queues-2cpu.json"
	else nok "top --json: identical to queues-2cpu.json" "seen: $(cat "$tmp/q.json")"; fi
else
	skip "top --once: identical to queues-2cpu.out" "SMART host: the mode differs"
	skip "top --json: identical to queues-2cpu.json" "SMART host: the mode differs"
	"$S" top --json --file "$F/queues-2cpu.txt" >"$tmp/q.json" 2>&1
fi
check "top --json: valid JSON (json_check)" 0 "" "$J" "$tmp/q.json"
"$J" -f "$tmp/q.json" >"$tmp/q.flat"
if grep -qx '.cpus\[0\].tasks\[0\].pid=301' "$tmp/q.flat" &&
   grep -qx '.cpus\[0\].tasks\[0\].prio=3' "$tmp/q.flat" &&
   grep -qx '.cpus\[0\].tasks\[0\].share=777' "$tmp/q.flat" &&
   grep -qx '.cpus\[0\].tasks\[0\].state="running"' "$tmp/q.flat" &&
   grep -qx '.cpus\[0\].working_schedule\[0\].pid=302' "$tmp/q.flat"; then
	ok "top --json: task 301 prio 3 share 777 running; ws 302"
else
	nok "top --json: task 301 prio 3 share 777 running; ws 302" "$(cat "$tmp/q.flat")"
fi
check "top -j -f odd fixture: valid JSON" 0 "" sh -c "'$S' top -j -f '$F/queues-odd.txt' | '$J'"
check "top -j -f bytes fixture: valid JSON" 0 "" sh -c "'$S' top -j -f '$F/queues-bytes.txt' | '$J'"
check "top --cpu 1 --once: only cpu 1" 0 "cpu 1: curr idle" "$S" top -1 -c 1 -f "$F/queues-2cpu.txt"
case $out in *"cpu 0:"*) nok "top --cpu 1: cpu 0 left out" "$out" ;; *) ok "top --cpu 1: cpu 0 left out" ;; esac
check "top --cpu 2: not in the file" 1 "no cpu 2 in" "$S" top -1 -c 2 -f "$F/queues-2cpu.txt"
check "top: missing file" 1 "cannot open $tmp/nonexistent: No such file or directory" \
	"$S" top --once --file "$tmp/nonexistent"
printf 'version 1\ncpu 0 curr 0 nr_runnable 0\n' >"$tmp/bad"
check "top: malformed file names the line" 1 "line 2: cpu record without 'nr_queued'" \
	"$S" top --once --file "$tmp/bad"
if [ ! -e /sys/kernel/debug/sched/smart/queues ]; then
	check "top: default file missing: hint" 1 "/sys/kernel/debug/sched/smart/queues" "$S" top --once
else
	skip "top: default file missing: hint" "the file exists here"
fi

# --- smartmontools hand-over --------------------------------------------------
printf '#!/bin/sh\necho "FAKE smartmontools: $*"\nexit 4\n' >"$tmp/smartmontools"
chmod +x "$tmp/smartmontools"
SMARTCTL_SMARTMONTOOLS=$tmp/smartmontools check "hand-over: -a /dev/sda runs smartmontools" \
	4 "FAKE smartmontools: -a /dev/sda" "$S" -a /dev/sda
SMARTCTL_SMARTMONTOOLS=$tmp/smartmontools check "hand-over: --all /dev/nvme0 -d nvme" \
	4 "FAKE smartmontools: --all /dev/nvme0 -d nvme" "$S" --all /dev/nvme0 -d nvme
SMARTCTL_SMARTMONTOOLS=$tmp/nonexistent check "hand-over: smartmontools not installed" \
	1 "'/dev/sda' names a device" "$S" -a /dev/sda
SMARTCTL_SMARTMONTOOLS=$tmp/smartmontools check "hand-over: not for 'run -- cat /dev/null'" \
	'!0' "" "$S" run -P 99 -- cat /dev/null
case $out in *FAKE*) nok "hand-over: our commands keep /dev/ arguments" "$out" ;;
*) ok "hand-over: our commands keep /dev/ arguments" ;; esac
SMARTCTL_SMARTMONTOOLS=$tmp/smartmontools check "hand-over: not for 'top -f /dev/null'" \
	1 "no 'version' line" "$S" top -1 -f /dev/null

# --- without SCHED_SMART: clear ENOSYS messages ------------------------------
if [ $smart = 0 ]; then
	check "no SMART: get prints the policy, then fails" 1 \
		"pid $$'s current scheduling policy: SCHED_" "$S" get -p $$
	check "no SMART: get says why" 1 "failed to get pid $$'s SMART attributes: Function not implemented (no SCHED_SMART" \
		"$S" get -p $$
	check "no SMART: set says why" 1 "failed to set pid $$'s priority: Function not implemented" \
		"$S" set -p $$ -P 1
	check "no SMART: run exits 125" 125 "Function not implemented" "$S" run -P 1 -- true
	check "no SMART: tune" 1 "no SCHED_SMART in this kernel" "$S" tune
else
	for t in get set run tune; do skip "no SMART: $t" "this host has SCHED_SMART"; done
fi
check "get: no such pid" 1 "No such process" "$S" get -p 2147483647
check "get -a: no such pid" 1 "failed to list pid 2147483647's threads: No such process" \
	"$S" get -a -p 2147483647

# --- json_check itself -------------------------------------------------------
for bad in '{' '[1,]' '{"a":01}' '{"a" 1}' '"\x"' 'nul' '1 2' '{"a":1,}' '"\ud800"' '[-]' '1.' '' ; do
	if printf '%s' "$bad" | "$J" 2>/dev/null; then nok "json_check rejects '$bad'"
	else ok "json_check rejects '$bad'"; fi
done
if printf '"\001"' | "$J" 2>/dev/null; then nok "json_check rejects a raw control character"
else ok "json_check rejects a raw control character"; fi
if printf '\377' | "$J" 2>/dev/null; then nok "json_check rejects invalid UTF-8"
else ok "json_check rejects invalid UTF-8"; fi
for good in '{}' '[]' '0' '-1.5e+3' '"\u00e9\ud83c\udfb5"' '{"a":[true,false,null],"b":{"c":"d"}}' ' [ 1 , 2 ] '; do
	if printf '%s' "$good" | "$J"; then ok "json_check accepts '$good'"
	else nok "json_check accepts '$good'"; fi
done
flat=$(printf '{"a":[1,{"b":"x y"}],"c":null}' | "$J" -f | tr '\n' ' ')
if [ "$flat" = '.a[0]=1 .a[1].b="x y" .c=null ' ]; then ok "json_check -f flattens"
else nok "json_check -f flattens" "seen: $flat"; fi

echo "1..$n"
[ $failed = 0 ]
