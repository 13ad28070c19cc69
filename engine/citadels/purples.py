"""Purple districts with an effect during a turn (seed 001 特別地區 and the Dark City FAQ;
reference §1.2-1.3). Scoring effects are in ``scoring``; build-limit and income effects in
``turn`` and ``powers``."""

from .cards import (
    ARMORY,
    BELL_TOWER,
    DISTRICT_IDS,
    DISTRICT_INDEX,
    LABORATORY,
    MUSEUM,
    SMITHY,
)
from .phases import NORMAL, USED_LABORATORY, USED_MUSEUM, USED_SMITHY
from .turn import check_completion, draw, pay, take, to_bottom


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


def remove_district(s, seat: int, index: int) -> int:
    """Take a district out of a city to the bottom of the deck (seed 001 FAQ ☆博物館: the
    Museum's cards go with it). A gold the Artist put on it returns to the bank. Returns the
    kind, which is then the bottom card of the deck."""
    kind = s.cities[seat].pop(index)
    s.bank += s.adorned[seat].pop(index)
    if kind == MUSEUM and s.museum[seat]:
        to_bottom(s, s.museum[seat])
        s.museum[seat] = ()
    if kind == BELL_TOWER and not any(BELL_TOWER in city for city in s.cities):
        # seed 001 FAQ ☆鐘塔: only while a Bell Tower stands; then the normal end returns.
        s.bell_tower = False
        s.events.append({"event": "bell_tower", "seat": seat, "active": False})
    to_bottom(s, [kind])
    return kind


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


def raise_bell_tower(s, seat: int) -> None:
    """seed 001 FAQ ☆鐘塔: once built, the game *must* end when a city reaches 7 (one district
    fewer than the threshold) for as long as the Bell Tower stands; the seed gives its owner no
    choice, so the FFG "may announce" of reference §1.3 is not followed."""
    if s.bell_tower:
        return  # a second Bell Tower (Quarry, Wizard) lowers nothing further
    s.bell_tower = True
    s.events.append({"event": "bell_tower", "seat": seat, "active": True})
    check_completion(s, bell_tower_raised=True)


HANDLERS = {"laboratory": laboratory, "smithy": smithy, "museum": museum, "armory": armory}
SUB_OPTIONS = {"lighthouse": lighthouse_options}
SUB_HANDLERS = {"lighthouse": lighthouse}
