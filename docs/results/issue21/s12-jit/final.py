import re,sys
txt=open(sys.argv[1],errors='replace').read()
names=sys.argv[2:]
tasks=list(re.finditer(r"<task (.*?)>(.*?)</task>", txt, re.S))
def attr(s,a):
  m=re.search(a+r"='([^']*)'",s); return m.group(1) if m else None
for n in names:
  last=None
  for t in tasks:
    if (attr(t.group(1),'method') or '').startswith(n+' ') and attr(t.group(1),'level') in (None,'4'): last=t
  if not last: print(n,'none'); continue
  body=last.group(2)
  ids={mm.group(1):mm.group(2) for mm in re.finditer(r"<method id='(\d+)' holder='\d+' name='([^']*)'",body)}
  fails=[]
  for mm in re.finditer(r"<call method='(\d+)'.*?(?=<call method=|$)", body, re.S):
    f=re.search(r"<inline_fail reason='([^']*)'", mm.group(0)[:400])
    if f: fails.append(ids.get(mm.group(1),'?')+':'+f.group(1))
  size=re.search(r"<nmethod[^>]*insts_bytes='(\d+)'", txt[last.end():last.end()+3000])
  print(n, 'id', attr(last.group(1),'compile_id'), 'stamp', attr(last.group(1),'stamp'), 'inlined', body.count('<inline_success'), 'failed', len(fails))
  print('    ', sorted(set(fails)))
