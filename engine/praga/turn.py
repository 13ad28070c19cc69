"""The free menu of a turn (seed §关于使用时机的说明) and its end (seed §回合结束)."""

from __future__ import annotations

from .actions import can_perform, main_possible, perform
from .crane import automa_turn, claim_wheel, rotate_crane, take_tile, wheel_payable
from .display import refresh
from .geometry import ACTIONS
from .holdings import can_pay, can_pay_windows, pay, pay_windows
from .rewards import gain
from .road import TAKEN_AT_END, apply_free_effect, free_effect, free_effect_payable
from .structures import can_climb, climb, lateral
from .techs import tech_usable, use_tech
from .vocabulary import END_TURN, ROW_NAMES, SECTIONS, STRUCTS, WINDOW_PAYS


def start_turn(state) -> None:
    """Reset the turn's fields for the seat on turn."""
    state.t_tile = -1
    state.t_wheel_slot = None
    state.t_special = False
    state.t_main_done = False
    state.t_extra_done = False
    state.t_refresh_done = False
    state.t_bonus_claims = []
    state.t_start_tops = [state.board_top[state.active][1 + a] for a in range(6)]
    state.t_lateral_moves = [0, 0]
    state.t_road_free = ()  # sections whose effects wait (two road actions in a turn: two)
    state.t_road_egg = ()
    state.t_once = set()
    state.t_ending = False


def menu(state) -> list[dict]:
    """The free menu of the turn (seed §关于使用时机的说明), in a fixed order."""
    seat = state.active
    out = []
    if state.t_tile == -1:
        for slot, t in enumerate(state.slot_tile):
            if t >= 0:
                frame = state.components.crane["frame"][
                    (slot + state.crane_rotation) % state.components.wheel_slots
                ]
                if state.gold[seat] >= frame.get("cost", 0):
                    out.append({"kind": "take_tile", "tile": t})
    elif not state.t_main_done:
        for a in state.tile_actions[state.t_tile]:
            if can_perform(state, seat, a, special=state.t_special, source="tile"):
                out.append({"kind": "action", "action": ACTIONS[a]})
    if state.t_wheel_slot is not None and wheel_payable(state, seat):
        out.append({"kind": "wheel_bonus"})
    for a in sorted(set(state.t_bonus_claims)):
        top, start = state.board_top[seat][1 + a], state.t_start_tops[a]
        if top >= 0:
            out.append({"kind": "action_bonus", "action": ACTIONS[a], "tile": "current"})
        if start >= 0 and start != top:
            out.append({"kind": "action_bonus", "action": ACTIONS[a], "tile": "previous"})
    if (
        not state.t_extra_done
        and state.gold_windows[seat] >= 1
        and state.gold_windows[seat] + state.silver_windows[seat] >= 2
    ):
        pays = [p for p in WINDOW_PAYS if can_pay_windows(state, seat, p)]
        for a in range(6):
            if can_perform(state, seat, a, special=False, source="extra"):
                for p in pays:
                    out.append({"kind": "extra_action", "action": ACTIONS[a], "pay": p})
    for tid in state.unused_techs[seat]:
        if tech_usable(state, seat, tid):
            out.append({"kind": "use_tech", "tech": state.components.techs[tid]["id"]})
    if not state.t_refresh_done and (state.gold[seat] or state.stone[seat]):
        pays = [p for p in ("gold", "stone") if (state.gold if p == "gold" else state.stone)[seat]]
        for t in range(3):
            filled = [i for i in range(4) if state.rows[t][i] >= 0]
            for x in range(len(filled)):
                for y in range(x + 1, len(filled)):
                    for p in pays:
                        out.append(
                            {
                                "kind": "refresh",
                                "row": ROW_NAMES[t],
                                "slots": [filled[x], filled[y]],
                                "pay": p,
                            }
                        )
    if state.silver_windows[seat] >= 2:
        for k in (0, 1):
            if can_climb(state, seat, k, free=False):
                out.append({"kind": "climb", "structure": STRUCTS[k]})
    for k in (0, 1):
        if state.t_lateral_moves[k]:
            out.append({"kind": "lateral", "structure": STRUCTS[k]})
    for section in state.t_road_free:
        if free_effect_payable(state, seat, section):
            out.append({"kind": "road_effect", "effect": "free", "section": section})
    if state.eggs[seat]:
        for section in state.t_road_egg:
            for choice in (0, 1):
                out.append(
                    {
                        "kind": "road_effect",
                        "effect": "egg",
                        "choice": choice,
                        "section": section,
                    }
                )
    if state.seal_rights[seat] and state.cubes[seat]:  # seed §玺印: a cube marks the seal
        for i, seal in enumerate(state.components.seals):
            if state.seal_owner[i] == -1 and can_pay(state, seat, seal["cost"]):
                out.append({"kind": "claim_seal", "seal": seal["id"]})
    if state.t_tile >= 0 and (state.t_main_done or not main_possible(state, seat)):
        out.append(END_TURN)
    return out


def main_action(state, option: dict) -> None:
    """Perform one of the taken tile's actions (seed §执行行动)."""
    state.t_main_done = True
    special = state.t_special
    perform(state, state.active, ACTIONS.index(option["action"]), special=special, discount=None)


def extra_action(state, option: dict) -> None:
    """Seed §购买额外行动: once a turn, 2 gold windows or 1 gold + 1 silver."""
    seat = state.active
    state.t_extra_done = True
    pay_windows(state, seat, option["pay"])
    perform(state, seat, ACTIONS.index(option["action"]), special=False, discount=None)


def wheel_bonus(state, option: dict) -> None:
    """Claim the taken slot's wheel bonus."""
    claim_wheel(state, state.active)


def action_bonus(state, option: dict) -> None:
    """Seed §升级: the upgrade bonus of an action taken this turn, current or previous tile."""
    seat, a = state.active, ACTIONS.index(option["action"])
    state.t_bonus_claims.remove(a)
    tile = state.board_top[seat][1 + a] if option["tile"] == "current" else state.t_start_tops[a]
    gain(state, seat, state.components.tiles[tile].action_bonus)


def use_kept_tech(state, option: dict) -> None:
    """Spend a kept level III-IV technology."""
    seat = state.active
    tid = state.components.tech_index[option["tech"]]
    state.unused_techs[seat].remove(tid)
    for entry in state.techs[seat]:
        if entry[0] == tid:
            entry[2] = True
    state.discarded.append(("tech", tid))
    use_tech(state, seat, tid)


def paid_climb(state, option: dict) -> None:
    """Seed §向上移动: 2 silver windows (and a crossing's cost) for one step up."""
    seat = state.active
    state.silver_windows[seat] -= 2
    state.silver_window_supply += 2
    climb(state, seat, STRUCTS.index(option["structure"]), free=False)


def lateral_move(state, option: dict) -> None:
    """Make one pending lateral move."""
    k = STRUCTS.index(option["structure"])
    state.t_lateral_moves[k] -= 1
    lateral(state, state.active, k)


def road_effect(state, option: dict) -> None:
    """Take a pending King's Road section effect (the egg one costs an egg)."""
    seat, section = state.active, option["section"]
    if option["effect"] == "free":
        state.t_road_free = tuple(x for x in state.t_road_free if x != section)
        apply_free_effect(state, seat, section)
    else:
        state.t_road_egg = tuple(x for x in state.t_road_egg if x != section)
        state.eggs[seat] -= 1
        gain(
            state,
            seat,
            state.components.road["sections"][SECTIONS[section]]["egg"][option["choice"]],
        )


def claim_seal(state, option: dict) -> None:
    """Seed §玺印: pay its cost, mark it with a cube; each seal is exclusive."""
    seat = state.active
    i = [x["id"] for x in state.components.seals].index(option["seal"])
    pay(state, seat, state.components.seals[i]["cost"])
    state.seal_owner[i] = seat
    state.seal_rights[seat] -= 1
    state.cubes[seat] -= 1


def end_turn(state, option: dict) -> None:
    """Seed §回合结束: settle the turn; the windows and the crane follow (continue_end)."""
    # seed §回合结束; what settling the turn sets off (an arrow, a technology draw) is
    # decided first, then the windows, then the crane turns (see PragaState._apply)
    state.t_ending = True
    settle_turn(state, state.active)


def continue_end(state) -> None:
    """After the settling's own steps: keep two windows, then finish the turn."""
    seat = state.active
    if state.gold_windows[seat] + state.silver_windows[seat] > 2:
        state.steps.append(("keep_windows", seat))
    else:
        finish_turn(state)


def settle_turn(state, seat: int) -> None:
    """Unclaimed free gains are taken; the S bonus unused becomes its points (seed §特殊板块)."""
    if state.t_wheel_slot is not None:
        bonus = state.components.crane["slot_bonuses"][state.t_wheel_slot]
        if bonus["kind"] != "buy_egg":
            claim_wheel(state, seat)
        state.t_wheel_slot = None
    for a in list(state.t_bonus_claims):
        if state.board_top[seat][1 + a] >= 0:
            gain(state, seat, state.components.tiles[state.board_top[seat][1 + a]].action_bonus)
    state.t_bonus_claims = []
    for k in (0, 1):
        while state.t_lateral_moves[k]:
            state.t_lateral_moves[k] -= 1
            lateral(state, seat, k)
    for section in state.t_road_free:
        if free_effect(state, section)["kind"] in TAKEN_AT_END:
            apply_free_effect(state, seat, section)
    state.t_road_free = state.t_road_egg = ()


def finish_turn(state) -> None:
    """Turn the crane (and the automa's in solo); the next seat's turn starts."""
    seat = state.active
    state.turns_taken[seat] += 1
    rotate_crane(state, state.t_tile)
    if state.over:
        return
    if state.solo:
        automa_turn(state)
        if state.over:
            return
    else:
        state.active = (seat + 1) % state.players
    start_turn(state)


# The free menu: option kind -> handler(state, option).
HANDLERS = {
    "take_tile": take_tile,
    "action": main_action,
    "extra_action": extra_action,
    "wheel_bonus": wheel_bonus,
    "action_bonus": action_bonus,
    "use_tech": use_kept_tech,
    "refresh": refresh,
    "climb": paid_climb,
    "lateral": lateral_move,
    "road_effect": road_effect,
    "claim_seal": claim_seal,
    "end_turn": end_turn,
}
