#!/bin/sh
# Guest side of `make run` without a terminal: the share demo, then a real
# decoder under SMART.
#  - build/demo/smart-demo: three hogs on CPU 0, shares 1:1:2, 3 s;
#  - smart-play (make tools) on build/media/news.mp4 (scripts/mkclips), 5 s
#    on CPU 0 beside a SCHED_SMART hog, with per-frame time constraints.
cd /host 2>/dev/null || true
bin=/opt/smart/bin/smart-demo
[ -x "$bin" ] || bin=/host/build/demo/smart-demo
if [ ! -x "$bin" ]; then echo "demo: smart-demo not built (make demo)"; exit 1; fi
mode=$(cat /proc/sys/kernel/sched_smart_all 2>/dev/null || echo 'n/a (no sysctl)')
echo "demo: kernel $(uname -r), $(nproc) CPUs, mode: $mode"
"$bin" 3 0 || exit 1

play=/opt/smart/bin/smart-play
if [ ! -x $play ] || [ ! -f build/media/news.mp4 ]; then
	echo "demo: no smart-play or clip in the guest (make tools; scripts/mkclips)"
	exit 0
fi
cp build/media/news.mp4 /tmp/news.mp4
# the player waits on SCHED_NORMAL kworkers now and then: give them the
# fair server every 100 ms rather than every second (sched-smart.rst, 8)
fs=/sys/kernel/debug/sched/fair_server/cpu0
if [ "$mode" = 0 ] && [ -w $fs/period ]; then
	echo 5000000 >$fs/runtime && echo 100000000 >$fs/period
fi
echo "demo: smart-play decodes news.mp4 (H.264 + AAC) for 5 s on CPU 0 beside a SMART CPU hog,"
echo "demo: each frame under a time constraint; on time = shown within 20 ms of its time"
taskset -c 0 /opt/smart/bin/smartctl run -- sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 &
hog=$!
taskset -c 0 $play --duration 5 /tmp/news.mp4
rc=$?
kill $hog
exit $rc
