import re,sys
txt=open(sys.argv[1],errors='replace').read(); after=float(sys.argv[2])
for m in re.finditer(r"<uncommon_trap thread='\d+' reason='([^']*)' action='([^']*)'[^>]*?compile_id='(\d+)'[^>]*?stamp='([\d.]+)'>(.*?)</uncommon_trap>", txt, re.S):
  if float(m.group(4))<after: continue
  jv=re.findall(r"<jvms bci='(\d+)' method='([^']*)'", m.group(5))
  top=jv[0] if jv else ('?','?')
  if 'dev.cairn' in m.group(5):
    print(m.group(4), m.group(1), m.group(2), 'id', m.group(3), '|', ' <- '.join(f"{x[1].split(' (')[0]}@{x[0]}" for x in jv[:4]))
