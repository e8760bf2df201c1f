"""Print the inline tree of the last C2 compile of a method from a -XX:+LogCompilation log."""
import re,sys
txt=open(sys.argv[1],errors='replace').read()
name=sys.argv[2]; maxdepth=int(sys.argv[3]) if len(sys.argv)>3 else 99
tasks=list(re.finditer(r"<task (.*?)>(.*?)</task>", txt, re.S))
def attr(s,a):
  m=re.search(a+r"='([^']*)'",s); return m.group(1) if m else None
last=None
for t in tasks:
  if (attr(t.group(1),'method') or '').startswith(name+' ') and attr(t.group(1),'level') in (None,'4'): last=t
body=last.group(2)
print('compile', attr(last.group(1),'compile_id'), 'stamp', attr(last.group(1),'stamp'))
meth={}; klass={}
for m in re.finditer(r"<klass id='(\d+)' name='([^']*)'",body): klass[m.group(1)]=m.group(2).split('/')[-1]
for m in re.finditer(r"<method id='(\d+)' holder='(\d+)' name='([^']*)'[^>]*?bytes='(\d+)'",body):
  meth[m.group(1)]=(klass.get(m.group(2),'?')+'.'+m.group(3), m.group(4))
depth=0; pending=None
for m in re.finditer(r"<(/?)(parse|call|inline_fail|inline_success|direct_call|predicted_call)\b([^>]*)>",body):
  close,tag,a=m.group(1),m.group(2),m.group(3)
  if tag=='parse':
    if close: depth-=1
    else: depth+=1
  elif tag=='call':
    pending=attr(a,'method'); cnt=attr(a,'count')
  elif tag=='inline_fail' and pending:
    n,b=meth.get(pending,(pending,'?'))
    if depth<=maxdepth: print('  '*depth+'X '+n+' ('+b+'b) cnt='+str(cnt)+' : '+attr(a,'reason'))
    pending=None
  elif tag=='inline_success' and pending:
    n,b=meth.get(pending,(pending,'?'))
    if depth<=maxdepth: print('  '*depth+'+ '+n+' ('+b+'b) cnt='+str(cnt))
    pending=None
