"""Built-in Citadels bots. Like any bot they see only the observation and the options.

Both rate every option and take the best (ties broken by their own seeded stream):
``builder`` grows its city as fast as it can and uses powers for gold and cards;
``aggressor`` builds too, but drafts and uses the Assassin, Thief, Warlord and their Dark City
counterparts against the leading player. ``search`` (``search.py``) looks ahead: it plays
many games out with ``builder`` policies from states consistent with what it has seen.
"""

from engine.core.bots import Bot

from .components import (
    CHARACTER_COLOUR,
    CHARACTER_INDEX,
    COLOUR,
    COLOURS,
    COST,
    DISTRICT_INDEX,
    POINTS,
)

_COLOUR_OF_NAME = {name: i for i, name in enumerate(COLOURS)}


def _cost(name: str) -> int:
    return COST[DISTRICT_INDEX[name]]


def _colour(name: str) -> int:
    return COLOUR[DISTRICT_INDEX[name]]


class _View:
    """Facts a bot derives from one observation."""

    def __init__(self, obs: dict):
        self.obs = obs
        self.seat = obs["seat"]
        self.city = [d["district"] for d in obs["cities"][self.seat]]
        self.gold = obs["gold"][self.seat]
        self.hand = obs["hand"]
        self.points = [
            sum(POINTS[DISTRICT_INDEX[d["district"]]] for d in city) + len(city)
            for city in obs["cities"]
        ]
        others = [v for v in range(obs["players"]) if v != self.seat]
        self.leader = max(others, key=lambda v: (self.points[v], len(obs["cities"][v]), -v))

    def colour_count(self, character: str) -> int:
        colour = CHARACTER_COLOUR[CHARACTER_INDEX[character]]
        return sum(1 for d in self.city if _colour(d) == colour) if colour >= 0 else 0

    def useful(self, district: str) -> bool:
        return district not in self.city


class HeuristicBot(Bot):
    """Rates each option through ``OPTION_RATINGS`` (its kind's rating; kinds absent there
    rate 0); higher is better, ties drawn at random."""

    name = "heuristic"
    # how much the style values each character in the draft, before the city's income
    character_value: dict = {}
    attack_bonus = 0

    def choose(self, observation, kind, options):
        return self.choose_with(_View(observation), options)

    def choose_with(self, view, options) -> int:
        """The best-rated option for what ``view`` shows (an observation's facts)."""
        best, best_rating = [], None
        for index, option in enumerate(options):
            rate = OPTION_RATINGS.get(option["kind"])
            rating = rate(self, view, option) if rate else 0
            if best_rating is None or rating > best_rating:
                best, best_rating = [index], rating
            elif rating == best_rating:
                best.append(index)
        return self.pick(best)

    # -- draft --------------------------------------------------------------------------
    def _rate_pick(self, view, option):
        character = option["character"]
        value = self.character_value.get(character, 20) + 10 * view.colour_count(character)
        if character in ("architect", "navigator") and len(view.hand) >= 2:
            value += 15
        if character == "magician" and not view.hand:
            value += 20
        return value

    # -- the action and cards ----------------------------------------------------------
    def _rate_take_gold(self, view, option):
        return 10 if sum(1 for d in view.hand if view.useful(d)) >= 2 else 0

    def _rate_draw_cards(self, view, option):
        return 5

    def _card_value(self, view, district):
        value = _cost(district) * 10 if view.useful(district) else 0
        if _cost(district) > view.gold + 6:
            value //= 2
        return value

    def _rate_keep(self, view, option):
        return self._card_value(view, option["district"])

    def _rate_recover(self, view, option):
        return 5 if _cost(option["district"]) >= 3 else -5

    def _rate_decline(self, view, option):
        return 0

    # -- building and income --------------------------------------------------------------
    def _rate_build(self, view, option):
        return 100 + _cost(option["district"]) * 10

    def _rate_build_now(self, view, option):
        return 50

    def _rate_collect_income(self, view, option):
        return 90  # after a build of the same colour if one is possible (builds rate higher)

    def _rate_end_turn(self, view, option):
        return 0

    # -- powers ------------------------------------------------------------------------------
    def _guess(self, view, character):
        """How much harm naming ``character`` likely does (bigger: better target)."""
        order = [
            "architect",
            "merchant",
            "king",
            "emperor",
            "bishop",
            "alchemist",
            "navigator",
            "warlord",
            "diplomat",
            "tax_collector",
            "magician",
            "wizard",
            "abbot",
            "queen",
            "artist",
            "thief",
        ]
        return len(order) - order.index(character) if character in order else 0

    def _rate_kill(self, view, option):
        return 30 + self.attack_bonus + self._guess(view, option["character"])

    def _rate_rob(self, view, option):
        rich = {"merchant": 6, "king": 5, "emperor": 5, "alchemist": 4, "architect": 3, "bishop": 3}
        return 30 + self.attack_bonus + rich.get(option["character"], 0)

    def _rate_swap_hands(self, view, option):
        theirs = view.obs["hand_sizes"][option["seat"]]
        return 20 + 5 * (theirs - len(view.hand)) if theirs > len(view.hand) + 1 else -1

    def _rate_discard_draw(self, view, option):
        return 15 if sum(1 for d in view.hand if not view.useful(d)) else -1

    def _rate_discard(self, view, option):
        """The 2-player draft discard (deny the opponent the best card) or a Magician's card."""
        if "district" not in option:
            return self._rate_pick(view, option)
        return 10 if not view.useful(option["district"]) else -10

    def _rate_done(self, view, option):
        return 0

    def _rate_wizard(self, view, option):
        return 25 + view.obs["hand_sizes"][option["seat"]]

    def _rate_to_hand(self, view, option):
        return 10

    def _rate_give_crown(self, view, option):
        return -view.points[option["seat"]]

    def _rate_tribute_gold(self, view, option):
        return 0 if view.gold > 2 else -20

    def _rate_tribute_card(self, view, option):
        return -_cost(option["district"]) * 3

    def _rate_abbot_tax(self, view, option):
        return 40 + (5 if option.get("seat") == view.leader else 0)  # a chosen payer: the leader

    def _rate_navigate(self, view, option):
        if option["take"] == "gold":
            return 35 if len(view.hand) >= 2 else 20
        return 30 if len(view.hand) < 2 else 10

    def _rate_destroy(self, view, option):
        victim = option["seat"]
        if victim == view.seat:
            return -50
        value = _cost(option["district"]) * 3 + (20 if victim == view.leader else 0)
        price = _cost(option["district"]) - 1
        return self.attack_bonus + value - 10 * price if price <= view.gold - 2 else -40

    def _rate_exchange(self, view, option):
        return 10 + _cost(option["district"]) if option["seat"] == view.leader else -5

    def _rate_give(self, view, option):
        return -_cost(option["district"])

    def _rate_queen_gold(self, view, option):
        return 60

    def _rate_beautify(self, view, option):
        return 20 if view.gold >= 3 else -5

    def _rate_laboratory(self, view, option):
        return 15 if not view.useful(option["district"]) else -5

    def _rate_smithy(self, view, option):
        return 12 if view.gold >= 4 and len(view.hand) <= 2 else -5

    def _rate_museum(self, view, option):
        return 14 if not view.useful(option["district"]) or len(view.hand) > 3 else -5

    def _rate_armory(self, view, option):
        if option["seat"] != view.leader:
            return -20
        return _cost(option["district"]) * 4 - 10

    def _rate_thank(self, view, option):
        return 10

    def _rate_keep_silent(self, view, option):
        return -10


# Option kind -> how a heuristic bot rates it (the styles differ by their character values
# and attack bonus).
OPTION_RATINGS = {
    "pick": HeuristicBot._rate_pick,
    "take_gold": HeuristicBot._rate_take_gold,
    "draw_cards": HeuristicBot._rate_draw_cards,
    "keep": HeuristicBot._rate_keep,
    "search": HeuristicBot._rate_keep,
    "take": HeuristicBot._rate_keep,
    "recover": HeuristicBot._rate_recover,
    "decline": HeuristicBot._rate_decline,
    "build": HeuristicBot._rate_build,
    "build_now": HeuristicBot._rate_build_now,
    "collect_income": HeuristicBot._rate_collect_income,
    "end_turn": HeuristicBot._rate_end_turn,
    "kill": HeuristicBot._rate_kill,
    "bewitch": HeuristicBot._rate_kill,
    "rob": HeuristicBot._rate_rob,
    "swap_hands": HeuristicBot._rate_swap_hands,
    "discard_draw": HeuristicBot._rate_discard_draw,
    "discard": HeuristicBot._rate_discard,
    "done": HeuristicBot._rate_done,
    "wizard": HeuristicBot._rate_wizard,
    "to_hand": HeuristicBot._rate_to_hand,
    "give_crown": HeuristicBot._rate_give_crown,
    "tribute_gold": HeuristicBot._rate_tribute_gold,
    "tribute_card": HeuristicBot._rate_tribute_card,
    "abbot_tax": HeuristicBot._rate_abbot_tax,
    "navigate": HeuristicBot._rate_navigate,
    "destroy": HeuristicBot._rate_destroy,
    "exchange": HeuristicBot._rate_exchange,
    "give": HeuristicBot._rate_give,
    "queen_gold": HeuristicBot._rate_queen_gold,
    "beautify": HeuristicBot._rate_beautify,
    "laboratory": HeuristicBot._rate_laboratory,
    "smithy": HeuristicBot._rate_smithy,
    "museum": HeuristicBot._rate_museum,
    "armory": HeuristicBot._rate_armory,
    "thank": HeuristicBot._rate_thank,
    "keep_silent": HeuristicBot._rate_keep_silent,
}


class BuilderBot(HeuristicBot):
    """Builds as fast as possible; values income characters and the Architect."""

    name = "builder"
    character_value = {
        "architect": 45,
        "merchant": 40,
        "alchemist": 38,
        "navigator": 35,
        "king": 32,
        "emperor": 30,
        "bishop": 28,
        "abbot": 28,
        "queen": 26,
        "tax_collector": 24,
        "magician": 22,
        "wizard": 25,
        "warlord": 22,
        "diplomat": 20,
        "thief": 18,
        "assassin": 18,
        "witch": 20,
        "artist": 15,
    }


class AggressorBot(HeuristicBot):
    """Takes the Assassin, Thief and Warlord (or their Dark City peers) to slow the leader."""

    name = "aggressor"
    attack_bonus = 25
    character_value = {
        "assassin": 48,
        "witch": 44,
        "thief": 46,
        "tax_collector": 36,
        "warlord": 45,
        "diplomat": 35,
        "merchant": 32,
        "architect": 30,
        "king": 28,
        "emperor": 26,
        "alchemist": 28,
        "navigator": 25,
        "bishop": 22,
        "abbot": 22,
        "magician": 20,
        "wizard": 24,
        "queen": 22,
        "artist": 12,
    }


BOTS = {"builder": BuilderBot, "aggressor": AggressorBot}  # and "search": see __init__.py
