"""Setting up a game: the deck, the characters in play, hands, gold and the crown."""

from . import draft
from .components import (
    BANK_GOLD,
    BASE_KINDS,
    BASE_OF_RANK,
    BASE_PURPLE_KINDS,
    CHARACTER_IDS,
    CHARACTER_INDEX,
    COPIES,
    DARK_OF_RANK,
    DISTRICT_INDEX,
    START_GOLD,
    START_HAND,
)
from .table import reset_turn


def build_lineup(players: int, options: dict) -> list[int]:
    """Rank -> character id in play (-1 if the rank is out of this game).

    seed 001 擴展角色介紹: one character per rank, chosen before the game. seed 001/003 3名玩家:
    the rank-1 character is removed with three players under the seeds' rule.
    """
    dark = set(options["dark_city_characters"])
    lineup = [-1] * 10
    for rank in range(1, 9):
        lineup[rank] = (
            DARK_OF_RANK[rank] if CHARACTER_IDS[DARK_OF_RANK[rank]] in dark else BASE_OF_RANK[rank]
        )
    if options["rank9"] != "none":
        lineup[9] = CHARACTER_INDEX[options["rank9"]]
    if players == 3 and options["three_player_rule"] == "seed_no_assassin":
        lineup[1] = -1
    return lineup


def build_deck(options: dict, chance) -> list[int]:
    """The district deck, shuffled.

    seed 001 FAQ 擴充地區牌: up to 3 expansion districts are simply added; for each one beyond
    3, one base card is removed first, drawn at random through the engine's PRNG. By default
    a base *purple* card (reference §1.4), so the four colours of normal districts keep their
    balance; option ``expansion_removal`` = ``any_base`` draws from every base card, as the
    seed's "district cards" also reads (decision documented in docs/rules/citadels.md).
    """
    deck = []
    for kind in BASE_KINDS:
        deck += [kind] * COPIES[kind]
    extra = [DISTRICT_INDEX[name] for name in options["dark_city_districts"]]
    if options["expansion_removal"] == "any_base":
        removable = deck[:]
    else:
        removable = [k for k in BASE_PURPLE_KINDS for _ in range(COPIES[k])]
    for _ in range(max(0, len(extra) - 3)):
        deck.remove(removable.pop(chance.below(len(removable))))
    deck += extra
    chance.shuffle(deck)
    return deck


def setup_game(s) -> None:
    """seed 001 遊戲準備: 4 district cards and 2 gold each; a random player takes the crown."""
    n = s.players
    s.lineup = build_lineup(n, s.options)
    s.deck = build_deck(s.options, s._chance)
    s.hands = [[s.deck.pop() for _ in range(START_HAND)] for _ in range(n)]
    s.cities = [[] for _ in range(n)]
    s.adorned = [[] for _ in range(n)]
    s.museum = [()] * n  # per seat: tuples, replaced on change (clones share them)
    s.gold = [START_GOLD] * n
    s.bank = BANK_GOLD - START_GOLD * n
    s.crown = s._chance.below(n)
    s.threshold = s.options["end_districts"]
    s.bell_tower = False
    s.end_triggered = False
    s.completed = [False] * n
    s.first_completers = []
    s.haunted_round = [-1] * n
    s.round = 0
    s.events = []
    s.history = []
    s.idle_rounds = 0
    s.built_this_round = False
    s.stack = []
    s.seen = [()] * n
    s.ranks_of = [()] * n
    s.holder = [-1] * 10
    s.tax_owed = []
    reset_turn(s, -1, 0)
    draft.start_round(s)
