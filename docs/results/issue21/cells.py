#!/usr/bin/env python3
"""One line per run of a compare: its reads/s, scans/s, writes/s, read p99, hit ratio, load seconds.

usage: cells.py DIR...   (each holds summary.json, or round-N/summary.json of a --repeat series)
"""
import json, os, sys

from ratios import summary_files


def num(s, k):
    v = s.get(k)
    return float("nan") if v is None else v


for d in sys.argv[1:]:
    for label, path in summary_files(d):
        for s in json.load(open(path)):
            print("%s%s%-9s %-17s reads %8.0f scans %6.0f writes %7.0f p99 %6.1f us hit %.3f load %.1f s compaction %5d MB"
                  % (os.path.basename(os.path.normpath(d)) + " ", label, s["workload"], s["engine"],
                     num(s, "read_ops_per_s"), num(s, "scan_ops_per_s"), num(s, "write_ops_per_s"),
                     num(s, "read_p99_us"), num(s, "hit_ratio_mean"), num(s, "load_phase_seconds"),
                     int(num(s, "compaction_bytes_written")) >> 20))
