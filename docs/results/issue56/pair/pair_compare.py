"""Before/after pair of two runner series (compare --repeat): per workload, engine and figure, the
before and after medians [min-max] over the rounds, the ratio after/before of the medians with its
widest range (after min / before max to after max / before min), and the A/A band: the per-round
ratios cairn-table-same / cairn-table of both series, taken both ways up. A ratio range that
overlaps the band is "same". Usage: python3 pair_compare.py BEFORE_DIR AFTER_DIR."""
import json, sys
before, after = (json.load(open(d + '/series.json')) for d in sys.argv[1:3])
FIGS = {'rangehot': ['reads_per_s', 'reads_per_s_after_first_third', 'read_p99_us', 'misses_per_read',
                     'device_reads_per_read', 'write_amplification', 'space_amplification_peak'],
        'load': ['writes_per_s', 'write_amplification', 'space_amplification_peak']}

def aa_band(series, wl, fig):
    return series['workloads'][wl]['control'].get(fig)

print('| workload | engine | figure | before | after | after/before [range] | A/A band | verdict |')
print('|---|---|---|---|---|---|---|---|')
for wl, figs in FIGS.items():
    for eng in before['engines']:
        for fig in figs:
            b = before['workloads'][wl]['engines'][eng].get(fig)
            a = after['workloads'][wl]['engines'][eng].get(fig)
            if not b or not a:
                continue
            ratio = a['median'] / b['median']
            lo, hi = a['min'] / b['max'], a['max'] / b['min']
            bands = [x for x in (aa_band(before, wl, fig), aa_band(after, wl, fig)) if x]
            vals = []
            for band in bands:
                vals += [band['min'], band['max'], 1 / band['min'], 1 / band['max']]
            blo, bhi = (min(vals), max(vals)) if vals else (1, 1)
            verdict = 'same' if max(lo, blo) <= min(hi, bhi) else ('higher' if ratio > 1 else 'lower')
            f = lambda x: f"{x['median']:.4g} [{x['min']:.4g}-{x['max']:.4g}]"
            print(f'| {wl} | {eng} | {fig} | {f(b)} | {f(a)} | {ratio:.3f} [{lo:.3f}-{hi:.3f}] | [{blo:.3f}-{bhi:.3f}] | {verdict} |')
