#!/bin/sh
# Runs inside the guest (cwd /host): every workload of the evaluation suite
# under every scheduler label, one JSON record per run (bench/SCHEMA.md).
#
#   sh bench/guest/run.sh MODE OUTDIR
#
# MODE: smoke (seconds per workload, for `make test`), quick (about five
# minutes of guest time), full (the paper's 300 s runs). OUTDIR is relative
# to /host. Records go to OUTDIR/raw/, each run's stderr to OUTDIR/logs/,
# the guest's description to OUTDIR/guest.json. Then bench/guest/overheads.sh.
# Exit status: 0 when every run produced its record, 1 otherwise.
set -u
mode=${1:?usage: run.sh smoke|quick|full OUTDIR}
out=${2:?usage: run.sh smoke|quick|full OUTDIR}
bin=/opt/smart/bin
export PATH=$bin:$PATH
case $mode in
smoke) mix=3 fig5=3 berate=2 cases="3" real=3 ;;
quick) mix=20 fig5=20 berate=6 cases="1 2 3 4 5 6" real=19 ;;
full) mix=300 fig5=300 berate=60 cases="1 2 3 4 5 6" real=19 ;;
*) echo "run.sh: unknown mode '$mode' (smoke, quick, full)" >&2; exit 2 ;;
esac
mkdir -p "$out/raw" "$out/logs"
bias=/proc/sys/kernel/smart/bias_max_ns
fails=0


# one NAME SMARTBENCH-ARGUMENTS...
. bench/guest/record.sh

echo "# bench: mode $mode, kernel $(uname -r), $(nproc) CPU(s)"
# Figure 3 with real decoders (smart-play; the clips last 20 s), first:
# realmix.sh lowers the fair server's bandwidth, which fails with EBUSY
# once anything has read or written /proc/sys/kernel/sched_rt_*_us
. bench/guest/realmix.sh
realmix $real SMART EEVDF FIFO

# after realmix: reading sched_rt_runtime_us rebuilds the sched domains in
# 6.12, after which the fair server cannot be lowered (realmix.sh)
tunable() { cat "/proc/sys/kernel/smart/$1" 2>/dev/null || echo null; }
cat >"$out/guest.json" <<JSON
{"kernel":"$(uname -r)","cpus":$(nproc),"sched_smart_all":$(cat /proc/sys/kernel/sched_smart_all 2>/dev/null || echo null),
 "smart":{"quantum_ns":$(tunable quantum_ns),"bias_step_ns":$(tunable bias_step_ns),"bias_max_ns":$(tunable bias_max_ns),
 "sleep_credit_ns":$(tunable sleep_credit_ns),"resolution_ns":$(tunable resolution_ns),
 "handoff_ns":$(tunable handoff_ns),"long_sleep_ns":$(tunable long_sleep_ns)},
 "sched_rt_runtime_us":$(cat /proc/sys/kernel/sched_rt_runtime_us),"sched_rt_period_us":$(cat /proc/sys/kernel/sched_rt_period_us)}
JSON
# Figure 3: the default mix under every label
old_bias=$(cat $bias)
for l in SMART SMART-nobias EEVDF FIFO DEADLINE; do
	[ $l = SMART-nobias ] && echo 0 >$bias
	one "fig3-$l" fig3 --label $l --duration $mix
	[ $l = SMART-nobias ] && echo "$old_bias" >$bias
done
# Figure 5: priorities and shares, News leaves at 40%
for l in SMART EEVDF; do
	one "fig5-$l" fig5 --label $l --duration $fig5
done
# BeRate Table 1: srtsim without SMART calls, then with time constraints
for c in $cases; do
	one "berate-$c-EEVDF-unmodified" berate --case "$c" --label EEVDF --variant unmodified --duration $berate
	one "berate-$c-EEVDF-unmodified-dropping" berate --case "$c" --label EEVDF --variant unmodified-dropping --duration $berate
	one "berate-$c-SMART-unmodified" berate --case "$c" --label SMART --variant unmodified --duration $berate
	one "berate-$c-SMART-constraints" berate --case "$c" --label SMART --variant constraints --duration $berate
	one "berate-$c-SMART-dropping" berate --case "$c" --label SMART --variant dropping --duration $berate
done
# SFQ-H §5: task groups (cgroup v2 cpu.weight), SMART and EEVDF
sh bench/guest/groups.sh "$mode" "$out" || fails=$((fails + 1))
if [ -f bench/guest/overheads.sh ]; then
	sh bench/guest/overheads.sh "$mode" "$out" || fails=$((fails + 1))
fi
sync
echo "# bench: done, $fails failed"
[ $fails = 0 ]
