#!/bin/sh
# Runs inside the guest (busybox sh, cwd /host): throughput of
# communication-heavy batch work, SMART against EEVDF in the same boot
# (issue 11), one JSON record per workload and label (bench/SCHEMA.md):
#
#   sh bench/guest/throughput.sh MODE OUTDIR [LABELS [CLOCK]]
#
#   hackbench   Debian's hackbench, -g 4: pipe and socket, processes and
#               threads
#   messaging   perf bench sched messaging (sockets, processes)
#   pipe        perf bench sched pipe (two tasks ping-pong)
#
# then bench/guest/spread.sh (fairness across CPUs), bench/guest/cyclic.sh
# (cyclictest's wake-up latency beside hogs) and bench/guest/rr.sh
# (request/response wake-ups and throughput) under the same labels.
#
# LABELS (default "SMART EEVDF"): SMART runs the workload under
# `smartctl run` (opt-in boot) or as it is (sched_smart=all boot: every
# task is SMART; label it SMART-all); EEVDF runs it as it is in an opt-in
# boot.  Each workload runs REPS times per label in ABBA order; the record
# has every run's time and the median, and the context switches and
# migrations of the whole machine during the runs (perf stat -a).
# CLOCK (default "unknown") names QEMU's clock in the record and the file
# name (scripts/bench passes icount1 or noicount).
#
# MODE: smoke (seconds), quick (about 5 minutes at 2 vCPUs), full.
# TP_WORKLOADS and TP_REPS (environment) run a subset, or more or fewer
# repetitions.
# Exit status: 0 when every run produced its record; 1 otherwise.
set -u
usage="usage: throughput.sh smoke|quick|full OUTDIR [LABELS]"
mode=${1:?$usage}
out=${2:?$usage}
labels=${3:-SMART EEVDF}
clock=${4:-unknown}
export PATH=/opt/smart/bin:$PATH

case $mode in
smoke) reps=1 loops=20 mloops=5 ploops=2000 ;;
quick) reps=1 loops=1000 mloops=100 ploops=50000 ;;
full) reps=3 loops=1000 mloops=200 ploops=200000 ;;
*) echo "throughput.sh: unknown mode '$mode'" >&2; exit 2 ;;
esac
mkdir -p "$out/raw" || exit 1
failed=""
ncpu=$(nproc)
boot=optin
grep -q 'sched_smart=all' /proc/cmdline && boot=all

# workload name -> command (after the label's prefix)
wl_cmd() {
	case $1 in
	hackbench-pipe-process) echo "hackbench -p -g 4 -l $loops" ;;
	hackbench-pipe-thread) echo "hackbench -p -T -g 4 -l $loops" ;;
	hackbench-socket-process) echo "hackbench -g 4 -l $loops" ;;
	hackbench-socket-thread) echo "hackbench -T -g 4 -l $loops" ;;
	perf-messaging) echo "perf bench -f simple sched messaging -g 4 -l $mloops" ;;
	perf-pipe) echo "perf bench -f simple sched pipe -l $ploops" ;;
	esac
}
workloads=${TP_WORKLOADS:-"hackbench-pipe-process hackbench-pipe-thread hackbench-socket-process
hackbench-socket-thread perf-messaging perf-pipe"}
reps=${TP_REPS:-$reps}

prefix() { # LABEL -> command prefix
	case $1 in
	SMART) [ $boot = all ] && echo env || echo "smartctl run --" ;;
	*) echo env ;;
	esac
}
# the label as recorded: SMART in an all-mode boot is SMART-all
recl() { [ "$1" = SMART ] && [ $boot = all ] && echo SMART-all || echo "$1"; }

# one run: prints "seconds ctxsw migrations" or nothing
run1() { # LABEL WORKLOAD
	o=/tmp/tp.out
	# shellcheck disable=SC2046
	perf stat -a -x, -e context-switches,cpu-migrations -o /tmp/tp.stat -- \
		$(prefix "$1") $(wl_cmd "$2") >$o 2>&1 || { tail -3 $o >&2; return 1; }
	case $2 in
	hackbench-*) s=$(sed -n 's/^Time: *\([0-9.]*\).*/\1/p' $o) ;;
	perf-*) s=$(grep -E '^ *[0-9.]+ *$' $o | head -1 | tr -d ' ') ;; # -f simple: seconds
	esac
	cs=$(awk -F, '$3 == "context-switches" { print $1 }' /tmp/tp.stat)
	mg=$(awk -F, '$3 == "cpu-migrations" { print $1 }' /tmp/tp.stat)
	[ -n "$s" ] && [ -n "$cs" ] && [ -n "$mg" ] || { cat $o /tmp/tp.stat >&2; return 1; }
	echo "$s $cs $mg"
}

echo "# throughput: mode $mode, $ncpu CPU(s), boot $boot, kernel $(uname -r)"
for w in $workloads; do
	order=$labels
	for l in $labels; do eval "res_$l=''"; done
	i=0
	while [ $i -lt $reps ]; do
		for l in $order; do
			r=$(run1 "$l" "$w") || break
			eval "res_$l=\"\$res_$l $r\""
			echo "# throughput: $w $(recl "$l") run $i: $r"
		done
		order=$(echo "$order" | awk '{ for (i = NF; i > 0; i--) printf "%s%s", $i, (i > 1 ? " " : "") }')
		i=$((i + 1))
	done
	for l in $labels; do
		eval "r=\$res_$l"
		n=$(echo $r | wc -w)
		if [ "$n" -ne $((reps * 3)) ]; then
			failed="$failed $w-$l"
			continue
		fi
		rl=$(recl "$l")
		echo $r | awk -v w="$w" -v l="$rl" -v c="$ncpu" -v b="$boot" -v k="$clock" '{
			n = NF / 3
			for (i = 0; i < n; i++) { t[i] = $(3 * i + 1); cs += $(3 * i + 2); mg += $(3 * i + 3) }
			for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (t[j] < t[i]) { x = t[i]; t[i] = t[j]; t[j] = x }
			med = (n % 2) ? t[int(n / 2)] : (t[n / 2 - 1] + t[n / 2]) / 2
			runs = ""
			for (i = 0; i < n; i++) { runs = runs (i ? "," : "") $(3 * i + 1); tot += $(3 * i + 1) }
			printf "{\"schema\":1,\"experiment\":\"throughput\",\"label\":\"%s\",\"workload\":\"%s\",\"duration_s\":%.3f,\"cpus\":%d,\"boot\":\"%s\",\"clock\":\"%s\",\"seconds\":%s,\"runs\":[%s],\"context_switches\":%d,\"migrations\":%d}\n", l, w, tot, c, b, k, med, runs, cs / n, mg / n
		}' >"$out/raw/throughput-$w-$rl-c$ncpu-$clock.json"
	done
done
# fairness across CPUs, in the same boot and under the same labels
sh bench/guest/spread.sh "$mode" "$out" "$labels" "$clock" || failed="$failed spread"
# wake-up latency beside hogs, the same way
sh bench/guest/cyclic.sh "$mode" "$out" "$labels" "$clock" || failed="$failed cyclictest"
# request/response wake-ups and throughput
sh bench/guest/rr.sh "$mode" "$out" "$labels" "$clock" || failed="$failed rrlat"
if [ -n "$failed" ]; then
	echo "# throughput: FAILED:$failed"
	exit 1
fi
echo "# throughput: done"
exit 0
