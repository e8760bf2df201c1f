#!/usr/bin/env python3
"""Per-round reads/s ratios of a `compare --repeat` series, with the A/A control, per workload.

usage: ratios.py [--pool] SERIES_DIR...   (each holds round-N/summary.json, or one summary.json)

Prints, per workload, each round's reads/s (scans/s for scan) per engine, then for
cairn-table-same/cairn-table (the A/A pair: the runner's own spread), cairn-block/cairn-table,
cairn-block/cairn-table-same and, where RocksDB ran, cairn-table/rocksdb the median, geometric
mean and range of the per-round ratios; and cairn-block over the geometric mean of the two
identical table engines, which halves the luck of either one. With --pool, the rounds of all the
series given are taken as one series (they must share the code and the mode).
"""
import json, math, os, statistics, sys


def rate(entry):
    return entry["scan_ops_per_s"] if entry["workload"] == "scan" else entry["read_ops_per_s"]


def summary_files(d):
    """(label, path) of each round's summary.json: round-N/ of a --repeat series, else d's own."""
    files = []
    r = 1
    while os.path.exists(f"{d}/round-{r}/summary.json"):
        files.append((f"round-{r} ", f"{d}/round-{r}/summary.json"))
        r += 1
    if not files and os.path.exists(f"{d}/summary.json"):
        files.append(("", f"{d}/summary.json"))
    return files


def load(d):
    """[{workload: {engine: ops/s}}] per round; a compare without --repeat is one round."""
    rounds = []
    for _, f in summary_files(d):
        by_workload = {}
        for e in json.load(open(f)):
            if e.get("status", "ok") == "ok":
                by_workload.setdefault(e["workload"], {})[e["engine"]] = rate(e)
        rounds.append(by_workload)
    return rounds


def geomean(v):
    return math.exp(statistics.mean(math.log(x) for x in v))


def ratio(rounds, a, b):
    v = [rd[a] / rd[b] for rd in rounds if a in rd and b in rd]
    if v:
        print(f"    {a}/{b}: median {statistics.median(v):.3f} geomean {geomean(v):.3f}"
              f" range {min(v):.2f}-{max(v):.2f} n={len(v)}")


def main(args):
    pool = "--pool" in args
    dirs = [a for a in args if a != "--pool"]
    series = [(" + ".join(dirs), [rd for d in dirs for rd in load(d)])] if pool else [(d, load(d)) for d in dirs]
    for name, rounds in series:
        print(name)
        workloads = sorted({w for rd in rounds for w in rd})
        for w in workloads:
            per = [rd[w] for rd in rounds if w in rd]
            print(f"  {w}")
            for rd in per:
                print("    ", {k: round(v) for k, v in rd.items()})
            ratio(per, "cairn-table-same", "cairn-table")
            ratio(per, "cairn-block", "cairn-table")
            ratio(per, "cairn-block", "cairn-table-same")
            ratio(per, "cairn-table", "rocksdb")
            v = [rd["cairn-block"] / math.sqrt(rd["cairn-table"] * rd["cairn-table-same"])
                 for rd in per if {"cairn-block", "cairn-table", "cairn-table-same"} <= rd.keys()]
            if v:
                print(f"    block/geomean(table,same): median {statistics.median(v):.3f}"
                      f" geomean {geomean(v):.3f} {[round(x, 3) for x in v]}")


if __name__ == "__main__":
    main(sys.argv[1:])
