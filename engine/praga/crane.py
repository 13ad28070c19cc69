"""The action crane: taking a tile, the wheel bonus, turning the crane, periods and the end
(seed §行动起重机, §回合结束, §计算回合数, §单人变体)."""

from __future__ import annotations

from .display import fill_row
from .holdings import can_pay, gain_vp, pay
from .rewards import crane_points_tech, gain


def take_tile(state, option: dict) -> None:
    """Seed §位置的费用及奖励: take an action tile; pay its red cost or score its blue points."""
    # seed §位置的费用及奖励: pay the red cost or score the blue points at once
    seat, t = state.active, option["tile"]
    slot = state.slot_tile.index(t)
    frame = state.components.crane["frame"][
        (slot + state.crane_rotation) % state.components.wheel_slots
    ]
    state.gold[seat] -= frame.get("cost", 0)
    # seed §回合结束 4: a tile that left the blue zone stays worth 5 points, stacking with
    # the blue zone's points
    points = frame.get("points", 0) + state.five_point_token[t] * state.components.past_blue_points
    state.five_point_token[t] = 0
    state.slot_tile[slot] = -1
    state.t_tile = t
    gain_vp(state, seat, points)
    if points:
        crane_points_tech(state, seat)
    bonus = state.components.crane["slot_bonuses"][slot]
    state.t_wheel_slot = slot if bonus else None
    state.t_special = bool(bonus) and bonus["kind"] == "special_or_vp"


def automa_turn(state) -> None:
    """Seed §单人变体: the opponent takes the tile furthest along and returns it."""
    best = max(
        (slot for slot, t in enumerate(state.slot_tile) if t >= 0),
        key=lambda slot: (slot + state.crane_rotation) % state.components.wheel_slots,
    )
    tile = state.slot_tile[best]
    state.slot_tile[best] = -1
    state.five_point_token[tile] = 0
    rotate_crane(state, tile)


TURNS_PER_PLAYER = 16  # 000 §游戏结束: "每位玩家都恰好进行了 16 个回合"


def turn_wheel(rotation: int, box_slot: int, slots: int) -> tuple[int, bool]:
    """Seed §回合结束 2-3: the wheel turns one slot, or two when the box would cover the red
    start; the new rotation, and whether the box's cube dropped (§计算回合数 Ⅱ)."""
    rotation = (rotation + 1) % slots
    if (box_slot + rotation) % slots == 0:
        return (rotation + 1) % slots, True
    return rotation, False


def wheel_turns_in_game(crane: dict, players: int) -> int:
    """How many times the wheel turns in a game of ``players`` (the automa's turns included in
    solo): until the platform's cube leaves the last space (seed §计算回合数, §游戏结束)."""
    key = str(players)
    rotation, platform, turns = crane["box_start"][key], crane["platform_start"][key], 0
    while platform < crane["platform_spaces"]:
        rotation, dropped = turn_wheel(rotation, crane["box_slot"], crane["wheel_slots"])
        platform += dropped
        turns += 1
    return turns


def rotate_crane(state, tile: int) -> None:
    """Seed §回合结束 2-4 and §计算回合数."""
    crane = state.components.crane
    state.turn_no += 1
    state.crane_rotation, dropped = turn_wheel(
        state.crane_rotation, crane["box_slot"], state.components.wheel_slots
    )
    slot0 = (0 - state.crane_rotation) % state.components.wheel_slots
    state.slot_tile[slot0] = tile
    frame = crane["frame"]
    for slot, t in enumerate(state.slot_tile):
        if (
            t >= 0
            and frame[(slot + state.crane_rotation) % state.components.wheel_slots]["zone"]
            == "past"
        ):
            state.slot_tile[slot] = -1
            # 000 §回合结束 4: "仍然价值五分" - still worth 5, the one token marking it;
            # a second trip past the blue zone does not make it 10
            state.five_point_token[t] = 1
            target = overflow_slot(state)
            state.slot_tile[target] = t
    key = str(state.players)
    if dropped:
        state.platform += 1
        if state.platform == crane["era_line"][key]:
            if max(state.players, 2) >= 3:
                change_period(state)
            else:
                state.era_crossed = True
        if state.platform >= crane["platform_spaces"]:
            end_game(state)
            return
    if state.era_crossed and state.period == 1:
        arrow = (crane["arrow_slot"] + state.crane_rotation) % state.components.wheel_slots
        if arrow == crane["star_position"]:
            change_period(state)


def overflow_slot(state) -> int:
    """Seed §回合结束 4: the first empty green space, else the last red space. When the
    box blocks a green space and the last red space is taken too (the seed does not say),
    the nearest empty space before it."""
    frame = state.components.crane["frame"]
    box = state.components.crane["box_slot"]
    greens = [p for p, f in enumerate(frame) if f["zone"] == "green"]
    last_red = max(p for p, f in enumerate(frame) if f["zone"] == "red")
    for position in greens + list(range(last_red, -1, -1)):
        slot = (position - state.crane_rotation) % state.components.wheel_slots
        if slot != box and state.slot_tile[slot] == -1:
            return slot
    raise AssertionError("the crane has no empty space for a tile")


def change_period(state) -> None:
    """Seed §计算回合数: the period I rows leave; period II stacks are dealt."""
    state.period = 2
    state.era_crossed = False
    for t in range(3):
        for slot in range(4):
            if state.rows[t][slot] >= 0:
                state.discarded.append(("tile", state.rows[t][slot]))
                state.rows[t][slot] = -1
        for special in (False, True):
            pile = state.stacks[(t, 1, special)]
            state.discarded.extend(("tile", x) for x in pile)
            pile.clear()
            state._chance.shuffle(state.stacks[(t, 2, special)])
        fill_row(state, t)


def end_game(state) -> None:
    """The last platform space is reached: final scoring (seed §最终计分)."""
    from .scoring import final_scoring

    state.over = True
    state.final = final_scoring(state)


def wheel_payable(state, seat: int) -> bool:
    """Whether the wheel bonus of the taken tile's slot can be claimed (an egg costs)."""
    bonus = state.components.crane["slot_bonuses"][state.t_wheel_slot]
    return bonus["kind"] != "buy_egg" or can_pay(state, seat, bonus["cost"])


def claim_wheel(state, seat: int) -> None:
    """Seed §来自行动轮的奖励: the taken slot's bonus (S-or-points, buy an egg, or a gain)."""
    bonus = state.components.crane["slot_bonuses"][state.t_wheel_slot]
    state.t_wheel_slot = None
    kind = bonus["kind"]
    if kind == "special_or_vp":
        state.t_special = False
        gain_vp(state, seat, bonus["vp"])
        crane_points_tech(state, seat)
    elif kind == "buy_egg":
        pay(state, seat, bonus["cost"])
        gain(state, seat, {"egg": 1})
    else:
        gain(state, seat, bonus["reward"])
        if bonus["reward"].get("vp"):
            crane_points_tech(state, seat)
        for tid, turn, _used in state.techs[seat]:
            tech = state.components.techs[tid]
            if (
                tech["effect"] == "wheel_extra"
                and tech["icon"] in bonus["reward"]
                and turn < state.turn_no
            ):
                gain(state, seat, {tech["icon"]: 1, "vp": 1})
