#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# smart-play in the guest (POSIX sh, busybox; run as root by scripts/run-selftests): a
# real decoder (libavcodec) under SMART time constraints, on the clips of
# scripts/mkclips (build/media, read through the 9p share).
#
#  - the player and its shared libraries load (--version);
#  - news.mp4 (H.264 + AAC) alone on CPU 0 in SMART mode: constraints
#    taken (mode "smart"), every frame accounted for, at least 95% on
#    time, no audio underrun;
#  - the same beside a SCHED_SMART CPU hog on CPU 0: at least 90% on time
#    (it needs 35-45% of a CPU under QEMU TCG and has half of it);
#  - entertain.mkv (MPEG-4 part 2, about 65% of a CPU) beside the hog, in
#    SMART mode: frames add up, no frame is skipped on the player's own
#    estimate, every skip follows the kernel's word (the --frames log: a
#    prediction skips B frames only, a reference is skipped only once its
#    time has passed, and frames skipped after a reference follow such a
#    skip before the next key frame), and the kernel did say so;
#  - the same with --no-smart: no constraint, no notification;
#  - an unprivileged user: in opt-in mode the player says it cannot enter
#    SCHED_SMART and plays best-effort; in all mode it takes constraints.
#
# With SMART_STOLEN_CLOCK set (QEMU without -icount on a busy host: the
# guest's clock runs on while the host stops its vCPU, and the decoder is
# charged for it), the checks of frames on time and of audio underruns
# skip, and so does whether the kernel predicted a late frame of the
# over-share player: the player skips a frame itself when its clock says
# it is behind, before it asks the kernel, and a stolen clock can put it
# that far behind (CI's all boot at b99b413: 113 frames skipped, 0 of
# them on the kernel's word; at f88f3ff, the same kernel code, it passed).
# Everything else is checked.  scripts/test-all runs the test again in its
# -icount boots, where those count.
#
# The clips are copied to /tmp first, and in opt-in mode the fair server
# runs 5 ms every 100 ms instead of 50 ms every second for the test (put
# back after): the player's threads block now and then on kernel work done
# by SCHED_NORMAL kworkers, which beside a SMART hog run only on the fair
# server, and with its default period wait up to 950 ms (sched-smart.rst,
# 8).  Output: TAP with a kselftest "# Totals:" line, for scripts/run-selftests.
#
#   SMART_PLAY=/opt/smart/bin/smart-play JSON_CHECK=build/tools/json_check \
#       MEDIA=build/media sh tools/smart-play/tests/guest_test.sh

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
P=${SMART_PLAY:-$(command -v smart-play || echo /opt/smart/bin/smart-play)}
S=${SMARTCTL:-$repo/build/tools/smartctl}
J=${JSON_CHECK:-$repo/build/tools/json_check}
M=${MEDIA:-$repo/build/media}
mode=$(cat /proc/sys/kernel/sched_smart_all 2>/dev/null)
case ${SMART_STOLEN_CLOCK:-0} in ''|0) stolen= ;; *) stolen=1 ;; esac

tmp=$(mktemp -d 2>/dev/null || echo /tmp/smart-play-test.$$)
mkdir -p "$tmp"
chmod 777 "$tmp"
hog=
FS=/sys/kernel/debug/sched/fair_server/cpu0
fs_saved=
cleanup() {
	[ -n "$hog" ] && kill -9 "$hog" 2>/dev/null
	wait 2>/dev/null
	if [ -n "$fs_saved" ]; then
		# shellcheck disable=SC2086 # runtime and period
		set -- $fs_saved
		echo "$2" >"$FS/period" && echo "$1" >"$FS/runtime"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

. "$repo/scripts/guest-tap.sh"

# timed DESCRIPTION COND-RESULT DIAG...: ok or nok on the result (0 or not)
# of a check of time, which skips on a stolen clock
timed() {
	d=$1 r=$2; shift 2
	if [ -n "$stolen" ]; then skip "$d" "SMART_STOLEN_CLOCK: no deadline is measured on this clock"
	elif [ "$r" = 0 ]; then ok "$d"
	else nok "$d" "$@"; fi
}

# jget FILE PATH: the value at PATH (jq style, .streams[0].frames), unquoted
jget() {
	"$J" -f "$1" 2>/dev/null |
		awk -v k="$2" 'index($0, k "=") == 1 { sub(/^[^=]*=/, ""); gsub(/"/, ""); print; exit }'
}

# adds_up FILE: frames = on time + early + late + skipped + lost + cut, and
# skipped = its parts, for the first stream (video)
adds_up() {
	v=".streams[0]"
	frames=$(jget "$1" "$v.frames")
	sum=0
	for k in on_time early late skipped lost cut; do sum=$((sum + $(jget "$1" "$v.$k"))); done
	parts=0
	for k in skipped_notified skipped_estimate skipped_late skipped_ref skipped_behind; do
		parts=$((parts + $(jget "$1" "$v.$k")))
	done
	[ -n "$frames" ] && [ "$frames" -gt 0 ] && [ "$frames" = "$sum" ] &&
		[ "$(jget "$1" "$v.skipped")" = "$parts" ]
}

# summary FILE: one line for the log
summary() {
	v=".streams[0]"
	echo "frames $(jget "$1" "$v.frames"): on time $(jget "$1" "$v.on_time"), late $(jget "$1" "$v.late"), skipped $(jget "$1" "$v.skipped") (notified $(jget "$1" "$v.skipped_notified"), estimate $(jget "$1" "$v.skipped_estimate"), past $(jget "$1" "$v.skipped_late"), after a reference $(jget "$1" "$v.skipped_ref"), catching up $(jget "$1" "$v.skipped_behind")), decoded anyway $(jget "$1" "$v.decoded_anyway"), lost $(jget "$1" "$v.lost"), cpu $(jget "$1" "$v.cpu_pct")%"
}

# play NAME ARGS...: run the player on CPU 0 with --json into $tmp/NAME.json
play() {
	name=$1; shift
	taskset -c 0 "$P" --json "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
}

echo "TAP version 13"
echo "# smart-play: $P, media: $M, mode ${mode:-absent}"

if [ -z "$mode" ]; then
	skip "smart-play" "no SCHED_SMART in this kernel"
	finish
fi
if [ ! -x "$P" ]; then
	skip "smart-play" "not in the initramfs (make tools with libav*-dev, then make initramfs)"
	finish
fi
if [ ! -f "$M/news.mp4" ] || [ ! -f "$M/entertain.mkv" ] || [ ! -x "$J" ]; then
	nok "media and json_check present" "run scripts/mkclips and make tools on the host ($M, $J)"
	finish
fi

cp "$M/news.mp4" "$M/entertain.mkv" "$tmp/" && chmod 644 "$tmp"/*.m* && M=$tmp
if [ "$mode" = 0 ] && [ -w "$FS/period" ]; then
	fs_saved="$(cat "$FS/runtime") $(cat "$FS/period")"
	# EBUSY once anything has read or written sched_rt_*_us (the 6.12
	# handler rebuilds the sched domains, which loses the fair server's
	# bandwidth from the root domain's total; sched-smart.rst 8); tried
	# for up to 4 s
	i=0
	until { echo 5000000 >"$FS/runtime" && echo 100000000 >"$FS/period"; } 2>/dev/null ||
	      [ $i = 20 ]; do
		i=$((i + 1)); usleep 200000
	done
	if [ "$(cat "$FS/runtime") $(cat "$FS/period")" = "5000000 100000000" ]; then
		echo "# fair server of CPU 0: 5 ms every 100 ms for the test (was $fs_saved ns)"
	else
		echo "# fair server of CPU 0 left as it was ($fs_saved ns): the write was refused"
	fi
fi

if out=$("$P" --version 2>&1); then ok "the player and its libraries load: $out"
else nok "the player and its libraries load" "$out"; finish; fi

# --- news alone -------------------------------------------------------------------
play alone -d 4 -f "$tmp/alone.csv" "$M/news.mp4"
f=$tmp/alone.json
echo "# alone: $(summary "$f")"
[ "$(jget "$f" .mode)" = smart ] && [ "$(jget "$f" .fell_back)" = false ] &&
	ok "alone: SMART mode, constraints taken" || nok "alone: SMART mode" "$(cat "$f" "$tmp/alone.err")"
adds_up "$f" && ok "alone: every frame accounted for" || nok "alone: frames add up" "$(cat "$f")"
frames=$(jget "$f" ".streams[0].frames"); on=$(jget "$f" ".streams[0].on_time")
[ "$frames" -ge 95 ] && [ $((on * 100)) -ge $((frames * 95)) ]
timed "alone: $on of $frames frames on time (>= 95%)" $? "$(summary "$f")"
[ "$(jget "$f" ".streams[1].kind")" = audio ] &&
	ok "alone: the audio stream played" || nok "alone: the audio stream played" "$(cat "$f")"
[ "$(jget "$f" ".streams[1].underruns")" = 0 ]
timed "alone: no audio underrun" $? "$(cat "$f")"

# --- beside a SMART hog -------------------------------------------------------------
taskset -c 0 "$S" run -- sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 &
hog=$!
play hog -d 5 "$M/news.mp4"
f=$tmp/hog.json
echo "# beside a hog: $(summary "$f")"
adds_up "$f" && ok "hog: every frame accounted for" || nok "hog: frames add up" "$(cat "$f")"
frames=$(jget "$f" ".streams[0].frames"); on=$(jget "$f" ".streams[0].on_time")
[ -n "$on" ] && [ $((on * 100)) -ge $((frames * 90)) ]
timed "hog: $on of $frames frames on time (>= 90%)" $? "$(summary "$f")"

# --- over its share: entertain beside the hog ----------------------------------------
play over -d 5 -f "$tmp/over.csv" "$M/entertain.mkv"
f=$tmp/over.json
echo "# over its share, SMART: $(summary "$f")"
adds_up "$f" && ok "over: every frame accounted for" || nok "over: frames add up" "$(cat "$f")"
[ "$(jget "$f" ".streams[0].skipped_estimate")" = 0 ] &&
	ok "over: no frame skipped on the player's own estimate" || nok "over: no estimate skip" "$(summary "$f")"
if [ -n "$stolen" ]; then
	skip "over: the kernel predicted late frames" "SMART_STOLEN_CLOCK: the player may skip on its own clock first"
elif [ "$(jget "$f" ".streams[0].skipped_notified")" -gt 0 ] && [ "$(jget "$f" ".streams[0].notified")" -ge 0 ]; then
	ok "over: the kernel predicted late frames ($(jget "$f" ".streams[0].skipped_notified") B frames skipped)"
else
	nok "over: the kernel predicted late frames" "$(summary "$f")"
fi
# the log: 'skipped' (a prediction) only for B frames; 'skipped-ref' only
# after a skipped reference and before the next decoded key frame;
# 'skipped-behind' only for B frames after a reference decoded anyway
# (predicted late) and before a frame done in time
bad=$(awk -F, '$2 == "video" {
	if ($5 == "skipped" && $4 != "B") { print "predicted skip of a " $4 " frame, line " NR; exit }
	if (($5 == "skipped" || $5 == "skipped-late") && $4 != "B") after = 1
	if ($5 == "skipped-ref" && !after) { print "skipped-ref without a skipped reference, line " NR; exit }
	if ($5 ~ /^decoded/ && $4 == "I") after = 0
	if ($5 == "decoded-anyway") behind = 1
	if ($5 == "skipped-behind" && (!behind || $4 != "B")) { print "skipped-behind of a " $4 " frame not behind, line " NR; exit }
	if ($5 ~ /^decoded/ && $8 + 0 <= 0) behind = 0
}' "$tmp/over.csv")
[ -z "$bad" ] && [ "$(grep -c ',video,' "$tmp/over.csv")" = "$(jget "$f" ".streams[0].frames")" ] &&
	ok "over: every skip follows the kernel's word (--frames log)" || nok "over: skips follow the kernel" "$bad" "$(summary "$f")"

play plain -n -d 5 "$M/entertain.mkv"
f=$tmp/plain.json
echo "# over its share, --no-smart: $(summary "$f")"
[ "$(jget "$f" .mode)" = plain ] && [ "$(jget "$f" ".streams[0].notified")" = 0 ] &&
	[ "$(jget "$f" ".streams[0].skipped_notified")" = 0 ] && adds_up "$f" &&
	ok "--no-smart: no constraint, no notification, frames add up" || nok "--no-smart" "$(cat "$f")"
kill -9 "$hog" 2>/dev/null; wait "$hog" 2>/dev/null; hog=

# --- an unprivileged user --------------------------------------------------------------
su -s /bin/sh nobody -c "'$P' --json -d 1 '$M/news.mp4' >'$tmp/nobody.json' 2>'$tmp/nobody.err'"
f=$tmp/nobody.json
if [ "$mode" = 0 ]; then
	grep -q "cannot enter SCHED_SMART: Operation not permitted" "$tmp/nobody.err" &&
		[ "$(jget "$f" .mode)" = plain ] && [ "$(jget "$f" .fell_back)" = true ] && adds_up "$f" &&
		ok "nobody, opt-in: says it cannot enter SCHED_SMART, plays best-effort" ||
		nok "nobody, opt-in: falls back" "$(cat "$tmp/nobody.err" "$f")"
else
	[ "$(jget "$f" .mode)" = smart ] && [ "$(jget "$f" .fell_back)" = false ] && adds_up "$f" &&
		ok "nobody, all mode: takes constraints" || nok "nobody, all mode" "$(cat "$tmp/nobody.err" "$f")"
fi
finish
