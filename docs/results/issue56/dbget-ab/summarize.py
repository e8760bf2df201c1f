import json, glob, re, statistics, collections
runs=collections.defaultdict(dict)  # key -> {file: score}
order=[]
for f in sorted(glob.glob('first/run*.json'), key=lambda x:int(re.search(r'run(\d+)',x).group(1))):
    kind=re.search(r'-(old|new)\.json',f).group(1)
    n=int(re.search(r'run(\d+)',f).group(1))
    for b in json.load(open(f)):
        key=b['benchmark'].split('.')[-1]+'/'+b['params']['style']
        runs[key][(n,kind)]=b['primaryMetric']['score']
for key,v in sorted(runs.items()):
    old=[s for (n,k),s in sorted(v.items()) if k=='old']
    new=[s for (n,k),s in sorted(v.items()) if k=='new']
    # pair rounds: (1 old,2 new), (3 new,4 old), (5 old,6 new)
    pairs=[]
    for a,b in [(1,2),(4,3),(5,6)]:
        if (a,'old') in v and (b,'new') in v: pairs.append(v[(b,'new')]/v[(a,'old')])
    print(f"{key:14s} old ns/op {statistics.median(old):8.1f} [{min(old):.1f}-{max(old):.1f}]  new {statistics.median(new):8.1f} [{min(new):.1f}-{max(new):.1f}]  new/old {statistics.median(pairs):.3f} [{min(pairs):.3f}-{max(pairs):.3f}]" if pairs else key)
