#!/bin/sh
# Runs inside the guest (busybox sh, cwd /host): the overhead measurements
# of the evaluation suite (paper §6.3), one JSON record per file
# (bench/SCHEMA.md):
#
#   sh bench/guest/overheads.sh MODE OUTDIR
#
#   ctxsw      pipe ping-pong, SMART / EEVDF / FIFO    raw/ctxsw-<label>.json
#   pick       sched_yield() among N runnable tasks,   raw/pick-<label>-n<N>.json
#              N = 1, 10, 100, 1000, SMART / EEVDF;
#              and M = 1, 8, 32 of 100 SMART tasks     raw/pick-SMART-n100-c<M>.json
#              with a time constraint
#   syscall    smart_* calls, sched_get/setattr        raw/syscall-SMART-<call>.json
#   wakeup     wakelat with 2 hogs, SMART/EEVDF/FIFO   raw/wakeup-<label>.json
#   hackbench  Debian's hackbench -p (pipes; sockets raw/hackbench-<label>.json
#              in throughput.sh), SMART (smartctl run) / EEVDF
#
# MODE: smoke (< 20 s of guest time, for `make test`), quick (about a
# minute), full (a few minutes). The labels are interleaved (ABBA order)
# so that drift affects them alike. Programs come from /opt/smart/bin;
# hackbench from PATH. A program's stderr goes to the console.
# Exit status: 0 when every measurement produced its records; 1 otherwise,
# after a line naming each one that failed.
set -u
usage="usage: overheads.sh smoke|quick|full OUTDIR"
mode=${1:?$usage}
out=${2:?$usage}
bin=/opt/smart/bin
export PATH=$bin:$PATH

# ctxsw round trips, pick seconds per point, pick sizes, syscall calls,
# wake-up samples (1 ms period), hackbench groups and loops
case $mode in
smoke) trips=3000 pick=0.2 sizes="1 10 100 1000" cons="8" calls=3000 wake=300 hbg=1 hbl=20 ;;
quick) trips=30000 pick=1 sizes="1 10 100 1000" cons="1 8 32" calls=30000 wake=3000 hbg=4 hbl=200 ;;
full) trips=200000 pick=5 sizes="1 10 100 1000" cons="1 8 32" calls=300000 wake=20000 hbg=4 hbl=1000 ;;
*) echo "overheads.sh: unknown mode '$mode' (smoke, quick, full)" >&2; exit 2 ;;
esac
cons_n=100	# runnable tasks of the constrained pick points

mkdir -p "$out/raw" || exit 1
failed=""
t_start=$(cut -d' ' -f1 /proc/uptime)

elapsed() { awk -v a="$1" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f", b - a }'; }

fail() { # NAME WHY
	echo "# overheads: $1 FAILED: $2"
	failed="$failed $1"
}

# A line is a record if it is one JSON object of schema 1.
is_record() {
	case $1 in '{"schema":1,'*'}') return 0 ;; esac
	return 1
}

# one NAME PROGRAM ARGS...: a program that prints one record -> raw/NAME.json
one() {
	name=$1; shift
	f=$out/raw/$name.json
	rm -f "$f"
	t0=$(cut -d' ' -f1 /proc/uptime)
	"$@" >"$f.tmp"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$name" "$* exited with status $rc"
	elif [ "$(wc -l <"$f.tmp")" -ne 1 ] || ! is_record "$(cat "$f.tmp")"; then
		fail "$name" "$* printed no record (or more than one)"
	else
		mv "$f.tmp" "$f"
		echo "# overheads: $name ok ($(elapsed "$t0") s)"
		return 0
	fi
	rm -f "$f.tmp"
	return 1
}

echo "# overheads: mode $mode, kernel $(uname -r), $(nproc) CPU(s)"
# A guest boots with low-resolution timers (tsc-early) and switches once
# its TSC is verified, a second or so later: wait for it (at most 10 s).
if [ -r /proc/timer_list ]; then
	i=0
	while ! grep -q 'hres_active *: *1' /proc/timer_list && [ $i -lt 100 ]; do
		sleep 0.1; i=$((i + 1))
	done
	grep -q 'hres_active *: *1' /proc/timer_list ||
		echo "# overheads: warning: high resolution timers still not active"
fi
echo "# overheads: clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"

# 1. context switch: pipe ping-pong
for l in SMART EEVDF FIFO; do
	one "ctxsw-$l" ctxsw --label $l --round-trips $trips
done

# 2. pick cost vs runnable tasks, label order alternating per size
order="SMART EEVDF"
for n in $sizes; do
	for l in $order; do
		one "pick-$l-n$n" pickcost --label $l --tasks $n --duration $pick
	done
	[ "$order" = "SMART EEVDF" ] && order="EEVDF SMART" || order="SMART EEVDF"
done
# ... and vs constrained tasks (SMART only)
for m in $cons; do
	one "pick-SMART-n$cons_n-c$m" pickcost --label SMART --tasks $cons_n --constrained $m \
		--duration $pick
done

# 3. system call cost: five records from one run, split by "call"
t0=$(cut -d' ' -f1 /proc/uptime)
tmp=$out/raw/syscall.tmp
syscost --label SMART --calls $calls >"$tmp"
rc=$?
if [ $rc -ne 0 ]; then
	fail syscall "syscost --label SMART --calls $calls exited with status $rc"
else
	n=0
	while IFS= read -r line; do
		call=$(echo "$line" | sed -n 's/.*"call":"\([a-z_+]*\)".*/\1/p')
		if ! is_record "$line" || [ -z "$call" ]; then
			fail syscall "syscost printed a line that is not a syscall record"
			continue
		fi
		# constraint_begin+end -> constraint_begin-end in the file name
		echo "$line" >"$out/raw/syscall-SMART-$(echo "$call" | tr + -).json"
		n=$((n + 1))
	done <"$tmp"
	if [ $n -ne 5 ]; then
		fail syscall "syscost printed $n records, expected 5"
	else
		echo "# overheads: syscall ok ($(elapsed "$t0") s)"
	fi
fi
rm -f "$tmp"

# 4. wake-up latency under 2 CPU hogs, reverse order
for l in FIFO EEVDF SMART; do
	one "wakeup-$l" wakelat --label $l --samples $wake --hogs 2
done

# 5. hackbench: Debian's, under SMART (smartctl run) and EEVDF
hackbench_rec() { # LABEL CMD...
	l=$1; shift
	name=hackbench-$l
	f=$out/raw/$name.json
	rm -f "$f"
	c0=$(awk '$1 == "ctxt" { print $2 }' /proc/stat)
	"$@" hackbench -p -g $hbg -l $hbl >"$f.out" 2>&1
	rc=$?
	c1=$(awk '$1 == "ctxt" { print $2 }' /proc/stat)
	if [ $rc -ne 0 ]; then
		fail "$name" "$* hackbench -p -g $hbg -l $hbl exited with status $rc: $(tail -1 "$f.out")"
	else
		s=$(sed -n 's/^Time: *\([0-9.]*\).*/\1/p' "$f.out")
		if [ -z "$s" ]; then
			fail "$name" "no 'Time:' line in hackbench's output"
		else
			printf '{"schema":1,"experiment":"hackbench","label":"%s","duration_s":%s,"groups":%s,"loops":%s,"seconds":%s,"ipc":"pipe","mode":"process","context_switches":%s}\n' \
				"$l" "$s" $hbg $hbl "$s" $((c1 - c0)) >"$f"
			echo "# overheads: $name ok ($s s, $((c1 - c0)) context switches)"
		fi
	fi
	rm -f "$f.out"
}
if ! command -v hackbench >/dev/null; then
	fail hackbench "hackbench is not in PATH"
else
	hackbench_rec SMART smartctl run --
	hackbench_rec EEVDF env
fi

sync
echo "# overheads: mode $mode done in $(elapsed "$t_start") s of guest time"
if [ -n "$failed" ]; then
	echo "# overheads: FAILED:$failed"
	exit 1
fi
exit 0
