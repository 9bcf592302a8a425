#!/bin/sh
# Guest side of `make trace`: record SMART's decisions during the media demo.
#   sh scripts/trace-demo.sh OUT.dat      (OUT relative to /host)
cd /host 2>/dev/null || true
out=${1:-build/trace/trace.dat}
bin=/host/build/demo/smart-media
[ -x "$bin" ] || { echo "trace-demo: $bin missing (make demo)"; exit 1; }
command -v trace-cmd >/dev/null || { echo "trace-demo: trace-cmd not in the initramfs"; exit 1; }
mkdir -p "$(dirname "$out")"
echo "trace-demo: kernel $(uname -r), mode $(cat /proc/sys/kernel/sched_smart_all)"
# Record to guest memory, then copy: 9p is slow for the per-CPU writers.
trace-cmd record -q -e smart -e sched:sched_switch -e sched:sched_wakeup \
	-o /tmp/trace.dat "$bin" 3 0 || exit 1
cp /tmp/trace.dat "$out" || exit 1
trace-cmd report -i /tmp/trace.dat 2>/dev/null | awk '$4 ~ /^smart_/ { n[$4]++ } END { for (e in n) printf "trace-demo: %6d %s\n", n[e], e }'
echo "trace-demo: wrote $out"
