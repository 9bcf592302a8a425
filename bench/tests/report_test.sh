#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of bench/report.py on the fixtures in bench/tests/fixtures (invented
# numbers, no QEMU). Prints TAP; exits non-zero if any check fails.
#
#   bench/tests/report_test.sh          (PYTHON=/usr/bin/python3 by default)
#
# fixtures/full:    every experiment and label; the numbers checked below are
#                   computed by hand from its raw/*.json.
# fixtures/partial: a smoke-like run: one label, zero frames, missing apps,
#                   one record per experiment, an unknown experiment.

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
REPORT=$HERE/../report.py
PYTHON=${PYTHON:-/usr/bin/python3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

n=0
failed=0

# ok CONDITION-STATUS DESCRIPTION: one TAP line from the status of the
# command run just before (0 = pass).
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

# has FILE STRING DESCRIPTION: FILE contains STRING (fixed string).
has() {
	grep -qF -- "$2" "$1"
	ok $? "$3"
}

# hasnt FILE STRING DESCRIPTION: FILE does not contain STRING.
hasnt() {
	! grep -qF -- "$2" "$1"
	ok $? "$3"
}

# is_png FILE: PNG magic bytes and more than 10 kB.
is_png() {
	local magic size
	magic=$(head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')
	size=$(stat -c %s "$1" 2>/dev/null || echo 0)
	[ "$magic" = 89504e470d0a1a0a ] && [ "$size" -gt 10000 ]
	ok $? "$(basename "$(dirname "$1")")/$(basename "$1") is a PNG > 10 kB"
}

# run NAME: report.py on a copy of fixtures/NAME; status in $TMP/NAME.rc.
run() {
	cp -r "$HERE/fixtures/$1" "$TMP/$1"
	"$PYTHON" "$REPORT" "$TMP/$1" >"$TMP/$1.out" 2>"$TMP/$1.err"
	echo $? >"$TMP/$1.rc"
}

# The two good runs in parallel (matplotlib dominates the time).
run full &
run partial &
wait

# ---------------------------------------------------------------- full
F=$TMP/full
[ "$(cat "$F.rc")" -eq 0 ]; ok $? "full: exit status 0"
for f in results.json results.csv report.md; do
	[ -s "$F/$f" ]; ok $? "full: $f written"
done
for f in fig3 fig5 berate latency wakeup video-error pick; do
	is_png "$F/$f.png"
done
"$PYTHON" -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (len(d["records"]) == 58 and d["env"]["mode"] == "full"))' \
	"$F/results.json"
ok $? "full: results.json has the env and all 58 records"
head -1 "$F/results.csv" | grep -qx \
	'experiment,label,case,variant,phase,app,metric,value,unit'
ok $? "full: results.csv header"
# 417 rows: fig3 5 labels x 29, fig5 2 labels x (29 + 19), berate 3 columns
# x 46, ctxsw 3, hackbench 2, pick 12, syscall 6, wakeup 3 x 5, spread 3 x 3,
# cyclictest 2 x 3, rrlat 2 x 3.
[ "$(wc -l <"$F/results.csv")" -eq 439 ]; ok $? "full: results.csv has 438 rows"
has "$F/results.csv" 'fig3,SMART,,,all,news-video,on_time_pct,72,%' \
	"full: csv SMART news-video on_time_pct 72"

R=$F/report.md
for s in '## Figure 3: the application mix' '## Figure 5: priorities' \
	'## BeRate Table 1' '## Overheads' '### Wake-up latency' \
	'## Fairness across CPUs' '## Wake-up latency beside hogs' \
	'## Request/response wake-ups (rrlat)' '## Plots'; do
	has "$R" "$s" "full: report has section '$s'"
done
has "$R" '| mode | full |' "full: header shows the env mode"
has "$R" '**Targets:** 19 PASS, 7 MISS, 0 n/a' "full: targets count"
# SMART news-video: 648 on time, 20 early, 42 late, 190 dropped of 900;
# met 668/900; on time of displayed 648/710 = 91.3%.
has "$R" '| SMART | 900 | 72.0 | 2.2 | 4.7 | 21.1 | 74.2 | 91.3 |' \
	"full: SMART news-video quality row"
has "$R" '| paper SMART (§6.4) | — | 57.0 |' "full: paper Figure 3 row"
has "$R" '| SMART news-video on time ≥ 70% of all frames | 72.0% | **PASS** |' \
	"full: PASS line (news-video 648/900)"
has "$R" '| SMART entertain on time ≥ 50% of all frames | 49.0% | **MISS** |' \
	"full: MISS line (entertain 441/900)"
has "$R" 'SMART 49.0% vs EEVDF 32.0% | **PASS**' \
	"full: SMART beats EEVDF on entertain (441 vs 288 of 900)"
# FIFO typing: 263 typed, 130 processed: 133/263 = 50.6% unprocessed.
has "$R" '| FIFO | 263 | 130 | 1.9 | 3.8 | 43.7 | 50.6 |' "full: FIFO typing row"
# Bias: entertain 441 vs 400 on time: 441/400 - 1 = +10.3%.
has "$R" '| entertain | 49.0 | 44.4 | +10.3% | +10% |' "full: bias ablation"
# Figure 5: entertain 35.4 / dhrystone 18.2 = 1.95; phase 2 525/540 = 97.2%.
has "$R" '| 1.95 (35.4% / 18.2%) | **PASS** |' "full: fig5 2:1 ratio"
has "$R" '| SMART phase2 entertain on time ≥ 98% | 97.2% | **MISS** |' \
	"full: fig5 phase 2 MISS"
# BeRate case 3, 33 fps: 2 of 330 jobs missed = 0.6% > 0.5%.
has "$R" '| srtsim-33fps-25 | 2.4 | 0.6 | 2.7 | 31.2 | 5.2 | 0.0 | MISS |' \
	"full: BeRate case 3 row with paper values and MISS"
# Case 2 runs two srtsim apps of the same name: 0 and 1 of 250 missed.
has "$R" '| srtsim-25fps-25 #2 | 2.0 | 0.4 | 2.4 | 21.5 | 5.1 | 0.0 | PASS |' \
	"full: BeRate case 2 second app of the same name kept apart"
has "$R" '| 45.4 | > 15 | > 14 | — (no target) |' "full: BeRate case 6 row"
# Context switch 3.1 / 2.9 = 1.069; pick 4.2 / 3.0 = 1.40.
has "$R" '| 1.069 (3.10 / 2.90 µs) | **PASS** |' "full: ctxsw ratio"
has "$R" '| SMART pick cost(1000)/cost(10) ≤ 2 | 1.40 | **PASS** |' \
	"full: pick ratio"
# 32 of 100 constrained 6.3 / 1 of them 3.0 = 2.1 > 2.
has "$R" '| SMART pick cost(32 constrained)/cost(1) ≤ 2 | 2.10 | **MISS** |' \
	"full: constrained pick ratio"
# spread: fair part 2/3 = 66.7%; SMART's worst is 67.9 (1.2 points), SMART-all's
# 100.0 (33.3 points, beyond 7).
has "$R" '| SMART, 3 hogs on 2 vCPUs, icount1: each 67% ± 7 | 66.2 / 67.9 / 65.9 | **PASS** |' \
	"full: spread PASS line"
has "$R" '| SMART-all, 3 hogs on 2 vCPUs, icount1: each 67% ± 7 | 100.0 / 50.1 / 49.9 | **MISS** |' \
	"full: spread MISS line"
has "$F/results.csv" 'spread,EEVDF,cpus=2 clock=icount1,,,hog1,cpu_pct,67.5,%' \
	"full: csv spread row"
# cyclictest: SMART-all p99 8000 / EEVDF's 400 = 20.00 > 1.2.
has "$R" '| SMART-all | 2 | noicount | 20000 | 900 | 8000 | 19000 | 0 | 20.00 |' \
	"full: cyclictest row with the ratio to EEVDF"
has "$R" '| SMART-all, 2 vCPUs, noicount: p99/EEVDF ≤ 1.2 | 20.00 | **MISS** |' \
	"full: cyclictest MISS line"
has "$F/results.csv" 'cyclictest,EEVDF,cpus=2 clock=noicount,,,,p99_us,400,us' \
	"full: csv cyclictest row"
# rrlat: SMART-all p99 1500 / EEVDF's 1000 = 1.50 > 1.2; 2450 / 2500 requests
# per second = 0.98 >= 0.95.
has "$R" '| SMART-all | 2 | noicount | 1 | 2450 | 100 | 1500 | 1.50 | 0.98 |' \
	"full: rrlat row with the ratios to EEVDF"
has "$R" '| SMART-all, 2 vCPUs, noicount: p99/EEVDF ≤ 1.2 | 1.50 | **MISS** |' \
	"full: rrlat p99 MISS line"
has "$R" '| SMART-all, 2 vCPUs, noicount: requests/s / EEVDF ≥ 0.95 | 0.98 | **PASS** |' \
	"full: rrlat requests/s PASS line"
has "$F/results.csv" 'rrlat,EEVDF,cpus=2 clock=noicount,,,,p99_us,1000,us' \
	"full: csv rrlat row"
has "$R" 'DEADLINE: entertain rejected by admission control' \
	"full: run notes reported"
has "$R" '![Wake-up latency](wakeup.png)' "full: plots linked"
has "$F.out" 'MISS  SMART entertain on time' "full: stdout targets summary"
has "$F.out" "$F/report.md" "full: stdout lists the paths written"
[ ! -s "$F.err" ]; ok $? "full: no warnings on stderr"

# ---------------------------------------------------------------- partial
P=$TMP/partial
[ "$(cat "$P.rc")" -eq 0 ]; ok $? "partial: exit status 0"
for f in fig3 fig5 berate video-error pick; do
	is_png "$P/$f.png"
done
[ ! -e "$P/wakeup.png" ] && [ ! -e "$P/latency.png" ]
ok $? "partial: no wakeup.png or latency.png without data"
# 24 rows: fig3 other 1 + audio 3 + news-video 7 + entertain 2 (cpu, 0
# frames); fig5 other 1 + news-video 2 + entertain 1 + dhrystone 1; berate
# srtsim 3 (no missed_pct of 0 jobs) + cpu-bound 1; ctxsw 1; pick 1.
[ "$(wc -l <"$P/results.csv")" -eq 25 ]; ok $? "partial: results.csv has 24 rows"
R=$P/report.md
has "$R" '| SMART | 0 | n/a | n/a | n/a | n/a | n/a | n/a |' \
	"partial: zero frames print n/a"
has "$R" '| SMART no audio dropouts | 2 dropouts in 78 segments | **MISS** |' \
	"partial: MISS on audio dropouts"
has "$R" '| SMART beats EEVDF on news-video on time | SMART 80.0% vs EEVDF n/a | **n/a** |' \
	"partial: n/a target without EEVDF"
grep -A2 -F '### hackbench' "$R" | grep -qx 'Not run.'
ok $? "partial: hackbench says not run"
has "$R" 'srtsim 25 fps 25% (not run)' "partial: BeRate cases not run shown"
hasnt "$R" 'foo' "partial: unknown experiment not in the report"
has "$P.err" "raw/foo-SMART.json: unknown experiment 'foo'" \
	"partial: warning names the unknown experiment"

# ---------------------------------------------------------------- errors
"$PYTHON" "$REPORT" "$TMP/nonexistent" >/dev/null 2>"$TMP/e1"
[ $? -eq 2 ] && grep -q "$TMP/nonexistent not found" "$TMP/e1"
ok $? "missing results dir: exit 2 with message"

mkdir "$TMP/noraw"
"$PYTHON" "$REPORT" "$TMP/noraw" >/dev/null 2>"$TMP/e2"
[ $? -eq 2 ] && grep -q "noraw/raw not found" "$TMP/e2"
ok $? "missing raw/: exit 2 with message"

cp -r "$HERE/fixtures/partial" "$TMP/broken"
printf '{"schema":1,"experiment":' >"$TMP/broken/raw/zz-broken.json"
"$PYTHON" "$REPORT" "$TMP/broken" >/dev/null 2>"$TMP/e3"
[ $? -eq 2 ] && grep -q "zz-broken.json: cannot parse JSON" "$TMP/e3"
ok $? "broken raw JSON: exit 2 naming the file"

cp -r "$HERE/fixtures/partial" "$TMP/badenv"
echo '{' >"$TMP/badenv/env.json"
"$PYTHON" "$REPORT" "$TMP/badenv" >/dev/null 2>"$TMP/e4"
[ $? -eq 2 ] && grep -q "badenv/env.json: cannot parse JSON" "$TMP/e4"
ok $? "broken env.json: exit 2 naming the file"

echo "1..$n"
[ "$failed" -eq 0 ]
