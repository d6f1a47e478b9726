import re, sys
path, tid = sys.argv[1], int(sys.argv[2]); thr = float(sys.argv[3])
lines=open(path).read().split('\n')
ev=[];cur=None
for l in lines:
    if l and not l[0].isspace():
        m=re.match(r'\s*(\S.*?)\s+(-?\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\S+):\s*(.*)', l)
        cur={'comm':m.group(1),'tid':int(m.group(2)),'cpu':int(m.group(3)),'t':float(m.group(4)),'ev':m.group(5),'tr':m.group(6),'st':[]} if m else None
        if cur: ev.append(cur)
    elif l.strip() and cur: cur['st'].append(l.strip())
out=None; t0=None
for e in ev:
    if e['ev']!='sched:sched_switch': continue
    if re.search(r'prev_pid=%d '%tid, e['tr']):
        out=e; t0 = t0 or e['t']
    elif re.search(r'next_pid=%d( |$)'%tid, e['tr']) and out:
        d=e['t']-out['t']
        if d>thr:
            st=re.search(r'prev_state=(\S+)',out['tr']).group(1)
            print('+%.3f s off %.1f ms state=%s' % (out['t']-t0, d*1000, st))
            for s in out['st']:
                if 'kallsyms' not in s: print('     ', s[:140])
        out=None
