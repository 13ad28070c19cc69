"""Character powers (seed 001 角色介紹, 擴展角色介紹, 角色FAQ). Each is used at most once per
turn, at the moment the seed allows, and never by a killed character."""

from .components import (
    ABBOT,
    ARTIST,
    ASSASSIN,
    CHARACTER_COLOUR,
    CHARACTER_IDS,
    CHARACTER_INDEX,
    CHARACTER_RANK,
    COLOUR,
    DIPLOMAT,
    DISTRICT_IDS,
    DISTRICT_INDEX,
    EMPEROR,
    MAGICIAN,
    NAVIGATOR,
    QUEEN,
    SCHOOL_OF_MAGIC,
    THIEF,
    WARLORD,
    WITCH,
    WIZARD,
)
from .phases import NORMAL
from .rank8 import (
    destroy,
    diplomat_at_end_of_turn,
    diplomat_options,
    exchange,
    exchange_give,
    exchange_give_options,
    graveyard,
    graveyard_options,
    warlord_options,
)
from .table import (
    adjacent,
    build_cost,
    draw,
    place_district,
    set_crown,
    take,
    to_bottom,
)

# Powers the seed ties to the moment after the action (女巫, 領航員) or to the end of the turn
# (軍閥); every other power may come before the action too (seed 001 角色技能: any time in the
# turn; seed 003: 在任意時機). The seed names no moment for the Diplomat (外交官), so he follows
# the general rule unless the option ``diplomat_timing`` asks for the FFG card's end of turn.
AFTER_ACTION_ONLY = frozenset((WITCH, NAVIGATOR, WARLORD))


def add_options(s, options: list) -> None:
    """Append the power options open to the seat playing now."""
    if s.t_mode != NORMAL:
        return
    character = s.t_char
    seat = s.t_seat
    if (
        not s.t_collected
        and s.bank
        and CHARACTER_COLOUR[character] >= 0
        and district_income(s, seat, character)
    ):
        options.append({"kind": "collect_income"})
    if not s.t_income and (
        character in AFTER_ACTION_ONLY or (character == DIPLOMAT and diplomat_at_end_of_turn(s))
    ):
        return
    if character == ARTIST:
        beautify_options(s, seat, options)
    elif not s.t_power:
        add = POWER_OPTIONS.get(character)
        if add is not None:
            add(s, seat, options)


def must_still_act(s) -> bool:
    """seed 001 皇帝: the Emperor *must* give the crown away (when anyone can take it)."""
    return (
        s.t_char == EMPEROR
        and s.t_mode == NORMAL
        and not s.t_power
        and any(v != s.t_seat and v != s.crown for v in range(s.players))
    )


# -- district income -----------------------------------------------------------------------


def district_income(s, seat: int, character: int) -> int:
    """seed 001 *: 1 gold per district of the character's colour; School of Magic counts as that
    colour (seed 001 魔法學院)."""
    colour = CHARACTER_COLOUR[character]
    city = s.cities[seat]
    return sum(1 for k in city if COLOUR[k] == colour) + (SCHOOL_OF_MAGIC in city)


def collect_income(s, option: dict) -> None:
    """seed 001 *: all at once, at any moment of the turn, once."""
    s.t_collected = True
    gained = take(s, s.t_seat, district_income(s, s.t_seat, s.t_char))
    s.events.append({"event": "income", "seat": s.t_seat, "gold": gained})


# -- rank 1 --------------------------------------------------------------------------------------


def _character_targets(s, lowest: int) -> list[int]:
    return [r for r in range(lowest, 10) if s.lineup[r] >= 0]


def kill_options(s, seat, options) -> None:
    """seed 001 刺客: name a character (not a player); it misses its turn."""
    for rank in _character_targets(s, 2):
        options.append({"kind": "kill", "character": CHARACTER_IDS[s.lineup[rank]]})


def kill(s, option: dict) -> None:
    s.t_power = True
    s.killed = CHARACTER_RANK[CHARACTER_INDEX[option["character"]]]
    s.events.append({"event": "killed", "character": option["character"]})


def bewitch_options(s, seat, options) -> None:
    """seed 001 女巫: after the action, name a character, and the turn ends at once. seed 001
    FAQ: a Witch who bewitches nobody may build; so bewitching is only offered before building."""
    if s.t_built:
        return
    for rank in _character_targets(s, 2):
        options.append({"kind": "bewitch", "character": CHARACTER_IDS[s.lineup[rank]]})


def bewitch(s, option: dict) -> None:
    s.t_power = True
    s.bewitched = CHARACTER_RANK[CHARACTER_INDEX[option["character"]]]
    s.witch = s.t_seat
    s.events.append({"event": "bewitched", "character": option["character"]})
    s.t_ending = True


# -- rank 2 --------------------------------------------------------------------------------------


def rob_options(s, seat, options) -> None:
    """seed 001 盜賊 and FAQ: not the rank-1 character, nor its victim (killed or bewitched)."""
    for rank in _character_targets(s, 3):
        if rank != s.killed and rank != s.bewitched:
            options.append({"kind": "rob", "character": CHARACTER_IDS[s.lineup[rank]]})


def rob(s, option: dict) -> None:
    s.t_power = True
    s.robbed = CHARACTER_RANK[CHARACTER_INDEX[option["character"]]]
    s.robber = s.t_seat
    s.events.append({"event": "robbed", "character": option["character"]})


# -- rank 3 --------------------------------------------------------------------------------------


def magician_options(s, seat, options) -> None:
    """seed 001 魔法師: swap the whole hand with another player (even with no cards), or discard
    any number of cards to the bottom of the deck and draw as many."""
    if s.hands[seat]:
        options.append({"kind": "discard_draw"})
    for other in range(s.players):
        if other != seat:
            options.append({"kind": "swap_hands", "seat": other})


def swap_hands(s, option: dict) -> None:
    s.t_power = True
    seat, other = s.t_seat, option["seat"]
    s.hands[seat], s.hands[other] = s.hands[other], s.hands[seat]
    s.events.append({"event": "swap_hands", "seat": seat, "with": other})


def discard_draw(s, option: dict) -> None:
    s.t_power = True
    s.stack.append(("magician_discard", s.t_seat, 0))


def magician_discard_options(s, seat, count) -> list[dict]:
    """One card at a time (never 2^n options); ``done`` once at least one is discarded."""
    options = [{"kind": "discard", "district": DISTRICT_IDS[k]} for k in sorted(set(s.hands[seat]))]
    if count:
        options.append({"kind": "done"})
    return options


def magician_discard(s, seat, count, option: dict) -> None:
    if option["kind"] == "discard":
        card = DISTRICT_INDEX[option["district"]]
        s.hands[seat].remove(card)
        to_bottom(s, [card])  # seed 001 FAQ 魔法師: face down to the bottom of the deck
        count += 1
        if s.hands[seat]:
            s.stack.append(("magician_discard", seat, count))
            return
    s.hands[seat] += draw(s, count)
    s.events.append({"event": "discard_draw", "seat": seat, "count": count})


def wizard_options(s, seat, options) -> None:
    """seed 001 巫師: look at another player's hand and take one card."""
    for other in range(s.players):
        if other != seat and s.hands[other]:
            options.append({"kind": "wizard", "seat": other})


def wizard(s, option: dict) -> None:
    s.t_power = True
    other = option["seat"]
    s.stack.append(("wizard_take", s.t_seat, (other, tuple(sorted(s.hands[other])))))


def wizard_take_options(s, seat, payload) -> list[dict]:
    _, seen = payload
    return [{"kind": "take", "district": DISTRICT_IDS[k]} for k in sorted(set(seen))]


def wizard_take(s, seat, payload, option: dict) -> None:
    other, _ = payload
    card = DISTRICT_INDEX[option["district"]]
    s.hands[other].remove(card)
    s.hands[seat].append(card)
    s.events.append({"event": "wizard", "seat": seat, "from": other})
    s.stack.append(("wizard_place", seat, card))


def wizard_place_options(s, seat, card) -> list[dict]:
    """seed 001 巫師: keep it, or build it at once (even a duplicate), outside the build limit."""
    options = [{"kind": "to_hand"}]
    # seed 001 FAQ 圖書館/天文臺: building only comes after the action.
    if s.t_income and build_cost(s.cities[seat], card) <= s.gold[seat]:
        options.insert(0, {"kind": "build_now"})
    return options


def wizard_place(s, seat, card, option: dict) -> None:
    if option["kind"] == "build_now":
        place_district(s, seat, card)


# -- rank 4 --------------------------------------------------------------------------------------


def crown_options(s, seat, options) -> None:
    """seed 001 皇帝: give the crown to another player (reference: not the one holding it)."""
    for other in range(s.players):
        if other != seat and other != s.crown:
            options.append({"kind": "give_crown", "seat": other})


def give_crown(s, option: dict) -> None:
    s.t_power = True
    other = option["seat"]
    set_crown(s, other)
    if s.gold[other] or s.hands[other]:
        s.stack.append(("tribute", other, s.t_seat))


def tribute_options(s, seat, emperor) -> list[dict]:
    """seed 001 FAQ 皇帝: the new crown holder chooses: 1 gold or 1 district card."""
    options = [
        {"kind": "tribute_card", "district": DISTRICT_IDS[k]} for k in sorted(set(s.hands[seat]))
    ]
    if s.gold[seat]:
        options.append({"kind": "tribute_gold"})
    return options


def tribute(s, seat, emperor, option: dict) -> None:
    if option["kind"] == "tribute_gold":
        s.gold[seat] -= 1
        s.gold[emperor] += 1
        paid = "gold"
    else:
        card = DISTRICT_INDEX[option["district"]]
        s.hands[seat].remove(card)
        s.hands[emperor].append(card)
        paid = "card"
    s.events.append({"event": "tribute", "from": seat, "to": emperor, "paid": paid})


# -- rank 5 --------------------------------------------------------------------------------------


def richest_others(s, seat: int) -> list[int]:
    """seed 001 修道院長: the player with the most gold pays. The seed is silent on ties:
    reference §2.3 (classic text): nobody pays when the richest are tied or the Abbot is the
    richest; option ``abbot_tie`` = ``abbot_chooses`` (2016 edition): he chooses among the
    tied richest others (still nobody when he is among the richest himself)."""
    most = max(s.gold)
    richest = [v for v in range(s.players) if s.gold[v] == most]
    if most == 0 or seat in richest:
        return []
    if len(richest) > 1 and s.options["abbot_tie"] == "nobody_pays":
        return []
    return richest


def abbot_options(s, seat, options) -> None:
    richest = richest_others(s, seat)
    if len(richest) == 1:
        options.append({"kind": "abbot_tax"})  # the classic option: no choice to make
    else:
        options.extend({"kind": "abbot_tax", "seat": v} for v in richest)


def abbot_tax(s, option: dict) -> None:
    s.t_power = True
    richest = option.get("seat", -1)
    if richest < 0:
        (richest,) = richest_others(s, s.t_seat)
    s.gold[richest] -= 1
    s.gold[s.t_seat] += 1
    s.events.append({"event": "abbot_tax", "from": richest, "to": s.t_seat})


# -- rank 7 --------------------------------------------------------------------------------------


def navigator_options(s, seat, options) -> None:
    """seed 001 領航員 and FAQ: after the action, may take 4 gold or 4 cards, and then cannot
    build; without the power he builds as usual. So it is only offered before any build."""
    if not s.t_built:
        options.append({"kind": "navigate", "take": "cards"})
        options.append({"kind": "navigate", "take": "gold"})


def navigate(s, option: dict) -> None:
    s.t_power = True
    s.t_builds = 0
    seat = s.t_seat
    if option["take"] == "gold":
        take(s, seat, 4)
    else:
        s.hands[seat] += draw(s, 4)
    s.events.append({"event": "navigate", "seat": seat, "took": option["take"]})


# -- rank 9 --------------------------------------------------------------------------------------


def queen_options(s, seat, options) -> None:
    """seed 001 皇后 and FAQ: 3 gold when sitting next to the player of the rank-4 character
    (King or Emperor). A killed rank 4 pays her at the end of the round instead."""
    holder = s.holder[4]
    if holder >= 0 and s.killed != 4 and adjacent(s, seat, holder) and s.bank:
        options.append({"kind": "queen_gold"})


def queen_gold(s, option: dict) -> None:
    s.t_power = True
    gained = take(s, s.t_seat, 3)
    s.events.append({"event": "queen", "seat": s.t_seat, "gold": gained})


def beautify_options(s, seat, options) -> None:
    """seed 001 美術家 and FAQ: put one of your gold on 1 or 2 of your districts, one each."""
    if s.t_beautified >= 2 or not s.gold[seat]:
        return
    city, adorned = s.cities[seat], s.adorned[seat]
    for kind in sorted({city[i] for i in range(len(city)) if not adorned[i]}):
        options.append({"kind": "beautify", "district": DISTRICT_IDS[kind]})


def beautify(s, option: dict) -> None:
    seat = s.t_seat
    city, adorned = s.cities[seat], s.adorned[seat]
    kind = DISTRICT_INDEX[option["district"]]
    index = next(i for i in range(len(city)) if city[i] == kind and not adorned[i])
    adorned[index] = 1
    s.gold[seat] -= 1
    s.t_beautified += 1
    s.events.append({"event": "beautified", "seat": seat, "district": option["district"]})


POWER_OPTIONS = {
    ASSASSIN: kill_options,
    WITCH: bewitch_options,
    THIEF: rob_options,
    MAGICIAN: magician_options,
    WIZARD: wizard_options,
    EMPEROR: crown_options,
    ABBOT: abbot_options,
    NAVIGATOR: navigator_options,
    WARLORD: warlord_options,
    DIPLOMAT: diplomat_options,
    QUEEN: queen_options,
}
HANDLERS = {
    "collect_income": collect_income,
    "kill": kill,
    "bewitch": bewitch,
    "rob": rob,
    "swap_hands": swap_hands,
    "discard_draw": discard_draw,
    "wizard": wizard,
    "give_crown": give_crown,
    "abbot_tax": abbot_tax,
    "navigate": navigate,
    "destroy": destroy,
    "exchange": exchange,
    "queen_gold": queen_gold,
    "beautify": beautify,
}
SUB_OPTIONS = {
    "magician_discard": magician_discard_options,
    "wizard_take": wizard_take_options,
    "wizard_place": wizard_place_options,
    "tribute": tribute_options,
    "graveyard": graveyard_options,
    "exchange_give": exchange_give_options,
}
SUB_HANDLERS = {
    "magician_discard": magician_discard,
    "wizard_take": wizard_take,
    "wizard_place": wizard_place,
    "tribute": tribute,
    "graveyard": graveyard,
    "exchange_give": exchange_give,
}
