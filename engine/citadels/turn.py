"""Calling the characters and playing a turn: the action, building, the end of the turn and of
the round (seed 001 玩家回合, 勝利條件; seed 003 阶段2)."""

from operator import itemgetter

from . import draft, powers, purples
from .components import (
    ALCHEMIST,
    ARCHITECT,
    BALL_ROOM,
    BISHOP,
    CHARACTER_IDS,
    DISTRICT_IDS,
    DISTRICT_INDEX,
    HOSPITAL,
    KING,
    LIBRARY,
    MERCHANT,
    OBSERVATORY,
    PARK,
    POOR_HOUSE,
    QUEEN,
    TAX_COLLECTOR,
    WIZARD,
)
from .phases import INCOME_ONLY, NORMAL, OVER, TURN
from .table import (
    adjacent,
    build_cost,
    draw,
    may_duplicate,
    place_district,
    reset_turn,
    set_crown,
    take,
    to_bottom,
)

_BY_KIND = itemgetter("kind")

# Engine rule (no seed rule covers a game that cannot end, e.g. every gold on districts through
# the Artist and an empty deck): after this many rounds in a row without any district built,
# the game ends and is scored as usual. Documented in docs/rules/citadels.md.
STALEMATE_ROUNDS = 20


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
    """The end of a turn, in this order: the Alchemist's refund, the tax, the Poor House, the
    Park; then the next character is called (or the Witch resumes a bewitched turn).

    seed 001 煉金術士: the refund covers building only, and its example says he cannot take back
    the gold paid to the Tax Collector, so he pays the tax even when building took all his gold:
    the refund comes first and the tax is paid from it. seed 001 FAQ ☆貧民窟: the tax comes
    before the Poor House (so the refund does too)."""
    seat = s.t_seat
    s.t_ending = False
    if s.t_char == ALCHEMIST and s.t_mode == NORMAL and s.t_spent:
        take(s, seat, s.t_spent)  # seed 001 煉金術士: gold spent on building comes back
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
