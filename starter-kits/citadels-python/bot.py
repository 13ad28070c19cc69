"""A Citadels bot for Meeple Arena, standard library only: start from here.

The host sends one JSON message per line on stdin and reads one per line on stdout; stderr
is your log (you can read it after each game). See README.md for the messages, the
observation and the options.
"""

import json
import random
import sys
from pathlib import Path

# Characters in the order this bot likes to draft them; Dark City characters it does not
# know come after these, in the order they are offered.
PREFERRED = ["architect", "merchant", "king", "warlord", "bishop", "thief", "magician", "assassin"]


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


# District costs by id, from the cards.json that comes with the kit (without it every
# district looks alike and the bot builds the first one offered).
CARDS = kit_data("cards.json") or {"districts": []}
COST = {district["id"]: district["cost"] for district in CARDS["districts"]}


class Bot:
    def __init__(self, start):
        self.seat = start["seat"]
        self.players = start["players"]
        self.rng = random.Random(1000 + self.seat)  # fixed seed: games replay the same way

    def choose(self, kind, observation, options):
        """Return the index of the option to play."""
        strategy = getattr(self, kind, None)
        if strategy is None:  # a kind of decision this bot does not know yet
            return self.rng.randrange(len(options))
        return strategy(observation, options)

    def draft_pick(self, observation, options):
        def rank(i):
            character = options[i].get("character")
            return PREFERRED.index(character) if character in PREFERRED else len(PREFERRED)

        return min(range(len(options)), key=rank)

    def action(self, observation, options):
        """Gold while the hand has districts to build, cards when it runs dry."""
        wanted = "take_gold" if observation["hand"] else "draw_cards"
        for i, option in enumerate(options):
            if option["kind"] == wanted:
                return i
        return 0

    def keep(self, observation, options):
        """Keep the dearest card: a district scores its cost."""
        return self.dearest(options, "keep")

    def turn(self, observation, options):
        """Build the dearest district offered; sometimes use a character ability; else end."""
        kinds = [option["kind"] for option in options]
        if "build" in kinds:
            return self.dearest(options, "build")
        abilities = [i for i, kind in enumerate(kinds) if kind != "end_turn"]
        if abilities and self.rng.random() < 0.5:
            return self.rng.choice(abilities)
        return kinds.index("end_turn") if "end_turn" in kinds else 0

    def dearest(self, options, kind):
        of_kind = [i for i, option in enumerate(options) if option["kind"] == kind]
        if not of_kind:
            return self.rng.randrange(len(options))
        return max(of_kind, key=lambda i: COST.get(options[i].get("district"), 0))


def main():
    start = json.loads(sys.stdin.readline())
    bot = Bot(start)
    send({"type": "ready", "name": "citadels-starter"})
    events = []  # the whole public event log; each decide brings only what is new
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "decide":
            observation = message["observation"]
            events[message["events_from"] :] = observation["events"]
            observation["events"] = events
            for fault in message.get("faults", []):
                log("the host reported a fault of mine:", fault)
            choice = bot.choose(message["kind"], observation, message["options"])
            send({"type": "act", "id": message["id"], "choice": choice})
        elif message["type"] == "end":
            log("game over, my rank:", message["result"]["ranks"][bot.seat])
            break


if __name__ == "__main__":
    main()
