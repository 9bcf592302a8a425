#!/bin/sh
# Runs inside the guest (busybox sh, cwd /host): fairness across CPUs.
# nCPU + 1 equal CPU hogs, so that the CPUs cannot hold the same number:
# each should get nCPU / (nCPU + 1) of a CPU over the window (67% with 2
# CPUs).  One JSON record per label (bench/SCHEMA.md, experiment "spread"):
#
#   sh bench/guest/spread.sh MODE OUTDIR [LABELS [CLOCK]]
#
# LABELS and CLOCK as throughput.sh: SMART runs the hogs under `smartctl
# run` in an opt-in boot and as they are in a sched_smart=all boot (label
# SMART-all); EEVDF as they are in an opt-in boot.
# MODE: smoke (a 2 s window), quick and full (10 s).
# Exit status: 0 when every label produced its record; 1 otherwise.
set -u
usage="usage: spread.sh smoke|quick|full OUTDIR [LABELS [CLOCK]]"
mode=${1:?$usage}
out=${2:?$usage}
labels=${3:-SMART EEVDF}
clock=${4:-unknown}
export PATH=/opt/smart/bin:$PATH
case $mode in
smoke) secs=2 ;;
quick | full) secs=10 ;;
*) echo "spread.sh: unknown mode '$mode'" >&2; exit 2 ;;
esac
mkdir -p "$out/raw" || exit 1
ncpu=$(nproc)
n=$((ncpu + 1))
boot=optin
grep -q 'sched_smart=all' /proc/cmdline && boot=all
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
failed=""

# PIDS... -> "uptime ticks..." (ticks: utime + stime), read by one process
# at once, at a SMART priority above the hogs': in an opt-in boot this
# shell waits behind the SMART hogs (for the fair server), so its sleep
# ends late and a reader that waits between its reads miscounts.
snap() {
	# shellcheck disable=SC2046
	smartctl run -P 1 -- awk 'FILENAME == "/proc/uptime" { printf "%s", $1; next }
	     { printf " %d", $14 + $15 } END { print "" }' \
		/proc/uptime $(for p in "$@"; do echo "/proc/$p/stat"; done) 2>/dev/null
}

for label in $labels; do
	rl=$label
	[ "$label" = SMART ] && [ $boot = all ] && rl=SMART-all
	pids=""
	i=0
	while [ $i -lt $n ]; do
		if [ "$label" = SMART ] && [ $boot = optin ]; then
			smartctl run -- sh -c 'while :; do :; done' &
		else
			sh -c 'while :; do :; done' &
		fi
		pids="$pids $!"
		i=$((i + 1))
	done
	sleep 1
	# shellcheck disable=SC2086
	s0=$(snap $pids)
	sleep "$secs"
	# shellcheck disable=SC2086
	s1=$(snap $pids)
	# shellcheck disable=SC2086
	kill $pids
	wait 2>/dev/null
	if [ "$(echo "$s0 $s1" | wc -w)" -ne $((2 * n + 2)) ]; then
		failed="$failed $rl"
		continue
	fi
	echo "$s0 $s1" | awk -v n=$n -v hz="$hz" -v l="$rl" -v c="$ncpu" -v b="$boot" \
		-v k="$clock" '{
		s = $(n + 2) - $1
		sh = ""
		for (i = 1; i <= n; i++)
			sh = sh (i > 1 ? "," : "") sprintf("%.1f", 100 * ($(n + 2 + i) - $(i + 1)) / hz / s)
		printf "{\"schema\":1,\"experiment\":\"spread\",\"label\":\"%s\",\"cpus\":%d,\"hogs\":%d,\"boot\":\"%s\",\"clock\":\"%s\",\"duration_s\":%.2f,\"cpu_pct\":[%s]}\n", l, c, n, b, k, s, sh
	}' >"$out/raw/spread-$rl-c$ncpu-$clock.json"
	echo "# spread: $rl, $n hogs on $ncpu CPUs, $secs s asked, % of a CPU each: $(sed 's/.*\[\(.*\)\].*/\1/' "$out/raw/spread-$rl-c$ncpu-$clock.json")"
done
if [ -n "$failed" ]; then
	echo "# spread: FAILED:$failed"
	exit 1
fi
exit 0
