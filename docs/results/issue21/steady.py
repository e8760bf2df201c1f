#!/usr/bin/env python3
"""Whole-run and steady-state figures of a runner comparison, as issue 21's tables give them.

usage: steady.py OUT_DIR [AFTER_SECONDS]   (OUT_DIR holds the runner's summary.json and timeseries.csv)

Whole run: summary.json's means (reads/s, scans/s, read p99 over the run). Steady state: the
per-second rows after AFTER_SECONDS (default 20: past the load's compaction backlog and the fresh
JVM's compilation): mean reads/s and scans/s, and the median of the per-second read p99.
"""
import csv, json, statistics, sys

out = sys.argv[1]
after = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
summary = json.load(open(f"{out}/summary.json"))
rows = list(csv.DictReader(open(f"{out}/timeseries.csv")))

def steady(engine, workload):
    rs = [r for r in rows if r["engine"] == engine and r["workload"] == workload and float(r["elapsed_s"]) > after]
    if not rs:
        return None
    mean = lambda k: statistics.mean(float(r[k]) for r in rs)
    p99 = [float(r["read_p99_us"]) for r in rs if r["read_p99_us"] not in ("", "NaN", "nan")]
    return mean("reads_per_s"), mean("scans_per_s"), (statistics.median(p99) if p99 else float("nan"))

print(f"| workload | engine | reads/s (run) | scans/s (run) | read p99 us (run) | reads/s (after {after:g} s) | scans/s (after) | median per-second read p99 us (after) |")
print("|---|---|---|---|---|---|---|---|")
for r in summary:
    s = steady(r["engine"], r["workload"])
    p99 = r.get("read_p99_us")
    print(f"| {r['workload']} | {r['engine']} | {r['read_ops_per_s']:,.0f} | {r.get('scan_ops_per_s', 0):,.0f} | "
          f"{p99 if p99 is not None else 'n/a'} | "
          + (f"{s[0]:,.0f} | {s[1]:,.0f} | {s[2]:.1f} |" if s else "n/a | n/a | n/a |"))
