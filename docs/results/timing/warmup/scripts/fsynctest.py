import os,time,threading,sys
fd=os.open('/tmp/s33/walf',os.O_WRONLY|os.O_CREAT|os.O_TRUNC|os.O_APPEND)
buf=b'x'*11264
lat=[]
stop=False
def writer():
    while not stop:
        t=time.perf_counter(); os.write(fd,buf); lat.append((t,time.perf_counter()-t)); time.sleep(0.0002)
th=threading.Thread(target=writer); th.start()
time.sleep(1.0)
mode=sys.argv[1]
t0=time.perf_counter()
if mode!='none':
    f=os.open('/tmp/s33/statef',os.O_WRONLY|os.O_CREAT|os.O_TRUNC)
    data=os.urandom(38<<20)
    os.write(f,data)
    t1=time.perf_counter()
    if mode=='fsync': os.fsync(f)
    os.close(f)
t2=time.perf_counter()
time.sleep(1.0)
stop=True; th.join()
before=[l for t,l in lat if t<t0]; during=[l for t,l in lat if t0<=t<=t2+0.2]
print(mode,'fsync section %.0f ms'%((t2-t0)*1000),'writes before: max %.2f ms'%(max(before)*1000),'during: n=%d max %.2f ms, >5ms: %d, sum>1ms %.0f ms'%(len(during),max(during)*1000,sum(1 for l in during if l>0.005),sum(l for l in during if l>0.001)*1000))
