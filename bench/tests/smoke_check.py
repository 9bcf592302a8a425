#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check a `scripts/bench --smoke` results directory; print TAP.

    bench/tests/smoke_check.py RESULTS_DIR

The smoke run lasts seconds, so it proves that every workload ran under
every label and that its record is consistent, not how well a scheduler
did: frames add up, the one CPU's time is accounted for, each task ran in
the class its label says, srtsim released the jobs its period implies, and
the report and plots were written.  Exit status 1 if any check fails.
"""
import glob
import json
import os
import sys

SCHED_OTHER, SCHED_FIFO, SCHED_DEADLINE, SCHED_SMART = 0, 1, 6, 8
MIX_LABELS = ["SMART", "SMART-nobias", "EEVDF", "FIFO", "DEADLINE", "SMART-unmodified",
              "SMART-unmodified-noinfer"]
OVERHEADS = ["ctxsw", "hackbench", "pick", "syscall", "wakeup"]

results = []


def check(ok, what):
    """Record one TAP line."""
    results.append((bool(ok), what))
    return ok


def policy_expected(label, app):
    """The class an app of @label must have run in (None: either)."""
    media = app["kind"] in ("audio", "video", "srt", "player")
    if label.startswith("SMART-unmodified"):
        # no SMART call: SCHED_OTHER, which sched_smart=all gives to SMART
        return {SCHED_OTHER}
    if label.startswith("SMART"):
        return {SCHED_SMART}
    if label == "FIFO" and media:
        return {SCHED_FIFO}
    if label == "DEADLINE" and media:
        # admission control may refuse one (the record says so in notes)
        return {SCHED_DEADLINE, SCHED_OTHER}
    return {SCHED_OTHER}


def check_apps(name, label, apps, length_s, one_cpu=True):
    """Checks every app record of a mix or srtsim phase shares."""
    total = 0.0
    for a in apps:
        total += a["cpu_pct"]
        check(a.get("policy") in policy_expected(label, a),
              f"{name}: {a['app']} ran with policy {a.get('policy')} under {label}")
        if a["kind"] == "video":
            parts = a["on_time"] + a["early"] + a["late"] + a["dropped"]
            check(a["frames"] > 0 and parts == a["frames"],
                  f"{name}: {a['app']} frames {a['frames']} = on time + early + late + dropped ({parts})")
            # News video follows the audio clock, which stops on dropouts
            check(length_s * 15 / 2 <= a["frames"] <= length_s * 15 + 3,
                  f"{name}: {a['app']} has up to 15 frames/s ({a['frames']} in {length_s:.1f} s)")
        if a["kind"] == "audio":
            check(a["segments"] > 0, f"{name}: news-audio processed segments ({a['segments']})")
        if a["kind"] == "typing":
            check(0 <= a["processed"] <= a["chars"] and
                  a["lt50"] + a["lt150"] + a["gt150"] == a["processed"],
                  f"{name}: typing counts consistent ({a['processed']} of {a['chars']})")
        if a["kind"] == "srt":
            jobs = length_s * a["fps"]
            check(abs(a["jobs"] - jobs) <= 2 and 0 <= a["missed"] <= a["jobs"],
                  f"{name}: {a['app']} released {a['jobs']} jobs (~{jobs:.0f}), missed {a['missed']}")
            check(0 <= a["dropped"] <= a["missed"],
                  f"{name}: {a['app']} dropped jobs ({a['dropped']}) are among the missed ({a['missed']})")
    if one_cpu:
        # one CPU, a CPU hog always runnable: the apps use (nearly) all of it
        check(90.0 <= total <= 100.5,
              f"{name}: app CPU adds up to {total:.1f}% of the CPU (90..100.5)")


def check_realmix(name, label, r):
    """The real-decode mix: the players' own records embedded and consistent."""
    ph = r["phases"][0]
    check_apps(name, label, ph["apps"], ph["end_s"] - ph["start_s"], one_cpu=False)
    for a in ph["apps"]:
        if a["kind"] != "player":
            continue
        p = a.get("player") or {}
        want = "smart" if label == "SMART" else "plain"
        check(p.get("mode") == want and not (want == "smart" and p.get("fell_back")),
              f"{name}: {a['app']} played in {want} mode ({p.get('mode')}, fell back: {p.get('fell_back')})")
        video = [s for s in p.get("streams", []) if s["kind"] == "video"]
        for v in video:
            parts = sum(v[k] for k in ("on_time", "early", "late", "skipped", "lost", "cut"))
            check(v["frames"] > 0 and parts == v["frames"],
                  f"{name}: {a['app']} frames {v['frames']} = on time + early + late + skipped "
                  f"+ lost + cut ({parts})")
            if want == "plain":
                check(v["notified"] == 0 and v["skipped_notified"] == 0,
                      f"{name}: {a['app']} took no constraint")
            else:
                check(v["skipped_estimate"] == 0,
                      f"{name}: {a['app']} skipped nothing on its own estimate")
        check(len(video) == 1, f"{name}: {a['app']} has one video stream")


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print("usage: smoke_check.py RESULTS_DIR", file=sys.stderr)
        return 2
    d = sys.argv[1]
    recs = {}
    for f in sorted(glob.glob(os.path.join(d, "raw", "*.json"))):
        try:
            with open(f) as fh:
                recs[os.path.basename(f)[:-5]] = json.load(fh)
        except ValueError as e:
            check(False, f"{os.path.basename(f)} parses as JSON ({e})")

    for label in MIX_LABELS:
        r = recs.get(f"fig3-{label}")
        if check(r is not None, f"fig3 ran under {label}"):
            ph = r["phases"][0]
            check_apps(f"fig3-{label}", label, ph["apps"], ph["end_s"] - ph["start_s"] - 0.1)
    for label in ["SMART", "EEVDF"]:
        r = recs.get(f"fig5-{label}")
        if check(r is not None and len(r["phases"]) == 2, f"fig5 ran under {label}, two phases"):
            p1, p2 = r["phases"]
            check_apps(f"fig5-{label} phase 1", label, p1["apps"], p1["end_s"] - 0.1)
            check(not any(a["app"].startswith("news") for a in p2["apps"]),
                  f"fig5-{label}: News left at the end of phase 1")
    for label in ["SMART", "EEVDF", "FIFO", "SMART-unmodified"]:
        r = recs.get(f"realmix-{label}")
        if check(r is not None, f"realmix ran under {label}"):
            check_realmix(f"realmix-{label}", label, r)
    for v in ["EEVDF-unmodified", "EEVDF-unmodified-dropping", "SMART-unmodified",
              "SMART-constraints", "SMART-dropping",
              "SMART-unmodified-unmodified", "SMART-unmodified-unmodified-dropping",
              "SMART-unmodified-noinfer-unmodified",
              "SMART-unmodified-noinfer-unmodified-dropping"]:
        names = [n for n in recs if n.startswith("berate-") and n.endswith(v)]
        if check(names, f"berate ran as {v}"):
            for n in names:
                r = recs[n]
                check_apps(n, r["label"], r["apps"], r["duration_s"])
    for e in OVERHEADS:
        check(any(r.get("experiment") == e for r in recs.values()),
              f"overheads: a {e} record")

    tp = [r for r in recs.values() if r.get("experiment") == "throughput"]
    for label in ["SMART", "EEVDF", "SMART-all"]:
        mine = [r for r in tp if r.get("label") == label]
        check(len(mine) >= 6 and all(r.get("cpus") == 2 and r.get("seconds", 0) > 0
                                     and r.get("context_switches", 0) > 0 for r in mine),
              f"throughput: six workloads on 2 vCPUs under {label} ({len(mine)} records)")

    cyc = [r for r in recs.values() if r.get("experiment") == "cyclictest"]
    for label in ["EEVDF", "SMART-all"]:
        mine = [r for r in cyc if r.get("label") == label]
        check(len(mine) >= 1 and all(r.get("samples", 0) > 0 and r.get("p99_us", -1) >= 0
                                     for r in mine),
              f"cyclictest: wake-ups beside hogs under {label} ({len(mine)} records)")

    rr = [r for r in recs.values() if r.get("experiment") == "rrlat"]
    for label in ["SMART", "EEVDF", "SMART-all"]:
        mine = [r for r in rr if r.get("label") == label]
        check(len(mine) >= 1 and all(r.get("rps", 0) > 0 and r.get("p99_us", -1) >= 0
                                     and r.get("runs") for r in mine),
              f"rrlat: request/response under {label} ({len(mine)} records)")

    grp = [r for r in recs.values() if r.get("experiment") == "groups"]
    for label in ["SMART", "EEVDF"]:
        mine = {r.get("kind"): r for r in grp if r.get("label") == label}
        scale = [r for r in grp if r.get("label") == label and r.get("kind") == "scale"]
        check(len(scale) >= 3 and all(r.get("iterations", 0) > 0 for r in scale),
              f"groups: scale runs under {label} counted iterations ({len(scale)} records)")
        f = mine.get("fluct", {})
        check(f.get("seconds") and f.get("isolation", {}).get("a_ms", 0) > 0,
              f"groups: fluct under {label} has per-second CPU and isolation")
        p = mine.get("periodic", {})
        check(p.get("jobs", 0) > 0 and sum(p.get("latency_hist", [])) == p.get("jobs"),
              f"groups: periodic under {label}: latency histogram counts every job")

    for f in ["report.md", "results.csv", "results.json", "fig3.png", "fig5.png", "berate.png",
              "groups.png"]:
        p = os.path.join(d, f)
        ok = os.path.isfile(p) and os.path.getsize(p) > 0
        if ok and f.endswith(".png"):
            with open(p, "rb") as fh:
                ok = fh.read(8) == b"\x89PNG\r\n\x1a\n"
        check(ok, f"report: {f} written")

    print(f"1..{len(results)}")
    for i, (ok, what) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - bench smoke: {what}")
    return 0 if all(ok for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
