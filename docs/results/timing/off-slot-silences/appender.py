import os, time, sys, threading
d=sys.argv[1]; dur=float(sys.argv[2]); fsync_every=float(sys.argv[3])
os.sched_setaffinity(0,{1})
f=os.open(d+'/wal.log', os.O_WRONLY|os.O_CREAT|os.O_TRUNC, 0o644)
buf=os.urandom(12*1400)
lat=[]
def syncer():
    os.sched_setaffinity(0,{0})
    i=0
    while time.monotonic()<end:
        time.sleep(fsync_every)
        g=os.open(d+'/state.%d'%i, os.O_WRONLY|os.O_CREAT|os.O_TRUNC,0o644)
        os.write(g, os.urandom(4<<20)); os.fsync(g); os.close(g)
        if i>0: os.unlink(d+'/state.%d'%(i-1))
        i+=1
end=time.monotonic()+dur
threading.Thread(target=syncer,daemon=True).start()
nxt=time.monotonic()
while time.monotonic()<end:
    t=time.monotonic_ns(); os.write(f,buf); e=time.monotonic_ns()-t
    lat.append((t,e))
    nxt+=0.0005
    s=nxt-time.monotonic()
    if s>0: time.sleep(s)
lat.sort(key=lambda x:-x[1])
print('writes',len(lat),'MB/s %.1f'%(len(lat)*len(buf)/dur/1e6),'top latencies ms:',[round(x[1]/1e6,1) for x in lat[:8]])
