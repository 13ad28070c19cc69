"""Build Citadels states with chosen hands, cities, gold and characters, for scenario tests.

``table(...)`` starts a real game, then replaces the table with the one described and jumps to
the calling of the characters, so the first decision is that of the lowest rank held. The deck
is the game's own deck minus the cards placed elsewhere, so cards and gold stay conserved.
"""

from engine.citadels.components import (
    BANK_GOLD,
    CHARACTER_INDEX,
    CHARACTER_RANK,
    DISTRICT_INDEX,
)
from engine.citadels.setup import build_deck
from engine.citadels.title import CITADELS
from engine.citadels.turn import start_calls
from engine.core import positions
from engine.core.chance import Chance


def table(
    players: int = 4,
    characters: dict | None = None,
    hands: dict | None = None,
    cities: dict | None = None,
    gold: dict | None = None,
    crown: int = 0,
    deck_top: list[str] | None = None,
    options: dict | None = None,
    seed: int = 1,
    start: bool = True,
):
    """A state in the turn phase. ``characters`` maps seat -> character name or list of names;
    ``hands``/``cities`` map seat -> district names; ``gold`` seat -> gold (others 0);
    ``deck_top`` lists the next cards drawn, first drawn first."""
    s = CITADELS.new_game(players, options or {}, seed)
    hands = hands or {}
    cities = cities or {}
    gold = gold or {}
    s.hands = [[DISTRICT_INDEX[d] for d in hands.get(v, [])] for v in range(players)]
    s.cities = [[DISTRICT_INDEX[d] for d in cities.get(v, [])] for v in range(players)]
    s.adorned = [[0] * len(c) for c in s.cities]
    s.museum = [()] * players
    s.gold = [gold.get(v, 0) for v in range(players)]
    s.bank = BANK_GOLD - sum(s.gold)
    assert s.bank >= 0
    deck = build_deck(s.options, Chance(seed))
    for held in s.hands + s.cities:
        for card in held:
            deck.remove(card)
    top = [DISTRICT_INDEX[d] for d in deck_top or []]
    for card in top:
        deck.remove(card)
    s.deck = deck + top[::-1]
    s.crown = crown
    s.history = []
    s.events = []
    if characters is not None:
        assign(s, characters)
        if start:
            start_calls(s)
            positions.reload(s)
    return s


def assign(s, characters: dict) -> None:
    """Give characters to seats as if the draft had just ended."""
    s.holder = [-1] * 10
    s.ranks_of = [()] * s.players
    for seat, names in characters.items():
        for name in [names] if isinstance(names, str) else names:
            character = CHARACTER_INDEX[name]
            rank = CHARACTER_RANK[character]
            assert s.lineup[rank] == character, f"{name} is not in this game's lineup"
            s.holder[rank] = seat
            s.ranks_of[seat] += (rank,)
    s.draft_steps = []
    s.pool = []
    s.face_up = []
    s.seen = [()] * s.players
    s.aside_down = [c for r, c in enumerate(s.lineup) if r and c >= 0 and s.holder[r] < 0]


def do(s, kind: str, **fields) -> dict:
    """Apply the option of this kind (and fields); fails clearly if it is not offered."""
    option = {"kind": kind, **fields}
    offered = s.decision().options
    assert option in offered, f"{option} not in {offered}"
    return s.apply(option)


def offers(s, kind: str, **fields) -> bool:
    option = {"kind": kind, **fields}
    return option in s.decision().options


def kinds(s) -> set:
    return {o["kind"] for o in s.decision().options}


def names(cards) -> list[str]:
    from engine.citadels.components import DISTRICT_IDS

    return sorted(DISTRICT_IDS[k] for k in cards)


def dark(*characters: str, rank9: str = "none", districts=(), **more) -> dict:
    """Options with these Dark City characters (and districts)."""
    return {
        "dark_city_characters": list(characters),
        "rank9": rank9,
        "dark_city_districts": list(districts),
        **more,
    }


def total_gold(s) -> int:
    return s.bank + sum(s.gold) + sum(sum(a) for a in s.adorned)


def total_cards(s) -> int:
    """Every district card: deck, hands, cities, museums, and cards drawn awaiting a keep."""
    pending = sum(len(payload[0]) for kind, _, payload in s.stack if kind == "keep")
    return (
        len(s.deck)
        + sum(map(len, s.hands))
        + sum(map(len, s.cities))
        + sum(map(len, s.museum))
        + pending
    )


def finish_round(s) -> None:
    """Play the rest of the round plainly: take gold, end turns, first option elsewhere."""
    from engine.citadels.phases import TURN

    while not s.is_over() and s.phase == TURN:
        decision = s.decision()
        if decision.kind == "action":
            s.apply({"kind": "take_gold"})
        elif {"kind": "end_turn"} in decision.options:
            s.apply({"kind": "end_turn"})
        else:
            s.apply(0)


EIGHT = ["manor", "castle", "palace", "temple", "church", "monastery", "tavern"]  # + 1 = 8
