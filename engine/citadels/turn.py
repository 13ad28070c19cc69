"""Calling the characters and playing a turn: the action, building, the end of the turn and of
the round (seed 001 玩家回合, 勝利條件; seed 003 阶段2)."""

from operator import itemgetter

from .cards import (
    ALCHEMIST,
    ARCHITECT,
    BALL_ROOM,
    BELL_TOWER,
    BISHOP,
    CHARACTER_IDS,
    COLOUR,
    COST,
    DISTRICT_IDS,
    DISTRICT_INDEX,
    FACTORY,
    HAUNTED_CITY,
    HOSPITAL,
    KING,
    LIBRARY,
    LIGHTHOUSE,
    MERCHANT,
    OBSERVATORY,
    PARK,
    POOR_HOUSE,
    QUARRY,
    QUEEN,
    SPECIAL,
    TAX_COLLECTOR,
    THRONE_ROOM,
    WIZARD,
)
from .phases import INCOME_ONLY, NORMAL, OVER, TURN

_BY_KIND = itemgetter("kind")

# Engine rule (no seed rule covers a game that cannot end, e.g. every gold on districts through
# the Artist and an empty deck): after this many rounds in a row without any district built,
# the game ends and is scored as usual. Documented in docs/rules/citadels.md.
STALEMATE_ROUNDS = 20


# -- bank, deck and crown helpers -------------------------------------------------------------


def take(s, seat: int, amount: int) -> int:
    """Gold from the bank; seed 001 FAQ: an empty bank pays nothing until gold comes back."""
    amount = min(amount, s.bank)
    s.bank -= amount
    s.gold[seat] += amount
    return amount


def pay(s, seat: int, amount: int) -> None:
    s.gold[seat] -= amount
    s.bank += amount


def draw(s, count: int) -> list[int]:
    """Up to ``count`` cards from the top of the deck."""
    deck = s.deck
    return [deck.pop() for _ in range(min(count, len(deck)))]


def to_bottom(s, cards) -> None:
    s.deck[0:0] = cards


def set_crown(s, seat: int) -> None:
    """Move the crown; Throne Room (reference §1.3): its owner takes 1 gold on each change."""
    if seat == s.crown:
        return
    s.crown = seat
    s.events.append({"event": "crown", "seat": seat})
    for owner in range(s.players):
        if THRONE_ROOM in s.cities[owner]:
            take(s, owner, 1)


def current_threshold(s) -> int:
    """seed 001 ☆鐘塔: while a Bell Tower stands, one district fewer ends the game."""
    return s.threshold - 1 if s.bell_tower else s.threshold


def adjacent(s, a: int, b: int) -> bool:
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


# -- calling the characters -------------------------------------------------------------------


def start_calls(s) -> None:
    """seed 001 玩家回合: the characters are called in rank order once all have chosen."""
    s.phase = TURN
    s.calling = 0
    call_next(s)


def call_next(s) -> None:
    """Call the next rank; stop at the first that needs a decision, or end the round."""
    reset_turn(s, -1, 0)
    while True:
        s.calling += 1
        rank = s.calling
        if rank > 9:
            end_round(s)
            return
        if s.lineup[rank] < 0:
            continue
        seat = s.holder[rank]
        if seat < 0:
            s.events.append({"event": "absent", "character": CHARACTER_IDS[s.lineup[rank]]})
            continue
        if ball_room_applies(s, rank, seat):
            s.stack.append(("ball_room", seat, rank))
            return
        if reveal(s, rank, seat):
            return


def ball_room_applies(s, rank: int, seat: int) -> bool:
    """Ball Room (reference §1.3): while its owner holds the crown, every other player must
    thank him when called, or lose the turn. Killed characters do not answer the call."""
    return rank != s.killed and seat != s.crown and BALL_ROOM in s.cities[s.crown]


def reveal(s, rank: int, seat: int) -> bool:
    """The called character shows itself; True if its turn starts (a decision is pending)."""
    character = s.lineup[rank]
    if rank == s.killed:
        # seed 001 弒君 / FAQ 國王: a killed King still takes the crown, after the round.
        if character == KING:
            s.heir = seat
        # Hospital (reference §1.3): the killed player may still take the action.
        if HOSPITAL in s.cities[seat]:
            s.events.append(
                {
                    "event": "reveal",
                    "character": CHARACTER_IDS[character],
                    "seat": seat,
                    "hospital": True,
                }
            )
            reset_turn(s, seat, rank, INCOME_ONLY)
            return True
        return False
    s.events.append({"event": "reveal", "character": CHARACTER_IDS[character], "seat": seat})
    if rank == s.robbed:
        rob_now(s, seat)  # seed 001 FAQ 盜賊: before any action or district effect
    if character == KING:
        set_crown(s, seat)  # seed 001 國王; FAQ 女巫: a bewitched King keeps the crown too
    if character == TAX_COLLECTOR:
        s.tax_seat = s.witch if rank == s.bewitched else seat  # seed 001 FAQ 女巫: taxes to her
        for debtor in s.tax_owed:
            pay_tax(s, debtor)
        s.tax_owed = []
    if character == BISHOP:
        # seed 001 FAQ 女巫: a bewitched Bishop's protection goes to the Witch's city.
        s.protected = s.witch if rank == s.bewitched else seat
    if rank == s.bewitched:
        reset_turn(s, seat, rank, INCOME_ONLY)
        s.t_resume = True
        return True
    reset_turn(s, seat, rank, NORMAL)
    if character == ARCHITECT:
        s.t_builds = 3  # seed 001 建筑師: up to 3 districts
    return True


def rob_now(s, seat: int) -> None:
    """seed 001 FAQ 盜賊: the theft happens when the victim reveals, before anything else."""
    amount = s.gold[seat]
    s.gold[seat] = 0
    s.gold[s.robber] += amount
    s.events.append({"event": "stolen", "from": seat, "to": s.robber, "gold": amount})


def pay_tax(s, seat: int) -> None:
    """seed 001 稅務官: a player who built pays 1 gold at the end of his turn, if he has any."""
    if seat != s.tax_seat and s.gold[seat] > 0:
        s.gold[seat] -= 1
        s.gold[s.tax_seat] += 1
        s.events.append({"event": "tax", "from": seat, "to": s.tax_seat})


# -- the action ------------------------------------------------------------------------------


def action_options(s) -> list[dict]:
    """seed 001 玩家回合: take 2 gold or draw 2 cards and keep 1, before any building (FAQ
    圖書館/天文臺); powers and purple abilities may already be used (seed 001 角色技能)."""
    others = []
    powers.add_options(s, others)
    purples.add_options(s, others)
    others.sort(key=_BY_KIND)
    # The two actions come first, so the protocol's fallback (first option) takes an action.
    actions = [{"kind": "draw_cards"}, {"kind": "take_gold"}] if s.deck else [{"kind": "take_gold"}]
    return actions + others


def take_gold(s, option: dict) -> None:
    seat = s.t_seat
    take(s, seat, 2)
    s.events.append({"event": "action", "seat": seat, "took": "gold"})
    after_action(s)


def draw_cards(s, option: dict) -> None:
    """Library: keep both; Observatory: draw 3 keep 1; both (seed 001 FAQ): draw 3 keep 2."""
    seat = s.t_seat
    city = s.cities[seat]
    drawn = draw(s, 3 if OBSERVATORY in city else 2)
    keep = 2 if LIBRARY in city else 1
    s.events.append({"event": "action", "seat": seat, "took": "cards"})
    if len(drawn) <= keep:
        s.hands[seat] += drawn
        after_action(s)
    else:
        s.stack.append(("keep", seat, (tuple(drawn), keep)))


def keep_options(s, seat: int, payload) -> list[dict]:
    drawn, _ = payload
    return [{"kind": "keep", "district": DISTRICT_IDS[k]} for k in sorted(set(drawn))]


def keep(s, seat: int, payload, option: dict) -> None:
    drawn, left = payload
    rest = list(drawn)
    card = DISTRICT_INDEX[option["district"]]
    rest.remove(card)
    s.hands[seat].append(card)
    left -= 1
    if left and len(rest) > left:
        s.stack.append(("keep", seat, (tuple(rest), left)))
        return
    if left:
        s.hands[seat] += rest
    else:
        to_bottom(s, rest)  # seed 001: the other card is discarded (003: to the bottom)
    after_action(s)


def after_action(s) -> None:
    s.t_income = True
    if s.t_mode == INCOME_ONLY:
        s.t_ending = True
        return
    character_bonus(s)


def character_bonus(s) -> None:
    """Bonuses that come with the action: Merchant +1 gold, Architect +2 cards (seed 001)."""
    if s.t_char == MERCHANT:
        take(s, s.t_seat, 1)
    elif s.t_char == ARCHITECT:
        s.hands[s.t_seat] += draw(s, 2)


# -- building ----------------------------------------------------------------------------------


def build_cost(city: list[int], kind: int) -> int:
    """Factory (reference §1.3): your other purple districts cost 1 less."""
    cost = COST[kind]
    if COLOUR[kind] == SPECIAL and kind != FACTORY and FACTORY in city:
        cost -= 1
    return cost


def may_duplicate(city: list[int]) -> bool:
    """Quarry (reference §1.3, FFG text): one district identical to another, one at a time."""
    return QUARRY in city and len(set(city)) == len(city)


def buildable(s, seat: int) -> list[int]:
    if s.t_builds <= 0:
        return []
    city = s.cities[seat]
    gold = s.gold[seat]
    duplicates = s.t_char == WIZARD or may_duplicate(city)
    return [
        k
        for k in sorted(set(s.hands[seat]))
        if build_cost(city, k) <= gold and (duplicates or k not in city)
    ]


def build(s, option: dict) -> None:
    s.t_builds -= 1
    place_district(s, s.t_seat, DISTRICT_INDEX[option["district"]])


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
    check_completion(s)
    if kind == LIGHTHOUSE and s.deck:
        s.stack.append(("lighthouse", seat, None))
    elif kind == BELL_TOWER:
        purples.raise_bell_tower(s, seat)


def check_completion(s, bell_tower_raised: bool = False) -> None:
    """seed 001 勝利條件 and FAQ: the first complete city earns +4, later ones +2, kept even if a
    district is lost; the game ends at the end of the round. seed 001 FAQ ☆鐘塔: everyone who
    has 7 when the Bell Tower is built counts as first (+4), even if a city of 8 came before."""
    threshold = current_threshold(s)
    newly = [
        seat
        for seat in range(s.players)
        if not s.completed[seat] and len(s.cities[seat]) >= threshold
    ]
    if not newly:
        return
    first = bell_tower_raised or not s.first_completers
    for seat in newly:
        s.completed[seat] = True
        if first:
            s.first_completers.append(seat)
        s.events.append({"event": "completed", "seat": seat, "first": first})
    s.end_triggered = True


# -- the main decision of a turn -----------------------------------------------------------


def main_options(s) -> list[dict]:
    """Everything the seat may still do this turn, in canonical order (by kind, then fields)."""
    seat = s.t_seat
    options = [{"kind": "build", "district": DISTRICT_IDS[k]} for k in buildable(s, seat)]
    powers.add_options(s, options)
    purples.add_options(s, options)
    if not powers.must_still_act(s):
        options.append({"kind": "end_turn"})
    options.sort(key=_BY_KIND)
    return options


def end_turn_option(s, option: dict) -> None:
    s.t_ending = True


def end_turn(s) -> None:
    """seed 001 稅務官, ☆貧民窟 FAQ (tax before the Poor House), Park, Alchemist; then the next
    character is called (or the Witch resumes a bewitched turn)."""
    seat = s.t_seat
    s.t_ending = False
    if s.t_built and seat != s.tax_seat:
        if s.tax_seat >= 0:
            pay_tax(s, seat)
        elif tax_still_to_come(s):
            s.tax_owed.append(seat)  # seed 001 FAQ 稅務官: paid when he is revealed
    city = s.cities[seat]
    if POOR_HOUSE in city and s.gold[seat] == 0:
        take(s, seat, 1)
    if PARK in city and not s.hands[seat]:
        s.hands[seat] += draw(s, 2)
    if s.t_char == ALCHEMIST and s.t_mode == NORMAL and s.t_spent:
        take(s, seat, s.t_spent)  # seed 001 煉金術士: gold spent on building comes back
    if s.t_resume and s.witch >= 0:
        # seed 001 女巫: the Witch now plays the rest of the bewitched character's turn.
        rank = s.t_rank
        reset_turn(s, s.witch, rank, NORMAL)
        s.t_income = True
        s.events.append(
            {"event": "witch_resumes", "seat": s.witch, "character": CHARACTER_IDS[s.lineup[rank]]}
        )
        if s.t_char == ARCHITECT:
            s.t_builds = 3
        character_bonus(s)
        return
    call_next(s)


def tax_still_to_come(s) -> bool:
    return s.lineup[2] == TAX_COLLECTOR and s.holder[2] >= 0 and s.calling < 2 and s.killed != 2


# -- end of the round --------------------------------------------------------------------------


def end_round(s) -> None:
    """After rank 9: the killed character shows itself; the game ends if a city is complete."""
    if s.killed and s.holder[s.killed] >= 0:
        s.events.append(
            {
                "event": "reveal_killed",
                "character": CHARACTER_IDS[s.lineup[s.killed]],
                "seat": s.holder[s.killed],
            }
        )
    if s.heir >= 0:
        set_crown(s, s.heir)
    queen_after_killed_king(s)
    s.idle_rounds = 0 if s.built_this_round else s.idle_rounds + 1
    s.built_this_round = False
    if s.end_triggered or s.idle_rounds >= STALEMATE_ROUNDS:
        s.phase = OVER
        s.events.append({"event": "game_over", "round": s.round, "stalemate": not s.end_triggered})
        return
    draft.start_round(s)


def queen_after_killed_king(s) -> None:
    """seed 001 FAQ 皇后: with the rank-4 character killed, the Queen's 3 gold come when it is
    revealed at the end of the round."""
    if s.killed != 4 or s.lineup[9] != QUEEN or s.holder[9] < 0 or s.holder[4] < 0:
        return
    queen = s.witch if s.bewitched == 9 else s.holder[9]
    if adjacent(s, queen, s.holder[4]):
        gained = take(s, queen, 3)
        s.events.append({"event": "queen", "seat": queen, "gold": gained})


# -- Ball Room answer ----------------------------------------------------------------------------


def ball_room_options(s, seat: int, payload) -> list[dict]:
    return [{"kind": "thank"}, {"kind": "keep_silent"}]  # thanking first: the polite fallback


def ball_room_answer(s, seat: int, rank: int, option: dict) -> None:
    thanked = option["kind"] == "thank"
    s.events.append({"event": "ball_room", "seat": seat, "thanked": thanked})
    if thanked and reveal(s, rank, seat):
        return
    call_next(s)


HANDLERS = {
    "take_gold": take_gold,
    "draw_cards": draw_cards,
    "build": build,
    "end_turn": end_turn_option,
}
SUB_OPTIONS = {"keep": keep_options, "ball_room": ball_room_options}
SUB_HANDLERS = {"keep": keep, "ball_room": ball_room_answer}

# Imported last: these modules use the helpers above (and draft calls start_calls).
from . import draft, powers, purples  # noqa: E402
