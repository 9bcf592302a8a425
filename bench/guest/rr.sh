#!/bin/sh
# Runs inside the guest (busybox sh, cwd /host): request/response wake-up
# latency and throughput (bench/src/rrlat.c, schbench-like: 2 message
# threads wake 4 workers each, which compute 200 us and sleep 2 ms), one
# JSON record per label (bench/SCHEMA.md, experiment "rrlat"):
#
#   sh bench/guest/rr.sh MODE OUTDIR [LABELS [CLOCK]]
#
# LABELS and CLOCK as throughput.sh.  In an opt-in boot SMART runs every
# thread as SCHED_SMART (priority 0, share 1024) and EEVDF as SCHED_OTHER;
# in a sched_smart=all boot SMART runs the program unmodified
# (SCHED_OTHER, which is SMART there), labelled SMART-all, and EEVDF is
# not run.  The record has each measured window and the medians.
# MODE: smoke (one 1 s window), quick (5 windows of 4 s), full (5 of 10 s).
# Exit status: 0 when every label produced its record; 1 otherwise.
set -u
usage="usage: rr.sh smoke|quick|full OUTDIR [LABELS [CLOCK]]"
mode=${1:?$usage}
out=${2:?$usage}
labels=${3:-SMART EEVDF}
clock=${4:-unknown}
export PATH=/opt/smart/bin:$PATH
case $mode in
smoke) runs=1 secs=1 ;;
quick) runs=5 secs=4 ;;
full) runs=5 secs=10 ;;
*) echo "rr.sh: unknown mode '$mode'" >&2; exit 2 ;;
esac
mkdir -p "$out/raw" || exit 1
ncpu=$(nproc)
boot=optin
grep -q 'sched_smart=all' /proc/cmdline && boot=all
failed=""

for label in $labels; do
	rl=$label
	as=$label
	if [ $boot = all ]; then
		[ "$label" = SMART ] || continue
		rl=SMART-all
		as=EEVDF
	fi
	f="$out/raw/rrlat-$rl-c$ncpu-$clock.json"
	if ! rrlat --label "$as" --runs $runs --seconds $secs >/tmp/rr.json; then
		echo "# rr: $rl: rrlat failed"
		failed="$failed $rl"
		continue
	fi
	sed -e "s/\"label\":\"$as\"/\"label\":\"$rl\"/" \
		-e "s/}\$/,\"boot\":\"$boot\",\"clock\":\"$clock\"}/" /tmp/rr.json >"$f"
	awk -v l="$rl" -v c="$ncpu" '{
		match($0, /"rps":[0-9.]+,"p50_us":[0-9.]+,"p99_us":[0-9.]+,"boot"/)
		s = substr($0, RSTART, RLENGTH); gsub(/"|,"boot"/, "", s)
		printf "# rr: %s, %d CPUs (medians): %s\n", l, c, s
	}' "$f"
done
if [ -n "$failed" ]; then
	echo "# rr: FAILED:$failed"
	exit 1
fi
exit 0
