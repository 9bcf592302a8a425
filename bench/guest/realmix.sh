# Sourced by bench/guest/run.sh and unmodified.sh (POSIX sh, busybox): the
# Figure 3 mix with real decoders (smartbench realmix: two smart-play
# processes on the clips of scripts/mkclips, Typing, Dhrystone), one record
# per label.  Needs $out, $fails and one() (bench/guest/record.sh).
#
#   realmix SECONDS LABEL...
#
# The clips are copied from build/media into /tmp first, so that no run
# reads them through the 9p share.  In opt-in mode the fair server of CPU 0
# runs 5 ms every 100 ms instead of 50 ms every second during the runs:
# the players wait now and then on SCHED_NORMAL kworkers, which beside
# SMART or FIFO tasks run only on the fair server (sched-smart.rst, 8).
# Without smart-play or the clips the runs are skipped and said so.
realmix() {
	secs=$1; shift
	if ! command -v smart-play >/dev/null 2>&1 || [ ! -f build/media/news.mp4 ] ||
	   [ ! -f build/media/entertain.mkv ]; then
		echo "# bench: realmix skipped: no smart-play in the guest or no clips (make tools; scripts/mkclips)"
		return 0
	fi
	mkdir -p /tmp/media
	cp build/media/news.mp4 build/media/entertain.mkv /tmp/media/
	fs=/sys/kernel/debug/sched/fair_server/cpu0 fs_saved=
	if [ "$(cat /proc/sys/kernel/sched_smart_all)" = 0 ] && [ -w $fs/period ]; then
		fs_saved="$(cat $fs/runtime) $(cat $fs/period)"
		# EBUSY once anything has read or written sched_rt_*_us: the
		# 6.12 handler rebuilds the sched domains even on a read, the
		# rebuilt root domain no longer counts the fair server's
		# bandwidth, and lowering it underflows the admission test
		# (sched-smart.rst 8).  Tried for up to 4 s, then not run.
		n=0
		until { echo 5000000 >$fs/runtime && echo 100000000 >$fs/period; } 2>/dev/null ||
		      [ $n = 20 ]; do
			n=$((n + 1)); usleep 200000
		done
		if [ "$(cat $fs/runtime) $(cat $fs/period)" != "5000000 100000000" ]; then
			echo "# bench: realmix: cannot set the fair server of CPU 0 (was $fs_saved ns): not run"
			fails=$((fails + 1))
			# shellcheck disable=SC2086 # runtime and period
			set -- $fs_saved
			echo "$2" >$fs/period; echo "$1" >$fs/runtime
			return 0
		fi
	fi
	mkdir -p "$out/frames"
	for l in "$@"; do
		one "realmix-$l" realmix --label "$l" --duration "$secs" --media /tmp/media \
			--frames-dir "$out/frames"
	done
	if [ -n "$fs_saved" ]; then
		# shellcheck disable=SC2086 # runtime and period
		set -- $fs_saved
		echo "$2" >$fs/period && echo "$1" >$fs/runtime
	fi
	rm -rf /tmp/media
}
