"""A Praga Caput Regni bot for Meeple Arena, standard library only: start from here.

The host sends one JSON message per line on stdin and reads one per line on stdout; stderr
is your log (you can read it after each game). See README.md for the messages, the
observation and the options.
"""

import json
import random
import sys
from pathlib import Path


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()  # without this the host never sees your answer


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def kit_data(name):
    """A data file of the kit next to bot.py, or None when bot.py was uploaded on its own."""
    path = Path(__file__).parent / name
    if not path.is_file():
        log(f"no {name} beside bot.py: playing without it (upload the kit's folder as a zip)")
        return None
    return json.loads(path.read_text(encoding="utf-8"))


# Every hex tile's printed data by id, from the components.json that comes with the kit: the
# city's buildings in the observation name only their tile, and this says what is on it (the
# tiles on display and being placed come with their printed data in the observation anyway).
COMPONENTS = kit_data("components.json") or {"tiles": {"tiles": []}}
TILES = {tile["id"]: tile for tile in COMPONENTS["tiles"]["tiles"]}


class Bot:
    def __init__(self, start):
        self.seat = start["seat"]
        self.rng = random.Random(2000 + self.seat)  # fixed seed: games replay the same way

    def choose(self, kind, observation, options):
        """Return the index of the option to play."""
        strategy = getattr(self, kind, None)
        if strategy is None:  # a kind of decision this bot has no idea about: any option
            return self.rng.randrange(len(options))
        return strategy(observation, options)

    def turn(self, observation, options):
        """Take an action tile from the crane; refresh a row only when nothing else is left."""
        tiles = [i for i, option in enumerate(options) if option["kind"] == "take_tile"]
        if tiles:
            return self.rng.choice(tiles)
        others = [i for i, option in enumerate(options) if option["kind"] != "refresh"]
        return self.rng.choice(others or list(range(len(options))))

    def mine(self, observation, options):
        """Alternate: advance in the mine on even turns, produce on odd ones."""
        wanted = "advance" if observation.get("turn", 0) % 2 == 0 else "produce"
        for i, option in enumerate(options):
            if option.get("mode") == wanted:
                return i
        return 0


def main():
    start = json.loads(sys.stdin.readline())
    bot = Bot(start)
    log("knows", len(TILES), "hex tiles")
    send({"type": "ready", "name": "praga-starter"})
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "decide":
            for fault in message.get("faults", []):
                log("the host reported a fault of mine:", fault)
            choice = bot.choose(message["kind"], message["observation"], message["options"])
            send({"type": "act", "id": message["id"], "choice": choice})
        elif message["type"] == "end":
            log("game over, my rank:", message["result"]["ranks"][bot.seat])
            break


if __name__ == "__main__":
    main()
