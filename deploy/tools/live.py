#!/usr/bin/env python3
"""Opens a Huddle live socket, prints every frame it receives, and sends each line typed on stdin.

    python3 deploy/tools/live.py ws://localhost:8080/v1/chat/live "$TOKEN"
    python3 deploy/tools/live.py "ws://localhost:8080/v1/matches/<id>/live"

The token travels as the subprotocol `huddle.bearer.<token>` (beside `huddle`), as a browser's
WebSocket must send it; `pip install websockets` (version 13 or later) first.
"""
import asyncio
import sys

import websockets


async def main(url: str, token: str | None) -> None:
    protocols = ["huddle", f"huddle.bearer.{token}"] if token else None
    async with websockets.connect(url, subprotocols=protocols, max_size=1 << 20) as socket:
        async def typed() -> None:
            loop = asyncio.get_running_loop()
            while line := await loop.run_in_executor(None, sys.stdin.readline):
                if line.strip():
                    await socket.send(line.strip())

        sender = asyncio.create_task(typed())
        try:
            async for frame in socket:
                print(frame, flush=True)
        finally:
            sender.cancel()


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    try:
        asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else None))
    except websockets.exceptions.InvalidStatus as refused:
        response = refused.response
        sys.exit(f"refused: {response.status_code} {response.body.decode(errors='replace')}")
    except KeyboardInterrupt:
        pass
