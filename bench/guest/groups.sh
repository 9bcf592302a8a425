#!/bin/sh
# Runs inside the guest (busybox sh, cwd /host): the hierarchical
# scheduling experiments of SFQ-H §5 on cgroup v2 (grpbench), SMART and
# EEVDF's task groups in the same boot, one JSON record per run
# (bench/SCHEMA.md, experiment "groups"):
#
#   sh bench/guest/groups.sh MODE OUTDIR
#
#   scale     Fig. 7: 1..20 spinning processes in a leaf group against
#             none, and 5 in a leaf 0..30 groups deep
#   fluct     Fig. 8: groups of weight 100:300 while a third group's load
#             changes every second; isolation of 1 task from 8
#   periodic  Fig. 9 in spirit: a periodic task in a group beside two
#             saturated groups
#
# MODE: smoke (seconds), quick, full.
# Exit status: 0 when every run produced its record; 1 otherwise.
set -u
mode=${1:?usage: groups.sh smoke|quick|full OUTDIR}
out=${2:?usage: groups.sh smoke|quick|full OUTDIR}
export PATH=/opt/smart/bin:$PATH
case $mode in
smoke) t=1 tf=4 tp=2 threads="1 5" depths="0 1 5" ;;
quick) t=2 tf=8 tp=6 threads="1 2 5 10 20" depths="0 1 2 5 10 20 30" ;;
full) t=10 tf=40 tp=30 threads="1 2 5 10 20" depths="0 1 2 5 10 20 30" ;;
*) echo "groups.sh: unknown mode '$mode'" >&2; exit 2 ;;
esac
mkdir -p "$out/raw" "$out/logs" || exit 1
fails=0

one() { # NAME grpbench-args...
	name=$1; shift
	if grpbench "$@" >"$out/raw/$name.json.tmp" 2>"$out/logs/$name.err" &&
	   [ -s "$out/raw/$name.json.tmp" ]; then
		mv "$out/raw/$name.json.tmp" "$out/raw/$name.json"
		echo "# groups: $name ok"
	else
		rm -f "$out/raw/$name.json.tmp"
		echo "# groups: $name FAILED: $(tail -1 "$out/logs/$name.err")"
		fails=$((fails + 1))
	fi
}

for l in SMART EEVDF; do
	for n in $threads; do
		for d in 0 1; do
			one "groups-scale-$l-t$n-d$d" scale --label $l --threads $n --depth $d --duration $t
		done
	done
	for d in $depths; do
		[ "$d" -le 1 ] && continue # run above
		one "groups-scale-$l-t5-d$d" scale --label $l --threads 5 --depth $d --duration $t
	done
	one "groups-fluct-$l" fluct --label $l --duration $tf
	one "groups-periodic-$l" periodic --label $l --duration $tp
done
echo "# groups: done, $fails failed"
[ $fails = 0 ]
