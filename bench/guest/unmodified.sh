#!/bin/sh
# Runs inside a guest booted with sched_smart=all (cwd /host): the programs
# of the EEVDF label, unchanged (no SMART call), under SMART with its
# inferred constraints (SMART-unmodified) and without them
# (SMART-unmodified-noinfer, kernel.smart.infer = 0): the Figure 3 mix and
# BeRate's srtsim, never dropping a job and dropping on its own estimate.
# One JSON record per run into OUTDIR/raw/ (bench/SCHEMA.md).
#
#   sh bench/guest/unmodified.sh MODE OUTDIR
#
# MODE and OUTDIR as for bench/guest/run.sh.
# Exit status: 0 when every run produced its record, 1 otherwise.
set -u
mode=${1:?usage: unmodified.sh smoke|quick|full OUTDIR}
out=${2:?usage: unmodified.sh smoke|quick|full OUTDIR}
bin=/opt/smart/bin
export PATH=$bin:$PATH
case $mode in
smoke) mix=3 berate=2 cases="3" real=3 ;;
quick) mix=20 berate=6 cases="1 2 3 4 5 6" real=19 ;;
full) mix=300 berate=60 cases="1 2 3 4 5 6" real=19 ;;
*) echo "unmodified.sh: unknown mode '$mode' (smoke, quick, full)" >&2; exit 2 ;;
esac
mkdir -p "$out/raw" "$out/logs"
infer=/proc/sys/kernel/smart/infer
fails=0

if [ "$(cat /proc/sys/kernel/sched_smart_all 2>/dev/null)" != 1 ] || [ ! -w $infer ]; then
	echo "# bench: unmodified: needs a sched_smart=all kernel with $infer" >&2
	exit 1
fi

# one NAME SMARTBENCH-ARGUMENTS...
. bench/guest/record.sh

echo "# bench: unmodified programs, mode $mode, kernel $(uname -r), $(nproc) CPU(s), sched_smart=all"
for l in SMART-unmodified SMART-unmodified-noinfer; do
	if [ $l = SMART-unmodified ]; then echo 1 >$infer; else echo 0 >$infer; fi
	one "fig3-$l" fig3 --label $l --duration $mix
	for c in $cases; do
		for v in unmodified unmodified-dropping; do
			one "berate-$c-$l-$v" berate --case "$c" --label $l --variant $v --duration $berate
		done
	done
done
echo 1 >$infer
# the real-decode mix, the players unchanged (smart-play --no-smart)
. bench/guest/realmix.sh
realmix $real SMART-unmodified
sync
echo "# bench: unmodified done, $fails failed"
[ $fails = 0 ]
