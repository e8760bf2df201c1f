import json, glob, re, statistics, collections, sys
# Usage: python3 summarize.py DIR (the run*.json of one series); pairs and band as in README.md
d = sys.argv[1] if len(sys.argv) > 1 else '.'
v = collections.defaultdict(dict)
for f in glob.glob(d + '/run*.json'):
    n = int(re.search(r'run(\d+)', f).group(1)); kind = re.search(r'-(old|new)\.json', f).group(1)
    for b in json.load(open(f)):
        v[b['benchmark'].split('.')[-1]][n] = (kind, b['primaryMetric']['score'])
ab = [(1, 2), (4, 3), (5, 6)]   # (old, new), order old new new old old new
aa = [(2, 3), (4, 5), (1, 4), (3, 6)]   # same jar
print(f"{'cell':8s} {'old ns/op med [min-max]':26s} {'new ns/op med [min-max]':26s} {'new/old med [min-max]':24s} {'same-jar band':16s} verdict")
for key, r in sorted(v.items()):
    old = [s for k, s in r.values() if k == 'old']; new = [s for k, s in r.values() if k == 'new']
    ratios = [r[b][1] / r[a][1] for a, b in ab]
    same = [r[b][1] / r[a][1] for a, b in aa]
    band = same + [1 / x for x in same]
    lo, hi = min(band), max(band)
    overlaps = max(min(ratios), lo) <= min(max(ratios), hi)
    verdict = 'no difference' if overlaps else ('new slower' if statistics.median(ratios) > 1 else 'new faster')
    print(f"{key:8s} {statistics.median(old):7.1f} [{min(old):.1f}-{max(old):.1f}]   {statistics.median(new):7.1f} [{min(new):.1f}-{max(new):.1f}]   {statistics.median(ratios):.3f} [{min(ratios):.3f}-{max(ratios):.3f}]   [{lo:.3f}-{hi:.3f}]   {verdict}")
