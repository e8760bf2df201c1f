#!/usr/bin/env python3
"""The load's compaction backlog in a runner comparison, per engine and workload.

usage: backlog.py OUT_DIR   (OUT_DIR holds the runner's timeseries.csv)

The backlog ends at the last second whose cumulative compaction bytes differ from the second
before (the runner's measured phase starts at the load's end, so this is how long the load's
merges ran into it). Printed beside it: the compaction MiB written by then, L0 files at the
first second, mean reads/s over the first 10 s and over the rest, and the worst per-second read
p99 in the first 10 s.
"""
import csv, statistics, sys
from collections import defaultdict

rows = defaultdict(list)
for r in csv.DictReader(open(f"{sys.argv[1]}/timeseries.csv")):
    rows[(r["engine"], r["workload"])].append(r)

print("| workload | engine | backlog ends (s) | compaction MiB | L0 files at 1 s | reads/s first 10 s | reads/s after 10 s | worst p99 us first 10 s |")
print("|---|---|---|---|---|---|---|---|")
for (engine, workload), rs in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    end, last = 0.0, None
    for r in rs:
        cb = r["compaction_bytes_written"]
        if cb != last:
            end, last = float(r["elapsed_s"]), cb
    first = [r for r in rs if float(r["elapsed_s"]) <= 10]
    rest = [r for r in rs if float(r["elapsed_s"]) > 10]
    reads = lambda part: statistics.mean(float(r["reads_per_s"]) for r in part) if part else float("nan")
    p99s = [float(r["read_p99_us"]) for r in first if r["read_p99_us"] not in ("", "NaN", "nan")]
    print(f"| {workload} | {engine} | {end:.0f} | {int(last or 0) / 2**20:,.0f} | {rs[0]['l0_files']} | "
          f"{reads(first):,.0f} | {reads(rest):,.0f} | {max(p99s) if p99s else float('nan'):,.0f} |")
