"""Purple districts with an effect during a turn (seed 001 特別地區 and the Dark City FAQ;
reference §1.2-1.3). Scoring effects are in ``scoring``; build-limit and income effects in
``turn`` and ``powers``."""

from .components import (
    ARMORY,
    DISTRICT_IDS,
    DISTRICT_INDEX,
    LABORATORY,
    MUSEUM,
    SMITHY,
)
from .phases import NORMAL, USED_LABORATORY, USED_MUSEUM, USED_SMITHY
from .table import draw, pay, remove_district, take, to_bottom


def add_options(s, options: list) -> None:
    """Append the purple abilities the seat playing now may use."""
    if s.t_mode != NORMAL:
        return
    seat = s.t_seat
    city = s.cities[seat]
    hand = s.hands[seat]
    used = s.t_used
    if LABORATORY in city and hand and not used & USED_LABORATORY:
        for kind in sorted(set(hand)):
            options.append({"kind": "laboratory", "district": DISTRICT_IDS[kind]})
    if SMITHY in city and s.gold[seat] >= 2 and s.deck and not used & USED_SMITHY:
        options.append({"kind": "smithy"})
    if MUSEUM in city and hand and not used & USED_MUSEUM:
        for kind in sorted(set(hand)):
            options.append({"kind": "museum", "district": DISTRICT_IDS[kind]})
    if ARMORY in city:
        for victim in range(s.players):
            if victim != seat:
                for kind in sorted(set(s.cities[victim])):
                    options.append(
                        {"kind": "armory", "seat": victim, "district": DISTRICT_IDS[kind]}
                    )


def laboratory(s, option: dict) -> None:
    """seed 001 實驗室: once a turn, discard a card from hand for 1 gold."""
    seat = s.t_seat
    s.t_used |= USED_LABORATORY
    card = DISTRICT_INDEX[option["district"]]
    s.hands[seat].remove(card)
    to_bottom(s, [card])
    take(s, seat, 1)
    s.events.append({"event": "laboratory", "seat": seat})


def smithy(s, option: dict) -> None:
    """seed 001 鐵匠鋪: once a turn, pay 2 gold to draw 3 cards."""
    seat = s.t_seat
    s.t_used |= USED_SMITHY
    pay(s, seat, 2)
    s.hands[seat] += draw(s, 3)
    s.events.append({"event": "smithy", "seat": seat})


def museum(s, option: dict) -> None:
    """Museum (reference §1.3): once a turn, a card from hand face down under it, +1 point."""
    seat = s.t_seat
    s.t_used |= USED_MUSEUM
    card = DISTRICT_INDEX[option["district"]]
    s.hands[seat].remove(card)
    s.museum[seat] += (card,)  # a tuple: replaced, never mutated
    s.events.append({"event": "museum", "seat": seat})


def armory(s, option: dict) -> None:
    """seed 001 FAQ ☆軍械庫: destroy the Armory to destroy any district of *another* player,
    even the Keep, the Bishop's or a complete city's; no gold is paid, no Graveyard."""
    seat, victim = s.t_seat, option["seat"]
    remove_district(s, seat, s.cities[seat].index(ARMORY))
    kind = DISTRICT_INDEX[option["district"]]
    remove_district(s, victim, s.cities[victim].index(kind))
    s.events.append(
        {
            "event": "destroyed",
            "seat": seat,
            "victim": victim,
            "district": option["district"],
            "by": "armory",
        }
    )


def lighthouse_options(s, seat, payload) -> list[dict]:
    """Lighthouse (reference §1.3): on building it, take any card of the deck, then shuffle."""
    return [{"kind": "search", "district": DISTRICT_IDS[k]} for k in sorted(set(s.deck))]


def lighthouse(s, seat, payload, option: dict) -> None:
    card = DISTRICT_INDEX[option["district"]]
    s.deck.remove(card)
    s.hands[seat].append(card)
    s._chance.shuffle(s.deck)
    s.events.append({"event": "lighthouse", "seat": seat})


HANDLERS = {"laboratory": laboratory, "smithy": smithy, "museum": museum, "armory": armory}
SUB_OPTIONS = {"lighthouse": lighthouse_options}
SUB_HANDLERS = {"lighthouse": lighthouse}
