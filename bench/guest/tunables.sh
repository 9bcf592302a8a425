#!/bin/sh
# Runs inside a guest booted with sched_smart=all (cwd /host): the
# unchanged Figure 3 mix and BeRate's never-dropping srtsim (cases 1-5)
# under SMART-unmodified, once per setting of the SMART tunables, to see
# what a tunable does to programs that make no SMART call.  A setting is
# a comma-separated list of NAME=VALUE of /proc/sys/kernel/smart/; every
# tunable a setting names is put back to its value at the start after it.
# One JSON record per run into OUTDIR/raw/ (bench/SCHEMA.md), named
# fig3-K and berate-C-K for the K-th setting (from 1); OUTDIR/settings
# lists them.
#
#   sh bench/guest/tunables.sh OUTDIR FIG3_SECONDS BERATE_SECONDS SETTING...
#
# Example, from the host (about 3 minutes at icount 1):
#   scripts/vm-run --cpus 1 --icount 1 --append sched_smart=all --timeout 900 \
#     --kernel build/obj-bench/arch/x86/boot/bzImage --initrd build/initramfs-bench.cpio \
#     -- sh bench/guest/tunables.sh build/bench/tunables 20 6 \
#     bias_max_ns=100000000 bias_max_ns=0,sleep_credit_ns=10000000
#
# Exit status: 0 when every run produced its record, 1 otherwise, 2 for
# bad arguments.
set -u
out=${1:?usage: tunables.sh OUTDIR FIG3_SECONDS BERATE_SECONDS SETTING...}
mix=${2:?usage: tunables.sh OUTDIR FIG3_SECONDS BERATE_SECONDS SETTING...}
berate=${3:?usage: tunables.sh OUTDIR FIG3_SECONDS BERATE_SECONDS SETTING...}
shift 3
export PATH=/opt/smart/bin:$PATH
dir=/proc/sys/kernel/smart
fails=0

if [ "$(cat /proc/sys/kernel/sched_smart_all 2>/dev/null)" != 1 ] || [ ! -w $dir/infer ]; then
	echo "# bench: tunables: needs a sched_smart=all kernel with $dir" >&2
	exit 1
fi
for s in "$@"; do
	for kv in $(echo "$s" | tr , ' '); do
		if [ ! -w "$dir/${kv%%=*}" ] || [ "${kv#*=}" = "$kv" ]; then
			echo "tunables.sh: '$kv' is not NAME=VALUE of a tunable in $dir" >&2
			exit 2
		fi
	done
done
mkdir -p "$out/raw" "$out/logs"
: >"$out/settings"

# one NAME SMARTBENCH-ARGUMENTS...
. bench/guest/record.sh

k=0
for s in "$@"; do
	k=$((k + 1))
	saved=""
	for kv in $(echo "$s" | tr , ' '); do
		saved="$saved ${kv%%=*}=$(cat "$dir/${kv%%=*}")"
		if ! echo "${kv#*=}" >"$dir/${kv%%=*}"; then
			echo "# bench: tunables: $kv refused" >&2
			fails=$((fails + 1))
		fi
	done
	echo "$k $s" >>"$out/settings"
	echo "# bench: setting $k: $s"
	one "fig3-$k" fig3 --label SMART-unmodified --duration "$mix"
	for c in 1 2 3 4 5; do
		one "berate-$c-$k" berate --case "$c" --label SMART-unmodified \
			--variant unmodified --duration "$berate"
	done
	for kv in $saved; do
		echo "${kv#*=}" >"$dir/${kv%%=*}"
	done
done
sync
echo "# bench: tunables done, $fails failed"
[ $fails = 0 ]
