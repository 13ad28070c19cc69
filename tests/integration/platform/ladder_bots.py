"""Protocol bots of known strength for the toy title (twenty-one lite: draw or stop, over 15
busts), for the standing-ladder tests."""

TEMPLATE = '''"""A toy bot: {doc}"""
import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        players = message["players"]
        {start}
        print(json.dumps({{"type": "ready", "name": "{name}"}}), flush=True)
    elif message["type"] == "decide":
        hand = sum(message["observation"]["hand"])
        kinds = [o["kind"] for o in message["options"]]
        want = "draw" if {draw} else "stop"
        choice = kinds.index(want) if want in kinds else kinds.index("stop")
        print(json.dumps({{"type": "act", "id": message["id"], "choice": choice}}), flush=True)
    elif message["type"] == "end":
        break
'''


def toy_bot(name: str, doc: str, draw: str, start: str = "pass") -> bytes:
    return TEMPLATE.format(name=name, doc=doc, draw=draw, start=start).encode()


# Draws until its hand reaches 9: rarely busts, usually scores 9-15. Beats MEDIUM about 92 %
# of the time and the house random bot about 88 % (MEDIUM beats it about 74 %), so the two
# stay apart on the board even when they seldom meet (a bot drawing below 11 beat the random
# bot no more often than MEDIUM did, and the order then rested on their few meetings).
STRONG = toy_bot("strong", "draws below 9", "hand < 9")
# Draws one card: never busts, scores 1-9.
MEDIUM = toy_bot("medium", "draws one card", "hand == 0")
# Never draws: scores 0, ties at best.
WEAK = toy_bot("weak", "never draws", "False")
# Passes the four-player smoke game, then fails to start at any smaller table.
CRASHES_AT_SMALL_TABLES = toy_bot(
    "fragile",
    "dies at start-up at tables of fewer than four",
    "hand < 11",
    start='if players < 4: raise SystemExit("I only play four-player games")',
)
