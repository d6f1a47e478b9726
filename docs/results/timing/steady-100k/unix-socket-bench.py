"""Redis call cost of one tick-shaped pipeline (MSET of 9 x 1.3 KB + MGET of 9), TCP loopback vs a
Unix socket: Redis's CPU and the client's kernel (system) time per call. usage: bench.py tcp PORT | unix PATH"""
import os, socket, sys, time, resource

def cmd(*args):
    out = b'*%d\r\n' % len(args)
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out += b'$%d\r\n%s\r\n' % (len(a), a)
    return out

def read_reply(sock, buf):
    # reads until one full reply to MSET (+OK) and one MGET array of 9 bulk strings are in buf
    while True:
        if buf.startswith(b'+OK\r\n'):
            rest = buf[5:]
            # parse array
            if rest.startswith(b'*'):
                i = rest.index(b'\r\n'); n = int(rest[1:i]); pos = i + 2; ok = True
                for _ in range(n):
                    j = rest.find(b'\r\n', pos)
                    if j < 0: ok = False; break
                    ln = int(rest[pos+1:j]); pos = j + 2 + ln + 2
                    if pos > len(rest): ok = False; break
                if ok: return rest[pos:]
        chunk = sock.recv(1 << 16)
        if not chunk: raise SystemExit('closed')
        buf += chunk

kind, addr = sys.argv[1], sys.argv[2]
if kind == 'tcp':
    s = socket.create_connection(('127.0.0.1', int(addr))); s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
else:
    s = socket.socket(socket.AF_UNIX); s.connect(addr)
vals = [os.urandom(1300) for _ in range(9)]
keys = [b'k%d' % i for i in range(9)]
mset = cmd(b'MSET', *[x for kv in zip(keys, vals) for x in kv])
mget = cmd(b'MGET', *keys)
payload = mset + mget
pid = int(sys.argv[3])
def rcpu():
    f = open('/proc/%d/stat' % pid).read().split(')')[1].split(); return (int(f[11]) + int(f[12])) / os.sysconf('SC_CLK_TCK')
N = 20000
for _ in range(2000):
    s.sendall(payload); read_reply(s, b'')
r0 = rcpu(); u0 = resource.getrusage(resource.RUSAGE_SELF); t0 = time.perf_counter()
for _ in range(N):
    s.sendall(payload); read_reply(s, b'')
t1 = time.perf_counter(); u1 = resource.getrusage(resource.RUSAGE_SELF); r1 = rcpu()
print(f'{kind}: {N} calls, {1e6*(t1-t0)/N:.1f} us a call, redis CPU {1e6*(r1-r0)/N:.1f} us a call, client system {1e6*(u1.ru_stime-u0.ru_stime)/N:.1f} us, client user {1e6*(u1.ru_utime-u0.ru_utime)/N:.1f} us')
