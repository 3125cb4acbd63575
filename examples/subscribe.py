# Score changes and final scores from a courtside daemon.
# Run: python3 examples/subscribe.py [ws://host:port/v1/stream]   (pip install websockets)
import asyncio
import json
import sys

import websockets


async def main(url):
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({
            "op": "subscribe",
            "id": "scores",
            "types": ["score.changed", "game.ended"],
        }))
        async for message in ws:
            frame = json.loads(message)
            if frame["type"] != "event":
                continue
            event = frame["event"]
            home, away = event["teams"]["home"], event["teams"]["away"]
            score = event["data"]["score"]
            label = "Final" if event["type"] == "game.ended" else event["data"].get("clock")
            print(f"{away['abbreviation']} {score['away']} - {home['abbreviation']} {score['home']} ({label})",
                  flush=True)


asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "ws://localhost:8080/v1/stream"))
