"""Printed rewards (seed §图示说明): each icon is one entry of the reward table ``REWARDS``."""

from __future__ import annotations

from .holdings import gain_vp, has_tech
from .structures import lateral
from .tracks import advance_track
from .vocabulary import LATERAL_KEY


def crane_points_tech(state, seat: int) -> None:
    """000 §等级 Ⅰ: points from taking the tile (wheel or blue zone) earn 1 more, once."""
    if "crane_vp" not in state.t_once and has_tech(state, seat, "crane_vp"):
        state.t_once.add("crane_vp")
        gain_vp(state, seat, 1)


def gain(state, seat: int, reward: dict) -> None:
    """Apply a printed reward (icon section §图示说明): each icon through ``REWARDS``."""
    for icon, n in reward.items():
        handler = REWARDS.get(icon)
        if handler is None:
            raise ValueError(f"unknown reward icon {icon!r}")
        handler(state, seat, n)


def _points(state, seat: int, n: int) -> None:
    state.score[seat] += n


def _gold(state, seat: int, n: int) -> None:
    add_resource(state, seat, 0, n)


def _stone(state, seat: int, n: int) -> None:
    add_resource(state, seat, 1, n)


def _silver_windows(state, seat: int, n: int) -> None:
    got = min(n, state.silver_window_supply)  # the supply may run out
    state.silver_window_supply -= got
    state.silver_windows[seat] += got


def _gold_windows(state, seat: int, n: int) -> None:
    got = min(n, state.gold_window_supply)
    state.gold_window_supply -= got
    state.gold_windows[seat] += got


def _eggs(state, seat: int, n: int) -> None:
    for _ in range(n):
        state.eggs[seat] += 1
        tech_reward(state, seat, "egg_gain")


def _tech_steps(state, seat: int, n: int) -> None:
    for _ in range(n):
        advance_tech(state, seat)


def _university_steps(state, seat: int, n: int) -> None:
    for _ in range(n):
        advance_university(state, seat)


def _lateral_moves(structure: int):
    def move(state, seat: int, n: int) -> None:
        # 000 §关于使用时机的说明: the player on turn resolves lateral moves from any
        # source when they like; anyone else (a square reward) moves at once
        if seat == state.active and not state.t_ending and not state.over:
            state.t_lateral_moves[structure] += n
        else:
            for _ in range(n):
                lateral(state, seat, structure)

    return move


def _track_steps(track: int):
    def advance(state, seat: int, n: int) -> None:
        for _ in range(n):
            advance_track(state, seat, track)

    return advance


def _corner_tokens(colour: str):
    def take(state, seat: int, n: int) -> None:
        gain_corner_tokens(state, seat, colour, n)

    return take


def add_resource(state, seat: int, which: int, n: int) -> None:
    """Gold or stone, capped at 9; wealth bonuses the first time 6 / 6 / 9 is reached."""
    store = state.gold if which == 0 else state.stone
    store[seat] = min(state.components.cap, store[seat] + n)
    level = store[seat]
    bit = 1 if which == 0 else 2
    if level >= 6 and not state.wealth_bonuses[seat] & bit:
        state.wealth_bonuses[seat] |= bit
        state.cubes[seat] += 1
        gain(state, seat, state.components.wealth["gold6" if which == 0 else "stone6"])
    if store[seat] >= 9 and not state.wealth_bonuses[seat] & 4:
        state.wealth_bonuses[seat] |= 4
        state.cubes[seat] += 1
        gain(state, seat, state.components.wealth["nine"])


def advance_tech(state, seat: int) -> None:
    """One step on the technology track: a book draws three of its level; past the top, 2 points."""
    if state.tech_track[seat] >= state.components.tech_top:
        gain_vp(state, seat, 2)  # seed §技术: 2 points past the top
        return
    state.tech_track[seat] += 1
    level = state.components.tech_books.get(state.tech_track[seat])
    if level:
        pile = state.tech_stacks[level]
        drawn = [pile.pop() for _ in range(min(3, len(pile)))]
        if drawn:
            state.steps.append(("choose_tech", seat, drawn, level))


def advance_university(state, seat: int) -> None:
    """One step on the university track; past the top, 2 points (seed §查理大学)."""
    if state.university[seat] >= state.components.univ_top:
        gain_vp(state, seat, 2)  # seed §查理大学
    else:
        state.university[seat] += 1


def gain_corner_tokens(state, seat: int, colour: str, n: int) -> None:
    """Red or blue corner tokens, and the level II technology for that colour once a turn."""
    if colour == "red":
        state.red_tokens[seat] += n
    else:
        state.blue_tokens[seat] += n
    flag = "corner_" + colour
    if n and flag not in state.t_once and seat == state.active:
        for tid, turn, _used in state.techs[seat]:
            tech = state.components.techs[tid]
            if (
                tech["effect"] == "corner_token"
                and tech["colour"] == colour
                and turn < state.turn_no
            ):
                state.t_once.add(flag)
                gain(state, seat, tech["reward"])


def tech_reward(state, seat: int, effect: str) -> None:
    """The reward of every lasting technology of ``seat`` with ``effect``."""
    for tid, turn, _used in state.techs[seat]:
        tech = state.components.techs[tid]
        if tech["effect"] == effect and turn < state.turn_no:
            gain(state, seat, tech["reward"])


# Reward icon (as the data files write it) -> handler(state, seat, count).
REWARDS = {
    "vp": _points,
    "gold": _gold,
    "stone": _stone,
    "silver": _silver_windows,
    "goldwin": _gold_windows,
    "egg": _eggs,
    "tech": _tech_steps,
    "univ": _university_steps,
    "red": _corner_tokens("red"),
    "blue": _corner_tokens("blue"),
    **{icon: _lateral_moves(structure) for icon, structure in LATERAL_KEY.items()},
    "gold_track": _track_steps(0),
    "quarry_track": _track_steps(1),
}
