#!/bin/sh
# Runs inside the guest (busybox sh): how N equal CPU hogs share the CPUs
# when N is not a multiple of their number, SMART (smartctl run) and
# EEVDF in the same boot.  Prints each hog's share of one CPU.
#
#   sh bench/guest/spread.sh [HOGS [SECONDS]]
set -u
n=${1:-3}
secs=${2:-10}
export PATH=/opt/smart/bin:$PATH
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)

ticks() { # PID -> utime + stime in clock ticks
	awk '{ print $14 + $15 }' "/proc/$1/stat"
}

for label in SMART EEVDF; do
	pids=""
	i=0
	while [ $i -lt "$n" ]; do
		if [ $label = SMART ]; then
			smartctl run -- sh -c 'while :; do :; done' &
		else
			sh -c 'while :; do :; done' &
		fi
		pids="$pids $!"
		i=$((i + 1))
	done
	sleep 1
	set -- $pids
	for p in "$@"; do eval "t0_$p=$(ticks "$p")"; done
	sleep "$secs"
	line=""
	for p in "$@"; do
		eval "t0=\$t0_$p"
		line="$line $(awk -v a="$t0" -v b="$(ticks "$p")" -v hz="$hz" -v s="$secs" \
			'BEGIN { printf "%.1f%%", 100 * (b - a) / hz / s }')"
	done
	kill $pids
	wait 2>/dev/null
	echo "# spread: $label, $n hogs on $(nproc) CPUs, ${secs} s, % of a CPU each:$line"
done
