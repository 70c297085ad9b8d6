#!/usr/bin/python3
"""WebSocket clients on python3-websockets, an implementation independent of
Rapier's, for tests/WebSocketTest.php. Each scenario prints one JSON object
with what the clients saw; the test asserts on it.

    websocket_client.py chat URL     two members of examples/websocket/chat.php
    websocket_client.py chat_workers URL   members of the chat on different workers
    websocket_client.py echo URL     sizes and a ping against an echo handler
    websocket_client.py wait URL     connects, prints "connected", then how the server closed

A wss:// URL is verified against the certificate in WS_TEST_CAFILE, in
full (chain and host name), as any client would.
"""
import asyncio
import json
import os
import ssl
import sys

import websockets

TIMEOUT = float(os.environ.get("WS_TEST_TIMEOUT", "20"))


def connect(url, **options):
    if url.startswith("wss://"):
        options["ssl"] = ssl.create_default_context(cafile=os.environ["WS_TEST_CAFILE"])
    return websockets.connect(url, open_timeout=TIMEOUT, **options)


async def recv_json(ws):
    return json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))


async def chat(url):
    seen = {}
    ann = await connect(url + "?name=ann")
    seen["ann_joined"] = await recv_json(ann)
    bob = await connect(url + "?name=bob")
    seen["ann_sees_bob"] = await recv_json(ann)
    seen["bob_joined"] = await recv_json(bob)
    await ann.send("hello from ann")
    seen["ann_gets"] = await recv_json(ann)
    seen["bob_gets"] = await recv_json(bob)
    pong = await ann.ping(b"still there?")
    await asyncio.wait_for(pong, TIMEOUT)
    seen["ping_answered"] = True
    for i in range(200):
        await bob.send("burst %d" % i)
    got = [(await recv_json(ann))["text"] for _ in range(200)]
    seen["burst_in_order"] = got == ["burst %d" % i for i in range(200)]
    for _ in range(200):
        await recv_json(bob)
    await bob.close(code=1000, reason="bye")
    seen["bob_close"] = [bob.close_code, bob.close_reason]
    seen["ann_sees_bob_leave"] = await recv_json(ann)
    await ann.close()
    seen["ann_close"] = [ann.close_code, ann.close_reason]
    return seen


async def chat_workers(url):
    """Members join until two are on different workers (at most 16); then each
    says hello, and every member must hear every hello."""
    members = []
    workers = set()
    while len(members) < 16 and len(workers) < 2:
        name = "m%d" % len(members)
        ws = await connect(url + "?name=" + name)
        # Its own joined event tells its worker; earlier members' may come first.
        while True:
            event = await recv_json(ws)
            if event["event"] == "joined" and event["name"] == name:
                break
        members.append(ws)
        workers.add(event["worker"])
    for i, ws in enumerate(members):
        await ws.send("hello from m%d" % i)
    expected = {"hello from m%d" % i for i in range(len(members))}
    heard = []
    for ws in members:
        got = set()
        while got != expected:
            event = await recv_json(ws)
            if event["event"] == "message":
                got.add(event["text"])
        heard.append(True)
    for ws in members:
        await ws.close()
    return {"workers": sorted(workers), "members": len(members), "everyone_heard_everyone": len(heard) == len(members)}


async def echo(url):
    seen = {}
    async with connect(url, max_size=None, subprotocols=["v1", "v2"]) as ws:
        seen["subprotocol"] = ws.subprotocol
        seen["extensions"] = [type(e).__name__ for e in ws.extensions]
        sizes = {}
        for size in (0, 1, 125, 126, 65535, 65536, 1 << 20):
            data = os.urandom(size)
            await ws.send(data)
            sizes[str(size)] = await asyncio.wait_for(ws.recv(), TIMEOUT) == data
        seen["binary_echoed"] = sizes
        text = "h\u00e9llo \U0001F600 " * 1000
        await ws.send(text)
        seen["text_echoed"] = await asyncio.wait_for(ws.recv(), TIMEOUT) == text
        pong = await ws.ping(b"p")
        await asyncio.wait_for(pong, TIMEOUT)
        seen["ping_answered"] = True
    seen["close"] = [ws.close_code, ws.close_reason]
    return seen


async def wait(url):
    async with connect(url + "?name=waiter") as ws:
        print("connected", flush=True)
        try:
            while True:
                await ws.recv()
        except websockets.ConnectionClosed:
            pass
    return {"close": [ws.close_code, ws.close_reason]}


def main():
    scenario, url = sys.argv[1], sys.argv[2]
    seen = asyncio.run(asyncio.wait_for({"chat": chat, "chat_workers": chat_workers, "echo": echo, "wait": wait}[scenario](url), 3 * TIMEOUT))
    print(json.dumps(seen), flush=True)


if __name__ == "__main__":
    main()
