"""A tiny title for testing the engine core without the rules of a real game.

"Twenty-one lite": a shuffled deck of 1..9 twice; in seat order each player draws (card
hidden from others) or stops; a hand over 15 busts to 0. Highest hand wins.
"""

from engine import Decision, State, Title
from engine.core.contract import ranks_from_scores
from engine.core.options import Option

LIMIT = 15


class ToyState(State):
    __slots__ = ("deck", "hands", "stopped", "turn")

    def _setup(self):
        self.deck = list(range(1, 10)) * 2
        self._chance.shuffle(self.deck)
        self.hands = [[] for _ in range(self.players)]
        self.stopped = [False] * self.players
        self.turn = 0

    def is_over(self):
        return all(self.stopped)

    def _decide(self):
        options = [{"kind": "stop"}]
        if self.deck and len(self.hands[self.turn]) < self.options["max_cards"]:
            options.insert(0, {"kind": "draw"})
        return Decision(self.turn, "draw_or_stop", options)

    def _apply(self, option):
        if option["kind"] == "draw":
            self.hands[self.turn].append(self.deck.pop())
            if sum(self.hands[self.turn]) > LIMIT:
                self.stopped[self.turn] = True
        else:
            self.stopped[self.turn] = True
        for step in range(1, self.players + 1):
            seat = (self.turn + step) % self.players
            if not self.stopped[seat]:
                self.turn = seat
                break

    def _score(self, seat):
        total = sum(self.hands[seat])
        return 0 if total > LIMIT else total

    def observation(self, seat):
        return {
            "seat": seat,
            "hand": list(self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "deck_size": len(self.deck),
        }

    def _result(self):
        scores = [self._score(s) for s in range(self.players)]
        ranks = ranks_from_scores(scores)
        return {
            "scores": scores,
            "ranks": ranks,
            "winners": [s for s in range(self.players) if ranks[s] == 1],
        }

    def _copy_into(self, twin):
        twin.deck = list(self.deck)
        twin.hands = [list(h) for h in self.hands]
        twin.stopped = list(self.stopped)
        twin.turn = self.turn


class ToyTitle(Title):
    id = "toy"
    name = "Toy"
    rules_version = "1"
    min_players = 2
    max_players = 4
    option_specs = (
        Option("max_cards", "most cards one hand may hold", (2, 3, 4), lambda p: 4 if p < 4 else 3),
        Option(
            "colours", "decorative list option", ("red", "blue", "green"), ("red",), is_list=True
        ),
    )
    state_class = ToyState


TOY = ToyTitle()
