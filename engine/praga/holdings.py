"""What a seat holds and pays: points, gold, stone, eggs, windows, technologies held."""

from __future__ import annotations


def gain_vp(state, seat: int, n: int) -> None:
    """Score ``n`` points."""
    state.score[seat] += n


def has_tech(state, seat: int, effect: str, **match) -> bool:
    """Whether ``seat`` holds a technology with ``effect`` (and ``match``), usable since an earlier turn."""
    for tid, turn, _used in state.techs[seat]:
        tech = state.components.techs[tid]
        if (
            tech["effect"] == effect
            and all(tech.get(k) == v for k, v in match.items())
            and turn < state.turn_no
        ):
            return True
    return False


PAYABLE = ("gold", "stone", "silver", "egg")  # what a printed cost may ask for


def can_pay(state, seat: int, cost: dict) -> bool:
    """Whether ``seat`` holds every resource of ``cost``."""
    have = {
        "gold": state.gold,
        "stone": state.stone,
        "silver": state.silver_windows,
        "egg": state.eggs,
    }
    return all(have[k][seat] >= v for k, v in cost.items())


def pay(state, seat: int, cost: dict) -> None:
    """Pay ``cost``; silver windows go back to the supply."""
    for k, v in cost.items():
        if k == "gold":
            state.gold[seat] -= v
        elif k == "stone":
            state.stone[seat] -= v
        elif k == "silver":
            state.silver_windows[seat] -= v
            state.silver_window_supply += v
        elif k == "egg":
            state.eggs[seat] -= v


def can_pay_windows(state, seat: int, pay: str) -> bool:
    """Whether ``seat`` can pay an extra action with ``pay`` (two gold windows, or gold + silver)."""
    if pay == "gold_gold":
        return state.gold_windows[seat] >= 2
    return state.gold_windows[seat] >= 1 and state.silver_windows[seat] >= 1


def pay_windows(state, seat: int, pay: str) -> None:
    """Seed §购买额外行动: pay two gold windows or a gold and a silver one back to the supply."""
    state.gold_windows[seat] -= 1
    state.gold_window_supply += 1
    if pay == "gold_gold":
        state.gold_windows[seat] -= 1
        state.gold_window_supply += 1
    else:
        state.silver_windows[seat] -= 1
        state.silver_window_supply += 1
