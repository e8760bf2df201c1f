"""Summarise a HotSpot -XX:+LogCompilation file: read-path compilations, their failed inlines, deopts."""
import re,sys,collections
READ=('dev.cairn.db.Reads get','dev.cairn.db.ReadState get','dev.cairn.db.VersionLookup','dev.cairn.table.TableReader get',
      'dev.cairn.table.TableReader','dev.cairn.cache.OffHeapBlockCache lookup','dev.cairn.memtable.MemTable get','dev.cairn.table.Block')
path=sys.argv[1]; after=float(sys.argv[2]) if len(sys.argv)>2 else 0
txt=open(path,errors='replace').read()
# method ids -> names, per task
tasks=re.findall(r"<task (.*?)>(.*?)</task>", txt, re.S)
def attr(s,a):
  m=re.search(a+r"='([^']*)'",s); return m.group(1) if m else None
print('tasks', len(tasks))
roots=collections.Counter(); fails=collections.Counter()
for head,body in tasks:
  m=attr(head,'method') or ''
  level=attr(head,'level'); stamp=float(attr(head,'stamp') or 0)
  if level!='4' and level is not None: continue
  if not any(m.startswith(r) or r in m for r in READ): continue
  roots[(m.split(' (')[0])]+=1
  if stamp<after: continue
  # method ids in body
  ids={}
  for mm in re.finditer(r"<method id='(\d+)' holder='(\d+)' name='([^']*)'",body): ids[mm.group(1)]=mm.group(3)
  for mm in re.finditer(r"<klass id='(\d+)' name='([^']*)'",body): ids['k'+mm.group(1)]=mm.group(2)
  for mm in re.finditer(r"<call method='(\d+)'[^>]*?>\s*(?:<[^>]*>\s*)*?<inline_fail reason='([^']*)'",body):
    fails[(m.split(' ')[1] if ' ' in m else m, ids.get(mm.group(1),mm.group(1)), mm.group(2))]+=1
print('read-path tier-4 compilations:')
for k,v in roots.most_common(): print('  ',v,k)
print('failed inlines in them (after %.0f s):'%after)
for k,v in fails.most_common(40): print('  ',v,k)
# deopts
nm=collections.Counter()
for mm in re.finditer(r"<make_not_entrant thread='\d+' compile_id='(\d+)'(?: compiler='\w+')?(?: level='(\d)')? stamp='([\d.]+)'",txt):
  if float(mm.group(3))>=after: nm[mm.group(2)]+=1
print('made not entrant after %.0f s by level:'%after, dict(nm))
ut=collections.Counter()
for mm in re.finditer(r"<uncommon_trap thread='\d+' reason='([^']*)' action='([^']*)'[^>]*?stamp='([\d.]+)'",txt):
  if float(mm.group(3))>=after: ut[(mm.group(1),mm.group(2))]+=1
print('uncommon traps after %.0f s:'%after, ut.most_common(10))
