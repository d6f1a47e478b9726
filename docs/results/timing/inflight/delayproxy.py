#!/usr/bin/env python3
"""A TCP proxy on 127.0.0.1 that delays every chunk by a fixed time in each direction, in order:
a local stand-in for a store across a network (usage: delayproxy.py LISTEN_PORT TARGET_PORT DELAY_MS)."""
import asyncio, sys, time

listen, target, delay = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]) / 1000.0

async def pump(reader, writer):
    q = asyncio.Queue()
    async def sender():
        while True:
            at, data = await q.get()
            if data is None:
                writer.close(); return
            wait = at + delay - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            writer.write(data)
            await writer.drain()
    task = asyncio.ensure_future(sender())
    try:
        while True:
            data = await reader.read(1 << 16)
            if not data:
                break
            q.put_nowait((time.monotonic(), data))
    finally:
        q.put_nowait((time.monotonic(), None))
        await task

async def handle(cr, cw):
    ur, uw = await asyncio.open_connection('127.0.0.1', target)
    await asyncio.gather(pump(cr, uw), pump(ur, cw), return_exceptions=True)

async def main():
    server = await asyncio.start_server(handle, '127.0.0.1', listen)
    async with server:
        await server.serve_forever()

asyncio.run(main())
