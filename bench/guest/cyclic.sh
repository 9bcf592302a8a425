#!/bin/sh
# Runs inside the guest (busybox sh, cwd /host): wake-up latency of a
# conventional task beside CPU hogs, measured by rt-tests' own cyclictest.
# Two busy loops per CPU and `cyclictest --policy=other` with one thread
# per CPU (not pinned) waking every 1 ms; one JSON record per label
# (bench/SCHEMA.md, experiment "cyclictest"):
#
#   sh bench/guest/cyclic.sh MODE OUTDIR [LABELS [CLOCK]]
#
# LABELS and CLOCK as throughput.sh: EEVDF runs in an opt-in boot; SMART
# only in a sched_smart=all boot (label SMART-all), where SCHED_OTHER is
# SMART: cyclictest sets its threads' policy itself, so under `smartctl run`
# in an opt-in boot they would be EEVDF's (bench/src/wakelat.c measures
# that boot's SMART label on 1 vCPU).
# MODE: smoke (0.5 s), quick (10 s), full (60 s) of wake-ups.
# Exit status: 0 when every label produced its record; 1 otherwise.
set -u
usage="usage: cyclic.sh smoke|quick|full OUTDIR [LABELS [CLOCK]]"
mode=${1:?$usage}
out=${2:?$usage}
labels=${3:-SMART EEVDF}
clock=${4:-unknown}
export PATH=/opt/smart/bin:$PATH
case $mode in
smoke) loops=500 ;;
quick) loops=10000 ;;
full) loops=60000 ;;
*) echo "cyclic.sh: unknown mode '$mode'" >&2; exit 2 ;;
esac
mkdir -p "$out/raw" || exit 1
ncpu=$(nproc)
nhogs=$((2 * ncpu))
histmax=100000 # us; later wake-ups count as overflows
boot=optin
grep -q 'sched_smart=all' /proc/cmdline && boot=all
failed=""
if ! command -v cyclictest >/dev/null; then
	echo "# cyclic: FAILED: cyclictest is not in PATH"
	exit 1
fi

for label in $labels; do
	rl=$label
	if [ "$label" = SMART ]; then
		[ $boot = all ] || continue
		rl=SMART-all
	fi
	pids=""
	i=0
	while [ $i -lt $nhogs ]; do
		sh -c 'while :; do :; done' &
		pids="$pids $!"
		i=$((i + 1))
	done
	sleep 1
	h=/tmp/cyclic.hist
	rm -f $h
	cyclictest -q -m --policy=other -t "$ncpu" -i 1000 -l $loops \
		-h $histmax --histfile=$h >/tmp/cyclic.out 2>&1
	rc=$?
	# shellcheck disable=SC2086
	kill $pids
	wait 2>/dev/null
	if [ $rc -ne 0 ] || [ ! -s $h ]; then
		echo "# cyclic: $rl: cyclictest exited with status $rc: $(tail -1 /tmp/cyclic.out)"
		failed="$failed $rl"
		continue
	fi
	# histogram lines: "US COUNT-THREAD0 COUNT-THREAD1 ...", zero-padded
	# decimal (busybox awk would take 000010 for octal: dec() strips them);
	# the record goes to its file, a summary to the console
	awk -v l="$rl" -v c="$ncpu" -v n="$nhogs" -v b="$boot" -v k="$clock" \
		-v hm=$histmax -v f="$out/raw/cyclictest-$rl-c$ncpu-$clock.json" '
	function dec(x) { sub(/^0+/, "", x); return x + 0 }
	function pct(p,    want, acc, us) {
		want = p * (tot + over); acc = 0
		for (us = 0; us < hm + 0; us++) { acc += cnt[us]; if (acc >= want) return us }
		return hm
	}
	/^# Histogram Overflows:/ { for (i = 4; i <= NF; i++) over += dec($i); next }
	/^# Max Latencies:/ { for (i = 4; i <= NF; i++) if (dec($i) > max) max = dec($i); next }
	/^#/ { next }
	NF >= 2 { s = 0; for (i = 2; i <= NF; i++) s += dec($i); cnt[dec($1)] = s; tot += s }
	END {
		if (tot + over == 0) exit 1
		p50 = pct(0.5); p99 = pct(0.99)
		printf "{\"schema\":1,\"experiment\":\"cyclictest\",\"label\":\"%s\",\"cpus\":%d,\"hogs\":%d,\"boot\":\"%s\",\"clock\":\"%s\",\"interval_us\":1000,\"samples\":%d,\"overflows\":%d,\"hist_max_us\":%d,\"p50_us\":%d,\"p99_us\":%d,\"max_us\":%d}\n", l, c, n, b, k, tot + over, over, hm, p50, p99, max > f
		printf "# cyclic: %s, %d hogs on %d CPUs: %d wake-ups, p50 %d us, p99 %d us, max %d us\n", l, n, c, tot + over, p50, p99, max
	}' $h || failed="$failed $rl"
done
if [ -n "$failed" ]; then
	echo "# cyclic: FAILED:$failed"
	exit 1
fi
exit 0
