#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of smart-play that need no SMART kernel: --help and
# --version, option and file errors (message and exit status), and a
# short clip played in plain mode: every frame accounted for, the
# fall-back said, the JSON valid, the --frames log one line per frame.
# TAP on stdout.  The clips come from scripts/mkclips (run here if
# missing).  tools/smart-play/tests/guest_test.sh plays them on a
# SMART kernel.
#
#   SMART_PLAY=build/tools/smart-play JSON_CHECK=build/tools/json_check \
#   MEDIA=build/media sh play_test.sh

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
P=${SMART_PLAY:-$repo/build/tools/smart-play}
J=${JSON_CHECK:-$repo/build/tools/json_check}
M=${MEDIA:-$repo/build/media}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() {
	n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/#   /'; done
}

# check NAME WANT_RC FRAGMENT CMD...: exit status and FRAGMENT in stdout+stderr
check() {
	name=$1 want=$2 frag=$3; shift 3
	out=$("$@" 2>&1); rc=$?
	case $out in *"$frag"*) f=1 ;; *) f=0 ;; esac
	if [ "$rc" = "$want" ] && [ $f = 1 ]; then ok "$name"
	else nok "$name" "expected exit $want and '$frag'" "seen exit $rc: $out"; fi
}

# jget FILE PATH: the value at PATH (jq style, ".streams[0].frames"), unquoted
jget() {
	"$J" -f "$1" 2>/dev/null |
		awk -v k="$2" 'index($0, k "=") == 1 { sub(/^[^=]*=/, ""); gsub(/"/, ""); print; exit }'
}

if [ ! -x "$P" ] || [ ! -x "$J" ]; then
	echo "not ok 1 - smart-play and json_check built ($P, $J)"
	echo "1..1"
	exit 1
fi
if [ ! -f "$M/short.mp4" ]; then
	"$repo/scripts/mkclips" "$M" >&2 || { echo "not ok 1 - scripts/mkclips $M"; echo "1..1"; exit 1; }
fi
echo "# smart-play: $P; media: $M"

# --- help, version, bad options and files -------------------------------------
check "help" 0 "Usage:" "$P" --help
check "version" 0 "smart-play from SMART for Linux" "$P" --version
check "no file" 1 "no file to play" "$P"
check "unknown option" 1 "Usage:" "$P" --bogus "$M/short.mp4"
for d in 0 -1 abc 1e9 ""; do
	check "duration '$d' refused" 1 "invalid duration: '$d'" "$P" --duration "$d" "$M/short.mp4"
done
check "margin -5 refused" 1 "invalid margin: '-5'" "$P" --margin -5 "$M/short.mp4"
check "audio-ahead 0 refused" 1 "invalid audio buffer: '0'" "$P" --audio-ahead 0 "$M/short.mp4"
check "--start-at in the past" 1 "--start-at: 1.000 s has passed" "$P" --start-at 1 "$M/short.mp4"
check "--start-at -1 refused" 1 "invalid start time: '-1'" "$P" --start-at -1 "$M/short.mp4"
check "missing file" 1 "cannot open '$tmp/none.mp4': No such file or directory" "$P" "$tmp/none.mp4"
check "corrupt file" 1 "corrupt.mp4" "$P" "$M/corrupt.mp4"
check "unsupported codec" 1 "no decoder for its video codec" "$P" "$M/unsupported.avi"
check "--no-audio on an audio-only file" 1 "has no video stream" "$P" --no-audio "$M/audio-only.m4a"
check "unwritable --frames" 1 "cannot write '$tmp/no/dir.csv'" "$P" --frames "$tmp/no/dir.csv" "$M/short.mp4"

# --- a clip, plain mode ----------------------------------------------------------
smart=0
[ -e /proc/sys/kernel/sched_smart_all ] && smart=1
if "$P" --no-smart --json --frames "$tmp/f.csv" "$M/short.mp4" >"$tmp/p.json" 2>"$tmp/p.err"; then
	ok "short.mp4 plays (--no-smart)"
else
	nok "short.mp4 plays (--no-smart)" "$(cat "$tmp/p.err")"
fi
if "$J" "$tmp/p.json" >/dev/null 2>&1; then ok "JSON valid"; else nok "JSON valid" "$(cat "$tmp/p.json")"; fi
v=".streams[0]"
frames=$(jget "$tmp/p.json" "$v.frames")
sum=0
for k in on_time early late skipped lost cut; do sum=$((sum + $(jget "$tmp/p.json" "$v.$k"))); done
if [ -n "$frames" ] && [ "$frames" = "$sum" ] && [ "$frames" -ge 45 ]; then
	ok "frames add up: $frames = on time + early + late + skipped + lost + cut"
else
	nok "frames add up" "frames=$frames sum=$sum" "$(cat "$tmp/p.json")"
fi
sk=$(jget "$tmp/p.json" "$v.skipped")
parts=0
for k in skipped_notified skipped_estimate skipped_late skipped_ref skipped_behind; do parts=$((parts + $(jget "$tmp/p.json" "$v.$k"))); done
[ "$sk" = "$parts" ] && ok "skipped = notified + by estimate + past their time + after a reference" ||
	nok "skipped adds up" "skipped=$sk parts=$parts"
[ "$(jget "$tmp/p.json" .mode)" = plain ] && [ "$(jget "$tmp/p.json" "$v.notified")" = 0 ] &&
	[ "$(jget "$tmp/p.json" "$v.skipped_notified")" = 0 ] &&
	ok "plain mode: no notification, no skip for one" || nok "plain mode" "$(cat "$tmp/p.json")"
[ "$(jget "$tmp/p.json" ".streams[1].kind")" = audio ] && [ "$(jget "$tmp/p.json" ".streams[1].underruns")" = 0 ] &&
	ok "audio stream played without underrun" || nok "audio stream" "$(cat "$tmp/p.json")"
decoded=$(grep -c ',video,.*,decoded' "$tmp/f.csv")
skipl=$(grep -c ',video,.*,skipped' "$tmp/f.csv")
if [ $((decoded + skipl)) = "$frames" ] && [ "$(head -1 "$tmp/f.csv")" = "file,stream,index,type,outcome,estimate_ms,cpu_ms,finish_ms" ]; then
	ok "--frames: a header and one line per video frame ($decoded decoded, $skipl skipped)"
else
	nok "--frames" "decoded=$decoded skipped=$skipl frames=$frames" "$(head -3 "$tmp/f.csv")"
fi
for t in I P B; do
	c=$(jget "$tmp/p.json" "$v.types.$t.decoded")
	[ -n "$c" ] && [ "$c" -gt 0 ] && ok "frame type $t seen ($c)" || nok "frame type $t seen" "$(cat "$tmp/p.json")"
done

if [ $smart = 0 ]; then
	check "default mode falls back without SCHED_SMART" 0 "this kernel has no SCHED_SMART; playing best-effort" \
		"$P" --duration 0.5 "$M/short.mp4"
fi
check "text output" 0 "video h264" "$P" --no-smart --duration 0.5 "$M/short.mp4"
"$P" --no-smart --no-audio --json --duration 1 "$M/short.mp4" >"$tmp/d.json" 2>/dev/null
f=$(jget "$tmp/d.json" ".streams[0].frames")
[ -n "$f" ] && [ "$f" -ge 24 ] && [ "$f" -le 26 ] && [ -z "$(jget "$tmp/d.json" ".streams[1].kind")" ] &&
	ok "--duration 1 --no-audio: 25 frames ($f), no audio stream" || nok "--duration 1 --no-audio" "$(cat "$tmp/d.json")"
check "a VP8 clip plays" 0 "video vp8 320x240 25.00 fps: 50 frames" "$P" --no-smart "$M/vp8.mkv"
check "an MPEG-4 part 2 clip plays" 0 "video mpeg4 1280x720" "$P" --no-smart --duration 0.3 "$M/entertain.mkv"
check "audio-only file plays" 0 "audio aac" "$P" --no-smart --duration 0.5 "$M/audio-only.m4a"

echo "1..$n"
[ $failed = 0 ]
