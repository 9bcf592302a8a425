#!/bin/sh
# Guest side of `make run` without a terminal: the share demo.
# Runs build/demo/smart-demo (three hogs on CPU 0, shares 1:1:2, 3 s).
cd /host 2>/dev/null || true
bin=/opt/smart/bin/smart-demo
[ -x "$bin" ] || bin=/host/build/demo/smart-demo
if [ ! -x "$bin" ]; then echo "demo: smart-demo not built (make demo)"; exit 1; fi
echo "demo: kernel $(uname -r), $(nproc) CPUs, mode: $(cat /proc/sys/kernel/sched_smart_all 2>/dev/null || echo 'n/a (no sysctl)')"
"$bin" 3 0
