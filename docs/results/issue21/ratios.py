#!/usr/bin/env python3
"""Per-round reads/s ratios of a `compare --repeat` series, with the A/A control.

usage: ratios.py SERIES_DIR...   (each holds round-N/summary.json)

Prints each round's reads/s per engine, then for cairn-table-same/cairn-table (the A/A pair:
the runner's own spread), cairn-block/cairn-table and cairn-block/cairn-table-same the median,
geometric mean and range of the per-round ratios; and cairn-block over the geometric mean of the
two identical table engines, which halves the luck of either one.
"""
import json,sys,statistics,math
def load(d):
    out=[]
    r=1
    import os
    while os.path.exists(f"{d}/round-{r}/summary.json"):
        s=json.load(open(f"{d}/round-{r}/summary.json"))
        out.append({e["engine"]:e["read_ops_per_s"] for e in s})
        r+=1
    return out
for d in sys.argv[1:]:
    rounds=load(d)
    print(d)
    for rd in rounds: print("  ", {k:round(v) for k,v in rd.items()})
    def ratio(a,b):
        v=[rd[a]/rd[b] for rd in rounds if a in rd and b in rd]
        if not v: return
        g=math.exp(statistics.mean(math.log(x) for x in v))
        print(f"  {a}/{b}: median {statistics.median(v):.3f} geomean {g:.3f} range {min(v):.2f}-{max(v):.2f} n={len(v)}")
    ratio("cairn-table-same","cairn-table")
    ratio("cairn-block","cairn-table")
    ratio("cairn-block","cairn-table-same")
    v=[rd["cairn-block"]/math.sqrt(rd["cairn-table"]*rd["cairn-table-same"]) for rd in rounds if "cairn-table-same" in rd]
    if v: print(f"  block/geomean(table,same): median {statistics.median(v):.3f} geomean {math.exp(statistics.mean(map(math.log,v))):.3f} {[round(x,3) for x in v]}")
