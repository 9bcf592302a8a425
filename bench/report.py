#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Report generator of the SMART evaluation suite.

Usage:  /usr/bin/python3 bench/report.py RESULTS_DIR

Reads RESULTS_DIR/env.json and every RESULTS_DIR/raw/*.json (one record per
file, format in bench/SCHEMA.md) and writes into RESULTS_DIR:

  results.json   {"env": ..., "records": [...]}: every record, merged
  results.csv    long format: experiment,label,case,variant,phase,app,
                 metric,value,unit
  report.md      the readable report: Figure 3 mix, Figure 5, BeRate
                 Table 1, overheads, each next to the papers' numbers and
                 with a PASS/MISS table of our targets
  *.png          fig3, fig5, berate, latency, wakeup, video-error, pick
                 (each only when its records exist)

The paper numbers quoted below come from Nieh & Lam, "The Design,
Implementation and Evaluation of SMART", SOSP '97 (sections 6.3-6.5) and
Banachowski & Brandt, "Better Real-time Response for Time-share Scheduling"
(BeRate, Table 1).

Exit status: 0 on success; 2 if RESULTS_DIR or RESULTS_DIR/raw is missing or
a JSON file does not parse (the message names it). Unknown experiments and
duplicate records are reported on stderr and skipped. Missing data never
stops the report: a number that cannot be computed prints as "n/a".
"""

import argparse
import csv
import glob
import json
import os
import sys
from collections import namedtuple

# --------------------------------------------------------------------------
# Constants: label order, colours, the papers' numbers, our targets.
# --------------------------------------------------------------------------

#: Order in which labels appear in tables and plots; others follow, sorted.
LABEL_ORDER = ["SMART", "SMART-nobias", "EEVDF", "FIFO", "DEADLINE",
               "SMART-unmodified", "SMART-unmodified-noinfer"]
LABEL_COLORS = {"SMART": "#1f77b4", "SMART-nobias": "#9ecae1",
                "EEVDF": "#ff7f0e", "FIFO": "#d62728",
                "DEADLINE": "#2ca02c", "SMART-unmodified": "#17becf",
                "SMART-unmodified-noinfer": "#7f7f7f"}
#: Order of the berate variants.
VARIANT_ORDER = ["unmodified", "unmodified-dropping", "constraints",
                 "dropping"]
#: The label of programs that make no SMART call, under sched_smart=all
#: with inferred constraints (bench/guest/unmodified.sh).
UNMODIFIED = "SMART-unmodified"

#: The paper's application mix (Table 2), in the order of Figure 3.
MIX_APPS = ["news-audio", "news-video", "entertain", "typing", "dhrystone"]
APP_COLORS = {"news-audio": "#9467bd", "news-video": "#1f77b4",
              "entertain": "#ff7f0e", "typing": "#2ca02c",
              "dhrystone": "#8c564b", "other": "#c7c7c7"}
VIDEO_APPS = ["news-video", "entertain"]

#: Colours of the quality categories of the stacked bars.
QUALITY_COLORS = {"on time": "#2ca02c", "early": "#bcbd22",
                  "late": "#ff7f0e", "dropped": "#7f7f7f",
                  "< 50 ms": "#2ca02c", "50-150 ms": "#bcbd22",
                  "> 150 ms": "#d62728", "unprocessed": "#7f7f7f"}

#: Experiments this script knows, with the fields that identify one record;
#: a second record with the same key is a duplicate and is ignored.
RECORD_KEYS = {
    "fig3": ("label",),
    "fig5": ("label",),
    "realmix": ("label",),
    "berate": ("case", "label", "variant"),
    "ctxsw": ("label", "method"),
    "hackbench": ("label", "groups", "loops"),
    "pick": ("label", "runnable", "constrained"),
    "syscall": ("label", "call"),
    "wakeup": ("label", "tool", "load"),
    "throughput": ("label", "workload", "cpus", "clock"),
    "groups": ("label", "kind", "threads", "depth"),
    "spread": ("label", "cpus", "clock"),
    "cyclictest": ("label", "cpus", "clock"),
    "rrlat": ("label", "cpus", "clock"),
}

# SMART paper, Table 2: % CPU of News audio and Typing run alone. The ideal
# scheduler of section 6.4 gives them that and splits the rest evenly among
# News video, Entertain and Dhrystone ("we expect the remainder of the
# computation time to be distributed evenly").
_IDEAL_SPLIT = round((100.0 - 2.42 - 0.86) / 3, 2)
PAPER_FIG3_IDEAL_CPU = {"news-audio": 2.42, "news-video": _IDEAL_SPLIT,
                        "entertain": _IDEAL_SPLIT, "typing": 0.86,
                        "dhrystone": _IDEAL_SPLIT, "other": 0.0}

# SMART paper section 6.4 (Figure 3 text): video frames on time as % of all
# frames and as % of frames displayed; the ideal scheduler drops 25% / 45%.
# (scheduler, {app: (on time % of all, on time % of displayed, dropped %)})
PAPER_FIG3_VIDEO = [
    ("SMART", {"news-video": (57, 86, None), "entertain": (37, 81, None)}),
    ("WFQ", {"news-video": (32, 53, None), "entertain": (26, 58, None)}),
    ("SVR4-TS", {"news-video": (15, 22, None), "entertain": (11, 21, None)}),
    ("ideal", {"news-video": (75, None, 25), "entertain": (55, None, 45)}),
]
# Section 6.4: SVR4-RT starves Typing and Dhrystone.
PAPER_SVR4RT_TYPING = (1314, 635)       # characters typed, processed
PAPER_SVR4RT_DHRYSTONE_PCT = 1.6
# Section 6.4: "the use of the bias is found to yield a 10% relative
# improvement ... in delivering the Entertain frames on time".
PAPER_BIAS_GAIN_PCT = 10

# The real-decode mix (smartbench realmix): SMART with constraints must beat
# EEVDF by this many points of frames on time, per player.
TARGET_REALMIX_GAIN_POINTS = 10
REALMIX_LABELS = ["SMART", "EEVDF", "FIFO", "SMART-unmodified"]

# Section 6.5 (Figure 5 text).
PAPER_FIG5 = [
    "phase 1: News audio perfect (no dropouts); News video 97% of frames "
    "on time, 99% of deadlines met",
    "phase 1: Entertain gets 2:1 against Dhrystone (share 2 vs 1)",
    "phase 2: Entertain 98% of frames on time, 99% of deadlines met",
    "both phases: 99% of Typing characters displayed in < 100 ms",
]

# Section 6.3: context switch and SMART system call costs (150 MHz SPARC).
PAPER_CTXSW_US = [("SVR4", 27), ("WFQ", 42), ("SMART", 47)]
PAPER_SYSCALL_US = [("setting a time constraint", 20),
                    ("reading scheduling state", 10)]

# BeRate paper, Table 1 (actual schedulers): % deadlines missed.
# case: (mix, [(fps, util %, Linux 100 Hz, Linux 800 Hz, BeRate), ...])
PAPER_BERATE = {
    1: ("1 CPU-bound + srtsim 25 fps 50%",
        [(25, 50, "19.7", "10.7", "0.0")]),
    2: ("2 CPU-bound + 2 x srtsim 25 fps 25%",
        [(25, 25, "21.5", "5.1", "0.0"), (25, 25, "21.5", "5.1", "0.0")]),
    3: ("2 CPU-bound + srtsim 25 fps 25% + srtsim 33 fps 25%",
        [(25, 25, "27.6", "7.0", "0.0"), (33, 25, "31.2", "5.2", "0.0")]),
    4: ("3 CPU-bound + srtsim 25 fps 25%",
        [(25, 25, "17.8", "0.9", "0.0")]),
    5: ("1 CPU-bound at nice +10 + srtsim 33 fps 67%",
        [(33, 67, "32.4", "0.8", "0.0")]),
    6: ("1 CPU-bound + srtsim 25 fps 50% + srtsim 50 fps 50% (overload)",
        [(25, 50, "45.4", "> 15", "> 14"), (50, 50, "43.5", "> 15", "> 14")]),
}

# Our targets (bench/README.md).
TARGET_FIG3_ONTIME = {"news-video": 70.0, "entertain": 50.0}
TARGET_TYPING_LT50_PCT = 99.0
TARGET_DHRYSTONE_REL = 0.10
TARGET_FIG5_ONTIME = [("phase1", "news-video", 97.0),
                      ("phase2", "entertain", 98.0)]
TARGET_FIG5_RATIO = (1.8, 2.2)          # entertain : dhrystone in phase 1
TARGET_BERATE_MISSED_PCT = 0.5          # cases 1-5, SMART constraints
TARGET_BERATE_CASES = range(1, 6)
TARGET_TYPING_UNMOD_LT50_PCT = 100.0    # SMART-unmodified: every character
TARGET_CTXSW_RATIO = 1.10               # SMART / EEVDF
TARGET_PICK_RATIO = 2.0                 # cost(1000 runnable) / cost(10)
# SFQ-H paper section 5 (Figure 7): throughput in a leaf group stays within
# 1% of no groups for 1..20 threads, within 0.2% for depths up to 30.
TARGET_GROUP_THREADS_REL = 0.01
TARGET_GROUP_DEPTH_REL = 0.002
TARGET_GROUP_RATIO_REL = 0.10           # a:b within 10% of 1:3 every second
TARGET_GROUP_ISOLATION_PCT = 5.0        # 1 task vs 8: 50% +- 5 points
TARGET_GROUP_PERIODIC_MET_PCT = 95.0
TARGET_GROUP_PERIODIC_LAT_MS = 10.0     # one quantum
TARGET_PICK_TC_RATIO = 2.0              # cost(32 constrained) / cost(1), of 100
TARGET_SYSCALL_RATIO = 1.2              # begin+end / (sched_setattr + getattr)
TARGET_THROUGHPUT_RATIO = 1.05          # SMP elapsed time SMART / EEVDF
# nCPU + 1 hogs: each within this many points of 100 * nCPU / (nCPU + 1)
TARGET_SPREAD_POINTS = {2: 7.0, 4: 8.0}
TARGET_SPREAD_REL = 0.10                # other CPU counts: of the fair part
TARGET_CYCLIC_P99_RATIO = 1.2           # cyclictest beside hogs, p99 / EEVDF's
TARGET_RR_P99_RATIO = 1.2               # request/response wake-ups, p99 / EEVDF's
TARGET_RR_RPS_RATIO = 0.95              # requests per second / EEVDF's
PICK_SMALL, PICK_LARGE = 10, 1000
PICK_TC_N, PICK_TC_FEW, PICK_TC_MANY = 100, 1, 32

#: One row of a targets table; ok is True, False or None (cannot tell).
Target = namedtuple("Target", "section name measured ok")

NA = "n/a"


# --------------------------------------------------------------------------
# Small helpers: numbers, formatting, markdown.
# --------------------------------------------------------------------------

def warn(msg):
    """Print a warning on stderr."""
    print("report.py: warning: " + msg, file=sys.stderr)


def die(msg):
    """Print an error on stderr and exit with status 2."""
    print("report.py: error: " + msg, file=sys.stderr)
    sys.exit(2)


def num(value):
    """Return value as a float, or None if it is not a number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def pct(part, whole):
    """Return 100 * part / whole; None if either is missing or whole is 0."""
    part, whole = num(part), num(whole)
    if part is None or not whole:
        return None
    return 100.0 * part / whole


def ratio(a, b):
    """Return a / b, or None if either is missing or b is 0."""
    a, b = num(a), num(b)
    if a is None or not b:
        return None
    return a / b


def fmt(value, digits=1, suffix=""):
    """Format a number with a fixed number of decimals; None prints n/a."""
    value = num(value)
    if value is None:
        return NA
    return "%.*f%s" % (digits, value, suffix)


def fmt_rel(rel):
    """Format a ratio as a signed relative change ("+3.1%"); None is n/a."""
    rel = num(rel)
    return NA if rel is None else "%+.1f%%" % (100 * (rel - 1))


def fmt_int(value):
    """Format a count; None prints n/a."""
    value = num(value)
    return NA if value is None else "%d" % value


def status(ok):
    """PASS, MISS or n/a for a target result."""
    return NA if ok is None else ("PASS" if ok else "MISS")


def md_table(headers, rows):
    """Return the lines of a markdown table (cells are converted to str)."""
    def cell(c):
        return str(c).replace("|", "\\|")
    lines = ["| " + " | ".join(cell(h) for h in headers) + " |",
             "|" + "|".join("---" for _ in headers) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(cell(c) for c in row) + " |")
    return lines + [""]


def label_key(label):
    """Sort key putting the known labels first, in LABEL_ORDER."""
    label = str(label)
    if label in LABEL_ORDER:
        return (LABEL_ORDER.index(label), "")
    return (len(LABEL_ORDER), label)


def label_color(label, index):
    """Colour of a label in plots; unknown labels use the default cycle."""
    return LABEL_COLORS.get(label, "C%d" % (index % 10))


def hist_below(hist, limit, lo_key, bin_key):
    """Count of a histogram's samples in bins whose upper edge is <= limit.

    The first bin also holds everything below lo (bench/SCHEMA.md), so the
    result is exact when limit is a bin edge and a lower bound otherwise.
    Returns None when the histogram is absent or malformed.
    """
    if not isinstance(hist, dict):
        return None
    lo, width = num(hist.get(lo_key)), num(hist.get(bin_key))
    counts = hist.get("counts")
    if lo is None or not width or not isinstance(counts, list):
        return None
    return sum(num(c) or 0 for i, c in enumerate(counts)
               if lo + (i + 1) * width <= limit)


# --------------------------------------------------------------------------
# Loading the results directory.
# --------------------------------------------------------------------------

def read_json(path):
    """Parse one JSON file; exit 2 naming the file if it does not parse."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        die("%s: cannot parse JSON: %s" % (path, e))


class Results:
    """The records of one results directory, grouped by experiment.

    Attributes:
        env: the env.json object ({} if absent)
        records: every record (dict) read, in file name order
        files: number of raw/*.json files read
    """

    def __init__(self, results_dir):
        if not os.path.isdir(results_dir):
            die("results directory %s not found" % results_dir)
        raw = os.path.join(results_dir, "raw")
        if not os.path.isdir(raw):
            die("%s not found (expected raw/*.json records)" % raw)

        env_path = os.path.join(results_dir, "env.json")
        self.env = {}
        if os.path.exists(env_path):
            env = read_json(env_path)
            if isinstance(env, dict):
                self.env = env
            else:
                warn("%s: not a JSON object, ignored" % env_path)
        else:
            warn("%s not found; report header will say n/a" % env_path)

        paths = sorted(glob.glob(os.path.join(raw, "*.json")))
        if not paths:
            warn("%s holds no *.json records" % raw)
        self.files = len(paths)
        self.records = []
        self._by_exp = {}
        seen = {}
        for path in paths:
            rec = read_json(path)
            name = os.path.join("raw", os.path.basename(path))
            if not isinstance(rec, dict):
                warn("%s: not a JSON object, ignored" % name)
                continue
            self.records.append(rec)
            exp = rec.get("experiment")
            if exp not in RECORD_KEYS:
                warn("%s: unknown experiment %r, ignored" % (name, exp))
                continue
            if rec.get("schema") != 1:
                warn("%s: schema %r, expected 1" % (name, rec.get("schema")))
            key = (exp,) + tuple(str(rec.get(k)) for k in RECORD_KEYS[exp])
            if key in seen:
                warn("%s: same %s as %s, ignored"
                     % (name, "/".join(key), seen[key]))
                continue
            seen[key] = name
            self._by_exp.setdefault(exp, []).append(rec)
        for recs in self._by_exp.values():
            recs.sort(key=lambda r: label_key(r.get("label")))

    def get(self, experiment):
        """Records of an experiment, sorted by label (empty list if none)."""
        return self._by_exp.get(experiment, [])

    def by_label(self, experiment):
        """{label: record} for experiments with one record per label."""
        return {r.get("label"): r for r in self.get(experiment)}

    def labels(self, experiment):
        """Labels of an experiment's records, in report order, unique."""
        out = []
        for r in self.get(experiment):
            if r.get("label") not in out:
                out.append(r.get("label"))
        return out


# --------------------------------------------------------------------------
# Metrics of the application mix (fig3, fig5).
# --------------------------------------------------------------------------

def phases(rec):
    """The list of phases of a fig3/fig5 record (dicts only)."""
    ph = rec.get("phases") if isinstance(rec, dict) else None
    return [p for p in ph if isinstance(p, dict)] if isinstance(ph, list) \
        else []


def find_phase(rec, name=None):
    """The phase called name of a record (its first phase if name is None)."""
    for p in phases(rec):
        if name is None or p.get("name") == name:
            return p
    return None


def phase_apps(phase):
    """{app name: app dict} of a phase ({} if phase is None)."""
    apps = phase.get("apps") if isinstance(phase, dict) else None
    if not isinstance(apps, list):
        return {}
    return {a.get("app"): a for a in apps if isinstance(a, dict)}


def app_names(phase_list):
    """Union of the app names of some phases: MIX_APPS order, then others."""
    names = []
    for p in phase_list:
        names.extend(n for n in phase_apps(p) if n not in names)
    return ([n for n in MIX_APPS if n in names]
            + [n for n in names if n not in MIX_APPS])


def mix_app_names(phase_list):
    """All of MIX_APPS (the ideal has them all), then any other app seen."""
    return MIX_APPS + [n for n in app_names(phase_list) if n not in MIX_APPS]


def video_quality(app):
    """Percentages of a video app's frames; every value may be None.

    Returns a dict: frames, on_time, early, late, dropped (% of all frames),
    met (% of all frames displayed by their deadline = on time + early),
    displayed_on_time (on time as % of displayed frames).
    """
    app = app or {}
    frames = num(app.get("frames"))
    on_time, early = num(app.get("on_time")), num(app.get("early"))
    dropped = num(app.get("dropped"))
    displayed = None if frames is None or dropped is None \
        else frames - dropped
    met = None if on_time is None or early is None else on_time + early
    return {"frames": frames,
            "on_time": pct(on_time, frames), "early": pct(early, frames),
            "late": pct(app.get("late"), frames),
            "dropped": pct(dropped, frames), "met": pct(met, frames),
            "displayed_on_time": pct(on_time, displayed)}


def typing_quality(app):
    """Percentages of Typing's characters; every value may be None.

    Returns a dict: chars, processed (counts), lt50, lt150, gt150,
    unprocessed, lt100 (% of all characters typed; lt100 from the histogram),
    mean, p99 (latency in ms).
    """
    app = app or {}
    chars, processed = num(app.get("chars")), num(app.get("processed"))
    unprocessed = None if chars is None or processed is None \
        else chars - processed
    lat = app.get("latency_ms") if isinstance(app.get("latency_ms"), dict) \
        else {}
    return {"chars": chars, "processed": processed,
            "lt50": pct(app.get("lt50"), chars),
            "lt150": pct(app.get("lt150"), chars),
            "gt150": pct(app.get("gt150"), chars),
            "unprocessed": pct(unprocessed, chars),
            "lt100": pct(hist_below(app.get("hist"), 100, "lo_ms", "bin_ms"),
                         chars),
            "mean": num(lat.get("mean")), "p99": num(lat.get("p99"))}


def cpu_of(phase, app):
    """CPU % of an app in a phase ("other" = other_cpu_pct), or None."""
    if app == "other":
        return num((phase or {}).get("other_cpu_pct"))
    return num(phase_apps(phase).get(app, {}).get("cpu_pct"))


def notes_lines(recs):
    """Markdown bullets of the "notes" of some records (empty if none)."""
    lines = []
    for r in recs:
        notes = r.get("notes")
        for n in notes if isinstance(notes, list) else []:
            line = "- %s: %s" % (r.get("label"), n)
            if line not in lines:
                lines.append(line)
    return ["Notes from the runs:", ""] + lines + [""] if lines else []


def targets_table(targets):
    """Markdown lines of a targets table."""
    return md_table(["target", "measured", "result"],
                    [(t.name, t.measured, "**%s**" % status(t.ok))
                     for t in targets])


def video_rows(label, app, extra=()):
    """One row of a video quality table: label, extra cells, the numbers."""
    q = video_quality(app)
    err = (app or {}).get("error_ms")
    err = err if isinstance(err, dict) else {}
    return [label, *extra, fmt_int(q["frames"]), fmt(q["on_time"]),
            fmt(q["early"]), fmt(q["late"]), fmt(q["dropped"]),
            fmt(q["met"]), fmt(q["displayed_on_time"]),
            "%s ± %s" % (fmt(err.get("mean")), fmt(err.get("sd")))]


VIDEO_HEADERS = ["frames", "on time", "early", "late", "dropped",
                 "met deadline", "on time of displayed", "error (ms)"]


# --------------------------------------------------------------------------
# Report sections. Each returns markdown lines; targets are appended to the
# list passed in.
# --------------------------------------------------------------------------

def section_header(res, results_dir, counts):
    """Title, environment table and the overall targets count."""
    env = res.env
    rows = [(k, env.get(k, NA)) for k in
            ("mode", "kernel", "hz", "cpus", "clock", "commit", "date",
             "command")]
    lines = ["# SMART evaluation report", "",
             "Generated by `bench/report.py` from `%s`: %d records in %d "
             "files." % (os.path.basename(os.path.normpath(results_dir)),
                         len(res.records), res.files),
             "Percentages of frames are of all frames unless stated; times "
             "are virtual when QEMU runs with `-icount`.", ""]
    lines += md_table(["environment", "value"],
                      [("vCPUs" if k == "cpus" else k, "`%s`" % v
                        if k == "command" else v) for k, v in rows])
    lines += ["**Targets:** %d PASS, %d MISS, %d n/a (tables in each "
              "section)." % counts, ""]
    return lines


def section_fig3(res, targets):
    """Figure 3: the paper's mix with default parameters (section 6.4)."""
    lines = ["## Figure 3: the application mix (paper §6.4)", ""]
    recs = res.get("fig3")
    if not recs:
        return lines + ["Not run (no `fig3` records).", ""]
    labels = [r.get("label") for r in recs]
    ph = {r.get("label"): find_phase(r) for r in recs}
    lines += ["Run length: " + ", ".join(
        "%s %s s" % (r.get("label"), fmt(r.get("duration_s")))
        for r in recs) + ".", ""]

    # CPU allocation: apps x labels, plus the ideal of section 6.4.
    lines += ["### CPU allocation (% of CPU)", ""]
    rows = []
    for app in mix_app_names(ph.values()) + ["other"]:
        rows.append([app] + [fmt(cpu_of(ph[lb], app)) for lb in labels]
                    + [fmt(PAPER_FIG3_IDEAL_CPU.get(app))])
    total = [sum(v for v in (cpu_of(ph[lb], a)
                             for a in app_names([ph[lb]]) + ["other"])
                 if v is not None) for lb in labels]
    rows.append(["total"] + [fmt(t) for t in total]
                + [fmt(sum(PAPER_FIG3_IDEAL_CPU.values()))])
    lines += md_table(["app"] + labels + ["ideal (paper §6.4)"], rows)

    # Video quality, one table per video app, measured rows then the paper.
    for app in VIDEO_APPS:
        lines += ["### %s: frames (%% of all frames)" % app, ""]
        rows = [video_rows(lb, phase_apps(ph[lb]).get(app)) for lb in labels]
        for sched, vals in PAPER_FIG3_VIDEO:
            on_time, displayed, dropped = vals[app]
            rows.append(["paper %s (§6.4)" % sched, "—", fmt(on_time),
                         "—", "—", fmt(dropped) if dropped else "—",
                         "—",
                         fmt(displayed) if displayed else "—", "—"])
        lines += md_table(["scheduler"] + VIDEO_HEADERS, rows)

    # Audio.
    lines += ["### news-audio", ""]
    rows = []
    for lb in labels:
        a = phase_apps(ph[lb]).get("news-audio", {})
        rows.append([lb, fmt_int(a.get("segments")),
                     fmt_int(a.get("dropouts")),
                     fmt(a.get("dropout_ms")), fmt(a.get("cpu_pct"))])
    rows.append(["paper, all schedulers (§6.4)", "—", "0", "—", "—"])
    lines += md_table(["scheduler", "segments", "dropouts", "dropout (ms)",
                       "CPU %"], rows)

    # Typing.
    lines += ["### Typing (% of characters typed)", ""]
    rows = []
    for lb in labels:
        q = typing_quality(phase_apps(ph[lb]).get("typing"))
        rows.append([lb, fmt_int(q["chars"]), fmt_int(q["processed"]),
                     fmt(q["lt50"]), fmt(q["lt150"]), fmt(q["gt150"]),
                     fmt(q["unprocessed"]), fmt(q["mean"]), fmt(q["p99"])])
    typed, processed = PAPER_SVR4RT_TYPING
    rows.append(["paper SVR4-RT (§6.4)", typed, processed, "—", "—",
                 "nearly all", fmt(pct(typed - processed, typed)), "—",
                 "—"])
    lines += md_table(["scheduler", "chars", "processed", "< 50 ms",
                       "50–150 ms", "> 150 ms", "unprocessed", "mean (ms)",
                       "p99 (ms)"], rows)

    # Dhrystone.
    lines += ["### Dhrystone (CPU %)", ""]
    rows = []
    for lb in labels:
        d = phase_apps(ph[lb]).get("dhrystone", {})
        rel = ratio(d.get("cpu_pct"), d.get("ideal_pct"))
        rows.append([lb, fmt(d.get("cpu_pct")), fmt(d.get("ideal_pct")),
                     fmt_rel(rel)])
    rows.append(["paper SVR4-RT (§6.4)", fmt(PAPER_SVR4RT_DHRYSTONE_PCT),
                 "—", "—"])
    lines += md_table(["scheduler", "CPU %", "ideal %", "vs ideal"], rows)

    lines += bias_ablation(ph)
    own = fig3_targets(ph)
    targets.extend(own)
    lines += ["### Targets (Figure 3 mix)", ""] + targets_table(own)
    return lines + notes_lines(recs)


def bias_ablation(ph):
    """SMART vs SMART-nobias: relative gain of on-time frames from the bias."""
    if "SMART" not in ph or "SMART-nobias" not in ph:
        return []
    lines = ["### Bias ablation (SMART vs SMART-nobias)", ""]
    rows = []
    for app in VIDEO_APPS:
        on = video_quality(phase_apps(ph["SMART"]).get(app))["on_time"]
        off = video_quality(phase_apps(ph["SMART-nobias"]).get(app))["on_time"]
        gain = ratio(on, off)
        rows.append([app, fmt(on), fmt(off), fmt_rel(gain),
                     "+%d%%" % PAPER_BIAS_GAIN_PCT if app == "entertain"
                     else "—"])
    return lines + md_table(["app", "SMART on time %", "SMART-nobias on "
                             "time %", "relative gain from bias",
                             "paper (§6.4)"], rows)


def fig3_targets(ph):
    """Targets of the Figure 3 mix, all measured on the SMART label."""
    out = []
    smart = phase_apps(ph.get("SMART"))
    eevdf = phase_apps(ph.get("EEVDF"))
    for app, limit in TARGET_FIG3_ONTIME.items():
        on = video_quality(smart.get(app))["on_time"]
        out.append(Target("fig3", "SMART %s on time ≥ %.0f%% of all frames"
                          % (app, limit), fmt(on, 1, "%"),
                          None if on is None else on >= limit))
    for app in TARGET_FIG3_ONTIME:
        s = video_quality(smart.get(app))["on_time"]
        e = video_quality(eevdf.get(app))["on_time"]
        out.append(Target("fig3", "SMART beats EEVDF on %s on time" % app,
                          "SMART %s vs EEVDF %s" % (fmt(s, 1, "%"),
                                                    fmt(e, 1, "%")),
                          None if s is None or e is None else s > e))
    lt50 = typing_quality(smart.get("typing"))["lt50"]
    out.append(Target("fig3", "SMART Typing ≥ %.0f%% of chars < 50 ms"
                      % TARGET_TYPING_LT50_PCT, fmt(lt50, 1, "%"),
                      None if lt50 is None
                      else lt50 >= TARGET_TYPING_LT50_PCT))
    audio = smart.get("news-audio", {})
    drops = num(audio.get("dropouts"))
    out.append(Target("fig3", "SMART no audio dropouts",
                      "%s dropouts in %s segments"
                      % (fmt_int(drops), fmt_int(audio.get("segments"))),
                      None if drops is None else drops == 0))
    d = smart.get("dhrystone", {})
    rel = ratio(d.get("cpu_pct"), d.get("ideal_pct"))
    out.append(Target("fig3", "SMART Dhrystone CPU within %.0f%% of ideal"
                      % (100 * TARGET_DHRYSTONE_REL),
                      "%s vs ideal %s (%s)" % (
                          fmt(d.get("cpu_pct"), 1, "%"),
                          fmt(d.get("ideal_pct"), 1, "%"), fmt_rel(rel)),
                      None if rel is None
                      else abs(rel - 1) <= TARGET_DHRYSTONE_REL))
    return out + fig3_unmodified_targets(ph)


def fig3_unmodified_targets(ph):
    """Targets of the mix's unchanged programs under sched_smart=all."""
    if UNMODIFIED not in ph:
        return []
    out = []
    unmod = phase_apps(ph.get(UNMODIFIED))
    eevdf = phase_apps(ph.get("EEVDF"))
    for app in VIDEO_APPS:
        u = video_quality(unmod.get(app))["on_time"]
        e = video_quality(eevdf.get(app))["on_time"]
        out.append(Target("fig3", "%s %s on time ≥ EEVDF's" % (UNMODIFIED, app),
                          "%s vs EEVDF %s" % (fmt(u, 1, "%"), fmt(e, 1, "%")),
                          None if u is None or e is None else u >= e))
    lt50 = typing_quality(unmod.get("typing"))["lt50"]
    out.append(Target("fig3", "%s Typing %.0f%% of chars < 50 ms"
                      % (UNMODIFIED, TARGET_TYPING_UNMOD_LT50_PCT),
                      fmt(lt50, 1, "%"), None if lt50 is None
                      else lt50 >= TARGET_TYPING_UNMOD_LT50_PCT))
    d = unmod.get("dhrystone", {})
    rel = ratio(d.get("cpu_pct"), d.get("ideal_pct"))
    out.append(Target("fig3", "%s Dhrystone CPU within %.0f%% of ideal"
                      % (UNMODIFIED, 100 * TARGET_DHRYSTONE_REL),
                      "%s vs ideal %s (%s)" % (
                          fmt(d.get("cpu_pct"), 1, "%"),
                          fmt(d.get("ideal_pct"), 1, "%"), fmt_rel(rel)),
                      None if rel is None
                      else abs(rel - 1) <= TARGET_DHRYSTONE_REL))
    return out


# --------------------------------------------------------------------------
# The real-decode mix (smartbench realmix: smart-play on real clips).
# --------------------------------------------------------------------------

def realmix_players(rec):
    """{app: (player app record, its video stream, its audio stream)}."""
    out = {}
    for app, a in phase_apps(find_phase(rec)).items():
        if a.get("kind") != "player":
            continue
        streams = (a.get("player") or {}).get("streams") or []
        video = next((x for x in streams if x.get("kind") == "video"), {})
        audio = next((x for x in streams if x.get("kind") == "audio"), None)
        out[app] = (a, video, audio)
    return out


def realmix_on_time(video):
    """% of frames on time of a smart-play video stream (None if none)."""
    return pct(video.get("on_time"), video.get("frames"))


def section_realmix(res, targets):
    """The Figure 3 mix with real decoders, its targets and estimator."""
    recs = res.by_label("realmix")
    if not recs:
        return []
    labels = [lb for lb in REALMIX_LABELS if lb in recs] + \
        [lb for lb in recs if lb not in REALMIX_LABELS]
    lines = ["## Figure 3 with real decoders (smart-play, libavcodec)", "",
             "News is `smart-play news.mp4` (H.264 768x432 25 fps with B "
             "frames, AAC audio), Entertain `smart-play entertain.mkv` "
             "(MPEG-4 part 2 1280x720 30 fps with B frames), beside the "
             "synthetic Typing and Dhrystone; every task on CPU 0. Under "
             "SMART each frame is decoded under a time constraint and a B "
             "frame the kernel calls infeasible is skipped; the other "
             "labels run the same player with `--no-smart` (it skips the "
             "B frames its wall-clock estimate predicts late). A reference "
             "frame is decoded anyway unless it is over 200 ms late, which "
             "skips to the next key frame; after such a reference the "
             "player skips B frames until it is in time again. "
             "SMART-unmodified runs in the "
             "`sched_smart=all` boot; in the opt-in boot the fair server of "
             "CPU 0 runs 5 ms per 100 ms (sched-smart.rst 8).", ""]
    rows = []
    for lb in labels:
        players = realmix_players(recs[lb])
        apps = phase_apps(find_phase(recs[lb]))
        for app, (a, v, au) in players.items():
            rows.append([lb, app, fmt(a.get("cpu_pct")), fmt(v.get("demand_pct")),
                         fmt_int(v.get("frames")), fmt(realmix_on_time(v)),
                         fmt(pct(v.get("late"), v.get("frames"))),
                         fmt(pct(v.get("skipped"), v.get("frames"))),
                         fmt_int(v.get("decoded_anyway")),
                         "-" if au is None else "%s (%s ms)" % (
                             fmt_int(au.get("underruns")), fmt(au.get("underrun_ms"))),
                         fmt(typing_quality(apps.get("typing"))["lt50"]),
                         "%s / %s" % (fmt(apps.get("dhrystone", {}).get("cpu_pct")),
                                      fmt(apps.get("dhrystone", {}).get("ideal_pct")))])
    lines += md_table(["label", "player", "CPU %", "demand %", "frames",
                       "on time %", "late %", "skipped %", "refs decoded late",
                       "audio underruns", "Typing < 50 ms %",
                       "Dhrystone % / ideal"], rows)
    paper = dict(PAPER_FIG3_VIDEO)
    lines += ["", "The paper's synthetic players (§6.4, %% of frames on time): "
              "SMART News %d, Entertain %d; WFQ %d and %d; SVR4 time-sharing "
              "%d and %d." % (paper["SMART"]["news-video"][0],
                              paper["SMART"]["entertain"][0],
                              paper["WFQ"]["news-video"][0],
                              paper["WFQ"]["entertain"][0],
                              paper["SVR4-TS"]["news-video"][0],
                              paper["SVR4-TS"]["entertain"][0]), ""]
    # the estimator, per frame type (the paper's Figure 2 in spirit)
    smart = recs.get("SMART")
    if smart:
        rows = []
        for app, (a, v, au) in realmix_players(smart).items():
            for st in [v] + ([au] if au else []):
                for t, x in sorted((st.get("types") or {}).items()):
                    cpu = x.get("cpu_ms") or {}
                    err = x.get("estimate_error_pct") or {}
                    rows.append([app, st.get("kind"), t, fmt_int(x.get("decoded")),
                                 fmt(cpu.get("mean"), 2), fmt(cpu.get("sd"), 2),
                                 fmt(cpu.get("p99"), 2), fmt(err.get("mean")),
                                 fmt(err.get("mean_abs"))])
        lines += ["### The estimator per frame type (SMART label)", "",
                  "CPU time per decoded frame, and the error of the "
                  "estimate (exponential average of the type plus 10%) "
                  "relative to it: positive is an estimate above what the "
                  "frame took.", ""]
        lines += md_table(["player", "stream", "type", "decoded",
                           "CPU ms mean", "sd", "p99", "estimate error % mean",
                           "mean |error| %"], rows) + [""]
    own = realmix_targets(recs)
    targets += own
    lines += ["### Targets (real decoders)", ""] + targets_table(own)
    return lines + [""]


def realmix_targets(recs):
    """Targets of the real-decode mix, measured on the SMART label."""
    out = []
    smart, eevdf = recs.get("SMART"), recs.get("EEVDF")
    if not smart:
        return out
    sp = realmix_players(smart)
    ep = realmix_players(eevdf) if eevdf else {}
    for app in sp:
        s = realmix_on_time(sp[app][1])
        e = realmix_on_time(ep[app][1]) if app in ep else None
        out.append(Target("realmix", "SMART %s on time ≥ EEVDF + %d points"
                          % (app, TARGET_REALMIX_GAIN_POINTS),
                          "SMART %s vs EEVDF %s" % (fmt(s, 1, "%"), fmt(e, 1, "%")),
                          None if s is None or e is None
                          else s >= e + TARGET_REALMIX_GAIN_POINTS))
    apps = phase_apps(find_phase(smart))
    lt50 = typing_quality(apps.get("typing"))["lt50"]
    out.append(Target("realmix", "SMART Typing 100% of chars < 50 ms",
                      fmt(lt50, 1, "%"), None if lt50 is None else lt50 >= 100))
    under = [au for _, _, au in sp.values() if au is not None]
    n = sum(num(au.get("underruns")) or 0 for au in under)
    out.append(Target("realmix", "SMART no audio underrun",
                      "%s underruns" % fmt_int(n) if under else NA,
                      None if not under else n == 0))
    d = apps.get("dhrystone", {})
    rel = ratio(d.get("cpu_pct"), d.get("ideal_pct"))
    out.append(Target("realmix", "SMART Dhrystone CPU within %.0f%% of ideal"
                      % (100 * TARGET_DHRYSTONE_REL),
                      "%s vs ideal %s (%s)" % (fmt(d.get("cpu_pct"), 1, "%"),
                                               fmt(d.get("ideal_pct"), 1, "%"),
                                               fmt_rel(rel)),
                      None if rel is None else abs(rel - 1) <= TARGET_DHRYSTONE_REL))
    return out


def section_fig5(res, targets):
    """Figure 5: priorities, shares and a load change (paper section 6.5)."""
    lines = ["## Figure 5: priorities, shares and a load change (paper §6.5)",
             ""]
    recs = res.get("fig5")
    if not recs:
        return lines + ["Not run (no `fig5` records).", ""]
    # Columns: every (label, phase) pair present.
    cols = [(r.get("label"), p) for r in recs for p in phases(r)]
    lines += ["Phases: " + "; ".join(
        "%s %s %s–%s s" % (lb, p.get("name"), fmt(p.get("start_s")),
                           fmt(p.get("end_s"))) for lb, p in cols) + ".", ""]
    controls = []
    for lb, p in cols:
        for name, a in phase_apps(p).items():
            if "priority" in a or "share" in a:
                item = "%s %s: priority %s, share %s" % (
                    lb, name, a.get("priority", NA), a.get("share", NA))
            elif "nice" in a:
                item = "%s %s: nice %s" % (lb, name, a["nice"])
            else:
                continue
            if item not in controls:
                controls.append(item)
    if controls:
        lines += ["Controls: " + "; ".join(controls) + ".", ""]

    lines += ["### CPU allocation (% of CPU)", ""]
    rows = [[app] + [fmt(cpu_of(p, app)) for _, p in cols]
            for app in app_names(p for _, p in cols) + ["other"]]
    lines += md_table(["app"] + ["%s %s" % (lb, p.get("name"))
                                 for lb, p in cols], rows)

    lines += ["### Video (% of all frames)", ""]
    rows = [video_rows(lb, phase_apps(p)[app], (p.get("name"), app))
            for app in VIDEO_APPS for lb, p in cols if app in phase_apps(p)]
    lines += md_table(["scheduler", "phase", "app"] + VIDEO_HEADERS, rows)

    lines += ["### news-audio and Typing", ""]
    rows = []
    for lb, p in cols:
        apps = phase_apps(p)
        a = apps.get("news-audio", {})
        q = typing_quality(apps.get("typing"))
        rows.append([lb, p.get("name"), fmt_int(a.get("dropouts")),
                     fmt_int(q["chars"]), fmt(q["lt50"]), fmt(q["lt100"]),
                     fmt(q["gt150"]), fmt(q["unprocessed"]), fmt(q["mean"]),
                     fmt(q["p99"])])
    lines += md_table(["scheduler", "phase", "audio dropouts", "chars",
                       "< 50 ms %", "< 100 ms %", "> 150 ms %",
                       "unprocessed %", "mean (ms)", "p99 (ms)"], rows)
    lines += ["Paper (§6.5, Figure 5, SMART):", ""] + \
        ["- " + s for s in PAPER_FIG5] + [""]

    own = fig5_targets(res.by_label("fig5").get("SMART"))
    targets.extend(own)
    lines += ["### Targets (Figure 5)", ""] + targets_table(own)
    return lines + notes_lines(recs)


def fig5_targets(rec):
    """Targets of Figure 5, measured on the SMART record (may be None)."""
    out = []
    for phase, app, limit in TARGET_FIG5_ONTIME:
        on = video_quality(phase_apps(find_phase(rec, phase)).get(app))[
            "on_time"]
        out.append(Target("fig5", "SMART %s %s on time ≥ %.0f%%"
                          % (phase, app, limit), fmt(on, 1, "%"),
                          None if on is None else on >= limit))
    p1 = find_phase(rec, "phase1")
    r = ratio(cpu_of(p1, "entertain"), cpu_of(p1, "dhrystone"))
    lo, hi = TARGET_FIG5_RATIO
    out.append(Target("fig5", "SMART phase1 entertain:dhrystone CPU in "
                      "[%.1f, %.1f] (2:1)" % (lo, hi),
                      "%s (%s / %s)" % (fmt(r, 2),
                                        fmt(cpu_of(p1, "entertain"), 1, "%"),
                                        fmt(cpu_of(p1, "dhrystone"), 1, "%")),
                      None if r is None else lo <= r <= hi))
    return out


def berate_columns(recs):
    """The (label, variant) pairs of berate records, in report order."""
    cols = {(r.get("label"), r.get("variant")) for r in recs}
    return sorted(cols, key=lambda c: (label_key(c[0]),
                                       VARIANT_ORDER.index(c[1])
                                       if c[1] in VARIANT_ORDER else 99,
                                       str(c[1])))


def keyed_apps(rec):
    """[(key, app dict)] of a berate record, keys unique within the record.

    Case 2 runs two identical srtsim apps under the same name: the k-th app
    of a name (k >= 2) gets the key "<name> #k".
    """
    out, seen = [], {}
    apps = rec.get("apps") if isinstance(rec.get("apps"), list) else []
    for a in (a for a in apps if isinstance(a, dict)):
        name = a.get("app")
        seen[name] = seen.get(name, 0) + 1
        out.append((name if seen[name] == 1 else "%s #%d" % (name, seen[name]),
                    a))
    return out


def berate_apps(recs, case, kind=None):
    """The apps of a case across records: {key: first app dict seen}.

    In order of appearance (keys from keyed_apps); kind: keep only apps of
    that kind ("srt") if given.
    """
    apps = {}
    for r in recs:
        if r.get("case") == case:
            for key, a in keyed_apps(r):
                if kind is None or a.get("kind") == kind:
                    apps.setdefault(key, a)
    return apps


def berate_app(recs, case, col, key):
    """The app dict with that key (keyed_apps) of the record (case, col).

    col is a (label, variant) pair; returns None if there is no such app.
    """
    for r in recs:
        if r.get("case") == case and (r.get("label"), r.get("variant")) == col:
            return dict(keyed_apps(r)).get(key)
    return None


def berate_missed(app):
    """% of an srtsim app's jobs that missed their deadline, or None."""
    return pct(app.get("missed"), app.get("jobs")) if app else None


def paper_berate_rows(case, srt_apps):
    """Paper Table 1 values matched to our srtsim apps of a case.

    srt_apps: {name: app dict}. Each paper row (fps, util, ...) is used
    once, matched on fps (and util when known) in order; returns
    {app name: (100 Hz, 800 Hz, BeRate)}.
    """
    unused = list(PAPER_BERATE.get(case, ("", []))[1])
    out = {}
    for name, app in srt_apps.items():
        fps, util = num(app.get("fps")), num(app.get("util_pct"))
        for row in unused:
            if fps == row[0] and util in (None, row[1]):
                out[name] = row[2:]
                unused.remove(row)
                break
    return out


def section_berate(res, targets):
    """BeRate Table 1: % deadlines missed per case and srtsim app."""
    lines = ["## BeRate Table 1: % deadlines missed (Banachowski & Brandt)",
             ""]
    recs = res.get("berate")
    if not recs:
        return lines + ["Not run (no `berate` records).", ""]
    bad = [r for r in recs if not isinstance(r.get("case"), int)]
    if bad:
        warn("%d berate record(s) without an integer case, ignored" % len(bad))
        recs = [r for r in recs if r not in bad]
    cols = berate_columns(recs)
    col_names = ["%s %s" % c for c in cols]
    cases = sorted({r.get("case") for r in recs})
    # The target is on the player that drops what it is notified of (the
    # SMART paper's §6.1), when that variant ran; else on the one that
    # never drops.
    target_col = (("SMART", "dropping") if ("SMART", "dropping") in cols
                  else ("SMART", "constraints"))
    rows, own = [], []
    for case in sorted(set(PAPER_BERATE) | set(cases)):
        mix, paper_rows = PAPER_BERATE.get(case, ("", []))
        srt = berate_apps(recs, case, "srt")
        names = list(srt)
        paper = paper_berate_rows(case, srt)
        # Rows: our srtsim apps; when a case was not run, the paper's rows.
        run = bool(names)
        if not run:
            names = ["srtsim %d fps %d%% (not run)" % (p[0], p[1])
                     for p in paper_rows]
            paper = {n: p[2:] for n, p in zip(names, paper_rows)}
        for name in names:
            missed = {c: berate_missed(berate_app(recs, case, c, name))
                      for c in cols}
            if not run:
                cell = "not run"
            elif case in TARGET_BERATE_CASES:
                m = missed.get(target_col)
                ok = None if m is None else m <= TARGET_BERATE_MISSED_PCT
                cell = status(ok)
                own.append(Target("berate", "case %d %s: SMART %s "
                                  "≤ %.1f%% missed"
                                  % (case, name, target_col[1],
                                     TARGET_BERATE_MISSED_PCT),
                                  fmt(m, 1, "%"), ok))
            else:
                cell = "— (no target)"
            if run and case in TARGET_BERATE_CASES:
                for col in cols:
                    if col[0] != UNMODIFIED:
                        continue
                    m = missed.get(col)
                    own.append(Target("berate", "case %d %s: %s %s ≤ %.1f%% "
                                      "missed" % (case, name, col[0], col[1],
                                                  TARGET_BERATE_MISSED_PCT),
                                      fmt(m, 1, "%"), None if m is None
                                      else m <= TARGET_BERATE_MISSED_PCT))
            rows.append([case, mix, name]
                        + [fmt(missed[c]) if run else "—" for c in cols]
                        + list(paper.get(name, ("—",) * 3)) + [cell])
    lines += md_table(["case", "mix", "app"] + col_names
                      + ["paper Linux 100 Hz", "paper Linux 800 Hz",
                         "paper BeRate", "target ≤ %.1f%% (SMART "
                         "%s)" % (TARGET_BERATE_MISSED_PCT, target_col[1])],
                      rows)

    lines += ["### After the first second",
              "",
              "% of the jobs released at least 1 s after the start that "
              "missed their deadline. The first jobs start at the same "
              "instant as every other task, before any has a scheduling "
              "history, which weighs on short runs.",
              ""]
    rows = []
    for case in cases:
        for name in berate_apps(recs, case, "srt"):
            cells = []
            for c in cols:
                a = berate_app(recs, case, c, name) or {}
                cells.append(fmt(pct(a.get("missed_after_1s"),
                                     a.get("jobs_after_1s"))))
            rows.append([case, name] + cells)
    lines += md_table(["case", "app"] + col_names, rows)

    lines += ["### CPU % per app", ""]
    rows = []
    for case in cases:
        for name in berate_apps(recs, case):
            rows.append([case, name] + [
                fmt((berate_app(recs, case, c, name) or {}).get("cpu_pct"))
                for c in cols])
    lines += md_table(["case", "app"] + col_names, rows)
    targets.extend(own)
    lines += ["### Targets (BeRate)", ""] + targets_table(own)
    return lines + notes_lines(recs)


def smart_vs_eevdf(recs, value_key, param_keys):
    """Rows (params, SMART, EEVDF, ratio) of an overhead per parameter set."""
    out = []
    params = []
    for r in recs:
        p = tuple(r.get(k) for k in param_keys)
        if p not in params:
            params.append(p)
    for p in params:
        vals = {r.get("label"): r.get(value_key) for r in recs
                if tuple(r.get(k) for k in param_keys) == p}
        out.append((p, vals.get("SMART"), vals.get("EEVDF"),
                    ratio(vals.get("SMART"), vals.get("EEVDF"))))
    return out


def section_overheads(res, targets):
    """Context switch, hackbench, pick cost, syscall cost, wake-up latency."""
    lines = ["## Overheads (paper §6.3)", ""]
    if not any(res.get(e) for e in ("ctxsw", "hackbench", "pick", "syscall",
                                    "wakeup")):
        return lines + ["Not run (no `ctxsw`, `hackbench`, `pick`, `syscall`"
                        " or `wakeup` records).", ""]
    own = []

    lines += ["### Context switch (ping-pong)", ""]
    recs = res.get("ctxsw")
    if recs:
        lines += md_table(["scheduler", "method", "round trips",
                           "µs per switch"],
                          [(r.get("label"), r.get("method", NA),
                            fmt_int(r.get("round_trips")),
                            fmt(r.get("us_per_switch"), 2)) for r in recs])
        for (method,), s, e, q in smart_vs_eevdf(recs, "us_per_switch",
                                                 ("method",)):
            own.append(Target("overheads", "context switch (%s) SMART/EEVDF"
                              " ≤ %.2f" % (method, TARGET_CTXSW_RATIO),
                              "%s (%s / %s µs)" % (fmt(q, 3), fmt(s, 2),
                                                   fmt(e, 2)),
                              None if q is None else q <= TARGET_CTXSW_RATIO))
    else:
        lines += ["Not run.", ""]
    lines += ["Paper (§6.3, 150 MHz SPARC, measured in the application mix): "
              + ", ".join("%s %d µs" % p for p in PAPER_CTXSW_US)
              + " (SMART/WFQ %.2f)." % (PAPER_CTXSW_US[2][1]
                                        / PAPER_CTXSW_US[1][1]), ""]

    lines += ["### hackbench", ""]
    recs = res.get("hackbench")
    if recs:
        lines += md_table(["scheduler", "groups", "loops", "seconds"],
                          [(r.get("label"), fmt_int(r.get("groups")),
                            fmt_int(r.get("loops")), fmt(r.get("seconds"), 3))
                           for r in recs])
        lines += ["SMART/EEVDF: " + "; ".join(
            "%s groups × %s loops: %s" % (fmt_int(g), fmt_int(lp), fmt(q, 3))
            for (g, lp), _, _, q in smart_vs_eevdf(recs, "seconds",
                                                   ("groups", "loops")))
            + " (no target; lower is faster).", ""]
    else:
        lines += ["Not run.", ""]

    lines += ["### Pick cost vs runnable and constrained tasks "
              "(µs per switch)", ""]
    recs = res.get("pick")
    if recs:
        labels = res.labels("pick")
        points = sorted({(r.get("runnable"), r.get("constrained"))
                         for r in recs}, key=lambda p: (num(p[1]) or 0,
                                                        num(p[0]) or 0))
        cost = {(r.get("label"), r.get("runnable"), r.get("constrained")):
                r.get("us_per_switch") for r in recs}
        lines += md_table(["runnable", "constrained"] + labels,
                          [[fmt_int(n), fmt_int(c)]
                           + [fmt(cost.get((lb, n, c)), 2) for lb in labels]
                           for n, c in points])
        growth = {lb: ratio(cost.get((lb, PICK_LARGE, 0)),
                            cost.get((lb, PICK_SMALL, 0))) for lb in labels}
        lines += ["cost(%d)/cost(%d) runnable, none constrained: " %
                  (PICK_LARGE, PICK_SMALL) + ", ".join(
                      "%s %s" % (lb, fmt(growth[lb], 2)) for lb in labels)
                  + ".", ""]
        q = growth.get("SMART")
        own.append(Target("overheads", "SMART pick cost(%d)/cost(%d) ≤ %.0f"
                          % (PICK_LARGE, PICK_SMALL, TARGET_PICK_RATIO),
                          fmt(q, 2), None if q is None
                          else q <= TARGET_PICK_RATIO))
        q = ratio(cost.get(("SMART", PICK_TC_N, PICK_TC_MANY)),
                  cost.get(("SMART", PICK_TC_N, PICK_TC_FEW)))
        if q is not None:
            lines += ["cost(%d constrained)/cost(%d constrained) of %d "
                      "runnable: SMART %s." % (PICK_TC_MANY, PICK_TC_FEW,
                                               PICK_TC_N, fmt(q, 2)), ""]
            own.append(Target("overheads", "SMART pick cost(%d constrained)/"
                              "cost(%d) ≤ %.0f" % (PICK_TC_MANY, PICK_TC_FEW,
                                                   TARGET_PICK_TC_RATIO),
                              fmt(q, 2), q <= TARGET_PICK_TC_RATIO))
    else:
        lines += ["Not run.", ""]

    lines += ["### System call cost (ns per call)", ""]
    recs = res.get("syscall")
    if recs:
        labels = res.labels("syscall")
        calls = []
        for r in recs:
            if r.get("call") not in calls:
                calls.append(r.get("call"))
        ns = {(r.get("label"), r.get("call")): r.get("ns_per_call")
              for r in recs}
        lines += md_table(["call"] + labels,
                          [[c] + [fmt(ns.get((lb, c)), 0) for lb in labels]
                           for c in calls])
        base = [num(ns.get(("SMART", c)))
                for c in ("sched_setattr", "sched_getattr")]
        q = ratio(ns.get(("SMART", "constraint_begin+end")),
                  None if None in base else sum(base))
        own.append(Target("overheads", "SMART constraint begin+end / "
                          "(sched_setattr + sched_getattr) ≤ %.1f"
                          % TARGET_SYSCALL_RATIO, fmt(q, 2),
                          None if q is None else q <= TARGET_SYSCALL_RATIO))
    else:
        lines += ["Not run.", ""]
    lines += ["For reference only (paper §6.3, 150 MHz SPARC): "
              + ", ".join("%s %d µs" % p for p in PAPER_SYSCALL_US) + ".", ""]

    lines += ["### Wake-up latency (µs)", ""]
    recs = res.get("wakeup")
    if recs:
        rows = []
        for r in recs:
            us = r.get("us") if isinstance(r.get("us"), dict) else {}
            tool = str(r.get("tool", NA)).split(" (")[0]    # drop remarks
            rows.append([r.get("label"), tool, r.get("load", NA),
                         fmt_int(r.get("samples"))]
                        + [fmt(us.get(k)) for k in
                           ("min", "mean", "p50", "p99", "max")])
        lines += md_table(["scheduler", "tool", "load", "samples", "min",
                           "mean", "p50", "p99", "max"], rows)
    else:
        lines += ["Not run.", ""]

    targets.extend(own)
    lines += ["### Targets (overheads)", ""] + targets_table(own)
    return lines


def section_throughput(res, targets):
    """SMP throughput: hackbench and perf bench sched, SMART vs EEVDF."""
    lines = ["## SMP throughput (hackbench, perf bench sched)", ""]
    recs = res.get("throughput")
    if not recs:
        return lines + ["Not run (no `throughput` records).", ""]
    own = []
    lines += ["Elapsed time (median of the runs), and the context switches "
              "and migrations of the whole machine per run. SMART runs "
              "under `smartctl run` in the opt-in boot, SMART-all in a "
              "`sched_smart=all` boot; both are compared with EEVDF of the "
              "opt-in boot under the same clock.", ""]
    keys = sorted({(r.get("clock"), r.get("cpus")) for r in recs},
                  key=lambda k: (str(k[0]), num(k[1]) or 0))
    for clock, cpus in keys:
        sub = [r for r in recs if r.get("clock") == clock
               and r.get("cpus") == cpus]
        by = {(r.get("workload"), r.get("label")): r for r in sub}
        work = []
        for r in sub:
            if r.get("workload") not in work:
                work.append(r.get("workload"))
        rows = []
        for w in work:
            e = by.get((w, "EEVDF"), {})
            row_ = [w]
            for lb in ("EEVDF", "SMART", "SMART-all"):
                r = by.get((w, lb), {})
                row_ += [fmt(r.get("seconds"), 3),
                         fmt_int(r.get("context_switches")),
                         fmt_int(r.get("migrations"))]
            for lb in ("SMART", "SMART-all"):
                q = ratio(by.get((w, lb), {}).get("seconds"), e.get("seconds"))
                row_.append(fmt(q, 2))
                if q is not None:
                    own.append(Target("throughput", "%s %s, %s vCPUs, %s: "
                                      "%s/EEVDF ≤ %.2f" % (w, lb, cpus, clock,
                                                           lb,
                                                           TARGET_THROUGHPUT_RATIO),
                                      fmt(q, 2), q <= TARGET_THROUGHPUT_RATIO))
            rows.append(row_)
        lines += ["### %s vCPUs, clock %s" % (fmt_int(cpus), clock), ""]
        lines += md_table(["workload", "EEVDF s", "ctxsw", "migr",
                           "SMART s", "ctxsw", "migr", "SMART-all s", "ctxsw",
                           "migr", "SMART/EEVDF", "SMART-all/EEVDF"], rows)
    targets.extend(own)
    lines += ["### Targets (throughput)", ""] + targets_table(own)
    return lines


def section_spread(res, targets):
    """Fairness across CPUs: nCPU + 1 hogs, each one's % of a CPU."""
    lines = ["## Fairness across CPUs (nCPU + 1 hogs)", ""]
    recs = res.get("spread")
    if not recs:
        return lines + ["Not run (no `spread` records).", ""]
    own = []
    lines += ["Each hog's CPU time over the window, in % of one CPU; the "
              "fair part is nCPU / (nCPU + 1). Per-CPU queues alone give "
              "the hog alone on its CPU 100% and the others 50%.", ""]
    rows = []
    for r in sorted(recs, key=lambda r: (str(r.get("clock")),
                                         num(r.get("cpus")) or 0,
                                         label_key(r.get("label")))):
        cpus, hogs = num(r.get("cpus")), num(r.get("hogs"))
        shares = [num(v) for v in r.get("cpu_pct") or []]
        if not cpus or not hogs or not shares or None in shares:
            continue
        fair = 100.0 * cpus / hogs
        tol = TARGET_SPREAD_POINTS.get(int(cpus), TARGET_SPREAD_REL * fair)
        worst = max(abs(v - fair) for v in shares)
        rows.append([r.get("label"), fmt_int(cpus), r.get("clock"),
                     fmt(r.get("duration_s"), 0),
                     " / ".join(fmt(v) for v in shares), fmt(fair),
                     fmt(worst)])
        if r.get("label") != "EEVDF":
            own.append(Target("spread", "%s, %d hogs on %d vCPUs, %s: each "
                              "%.0f%% ± %.0f" % (r.get("label"), hogs, cpus,
                                                 r.get("clock"), fair, tol),
                              " / ".join(fmt(v) for v in shares),
                              worst <= tol))
    lines += md_table(["label", "vCPUs", "clock", "s", "% of a CPU each",
                       "fair %", "worst |Δ|"], rows)
    targets.extend(own)
    lines += ["### Targets (spread)", ""] + targets_table(own)
    return lines


def with_eevdf(recs):
    """Each SMP latency record (by clock, vCPUs, label) with EEVDF's of the
    same clock and vCPUs ({} if none)."""
    for r in sorted(recs, key=lambda r: (str(r.get("clock")),
                                         num(r.get("cpus")) or 0,
                                         label_key(r.get("label")))):
        yield r, next((x for x in recs if x.get("label") == "EEVDF"
                       and x.get("clock") == r.get("clock")
                       and x.get("cpus") == r.get("cpus")), {})


def section_cyclictest(res, targets):
    """Wake-up latency beside hogs: rt-tests' cyclictest, SMART vs EEVDF."""
    lines = ["## Wake-up latency beside hogs (cyclictest)", ""]
    recs = res.get("cyclictest")
    if not recs:
        return lines + ["Not run (no `cyclictest` records).", ""]
    own = []
    lines += ["`cyclictest --policy=other`, one thread per CPU waking every "
              "1 ms, beside two busy loops per CPU; latency of each wake-up "
              "in µs. SMART-all runs them as they are in a `sched_smart=all` "
              "boot (SCHED_OTHER is SMART there), against EEVDF of the "
              "opt-in boot under the same clock; cyclictest sets its own "
              "policy, so it has no SMART label in the opt-in boot.", ""]
    rows = []
    for r, e in with_eevdf(recs):
        q = ratio(r.get("p99_us"), e.get("p99_us"))
        rows.append([r.get("label"), fmt_int(r.get("cpus")), r.get("clock"),
                     fmt_int(r.get("samples")), fmt_int(r.get("p50_us")),
                     fmt_int(r.get("p99_us")), fmt_int(r.get("max_us")),
                     fmt_int(r.get("overflows")),
                     fmt(q, 2) if r.get("label") != "EEVDF" else ""])
        if r.get("label") != "EEVDF" and q is not None:
            own.append(Target("cyclictest", "%s, %s vCPUs, %s: p99/EEVDF ≤ "
                              "%.1f" % (r.get("label"), r.get("cpus"),
                                        r.get("clock"),
                                        TARGET_CYCLIC_P99_RATIO),
                              fmt(q, 2), q <= TARGET_CYCLIC_P99_RATIO))
    lines += md_table(["label", "vCPUs", "clock", "wake-ups", "p50 µs",
                       "p99 µs", "max µs", "over", "p99/EEVDF"], rows)
    targets.extend(own)
    lines += ["### Targets (cyclictest)", ""] + targets_table(own)
    return lines


def section_rrlat(res, targets):
    """Request/response wake-ups and throughput: rrlat, SMART vs EEVDF."""
    lines = ["## Request/response wake-ups (rrlat)", ""]
    recs = res.get("rrlat")
    if not recs:
        return lines + ["Not run (no `rrlat` records).", ""]
    own = []
    lines += ["`rrlat` (bench/src/rrlat.c, schbench-like): message threads "
              "wake workers that compute and sleep; the workers' wake-up "
              "latency in µs and requests per second, medians of the "
              "measured windows. SMART runs every thread as SCHED_SMART in "
              "the opt-in boot, SMART-all the unmodified program in a "
              "`sched_smart=all` boot; both against EEVDF of the opt-in "
              "boot under the same clock.", ""]
    rows = []
    for r, e in with_eevdf(recs):
        q = ratio(r.get("p99_us"), e.get("p99_us"))
        t = ratio(r.get("rps"), e.get("rps"))
        mine = r.get("label") != "EEVDF"
        rows.append([r.get("label"), fmt_int(r.get("cpus")), r.get("clock"),
                     fmt_int(len(r.get("runs") or [])), fmt(num(r.get("rps")), 0),
                     fmt(num(r.get("p50_us")), 0), fmt(num(r.get("p99_us")), 0),
                     fmt(q, 2) if mine else "", fmt(t, 2) if mine else ""])
        if not mine:
            continue
        where = "%s, %s vCPUs, %s" % (r.get("label"), r.get("cpus"),
                                      r.get("clock"))
        if q is not None:
            own.append(Target("rrlat", "%s: p99/EEVDF ≤ %.1f" %
                              (where, TARGET_RR_P99_RATIO), fmt(q, 2),
                              q <= TARGET_RR_P99_RATIO))
        if t is not None:
            own.append(Target("rrlat", "%s: requests/s / EEVDF ≥ %.2f" %
                              (where, TARGET_RR_RPS_RATIO), fmt(t, 2),
                              t >= TARGET_RR_RPS_RATIO))
    lines += md_table(["label", "vCPUs", "clock", "windows", "requests/s",
                       "p50 µs", "p99 µs", "p99/EEVDF", "req/s / EEVDF"],
                      rows)
    targets.extend(own)
    lines += ["### Targets (rrlat)", ""] + targets_table(own)
    return lines


def groups_scale(recs, label):
    """{(threads, depth): iterations} of the scale runs of @label."""
    return {(r.get("threads"), r.get("depth")): num(r.get("iterations"))
            for r in recs if r.get("kind") == "scale" and
            r.get("label") == label}


def groups_record(recs, kind, label):
    """The groups record of @kind (fluct, periodic) under @label, or None."""
    return next((r for r in recs if r.get("kind") == kind and
                 r.get("label") == label), None)


def hist_percentile(hist, bin_ms, q):
    """Upper edge (ms) of the bin where fraction @q of the samples is."""
    total = sum(hist or [])
    if not total:
        return None
    run = 0
    for i, c in enumerate(hist):
        run += c
        if run >= q * total:
            return (i + 1) * bin_ms
    return len(hist) * bin_ms


def section_groups(res, targets):
    """Task groups (cgroup v2 cpu.weight): SFQ-H section 5 experiments."""
    lines = ["## Task groups (SFQ-H §5 on cgroup v2 cpu.weight)", ""]
    recs = res.get("groups")
    if not recs:
        return lines + ["Not run (no `groups` records).", ""]
    own = []
    labels = [lb for lb in ("SMART", "EEVDF")
              if any(r.get("label") == lb for r in recs)]
    lines += ["`grpbench` (bench/src/grpbench.c), every task on CPU 0, "
              "SMART (opt-in, `SCHED_SMART`) and EEVDF in the same boot.", "",
              "### Figure 7: cost of the hierarchy", "",
              "Loop iterations of N spinning processes in a leaf group, "
              "relative to the same processes in no group (the paper: "
              "within 1%); and of 5 processes in a leaf d groups deep, "
              "relative to no group (the paper: within 0.2%).", ""]
    rows = []

    def point(lb, sc, n, d, group, name, rel):
        """One row of (n threads, depth d) against no group; its target."""
        q = ratio(sc.get((n, d)), sc.get((n, 0)))
        rows.append([lb, "%s threads" % n, group, fmt_int(sc.get((n, 0))),
                     fmt_int(sc.get((n, d))), fmt(q, 4)])
        if lb == "SMART" and q is not None:
            own.append(Target("groups", name, fmt(q, 4), abs(q - 1) <= rel))

    for lb in labels:
        sc = groups_scale(recs, lb)
        for (n, d) in sorted(k for k in sc if k[1] == 1):
            point(lb, sc, n, 1, "leaf (depth 1)",
                  "SMART %s threads in a leaf: within %.0f%% of no group" %
                  (n, 100 * TARGET_GROUP_THREADS_REL),
                  TARGET_GROUP_THREADS_REL)
        for (n, d) in sorted(k for k in sc if k[0] == 5 and k[1] > 1):
            point(lb, sc, 5, d, "depth %s" % d,
                  "SMART leaf at depth %s: within %.1f%% of no group" %
                  (d, 100 * TARGET_GROUP_DEPTH_REL), TARGET_GROUP_DEPTH_REL)
    lines += md_table(["label", "load", "group", "iterations, no group",
                       "iterations, in group", "ratio"], rows)

    lines += ["### Figure 8: 1:3 under a fluctuating third group, and "
              "isolation", "",
              "Groups a and b (cpu.weight 100 and 300, 2 hogs each); group "
              "c (100) has 0, 2, 6, 2, ... hogs, changing every second. "
              "CPU ms per second; a:b should stay 1:3. Then a (1 hog) "
              "against b (8 hogs) at equal weights: a should get 50%.", ""]
    rows = []
    for lb in labels:
        r = groups_record(recs, "fluct", lb)
        if not r:
            continue
        secs = r.get("seconds") or []
        errs = []
        for s in secs:
            q = ratio(s.get("a_ms"), s.get("b_ms"))
            if q is not None:
                errs.append(abs(q * 3 - 1))
        worst = max(errs) if errs else None
        iso = r.get("isolation") or {}
        ipct = pct(iso.get("a_ms"), (num(iso.get("a_ms")) or 0) +
                   (num(iso.get("b_ms")) or 0))
        rows.append([lb, str(len(secs)),
                     " ".join("%s/%s/%s" % (fmt(s.get("a_ms"), 0),
                                             fmt(s.get("b_ms"), 0),
                                             fmt(s.get("c_ms"), 0))
                              for s in secs[:8]),
                     fmt(100 * worst if worst is not None else None, 1),
                     fmt(ipct, 1)])
        if lb == "SMART":
            own.append(Target("groups", "SMART a:b within %.0f%% of 1:3 "
                              "every second" % (100 * TARGET_GROUP_RATIO_REL),
                              fmt(100 * worst if worst is not None else None,
                                  1, "%"),
                              worst is not None and
                              worst <= TARGET_GROUP_RATIO_REL))
            own.append(Target("groups", "SMART isolation, 1 task vs 8: "
                              "50%% +- %.0f" % TARGET_GROUP_ISOLATION_PCT,
                              fmt(ipct, 1, "%"), ipct is not None and
                              abs(ipct - 50) <= TARGET_GROUP_ISOLATION_PCT))
    lines += md_table(["label", "seconds", "a/b/c ms, first 8 s",
                       "worst a:b error %", "isolation: a %"], rows)

    lines += ["### Figure 9 in spirit: a periodic task in a group", "",
              "4 ms of work every 20 ms (a time constraint under SMART) in "
              "group a, groups b and c (same weight) with 4 hogs each. "
              "Dispatch latency = start of a job - its release.", ""]
    rows = []
    for lb in labels:
        r = groups_record(recs, "periodic", lb)
        if not r:
            continue
        hist, bin_ms = r.get("latency_hist"), num(r.get("latency_bin_ms"))
        met = pct(r.get("met"), r.get("jobs"))
        lmax = num(r.get("latency_max_ms"))
        rows.append([lb, fmt_int(r.get("jobs")), fmt(met, 1),
                     fmt(hist_percentile(hist, bin_ms, 0.5), 1),
                     fmt(hist_percentile(hist, bin_ms, 0.99), 1),
                     fmt(lmax, 2)])
        if lb == "SMART":
            own.append(Target("groups", "SMART periodic task in a group: "
                              "≥ %.0f%% deadlines met" %
                              TARGET_GROUP_PERIODIC_MET_PCT, fmt(met, 1, "%"),
                              met is not None and
                              met >= TARGET_GROUP_PERIODIC_MET_PCT))
            own.append(Target("groups", "SMART periodic task in a group: "
                              "dispatch latency ≤ %.0f ms (one quantum)" %
                              TARGET_GROUP_PERIODIC_LAT_MS, fmt(lmax, 2, " ms"),
                              lmax is not None and
                              lmax <= TARGET_GROUP_PERIODIC_LAT_MS))
    lines += md_table(["label", "jobs", "met %", "latency p50 ms",
                       "latency p99 ms", "max ms"], rows)
    targets.extend(own)
    lines += ["### Targets (groups)", ""] + targets_table(own)
    return lines


PLOT_CAPTIONS = {
    "fig3.png": "Figure 3 style: CPU allocation, video quality, Typing",
    "fig5.png": "Figure 5 style: the same per phase",
    "estimator.png": "Figure 2 in spirit: per-frame CPU time of the real "
                     "decoders and the SMART estimate",
    "berate.png": "BeRate Table 1: % deadlines missed",
    "latency.png": "Typing latency histograms (Figure 3 mix)",
    "wakeup.png": "Wake-up latency",
    "video-error.png": "Figure 4 style: display error histograms",
    "pick.png": "Pick cost vs runnable tasks",
    "groups.png": "SFQ-H §5 style: task groups (cost, 1:3 under load, "
                  "periodic task)",
}


def section_plots(written):
    """Links to the PNGs written."""
    lines = ["## Plots", ""]
    if not written:
        return lines + ["No plots (no data, or matplotlib unavailable).", ""]
    for name in written:
        lines += ["### %s" % PLOT_CAPTIONS[name], "", "![%s](%s)" %
                  (PLOT_CAPTIONS[name], name), ""]
    return lines


# --------------------------------------------------------------------------
# CSV (long format).
# --------------------------------------------------------------------------

CSV_HEADER = ["experiment", "label", "case", "variant", "phase", "app",
              "metric", "value", "unit"]


def csv_rows(res):
    """Yield the CSV rows (lists) of every known record; None values skipped.

    fig3/fig5: per phase the "other" CPU and, per app, cpu_pct plus audio
    segments/dropouts, video frames and % on time/early/late/dropped/on
    time of displayed, typing chars/processed/% per latency class/mean/p99,
    batch ideal_pct. berate: per app cpu_pct, and jobs/missed/missed_pct of
    srt apps. Overheads: their main number, parameters in the case column.
    """
    def row(rec, app, metric, value, unit, case="", variant="", phase=""):
        value = num(value)
        if value is None:
            return None
        value = int(value) if value == int(value) else round(value, 4)
        return [rec.get("experiment"), rec.get("label"), case, variant,
                phase, app, metric, value, unit]

    def mix_rows(rec):
        for p in phases(rec):
            name = p.get("name", "")
            yield row(rec, "other", "cpu_pct", p.get("other_cpu_pct"), "%",
                      phase=name)
            for app, a in phase_apps(p).items():
                yield row(rec, app, "cpu_pct", a.get("cpu_pct"), "%",
                          phase=name)
                kind = a.get("kind")
                metrics = []
                if kind == "audio":
                    metrics = [("segments", a.get("segments"), "segments"),
                               ("dropouts", a.get("dropouts"), "segments")]
                elif kind == "video":
                    q = video_quality(a)
                    metrics = [("frames", q["frames"], "frames")] + [
                        (k + "_pct", q[k], "%") for k in
                        ("on_time", "early", "late", "dropped",
                         "displayed_on_time")]
                elif kind == "typing":
                    q = typing_quality(a)
                    metrics = [("chars", q["chars"], "chars"),
                               ("processed", q["processed"], "chars")] + [
                        (k + "_pct", q[k], "%") for k in
                        ("lt50", "lt150", "gt150", "unprocessed")] + [
                        ("latency_mean", q["mean"], "ms"),
                        ("latency_p99", q["p99"], "ms")]
                elif kind == "batch":
                    metrics = [("ideal_pct", a.get("ideal_pct"), "%")]
                for metric, value, unit in metrics:
                    yield row(rec, app, metric, value, unit, phase=name)

    def berate_rows(rec):
        case, variant = rec.get("case", ""), rec.get("variant", "")
        for key, a in keyed_apps(rec):
            metrics = [("cpu_pct", a.get("cpu_pct"), "%")]
            if a.get("kind") == "srt":
                metrics += [("jobs", a.get("jobs"), "jobs"),
                            ("missed", a.get("missed"), "jobs"),
                            ("missed_pct", berate_missed(a), "%")]
            for metric, value, unit in metrics:
                yield row(rec, key, metric, value, unit, case, variant)

    overhead = {  # experiment: (parameter keys, [(metric, unit)])
        "ctxsw": (("method",), [("us_per_switch", "us")]),
        "hackbench": (("groups", "loops"), [("seconds", "s")]),
        "throughput": (("workload", "cpus", "clock"),
                       [("seconds", "s"), ("context_switches", "switches"),
                        ("migrations", "migrations")]),
        "pick": (("runnable", "constrained"), [("us_per_switch", "us")]),
        "syscall": (("call",), [("ns_per_call", "ns")]),
        "wakeup": (("tool", "load"), [(k, "us") for k in
                                     ("min", "mean", "p50", "p99", "max")]),
        "cyclictest": (("cpus", "clock"), [(k, "us") for k in
                                           ("p50_us", "p99_us", "max_us")]),
        "rrlat": (("cpus", "clock"), [("rps", "requests/s"),
                                      ("p50_us", "us"), ("p99_us", "us")]),
    }
    for exp in ("fig3", "fig5"):
        for rec in res.get(exp):
            yield from filter(None, mix_rows(rec))
    for rec in res.get("berate"):
        yield from filter(None, berate_rows(rec))
    for exp, (keys, metrics) in overhead.items():
        for rec in res.get(exp):
            case = " ".join("%s=%s" % (k, rec.get(k)) for k in keys)
            values = rec.get("us") if exp == "wakeup" else rec
            for metric, unit in metrics:
                r = row(rec, "", metric, (values or {}).get(metric), unit,
                        case)
                if r:
                    yield r
    for rec in res.get("spread"):
        case = "cpus=%s clock=%s" % (rec.get("cpus"), rec.get("clock"))
        for i, v in enumerate(rec.get("cpu_pct") or []):
            r = row(rec, "hog%d" % i, "cpu_pct", v, "%", case)
            if r:
                yield r


# --------------------------------------------------------------------------
# Plots (matplotlib, Agg backend).
# --------------------------------------------------------------------------

def legend(ax):
    """Add a small legend to ax if anything on it has a label."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)


def stacked(ax, names, series, title, ylabel, hatch_last=False):
    """Draw stacked bars: series = [(legend name, [value per bar], colour)].

    None values count as 0; bars whose values are all None get "n/a".
    hatch_last hatches the last bar (the paper's ideal).
    """
    x = list(range(len(names)))
    bottom = [0.0] * len(names)
    for legend, values, color in series:
        vals = [num(v) or 0.0 for v in values]
        bars = ax.bar(x, vals, bottom=bottom, color=color, label=legend,
                      edgecolor="black", linewidth=0.5, width=0.7)
        if hatch_last:
            bars[-1].set_hatch("//")
        bottom = [b + v for b, v in zip(bottom, vals)]
    for i in x:
        if all(num(s[1][i]) is None for s in series):
            ax.text(i, 2, NA, ha="center", va="bottom", fontsize=9)
    ax.set_xticks(x)
    ax.set_xticklabels(names, fontsize=8,
                       rotation=30 if len(names) > 5 else 0,
                       ha="right" if len(names) > 5 else "center")
    ax.set_ylim(0, max([105.0] + [b * 1.05 for b in bottom]))
    ax.set_title(title, fontsize=11)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(axis="y", alpha=0.3)


def quality_series(qualities, ideal=None):
    """Video quality stacks (on time/early/late/dropped) for stacked()."""
    keys = [("on time", "on_time"), ("early", "early"), ("late", "late"),
            ("dropped", "dropped")]
    return [(name, [q[k] for q in qualities]
             + ([ideal.get(k)] if ideal is not None else []),
             QUALITY_COLORS[name]) for name, k in keys]


def typing_series(qualities, ideal=False):
    """Typing stacks (< 50 / 50-150 / > 150 ms / unprocessed) for stacked()."""
    keys = [("< 50 ms", "lt50"), ("50-150 ms", "lt150"),
            ("> 150 ms", "gt150"), ("unprocessed", "unprocessed")]
    return [(name, [q[k] for q in qualities]
             + ([100.0 if k == "lt50" else 0.0] if ideal else []),
             QUALITY_COLORS[name]) for name, k in keys]


def mix_panels(axes, names, phase_list, ideal):
    """Fill the four Figure 3 panels for a list of phases (one per bar).

    ideal: add the paper's ideal scheduler as the last, hatched bar.
    """
    apps = (mix_app_names(phase_list) if ideal else app_names(phase_list)) \
        + ["other"]
    extra = ["ideal\n(paper)"] if ideal else []
    series = [(app, [cpu_of(p, app) for p in phase_list]
               + ([PAPER_FIG3_IDEAL_CPU.get(app, 0.0)] if ideal else []),
               APP_COLORS.get(app, "C%d" % (i % 10)))
              for i, app in enumerate(apps)]
    stacked(axes[0], names + extra, series, "(a) CPU allocation",
            "% of CPU", ideal)
    for ax, app, tag in ((axes[1], "news-video", "(b)"),
                         (axes[2], "entertain", "(c)")):
        paper_ideal = None
        if ideal:
            on_time, _, dropped = dict(PAPER_FIG3_VIDEO)["ideal"][app]
            paper_ideal = {"on_time": on_time, "early": 0, "late": 0,
                           "dropped": dropped}
        q = [video_quality(phase_apps(p).get(app)) for p in phase_list]
        stacked(ax, names + extra, quality_series(q, paper_ideal),
                "%s %s frames" % (tag, app), "% of frames", ideal)
    q = [typing_quality(phase_apps(p).get("typing")) for p in phase_list]
    stacked(axes[3], names + extra, typing_series(q, ideal),
            "(d) Typing characters by latency", "% of characters", ideal)


def plot_fig3(res, plt, path):
    """fig3.png: Figure 3 style stacked bars per label, plus the ideal."""
    recs = res.get("fig3")
    if not recs:
        return False
    fig, axes = plt.subplots(2, 2, figsize=(14, 9))
    mix_panels(axes.flat, [r.get("label") for r in recs],
               [find_phase(r) for r in recs], ideal=True)
    fig.suptitle("Figure 3 mix: application performance per scheduler "
                 "(hatched: ideal, paper §6.4)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def plot_fig5(res, plt, path):
    """fig5.png: the Figure 3 panels with one bar per (label, phase)."""
    recs = res.get("fig5")
    if not recs:
        return False
    cols = [(r.get("label"), p) for r in recs for p in phases(r)]
    if not cols:
        return False
    fig, axes = plt.subplots(2, 2, figsize=(14, 9))
    mix_panels(axes.flat, ["%s\n%s" % (lb, p.get("name")) for lb, p in cols],
               [p for _, p in cols], ideal=False)
    fig.suptitle("Figure 5: priorities, shares and a load change "
                 "(News exits after phase 1)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def plot_berate(res, plt, path):
    """berate.png: bars of % missed per case/app and (label, variant)."""
    recs = [r for r in res.get("berate") if isinstance(r.get("case"), int)]
    groups = [(case, name) for case in sorted({r.get("case") for r in recs})
              for name in berate_apps(recs, case, "srt")]
    if not groups:
        return False
    cols = berate_columns(recs)
    fig, ax = plt.subplots(figsize=(max(8, 1.2 * len(groups) + 3), 5))
    width = 0.8 / len(cols)
    for i, col in enumerate(cols):
        vals = [berate_missed(berate_app(recs, case, col, name))
                for case, name in groups]
        xs = [g + (i - (len(cols) - 1) / 2) * width
              for g in range(len(groups))]
        bars = ax.bar(xs, [v or 0.0 for v in vals], width,
                      label="%s %s" % col, color=label_color(col[0], i),
                      hatch="//" if col[1] == "constraints" else None,
                      edgecolor="black", linewidth=0.5)
        ax.bar_label(bars, labels=[fmt(v) for v in vals], fontsize=7)
    ax.axhline(TARGET_BERATE_MISSED_PCT, color="black", ls="--", lw=0.8,
               label="target %.1f%%" % TARGET_BERATE_MISSED_PCT)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(["case %d\n%s" % g for g in groups], fontsize=8)
    ax.set_ylabel("% deadlines missed")
    ax.set_title("BeRate Table 1 workloads: % deadlines missed")
    legend(ax)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def hist_xy(hist, lo_key, bin_key):
    """(bin left edges, counts, bin width) of a histogram, or None."""
    if not isinstance(hist, dict):
        return None
    lo, width = num(hist.get(lo_key)), num(hist.get(bin_key))
    counts = hist.get("counts")
    if lo is None or not width or not isinstance(counts, list) or not counts:
        return None
    return ([lo + i * width for i in range(len(counts))],
            [num(c) or 0.0 for c in counts], width)


def plot_latency(res, plt, path):
    """latency.png: Typing latency histograms per label (fig3)."""
    data = []
    for r in res.get("fig3"):
        typing = phase_apps(find_phase(r)).get("typing", {})
        xy = hist_xy(typing.get("hist"), "lo_ms", "bin_ms")
        if xy:
            data.append((r.get("label"), xy))
    if not data:
        return False
    fig, axes = plt.subplots(len(data), 1, figsize=(10, 1.8 * len(data) + 1),
                             sharex=True, squeeze=False)
    for i, (label, (edges, counts, width)) in enumerate(data):
        ax = axes[i][0]
        ax.bar(edges, counts, width=width, align="edge",
               color=label_color(label, i), edgecolor="black", linewidth=0.3)
        for limit in (50, 150):
            ax.axvline(limit, color="black", ls="--", lw=0.8)
        ax.set_title(label, fontsize=10)
        ax.set_ylabel("characters")
        ax.grid(alpha=0.3)
    axes[-1][0].set_xlabel("character latency (ms; last bin includes all "
                           "beyond); dashed: 50 and 150 ms")
    fig.suptitle("Typing latency (Figure 3 mix)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def plot_wakeup(res, plt, path):
    """wakeup.png: wake-up latency histogram and CDF (log x) per label."""
    data = []
    for r in res.get("wakeup"):
        xy = hist_xy(r.get("hist"), "lo_us", "bin_us")
        if xy:
            data.append(("%s (%s)" % (r.get("label"), r.get("load", NA)),
                         r.get("label"), xy))
    if not data:
        return False
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5))
    for i, (name, label, (edges, counts, width)) in enumerate(data):
        color = label_color(label, i)
        ax1.step(edges + [edges[-1] + width], counts + [counts[-1]],
                 where="post", label=name, color=color)
        total = sum(counts)
        if total:
            upper = [e + width for e in edges]
            cum, run = [], 0.0
            for c in counts:
                run += c
                cum.append(100.0 * run / total)
            keep = [(u, c) for u, c in zip(upper, cum) if u > 0]
            ax2.plot([u for u, _ in keep], [c for _, c in keep], label=name,
                     color=color, marker=".")
    if any(c > 0 for _, _, (_, counts, _) in data for c in counts):
        ax1.set_yscale("log")
    ax1.set_xlabel("wake-up latency (µs; last bin includes all beyond)")
    ax1.set_ylabel("samples (log)")
    ax1.set_title("Wake-up latency histogram")
    ax2.set_xscale("log")
    ax2.set_xlabel("wake-up latency (µs, upper bin edge, log)")
    ax2.set_ylabel("% of samples ≤ x")
    ax2.set_title("Wake-up latency CDF")
    for ax in (ax1, ax2):
        legend(ax)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def plot_video_error(res, plt, path):
    """video-error.png: Figure 4 style display error histograms."""
    rows = []
    for r in res.get("fig3"):
        apps = phase_apps(find_phase(r))
        xys = [hist_xy(apps.get(a, {}).get("error_hist"), "lo_ms", "bin_ms")
               for a in VIDEO_APPS]
        if any(xys):
            rows.append((r.get("label"), xys))
    if not rows:
        return False
    fig, axes = plt.subplots(len(rows), 2, figsize=(12, 2.4 * len(rows) + 1),
                             squeeze=False)
    for i, (label, xys) in enumerate(rows):
        for j, xy in enumerate(xys):
            ax = axes[i][j]
            if xy:
                edges, counts, width = xy
                ax.bar(edges, counts, width=width, align="edge",
                       color=label_color(label, i), edgecolor="black",
                       linewidth=0.3)
            else:
                ax.text(0.5, 0.5, NA, transform=ax.transAxes, ha="center")
            for limit in (-20, 20):
                ax.axvline(limit, color="black", ls="--", lw=0.8)
            ax.set_title("%s: %s" % (label, VIDEO_APPS[j]), fontsize=10)
            ax.set_ylabel("frames")
            ax.grid(alpha=0.3)
        axes[i][0].set_xlabel("display time − ideal (ms); dashed: ±20 ms")
        axes[i][1].set_xlabel("display time − ideal (ms); dashed: ±20 ms")
    fig.suptitle("Figure 4 style: display error of the frames displayed "
                 "(end bins include all beyond)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def plot_pick(res, plt, path):
    """pick.png: pick cost vs runnable (log x) per label; vs constrained."""
    recs = [r for r in res.get("pick")
            if num(r.get("runnable")) and num(r.get("us_per_switch"))
            is not None]
    if not recs:
        return False
    constrained = [r for r in recs if num(r.get("constrained"))]
    fig, axes = plt.subplots(1, 2 if constrained else 1,
                             figsize=(13 if constrained else 8, 5),
                             squeeze=False)
    for i, label in enumerate(res.labels("pick")):
        pts = sorted((num(r["runnable"]), num(r["us_per_switch"]))
                     for r in recs if r.get("label") == label
                     and not num(r.get("constrained")))
        if pts:
            axes[0][0].plot([p[0] for p in pts], [p[1] for p in pts],
                            marker="o", label=label,
                            color=label_color(label, i))
        cpts = sorted((num(r.get("constrained")) or 0, num(r["runnable"]),
                       num(r["us_per_switch"])) for r in constrained
                      if r.get("label") == label)
        if cpts:
            axes[0][1].plot([p[0] for p in cpts], [p[2] for p in cpts],
                            marker="s", label="%s (runnable %s)" % (
                                label, "/".join(sorted(
                                    {"%d" % p[1] for p in cpts}))),
                            color=label_color(label, i))
    ax = axes[0][0]
    ax.set_xscale("log")
    ax.set_xlabel("runnable tasks (log)")
    ax.set_title("Pick cost vs runnable tasks (none constrained)")
    if constrained:
        axes[0][1].set_xlabel("constrained tasks")
        axes[0][1].set_title("Pick cost vs constrained tasks")
    for ax in axes[0]:
        ax.set_ylabel("µs per switch")
        ax.set_ylim(bottom=0)
        legend(ax)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def plot_groups(res, plt, path):
    """groups.png: Fig. 7 ratios, Fig. 8 a:b per second, Fig. 9 latency."""
    recs = res.get("groups")
    if not recs:
        return False
    labels = [lb for lb in ("SMART", "EEVDF")
              if any(r.get("label") == lb for r in recs)]
    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(16, 5))
    for i, lb in enumerate(labels):
        color = label_color(lb, i)
        sc = groups_scale(recs, lb)
        xs = sorted(n for (n, d) in sc if d == 1 and (n, 0) in sc)
        ax1.plot(xs, [ratio(sc[(n, 1)], sc[(n, 0)]) for n in xs], marker="o",
                 color=color, label="%s: N threads in a leaf" % lb)
        ds = sorted(d for (n, d) in sc if n == 5 and (5, 0) in sc)
        ax1.plot(ds, [ratio(sc[(5, d)], sc[(5, 0)]) for d in ds], marker="s",
                 linestyle="--", color=color, label="%s: 5 threads, depth" % lb)
        r = groups_record(recs, "fluct", lb)
        if r:
            secs = r.get("seconds") or []
            ax2.plot(range(len(secs)), [ratio(s.get("b_ms"), s.get("a_ms"))
                                        for s in secs],
                     marker=".", color=color, label="%s b:a" % lb)
        r = groups_record(recs, "periodic", lb)
        if r and r.get("latency_hist"):
            hist, w = r["latency_hist"], num(r.get("latency_bin_ms")) or 1
            total, run, cum = sum(hist) or 1, 0, []
            for c in hist:
                run += c
                cum.append(100.0 * run / total)
            ax3.plot([(k + 1) * w for k in range(len(hist))], cum,
                     color=color, label=lb)
    ax1.axhline(1.0, color="grey", linewidth=0.8)
    ax1.set_xlabel("threads (solid) or depth (dashed)")
    ax1.set_ylabel("throughput relative to no group")
    ax1.set_title("Figure 7: cost of the hierarchy")
    ax2.axhline(3.0, color="grey", linewidth=0.8)
    ax2.set_xlabel("second (group c: 0, 2, 6, 2, ... hogs)")
    ax2.set_ylabel("CPU of b / CPU of a (weights 300:100)")
    ax2.set_title("Figure 8: 1:3 under a fluctuating third group")
    ax3.set_xlabel("dispatch latency (ms, upper bin edge)")
    ax3.set_ylabel("% of jobs ≤ x")
    ax3.set_title("Periodic task in a group, others saturated")
    for ax in (ax1, ax2, ax3):
        legend(ax)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def plot_estimator(res, plt, path):
    """estimator.png: per-frame CPU time and the SMART estimate (Figure 2
    in spirit), from the --frames logs of the SMART realmix run."""
    series = []
    for app in ("news", "entertain"):
        f = os.path.join(os.path.dirname(path), "frames", "SMART-%s.csv" % app)
        if not os.path.isfile(f):
            continue
        with open(f, encoding="utf-8") as fh:
            rows = [r for r in csv.DictReader(fh)
                    if r.get("stream") == "video" and r.get("outcome") == "decoded"]
        if rows:
            series.append((app, rows[:240]))
    if not series:
        return False
    fig, axes = plt.subplots(len(series), 1, figsize=(14, 4.5 * len(series)), squeeze=False)
    colors = {"I": "tab:red", "P": "tab:blue", "B": "tab:green"}
    for ax, (app, rows) in zip(axes[:, 0], series):
        for t, c in colors.items():
            pts = [(int(r["index"]), float(r["cpu_ms"]), float(r["estimate_ms"]))
                   for r in rows if r["type"] == t]
            if not pts:
                continue
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=12, color=c,
                       label="%s frame: CPU time" % t)
            ax.scatter([p[0] for p in pts], [p[2] for p in pts], s=12, color=c,
                       marker="_", label="%s frame: estimate" % t)
        ax.set_xlabel("frame (decode order)")
        ax.set_ylabel("ms of CPU")
        ax.set_title("%s: CPU time per decoded frame and the estimate it was "
                     "decoded under (SMART label)" % app)
        ax.legend(loc="upper right", fontsize=8, ncol=3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


PLOTS = [("estimator.png", plot_estimator), ("fig3.png", plot_fig3), ("fig5.png", plot_fig5),
         ("berate.png", plot_berate), ("latency.png", plot_latency),
         ("wakeup.png", plot_wakeup), ("video-error.png", plot_video_error),
         ("pick.png", plot_pick), ("groups.png", plot_groups)]


def write_plots(res, outdir):
    """Write every plot with data; return the file names written."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        warn("matplotlib unavailable (%s): no plots" % e)
        return []
    written = []
    for name, func in PLOTS:
        path = os.path.join(outdir, name)
        if func(res, plt, path):
            written.append(name)
        elif os.path.exists(path):
            os.remove(path)     # stale plot of an earlier report
    return written


# --------------------------------------------------------------------------
# Main.
# --------------------------------------------------------------------------

def main(argv=None):
    """Read RESULTS_DIR, write the report files, print the targets."""
    parser = argparse.ArgumentParser(
        description="Write results.json, results.csv, report.md and PNG "
                    "plots of an evaluation run into RESULTS_DIR.")
    parser.add_argument("results_dir", metavar="RESULTS_DIR",
                        help="directory holding env.json and raw/*.json")
    args = parser.parse_args(argv)
    outdir = args.results_dir
    res = Results(outdir)

    targets = []
    body = []
    for section in (section_fig3, section_fig5, section_realmix, section_berate,
                    section_overheads, section_throughput, section_spread,
                    section_cyclictest, section_rrlat, section_groups):
        body += section(res, targets)
    plots = write_plots(res, outdir)
    body += section_plots(plots)
    counts = tuple(sum(1 for t in targets if t.ok is v)
                   for v in (True, False, None))
    report = section_header(res, outdir, counts) + body

    paths = {name: os.path.join(outdir, name) for name in
             ("results.json", "results.csv", "report.md")}
    with open(paths["results.json"], "w", encoding="utf-8") as f:
        json.dump({"env": res.env, "records": res.records}, f, indent=1)
        f.write("\n")
    with open(paths["results.csv"], "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(CSV_HEADER)
        writer.writerows(csv_rows(res))
    with open(paths["report.md"], "w", encoding="utf-8") as f:
        f.write("\n".join(report).rstrip("\n") + "\n")

    print("Targets (%d PASS, %d MISS, %d n/a):" % counts)
    width = max([len(t.name) for t in targets] + [6])
    for t in targets:
        print("  %-4s  %-*s  %s" % (status(t.ok), width, t.name, t.measured))
    print("Wrote:")
    for path in list(paths.values()) + [os.path.join(outdir, p)
                                         for p in plots]:
        print("  " + path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
