# Reader-thread samples after the first 15 s of the measured phase, per recording in this folder.
# Usage (in this folder): python3 compare.py cairn-table cairn-block
import json,collections,sys,subprocess,datetime
def load(path):
    out=subprocess.run(['jfr','print','--json','--stack-depth','40','--events','jdk.ExecutionSample',path],capture_output=True,text=True).stdout
    return json.loads(out)['recording']['events']
def ts(e):
    return datetime.datetime.fromisoformat(e['values']['startTime'][:26])
for eng in sys.argv[1:]:
    ev=load(f'{eng}-zipfian.jfr')
    rd=[e for e in ev if (e['values']['sampledThread'] or {}).get('javaName','').startswith('bench-zipfian')]
    t0=min(ts(e) for e in rd)
    steady=[e for e in rd if (ts(e)-t0).total_seconds()>15]
    allsteady=[e for e in ev if (ts(e)-t0).total_seconds()>15]
    threads=collections.Counter((e['values']['sampledThread'] or {}).get('javaName','?')[:24] for e in allsteady)
    self_=collections.Counter(); incl=collections.Counter()
    for e in steady:
        fr=e['values']['stackTrace']['frames']
        names=[f['method']['type']['name'].split('/')[-1]+'.'+f['method']['name'] for f in fr]
        self_[names[0]]+=1
        for n in set(names): incl[n]+=1
    secs=max((ts(e)-t0).total_seconds() for e in rd)-15
    print(f'== {eng}: reader samples after 15 s: {len(steady)} over {secs:.0f} s; threads: {threads.most_common(8)}')
    print(' self:', [(k,v) for k,v in self_.most_common(18)])
    print(' incl:', [(k,v) for k,v in incl.most_common(45) if not k.startswith(('java.','Thread','jdk'))][:30])
