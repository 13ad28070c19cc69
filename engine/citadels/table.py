"""Shared operations on the table: the bank, the deck, the crown, the turn's flags and the cities.

A leaf of the rules modules: ``turn``, ``powers`` and ``purples`` all use these helpers, and this
module imports none of them, so the rules modules import each other one way only
(turn -> powers, purples, draft -> table).
"""

from .components import (
    BELL_TOWER,
    COLOUR,
    COST,
    DISTRICT_IDS,
    FACTORY,
    HAUNTED_CITY,
    LIGHTHOUSE,
    MUSEUM,
    QUARRY,
    SPECIAL,
    THRONE_ROOM,
)
from .phases import NORMAL

# -- bank and deck ------------------------------------------------------------------------------


def take(s, seat: int, amount: int) -> int:
    """Gold from the bank; seed 001 FAQ: an empty bank pays nothing until gold comes back."""
    amount = min(amount, s.bank)
    s.bank -= amount
    s.gold[seat] += amount
    return amount


def pay(s, seat: int, amount: int) -> None:
    """Gold from a seat to the bank."""
    s.gold[seat] -= amount
    s.bank += amount


def draw(s, count: int) -> list[int]:
    """Up to ``count`` cards from the top of the deck."""
    deck = s.deck
    return [deck.pop() for _ in range(min(count, len(deck)))]


def to_bottom(s, cards) -> None:
    """Cards to the bottom of the deck, in the order given."""
    s.deck[0:0] = cards


# -- crown, seats and the turn's flags ----------------------------------------------------------


def set_crown(s, seat: int) -> None:
    """Move the crown; Throne Room (reference §1.3): its owner takes 1 gold on each change."""
    if seat == s.crown:
        return
    s.crown = seat
    s.events.append({"event": "crown", "seat": seat})
    for owner in range(s.players):
        if THRONE_ROOM in s.cities[owner]:
            take(s, owner, 1)


def adjacent(s, a: int, b: int) -> bool:
    """True if seats ``a`` and ``b`` sit next to each other."""
    return a != b and ((a - b) % s.players in (1, s.players - 1))


def reset_turn(s, seat: int, rank: int, mode: int = NORMAL) -> None:
    """Clear the per-turn flags for ``seat`` playing ``rank``."""
    s.t_seat = seat
    s.t_rank = rank
    s.t_char = s.lineup[rank] if rank else -1
    s.t_mode = mode
    s.t_income = False
    s.t_power = False
    s.t_collected = False
    s.t_builds = 1
    s.t_built = 0
    s.t_spent = 0
    s.t_used = 0
    s.t_beautified = 0
    s.t_ending = False
    s.t_resume = False


# -- cities: building, losing a district, the end of the game -----------------------------------


def current_threshold(s) -> int:
    """seed 001 ☆鐘塔: while a Bell Tower stands, one district fewer ends the game."""
    return s.threshold - 1 if s.bell_tower else s.threshold


def build_cost(city: list[int], kind: int) -> int:
    """Factory (reference §1.3): your other purple districts cost 1 less."""
    cost = COST[kind]
    if COLOUR[kind] == SPECIAL and kind != FACTORY and FACTORY in city:
        cost -= 1
    return cost


def may_duplicate(city: list[int]) -> bool:
    """Quarry (reference §1.3, FFG text): one district identical to another, one at a time."""
    return QUARRY in city and len(set(city)) == len(city)


def place_district(s, seat: int, kind: int) -> None:
    """Pay for a district in hand and put it in the city, with its on-build effects."""
    city = s.cities[seat]
    cost = build_cost(city, kind)
    s.hands[seat].remove(kind)
    pay(s, seat, cost)
    s.t_spent += cost
    s.t_built += 1
    s.built_this_round = True
    city.append(kind)
    s.adorned[seat].append(0)
    s.events.append({"event": "built", "seat": seat, "district": DISTRICT_IDS[kind]})
    if kind == HAUNTED_CITY:
        s.haunted_round[seat] = s.round
    elif kind == BELL_TOWER:
        raise_bell_tower(s, seat)  # before the completion check: it counts at the lower end
    check_completion(s)
    if kind == LIGHTHOUSE and s.deck:
        s.stack.append(("lighthouse", seat, None))


def check_completion(s) -> None:
    """seed 001 勝利條件 and FAQ: the first complete city earns +4, later ones +2, kept even if a
    district is lost; the game ends at the end of the round."""
    threshold = current_threshold(s)
    newly = [
        seat
        for seat in range(s.players)
        if not s.completed[seat] and len(s.cities[seat]) >= threshold
    ]
    if not newly:
        return
    first = not s.first_completers
    for seat in newly:
        s.completed[seat] = True
        if first:
            s.first_completers.append(seat)
        s.events.append({"event": "completed", "seat": seat, "first": first})
    s.end_triggered = True


def raise_bell_tower(s, seat: int) -> None:
    """seed 001 FAQ ☆鐘塔: once built, the game *must* end when a city reaches 7 (one district
    fewer than the threshold) for as long as the Bell Tower stands; the seed gives its owner no
    choice, so the FFG "may announce" of reference §1.3 is not followed.

    Same FAQ (+4/+2): everyone who has 7 when the Bell Tower goes up earns +4, its builder
    included (the tower counts), and so does a city of 8 that had completed second (+2) before:
    no bigger city earns less. Cities reaching 7 later earn +2."""
    if s.bell_tower:
        return  # a second Bell Tower (Quarry, Wizard) lowers nothing further
    s.bell_tower = True
    s.events.append({"event": "bell_tower", "seat": seat, "active": True})
    threshold = current_threshold(s)
    for other in range(s.players):
        if len(s.cities[other]) >= threshold and other not in s.first_completers:
            s.completed[other] = True
            s.first_completers.append(other)
            s.events.append({"event": "completed", "seat": other, "first": True})
            s.end_triggered = True


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
