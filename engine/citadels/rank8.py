"""Rank 8 powers (seed 001 角色介紹, 擴展角色介紹, 角色FAQ): the Warlord (軍閥) destroys a
district, which may offer the Graveyard's owner the card; the Diplomat (外交官) exchanges one of
his districts for another's. The rest of the characters' powers are ``powers``."""

from .components import (
    COST,
    DISTRICT_IDS,
    DISTRICT_INDEX,
    GRAVEYARD,
    GREAT_WALL,
    HAUNTED_CITY,
    KEEP,
    MUSEUM,
)
from .table import current_threshold, may_duplicate, remove_district


def diplomat_at_end_of_turn(s) -> bool:
    """Option ``diplomat_timing``: the English card's timing (after the action, ending the turn)."""
    return s.options["diplomat_timing"] == "end_of_turn"


def district_price(city: list[int], adorned: list[int], index: int) -> int:
    """A district's cost for the Warlord and the Diplomat: printed cost (seed 001 FAQ 大學/龍門:
    6 for University and Dragon Gate), +1 for an Artist's gold (reference §2.3)."""
    return COST[city[index]] + adorned[index]


def _cheapest_copies(s, victim: int) -> dict[int, int]:
    """kind -> index of its cheapest copy in the victim's city (copies only via Quarry/Wizard)."""
    city, adorned = s.cities[victim], s.adorned[victim]
    best: dict[int, int] = {}
    for i, kind in enumerate(city):
        if kind not in best or adorned[i] < adorned[best[kind]]:
            best[kind] = i
    return best


def destroy_price(s, victim: int, index: int) -> int:
    """seed 001 軍閥: cost - 1; seed 001 長城: +1 for the Great Wall owner's other districts."""
    city = s.cities[victim]
    price = district_price(city, s.adorned[victim], index) - 1
    if GREAT_WALL in city and city[index] != GREAT_WALL:
        price += 1
    return price


def warlord_targets(s, seat: int) -> list[int]:
    """seed 001 軍閥, 主教 and FAQ: not a complete city, not the (living) Bishop's city."""
    threshold = current_threshold(s)
    return [v for v in range(s.players) if v != s.protected and len(s.cities[v]) < threshold]


def warlord_options(s, seat, options) -> None:
    gold = s.gold[seat]
    for victim in warlord_targets(s, seat):
        copies = _cheapest_copies(s, victim)
        for kind in sorted(copies):
            # seed 001 堡壘: the Keep cannot be destroyed by the Warlord.
            if kind != KEEP and destroy_price(s, victim, copies[kind]) <= gold:
                options.append({"kind": "destroy", "seat": victim, "district": DISTRICT_IDS[kind]})


def destroy(s, option: dict) -> None:
    """seed 001 軍閥: at the end of the turn, so the turn ends after it."""
    s.t_power = True
    seat, victim = s.t_seat, option["seat"]
    index = _cheapest_copies(s, victim)[DISTRICT_INDEX[option["district"]]]
    price = destroy_price(s, victim, index)
    s.gold[seat] -= price
    s.bank += price
    kind = remove_district(s, victim, index)
    s.events.append(
        {
            "event": "destroyed",
            "seat": seat,
            "victim": victim,
            "district": option["district"],
            "by": "warlord",
        }
    )
    # seed 001 墓地: another player may pay 1 gold to take the destroyed district (not the
    # Warlord himself, nor the one acting as Warlord).
    for owner in range(s.players):
        if owner != seat and GRAVEYARD in s.cities[owner] and s.gold[owner] >= 1:
            s.stack.append(("graveyard", owner, kind))
    s.t_ending = True


def graveyard_options(s, seat, kind) -> list[dict]:
    return [{"kind": "decline"}, {"kind": "recover", "district": DISTRICT_IDS[kind]}]


def graveyard(s, seat, kind, option: dict) -> None:
    if option["kind"] == "recover":
        s.gold[seat] -= 1
        s.bank += 1
        s.deck.remove(kind)  # it went to the bottom of the deck a moment ago
        s.hands[seat].append(kind)
        s.events.append({"event": "graveyard", "seat": seat, "district": DISTRICT_IDS[kind]})


def exchange_price(s, seat: int, given: int, victim: int, taken: int) -> int:
    """seed 001 外交官: pay the difference when taking the dearer one; seed 001 FAQ 城墻: +1 with
    the Great Wall; FAQ 博物館: the Museum at its own cost."""
    mine = district_price(s.cities[seat], s.adorned[seat], given)
    theirs_city = s.cities[victim]
    price = max(0, district_price(theirs_city, s.adorned[victim], taken) - mine)
    if GREAT_WALL in theirs_city and theirs_city[taken] != GREAT_WALL:
        price += 1
    return price


def exchange_gives(s, seat: int, victim: int, taken: int, first_only: bool = False) -> list[int]:
    """Indices of the seat's districts it may give for the victim's district at ``taken``.

    seed 001 FAQ 外交官: no duplicate forced on the other player, nor taken into one's own city,
    unless that city has a Quarry (which allows one duplicate, see ``may_duplicate``).
    With ``first_only``, stop at the first one (enough to offer the exchange).
    """
    mine, theirs = s.cities[seat], s.cities[victim]
    kind = theirs[taken]
    if kind in mine and not may_duplicate(mine):
        return []
    gold = s.gold[seat]
    theirs_may_duplicate = may_duplicate(theirs)
    result = []
    seen = set()
    for i, given in enumerate(mine):
        if given == kind or given in seen:
            continue
        seen.add(given)
        if given in theirs and not theirs_may_duplicate:
            continue
        if exchange_price(s, seat, i, victim, taken) <= gold:
            result.append(i)
            if first_only:
                break
    return result


def diplomat_options(s, seat, options) -> None:
    """seed 001 外交官 and FAQ: not with the Bishop, not with a complete city, never the Keep."""
    if not s.cities[seat]:
        return
    for victim in warlord_targets(s, seat):
        if victim == seat:
            continue
        copies = _cheapest_copies(s, victim)
        for kind in sorted(copies):
            if kind != KEEP and exchange_gives(s, seat, victim, copies[kind], first_only=True):
                options.append({"kind": "exchange", "seat": victim, "district": DISTRICT_IDS[kind]})


def exchange(s, option: dict) -> None:
    s.t_power = True
    victim = option["seat"]
    kind = DISTRICT_INDEX[option["district"]]
    s.stack.append(("exchange_give", s.t_seat, (victim, kind)))


def exchange_give_options(s, seat, payload) -> list[dict]:
    victim, kind = payload
    taken = _cheapest_copies(s, victim)[kind]
    gives = exchange_gives(s, seat, victim, taken)
    return [
        {"kind": "give", "district": DISTRICT_IDS[k]}
        for k in sorted({s.cities[seat][i] for i in gives})
    ]


def exchange_give(s, seat, payload, option: dict) -> None:
    """Swap the two districts (with any gold on them and the Museum's cards); pay the price."""
    victim, kind = payload
    taken = _cheapest_copies(s, victim)[kind]
    given_kind = DISTRICT_INDEX[option["district"]]
    given = s.cities[seat].index(given_kind)
    price = exchange_price(s, seat, given, victim, taken)
    s.gold[seat] -= price
    s.gold[victim] += price
    mine, theirs = s.cities[seat], s.cities[victim]
    mine_adorned, theirs_adorned = s.adorned[seat], s.adorned[victim]
    mine[given], theirs[taken] = theirs[taken], mine[given]
    mine_adorned[given], theirs_adorned[taken] = theirs_adorned[taken], mine_adorned[given]
    if MUSEUM in (kind, given_kind):
        s.museum[seat], s.museum[victim] = s.museum[victim], s.museum[seat]
    if HAUNTED_CITY in (kind, given_kind):
        s.haunted_round[seat], s.haunted_round[victim] = (
            s.haunted_round[victim],
            s.haunted_round[seat],
        )
    s.events.append(
        {
            "event": "exchanged",
            "seat": seat,
            "victim": victim,
            "gave": option["district"],
            "took": DISTRICT_IDS[kind],
            "paid": price,
        }
    )
    if diplomat_at_end_of_turn(s):
        s.t_ending = True
