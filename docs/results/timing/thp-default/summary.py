import glob,re,sys,statistics as st,os
base=sys.argv[1] if len(sys.argv)>1 else '/tmp/thpab'
rows={}
for f in sorted(glob.glob(base+"/[rR]*-r[0-9]/results.md")):
    name=os.path.basename(os.path.dirname(f)); store,v,r=name.split('-')
    for l in open(f):
        if l.startswith('| insecure') or l.startswith('| pancake'):
            c=[x.strip() for x in l.strip().strip('|').split('|')]
            rows.setdefault((store,c[1],c[0],v),[]).append((r,float(c[2]),float(c[3]),c[14],c[15]))
print("| store | workload | scheme | JVM | ops/s r1 / r2 / r3 | x insecure r1 / r2 / r3 | after 20 s r1 / r2 / r3 | latency after 20 s us |")
print("|---|---|---|---|---|---|---|---|")
for k in sorted(rows):
    v=rows[k]
    print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | "+" / ".join(f"{x[1]:.0f}" for x in v)+" | "+" / ".join(f"{x[2]:.3f}" for x in v)+" | "+" / ".join(x[3] for x in v)+" | "+" / ".join(x[4] for x in v)+" |")
print()
print("| store | workload | scheme | median ops/s default | median ops/s thp | thp / default | median x insecure default | thp |")
print("|---|---|---|--:|--:|--:|--:|--:|")
for k in sorted(rows):
    if k[3]!='default': continue
    d=rows[k]; t=rows.get(k[:3]+('thp',),[])
    if not t: continue
    md=st.median(x[1] for x in d); mt=st.median(x[1] for x in t)
    print(f"| {k[0]} | {k[1]} | {k[2]} | {md:.0f} | {mt:.0f} | {mt/md:.2f} | {st.median(x[2] for x in d):.3f} | {st.median(x[2] for x in t):.3f} |")
