#!/usr/bin/env python3
"""Medians across repeated runner comparisons: issue 21's acceptance cells decided by a series.

usage: series.py BASELINE OUT_DIR1 OUT_DIR2 ... [--after SECONDS]

Each OUT_DIR is one `compare` (summary.json, timeseries.csv), the same engines and workloads in a
different engine order. One whole 60-s run on this machine can go at two-thirds of the next one's
speed on every path (docs/results/issue21/README.md, "Seventh session"), so a cell is decided by
the median over the series, not by one run.

Per (workload, engine): the median of the whole-run reads/s (scans/s for scan), of the whole-run
read p99, and of the mean reads/s after SECONDS (default 20: past the load's compaction backlog and
the fresh JVM's compilation). `compare --repeat` (SeriesReport) cuts at the first third of the
measured seconds instead, the same 20 s for this issue's 60-s runs. Ratios: median over rounds of the per-round ratio to BASELINE (the
engines of one round ran minutes apart on the same machine state), with the min and max round.
"""
import csv, json, statistics, sys

args = sys.argv[1:]
after = 20.0
if "--after" in args:
    i = args.index("--after")
    after = float(args[i + 1])
    del args[i:i + 2]
baseline, outs = args[0], args[1:]

def load(out):
    summary = json.load(open(f"{out}/summary.json"))
    rows = list(csv.DictReader(open(f"{out}/timeseries.csv")))
    cells = {}
    for r in summary:
        w, e = r["workload"], r["engine"]
        scan = w == "scan"
        rate = r["scan_ops_per_s"] if scan else r["read_ops_per_s"]
        key = "scans_per_s" if scan else "reads_per_s"
        late = [float(x[key]) for x in rows
                if x["engine"] == e and x["workload"] == w and float(x["elapsed_s"]) > after]
        cells[(w, e)] = {
            "rate": rate,
            "p99": r.get("read_p99_us"),
            "late": statistics.mean(late) if late else float("nan"),
        }
    return cells

rounds = [load(o) for o in outs]
workloads, engines = [], []
for cells in rounds:
    for w, e in cells:
        if w not in workloads:
            workloads.append(w)
        if e not in engines:
            engines.append(e)

def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else float("nan")

def ratios(w, e, field):
    rs = []
    for cells in rounds:
        if (w, e) in cells and (w, baseline) in cells and cells[(w, baseline)][field]:
            rs.append(cells[(w, e)][field] / cells[(w, baseline)][field])
    return rs

print(f"{len(rounds)} rounds: " + ", ".join(outs))
print()
print(f"| workload | engine | reads/s (scans/s), median | after {after:g} s, median | read p99 us, median "
      f"| / {baseline}: whole run, median (min-max) | after {after:g} s, median (min-max) | p99 / {baseline}, median (min-max) |")
print("|---|---|---|---|---|---|---|---|")
for w in workloads:
    for e in engines:
        got = [c[(w, e)] for c in rounds if (w, e) in c]
        if not got:
            continue
        rate, late = med([g["rate"] for g in got]), med([g["late"] for g in got])
        p99 = med([g["p99"] for g in got])
        cols = []
        for field in ("rate", "late", "p99"):
            rs = ratios(w, e, field)
            cols.append(f"{med(rs):.2f} ({min(rs):.2f}-{max(rs):.2f})" if rs and e != baseline else "")
        p99s = f"{p99:.1f}" if p99 == p99 else "n/a"
        print(f"| {w} | {e} | {rate:,.0f} | {late:,.0f} | {p99s} | {cols[0]} | {cols[1]} | {cols[2]} |")
