import json, glob, re, statistics, collections, sys
d=sys.argv[1] if len(sys.argv)>1 else '.'
# Usage: python3 summarize.py DIR (the run*.json of one series); pairs and band as in README.md
v=collections.defaultdict(dict)
for f in glob.glob(d+'/run*.json'):
    n=int(re.search(r'run(\d+)',f).group(1)); kind=re.search(r'-(old|new)\.json',f).group(1)
    for b in json.load(open(f)):
        key=b['benchmark'].split('.')[-1]+'/'+b['params']['style']
        v[key][n]=(kind,b['primaryMetric']['score'])
ab=[(1,2),(4,3),(5,6),(8,7)]   # (old, new)
aa=[(2,3),(4,5),(6,7),(1,8)]   # same jar
print(f"{'cell':14s} {'old ns/op med [min-max]':28s} {'new ns/op med [min-max]':28s} {'new/old med [min-max]':24s} {'same-jar band':18s} verdict")
for key,r in sorted(v.items()):
    old=[s for k,s in r.values() if k=='old']; new=[s for k,s in r.values() if k=='new']
    ratios=[r[b][1]/r[a][1] for a,b in ab if a in r and b in r]
    same=[r[b][1]/r[a][1] for a,b in aa if a in r and b in r]
    band=same+[1/x for x in same]
    lo,hi=min(band),max(band)
    overlaps=max(min(ratios),lo)<=min(max(ratios),hi)
    verdict='no difference' if overlaps else ('new slower' if statistics.median(ratios)>1 else 'new faster')
    print(f"{key:14s} {statistics.median(old):8.1f} [{min(old):.1f}-{max(old):.1f}]   {statistics.median(new):8.1f} [{min(new):.1f}-{max(new):.1f}]   {statistics.median(ratios):.3f} [{min(ratios):.3f}-{max(ratios):.3f}]   [{lo:.3f}-{hi:.3f}]   {verdict}")
