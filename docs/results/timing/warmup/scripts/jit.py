import re,sys,collections
txt=open(sys.argv[1]).read()
tasks=re.findall(r"<task (compile_id='\d+'[^>]*)>(.*?)<task_done([^>]*)/>",txt,re.S)
rows=[]
for attrs,body,done in tasks:
    a=dict(re.findall(r"(\w+)='([^']*)'",attrs)); d=dict(re.findall(r"(\w+)='([^']*)'",done))
    lvl=a.get('level','4'); t0=float(a['stamp']); t1=float(d['stamp'])
    rows.append((t0,t1-t0,lvl,a['method'],a.get('bytes'),d.get('nmsize'),a.get('osr_bci')))
c2=[r for r in rows if r[2]=='4']
print('tasks',len(rows),'c2',len(c2),'c2 total s',round(sum(r[1] for r in c2),2),'c1 total s',round(sum(r[1] for r in rows if r[2]!='4'),2))
per=collections.Counter()
for r in c2: per[int(r[0])]+=r[1]
print('c2 seconds per JVM second:',' '.join(f'{k}:{v:.2f}' for k,v in sorted(per.items())))
print('top c2 by time')
for r in sorted(c2,key=lambda r:-r[1])[:40]: print(f'{r[0]:7.2f} {r[1]*1000:7.1f}ms bytes={r[4]} nm={r[5]} osr={r[6]} {r[3][:100]}')
agg=collections.Counter(); cnt=collections.Counter()
for r in c2:
    m=r[3].split(' ')[0]; pk='/'.join(m.split('/')[:3]) ; agg[pk]+=r[1]; cnt[pk]+=1
print('by package'); [print(f'{v:6.2f}s {cnt[k]:4d} {k}') for k,v in agg.most_common(20)]
