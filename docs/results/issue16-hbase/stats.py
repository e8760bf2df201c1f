#!/usr/bin/env python3
"""Per-run figures for issue 16 from a compare's output directory (argument 1, default '.'):
per engine and workload, the block-cache hit ratio per second after the warm-up (argument 2,
seconds, default 30): mean, median, 10th percentile and worst second; reads/s; read p99 (the
run's); bytes compacted; the compaction buffer's extra space (mean, max); and block-cache misses
per operation, from the node summary's "client data-block lookups" line (the hit ratio counts
lookups, and an engine that reads more files per get looks up more blocks per get)."""
import csv, json, os, re, statistics, sys

out = sys.argv[1] if len(sys.argv) > 1 else '.'
warm = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0
rows = {}
with open(os.path.join(out, 'timeseries.csv')) as f:
    for r in csv.DictReader(f):
        if float(r['elapsed_s']) <= warm:
            continue
        rows.setdefault((r['engine'], r['workload']), []).append(r)
summary = {(s['engine'], s['workload']): s for s in json.load(open(os.path.join(out, 'summary.json')))}
print('| engine | workload | hit mean | median | p10 | worst s | reads/s | read p99 us | compacted MiB | buffer MiB mean/max | misses/op |')
print('|---|---|---|---|---|---|---|---|---|---|---|')
for key in summary:
    samples = rows.get(key, [])
    hits = sorted(float(r['hit_ratio']) for r in samples if r['hit_ratio'] not in ('', 'NaN'))
    if not hits:
        continue
    reads = statistics.mean(float(r['reads_per_s']) for r in samples)
    s = summary[key]
    misses = ''
    node = os.path.join(out, 'nodes', f'{key[0]}-{key[1]}-node-summary.txt')
    if not os.path.exists(node):  # before the report copies them: the run's data directory
        node = os.path.join(out, 'data', f'{key[0]}-{key[1]}-node', 'node-summary.txt')
    if os.path.exists(node):
        m = re.search(r'client data-block lookups.*?: (\d+) hits, (\d+) misses', open(node).read())
        ops = (s['read_ops_per_s'] + s['write_ops_per_s']) * s['run_seconds']
        if m and ops > 0:
            misses = f"{int(m.group(2)) / ops:.3f}"
    buf = '' if s.get('buffer_bytes_mean') in (None, 'NaN') or s['buffer_bytes_mean'] != s['buffer_bytes_mean'] \
        else f"{s['buffer_bytes_mean'] / 2**20:.0f}/{s['buffer_bytes_max'] / 2**20:.0f}"
    print(f"| {key[0]} | {key[1]} | {statistics.mean(hits):.3f} | {statistics.median(hits):.3f} | "
          f"{hits[len(hits) // 10]:.3f} | {hits[0]:.3f} | {reads:,.0f} | {s['read_p99_us']:,.0f} | "
          f"{s['compaction_bytes_written'] / 2**20:,.0f} | {buf} | {misses} |")
