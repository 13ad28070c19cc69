"""Full game states consistent with one seat's observation (determinizations), for search.

A search bot sees only its observation. To look ahead it builds a state from the public facts
(cities, gold, crown, the characters revealed this round, the turn so far read off the event
log) and its own private ones (hand, characters, what it was shown in the draft), and fills in
what it cannot see by sampling:

- **cards**: every card not visible to the seat (not in its hand, its Museum, or any city) is
  equally likely to be in any other hand, under any other Museum, or anywhere in the deck. With
  more than three Dark City districts some base purple cards left the game at setup; cards in
  excess of the game's count are dropped base purples first, like the setup (seed 001 FAQ
  擴充地區牌).
- **characters**: the characters nobody has revealed are dealt at random to the seats that
  have not revealed theirs and to the face-down pile, respecting what the seat knows: with one
  character each, the players before it in the draft took theirs from what it was *not* shown
  and those after it from what it was shown (less its own pick); a character already called
  that nobody answered for was killed (or kept silent at a Ball Room), so some seat holds it,
  and one nobody holds was announced absent.

Rule options the observation does not show are inferred (the characters in play, the city size
that ends the game, the card count) or take the title's defaults (``tie_break``,
``diplomat_timing``, ``abbot_tie``). A determinization is a real :class:`CitadelsState`: the
engine's own rules play it out, so the search can never play a rule the engine does not have.
"""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.rng import Rng

from .components import (
    ARCHITECT,
    BASE_KINDS,
    BASE_PURPLE_KINDS,
    BISHOP,
    CHARACTER_IDS,
    CHARACTER_INDEX,
    CHARACTER_RANK,
    COPIES,
    DARK_CITY_CHARACTERS,
    DARK_CITY_DISTRICTS,
    DISTRICT_INDEX,
    EMPEROR,
    KING,
    NAVIGATOR,
    TAX_COLLECTOR,
    THIEF,
    WITCH,
    WIZARD,
)
from .draft import two_player_steps
from .phases import DRAFT, INCOME_ONLY, NORMAL, TURN, USED_LABORATORY, USED_MUSEUM, USED_SMITHY
from .table import build_cost, reset_turn

# Main decisions a determinization can rebuild (sub-decisions keep a stack it cannot see).
SUPPORTED_KINDS = ("draft_pick", "action", "turn")
# Public events that show the character's power was used this turn (once per turn).
_POWER_EVENTS = frozenset(
    {
        "killed",
        "bewitched",
        "robbed",
        "swap_hands",
        "discard_draw",
        "wizard",
        "abbot_tax",
        "exchanged",
        "queen",
        "navigate",
    }
)
_DEAL_TRIES = 32
_PURPLE_BITS = {"laboratory": USED_LABORATORY, "smithy": USED_SMITHY, "museum": USED_MUSEUM}
_BASE_TOTAL = sum(COPIES[k] for k in BASE_KINDS)
_BASE_PURPLES = frozenset(BASE_PURPLE_KINDS)


class Unsupported(Exception):
    """The observation describes a moment this module cannot rebuild (the bot falls back)."""


def infer_options(obs: dict) -> dict:
    """The rule options a seat can tell from its observation (defaults for the rest)."""
    in_game = obs["characters_in_game"]
    dark = set(DARK_CITY_CHARACTERS)
    rank9 = [c for c in in_game if CHARACTER_RANK[CHARACTER_INDEX[c]] == 9]
    threshold = obs["end_districts"] + (1 if obs["bell_tower"] else 0)
    options = {
        "dark_city_characters": [c for c in in_game if c in dark],
        "rank9": rank9[0] if rank9 else "none",
        "dark_city_districts": list(DARK_CITY_DISTRICTS) if _card_total(obs) > _BASE_TOTAL else [],
    }
    if threshold in (7, 8, 10):
        options["end_districts"] = threshold
    if obs["players"] == 3:
        has_rank1 = any(CHARACTER_RANK[CHARACTER_INDEX[c]] == 1 for c in in_game)
        options["three_player_rule"] = "two_characters_each" if has_rank1 else "seed_no_assassin"
    return options


def _card_total(obs: dict) -> int:
    return (
        obs["deck_size"]
        + sum(obs["hand_sizes"])
        + sum(len(c) for c in obs["cities"])
        + sum(obs["museum"])
    )


def characters_each(players: int, options: dict) -> int:
    """How many characters each seat holds in a round (seed 001 2名玩家, reference §3)."""
    if players == 2 or (players == 3 and options.get("three_player_rule") == "two_characters_each"):
        return 2
    return 1


class Determinizer:
    """Built once per decision from the observation; :meth:`sample` deals the hidden parts."""

    def __init__(self, title, obs: dict, kind: str):
        if kind not in SUPPORTED_KINDS:
            raise Unsupported(f"decision kind {kind!r}")
        self.obs = obs
        self.kind = kind
        self.seat = obs["seat"]
        self.players = n = obs["players"]
        self.options = infer_options(obs)
        self.template = s = title.new_game(n, self.options, 0)
        self.each = characters_each(n, s.options)
        self.lineup = [-1] * 10
        self.draft_order = [(obs["crown"] + i) % n for i in range(n)]
        for name in obs["characters_in_game"]:
            c = CHARACTER_INDEX[name]
            self.lineup[CHARACTER_RANK[c]] = c
        self._public_table(s)
        self._card_pool()
        self.my_chars = [CHARACTER_INDEX[c] for c in obs["my_characters"]]
        if kind == "draft_pick":
            self._draft(s)
        else:
            self._turn(s)

    # -- the public table ---------------------------------------------------------------

    def _public_table(self, s) -> None:
        obs, n = self.obs, self.players
        s.lineup = self.lineup
        s.cities = [[DISTRICT_INDEX[d["district"]] for d in city] for city in obs["cities"]]
        s.adorned = [[1 if d["beautified"] else 0 for d in city] for city in obs["cities"]]
        s.museum = [()] * n
        s.museum[self.seat] = tuple(DISTRICT_INDEX[d] for d in obs["my_museum"])
        s.hands = [[] for _ in range(n)]
        s.hands[self.seat] = [DISTRICT_INDEX[d] for d in obs["hand"]]
        s.gold = list(obs["gold"])
        s.bank = obs["bank"]
        s.crown = obs["crown"]
        s.threshold = s.options["end_districts"]
        s.bell_tower = obs["bell_tower"]
        s.end_triggered = obs["end_triggered"]
        s.completed = list(obs["completed"])
        s.round = obs["round"]
        s.events = []  # the rules never read the log; playouts need not copy it
        s.history = []
        s.idle_rounds = 0
        events = obs["events"]
        self.round_start = max(
            (i for i, e in enumerate(events) if e["event"] == "round"), default=0
        )
        self.round_events = events[self.round_start :]
        s.first_completers = [e["seat"] for e in events if e["event"] == "completed" and e["first"]]
        s.haunted_round = [-1] * n
        current = 0
        for e in events:
            if e["event"] == "round":
                current = e["round"]
            elif e["event"] == "built" and e["district"] == "haunted_city":
                s.haunted_round[e["seat"]] = current
        s.built_this_round = any(e["event"] == "built" for e in self.round_events)
        s.face_up = [CHARACTER_INDEX[c] for c in obs["face_up"]]
        s.seen = [()] * n
        s.seen[self.seat] = tuple(
            tuple(CHARACTER_INDEX[c] for c in offered) for offered in obs["draft_seen"]
        )
        s.stack = []
        s.tax_owed = []

    def _card_pool(self) -> None:
        """The cards the seat cannot see, and how many of them sit where."""
        obs, s = self.obs, self.template
        counts = [0] * len(COPIES)
        for k in BASE_KINDS:
            counts[k] = COPIES[k]
        for name in s.options["dark_city_districts"]:
            counts[DISTRICT_INDEX[name]] += 1
        visible = list(s.hands[self.seat]) + list(s.museum[self.seat])
        for city in s.cities:
            visible += city
        for k in visible:
            if counts[k] > 0:
                counts[k] -= 1
        self.unseen = [k for k, c in enumerate(counts) for _ in range(c)]
        self.hand_sizes = [
            0 if v == self.seat else obs["hand_sizes"][v] for v in range(self.players)
        ]
        self.museum_sizes = [0 if v == self.seat else obs["museum"][v] for v in range(self.players)]
        self.needed = obs["deck_size"] + sum(self.hand_sizes) + sum(self.museum_sizes)

    # -- the draft ----------------------------------------------------------------------

    def _draft(self, s) -> None:
        obs, n, seat = self.obs, self.players, self.seat
        s.phase = DRAFT
        pool = [CHARACTER_INDEX[c] for c in obs["draft_seen"][-1]] if obs["draft_seen"] else []
        order = self.draft_order
        if n == 2:
            steps = two_player_steps(order[0], order[1])
        elif self.each == 2:
            steps = [(v, "pick") for v in order + order]
        else:
            steps = [(v, "pick") for v in order]
        in_game = [c for c in self.lineup[1:] if c >= 0]
        start_pool = len(in_game) - 1 - len(s.face_up)
        done = order.index(seat) if self.each == 1 else start_pool - len(pool)
        # seed 001 7名玩家: the last chooser's single card was joined by the face-down one
        pulled = len(pool) == start_pool - done + 1
        if not 0 <= done < len(steps) or steps[done] != (seat, "pick"):
            raise Unsupported("the draft order does not match the observation")
        s.draft_steps = steps[done:]
        s.pool = pool
        hidden = [c for c in in_game if c not in s.face_up and c not in pool]
        hidden = [c for c in hidden if c not in self.my_chars]
        slots = [step for step in steps[:done] if step[0] != seat or step[1] == "discard"]
        self.draft_slots = [v if action == "pick" and v != seat else -1 for v, action in slots]
        if not pulled:
            self.draft_slots.append(-1)  # seed 001 選擇角色: one card aside face down
        if len(hidden) != len(self.draft_slots):
            raise Unsupported("hidden characters do not fit the draft so far")
        self.hidden_chars = hidden
        self._round_defaults(s)
        s.calling = 0
        reset_turn(s, -1, 0)

    # -- a turn -------------------------------------------------------------------------

    def _turn(self, s) -> None:
        obs, seat = self.obs, self.seat
        if obs["turn_seat"] != seat or obs["calling"] is None:
            raise Unsupported("not this seat's turn")
        s.phase = TURN
        s.draft_steps = []
        s.pool = []
        self._round_defaults(s)
        known = {}  # character -> seat, revealed this round
        absent = []
        silent = False
        for e in self.round_events:
            if e["event"] == "reveal":
                known[CHARACTER_INDEX[e["character"]]] = e["seat"]
            elif e["event"] == "absent":
                absent.append(CHARACTER_INDEX[e["character"]])
            elif e["event"] == "ball_room" and not e["thanked"]:
                silent = True
        for c in self.my_chars:
            known[c] = seat
        self.known = known
        self.absent = absent
        self.silent = silent
        in_game = [c for c in self.lineup[1:] if c >= 0]
        self.hidden_chars = [
            c for c in in_game if c not in known and c not in absent and c not in s.face_up
        ]
        held = [0] * self.players
        for v in known.values():
            held[v] += 1
        self.open_slots = [max(0, self.each - held[v]) for v in range(self.players)]
        if sum(self.open_slots) > len(self.hidden_chars):
            raise Unsupported("more unrevealed seats than hidden characters")
        calling = CHARACTER_RANK[CHARACTER_INDEX[obs["calling"]]]
        s.calling = self.calling = calling
        s.killed = self.killed = _rank(obs["killed"])
        s.robbed = _rank(obs["robbed"])
        s.bewitched = _rank(obs["bewitched"])
        self._turn_flags(s, calling)

    def _turn_flags(self, s, calling: int) -> None:
        """The turn so far, read off the public events since this seat's turn began."""
        seat, events = self.seat, self.round_events
        character = s.lineup[calling]
        start, resumed = None, False
        for i, e in enumerate(events):
            if (
                e["event"] == "reveal"
                and e["seat"] == seat
                and e["character"] == CHARACTER_IDS[character]
            ):
                start, resumed = i, False
            elif e["event"] == "witch_resumes" and e["seat"] == seat:
                start, resumed = i, True
        if start is None:
            raise Unsupported("the start of this turn is not in the log")
        mode = NORMAL
        if not resumed and (calling == s.killed or calling == s.bewitched):
            mode = INCOME_ONLY  # Hospital, or the bewitched player's action
        reset_turn(s, seat, calling, mode)
        s.t_resume = mode == INCOME_ONLY and calling == s.bewitched
        s.t_income = resumed
        builds = 3 if character == ARCHITECT else 1
        after_wizard = False
        for e in events[start + 1 :]:
            name = e["event"]
            mine = e.get("seat") == seat
            if name == "action" and mine:
                s.t_income = True
            elif name == "built" and mine:
                kind = DISTRICT_INDEX[e["district"]]
                s.t_built += 1
                s.t_spent += build_cost([k for k in s.cities[seat] if k != kind], kind)
                if not (after_wizard and character == WIZARD):
                    builds -= 1
            elif name == "income" and mine:
                s.t_collected = True
            elif name == "beautified" and mine:
                s.t_beautified += 1
            elif name in _PURPLE_BITS and mine:
                s.t_used |= _PURPLE_BITS[name]
            elif name in _POWER_EVENTS or (name == "crown" and character == EMPEROR):
                s.t_power = True
                if name == "navigate" and character == NAVIGATOR:
                    builds = 0
            after_wizard = name == "wizard"
        s.t_builds = max(0, builds)

    def _round_defaults(self, s) -> None:
        s.killed = s.robbed = s.bewitched = 0
        s.robber = s.witch = s.tax_seat = s.protected = s.heir = -1
        s.holder = [-1] * 10
        s.ranks_of = [()] * self.players
        s.aside_down = []

    # -- sampling -----------------------------------------------------------------------

    def sample(self, rng: Rng):
        """One state consistent with the observation, with its own future chance."""
        s = self.template.clone()
        s._chance = Chance(rng.below(1 << 31))
        s._decision = None
        self._deal_cards(s, rng)
        if self.kind == "draft_pick":
            self._deal_draft(s, rng)
        else:
            self._deal_turn(s, rng)
        return s

    def _deal_cards(self, s, rng: Rng) -> None:
        cards = self.unseen[:]
        _shuffle(cards, rng)
        excess = len(cards) - self.needed
        if excess > 0:
            # seed 001 FAQ 擴充地區牌: the cards that left the game were base purples first;
            # any further excess (a miscounted option) leaves from the end of the shuffle.
            out = set([i for i, k in enumerate(cards) if k in _BASE_PURPLES][:excess])
            cards = [k for i, k in enumerate(cards) if i not in out]
            del cards[self.needed :]
        while len(cards) < self.needed:  # an inconsistent count: pad with base cards
            cards.append(BASE_KINDS[rng.below(len(BASE_KINDS))])
        at = 0
        for v in range(self.players):
            if v == self.seat:
                continue
            size = self.hand_sizes[v]
            s.hands[v] = cards[at : at + size]
            at += size
            size = self.museum_sizes[v]
            s.museum[v] = tuple(cards[at : at + size])
            at += size
        s.deck = cards[at:]

    def _deal_draft(self, s, rng: Rng) -> None:
        chars = self.hidden_chars[:]
        _shuffle(chars, rng)
        for c in self.my_chars:
            _hold(s, c, self.seat)
        for c, v in zip(chars, self.draft_slots, strict=True):
            if v < 0:
                s.aside_down.append(c)
            else:
                _hold(s, c, v)

    def _deal_turn(self, s, rng: Rng) -> None:
        for c, v in self.known.items():
            _hold(s, c, v)
        s.aside_down = list(self.absent)
        placed = None
        for _ in range(_DEAL_TRIES):
            placed = self._try_deal(rng, constrained=True)
            if placed is not None:
                break
        if placed is None:
            placed = self._try_deal(rng, constrained=False)
        for c, v in placed.items():
            if v < 0:
                s.aside_down.append(c)
            else:
                _hold(s, c, v)
        self._round_links(s)

    def _try_deal(self, rng: Rng, constrained: bool) -> dict | None:
        """Unrevealed characters -> seat (-1: face down). Constrained, None if the deal breaks
        what the seat knows (the caller retries, then deals once unconstrained)."""
        obs = self.obs
        chars = self.hidden_chars[:]
        _shuffle(chars, rng)
        seats = [v for v in range(self.players) for _ in range(self.open_slots[v])]
        if not (constrained and self.each == 1 and obs["draft_seen"]):
            return {c: seats[i] if i < len(seats) else -1 for i, c in enumerate(chars)}
        # one character each: the seats before this one in the draft took what it was not
        # shown, the seats after it took from what it was shown
        shown = {CHARACTER_INDEX[c] for c in obs["draft_seen"][-1]}
        before = set(self.draft_order[: self.draft_order.index(self.seat)])
        placed = {}
        for group_seats, group in (
            ([v for v in seats if v in before], [c for c in chars if c not in shown]),
            ([v for v in seats if v not in before], [c for c in chars if c in shown]),
        ):
            if len(group) < len(group_seats):
                return None
            for i, c in enumerate(group):
                placed[c] = group_seats[i] if i < len(group_seats) else -1
        for c, v in placed.items():
            rank = CHARACTER_RANK[c]
            # called, nobody answered and not absent: killed (or silent at a Ball Room)
            if rank < self.calling and not self.silent and (v < 0 or rank != self.killed):
                return None
        return placed

    def _round_links(self, s) -> None:
        """Who robs, bewitches, taxes, is protected and inherits, from who holds what."""
        holder = s.holder
        if s.robbed and self.lineup[2] == THIEF:
            s.robber = holder[2]
        if s.bewitched and self.lineup[1] == WITCH:
            s.witch = holder[1]
        if self.lineup[2] == TAX_COLLECTOR and s.calling >= 2 and holder[2] >= 0 and s.killed != 2:
            s.tax_seat = s.witch if s.bewitched == 2 else holder[2]
        if self.lineup[5] == BISHOP and s.calling >= 5 and holder[5] >= 0 and s.killed != 5:
            s.protected = s.witch if s.bewitched == 5 else holder[5]
        if s.killed == 4 and self.lineup[4] == KING:
            s.heir = holder[4]


def _rank(name: str | None) -> int:
    return CHARACTER_RANK[CHARACTER_INDEX[name]] if name else 0


def _hold(s, character: int, seat: int) -> None:
    rank = CHARACTER_RANK[character]
    s.holder[rank] = seat
    s.ranks_of[seat] = tuple(sorted(s.ranks_of[seat] + (rank,)))


def _shuffle(items: list, rng: Rng) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]
