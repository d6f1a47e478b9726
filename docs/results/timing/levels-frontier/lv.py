import sys, collections
for f in sys.argv[1:]:
    rows=[dict(kv.split('=') for kv in l.split()[1:]) for l in open(f) if l.startswith('LEVELS')]
    rows=rows[20:]  # skip the first 2 s
    n=len(rows)
    room=sum(float(r['busy'])<0.5 for r in rows)
    over=sum(r['over']=='true' for r in rows)
    full=sum(r['full']=='true' for r in rows)
    fill=sum(float(r['fill']) for r in rows)/n
    K=collections.Counter(r['K'] for r in rows)
    up=sum(int(r['L'].split('->')[1])>int(r['L'].split('->')[0]) for r in rows)
    dn=sum(int(r['L'].split('->')[1])<int(r['L'].split('->')[0]) for r in rows)
    print(f"{f:50s} n={n} room={room} over={over} full={full} meanfill={fill:.3f} up={up} down={dn} K={dict(sorted(K.items()))}")
