"""Final scoring (seed §最终计分, six steps) and the result with the tie rule (§赢家)."""

from __future__ import annotations

from engine.core.contract import ranks_from_scores

from .geometry import ACTIONS
from .rewards import gain
from .structures import structure

STEPS = ("squares", "academic", "structures", "walls", "abilities", "eggs")


def final_scoring(state) -> list[dict]:
    """Add the six final-scoring steps to every player's score; returns per-seat breakdowns."""
    components = state.components
    n = state.players
    details = [{"during_game": state.score[seat]} for seat in range(n)]
    # 1. squares never enclosed: every claimant takes the lower reward
    for seat in range(n):
        before = state.score[seat]
        for square, done in sorted(state.square_done.items()):
            t = state.square_tile[square]
            if done or t < 0:
                continue
            if any(state.city_cube.get(h) == seat for h in components.city.square_spaces[square]):
                gain(state, seat, components.squares[t]["lower"])
        details[seat]["squares"] = state.score[seat] - before
    # Nothing gained now is used (seed §最终计分 1): a technology drawn now goes back unchosen.
    for step in state.steps:
        if step[0] == "choose_tech":
            state.tech_stacks[step[3]][:0] = step[2]
    state.steps.clear()
    for seat in range(n):
        d = details[seat]
        # 2. academic: technology steps x the university multiplier
        d["academic"] = state.tech_track[seat] * components.univ_multipliers[state.university[seat]]
        # 3. Hunger Wall and Cathedral rows; corner tokens x the column value
        rows = 0
        for k in (0, 1):
            board = structure(state, k)
            rows += board.row_points[state.structure_pos[seat][k][0]]
        wall_col = structure(state, 0).column_multipliers[state.structure_pos[seat][0][1]]
        cath_col = structure(state, 1).column_multipliers[state.structure_pos[seat][1][1]]
        d["structure_rows"] = rows
        d["corner_tokens"] = state.blue_tokens[seat] * wall_col + state.red_tokens[seat] * cath_col
        d["structures"] = rows + d["corner_tokens"]
        # 4. walls
        walls = state.walls[seat]
        d["walls"] = components.wall_scores[min(walls, 6)] if walls >= 3 else 0
        # 5. final-scoring abilities: V tiles and seals
        d["v_tiles"] = sum(
            _v_tile_points(state, seat, components.bridge_v[v]["final"])
            for v in state.v_tiles[seat]
        )
        d["seals"] = _seal_points(state, seat)
        d["abilities"] = d["v_tiles"] + d["seals"]
        # 6. eggs
        d["eggs"] = components.egg_scores[min(state.eggs[seat], 4)]
        state.score[seat] += (
            d["academic"] + d["structures"] + d["walls"] + d["abilities"] + d["eggs"]
        )
        d["total"] = state.score[seat]
    return details


def _v_tile_points(state, seat: int, final: str) -> int:
    """Seed §桥面板块 (gold V tiles): one rule per final-scoring ability."""
    rule = V_TILE_POINTS.get(final)
    if rule is None:
        raise ValueError(f"unknown final-scoring ability {final!r}")
    return rule(state, seat)


# Final-scoring ability (bridge.json ``final``) -> points(state, seat).
V_TILE_POINTS = {
    "university_height": lambda state, seat: state.university[seat],
    "upgrades3": lambda state, seat: 3 * state.upgrades[seat],
    "walls2": lambda state, seat: 2 * state.walls[seat],
    "gold_mines": lambda state, seat: state.components.gold_track["cells"][
        state.gold_mine_pos[seat]
    ]["production"],
    "quarries": lambda state, seat: state.components.quarry_track["cells"][state.quarry_pos[seat]][
        "production"
    ],
    "rows2": lambda state, seat: sum(2 * (state.structure_pos[seat][k][0] + 1) for k in (0, 1)),
}


SEAL_SCORES = ("points", "per_gold", "per_stone", "per_gold_and_stone")  # misc.json seal score


def _seal_points(state, seat: int) -> int:
    """Seed §玺印: spend gold and stone for points, split the best way between one's seals.

    A seal's ``score`` (misc.json) is flat ``points``, or points ``per_gold``, ``per_stone`` or
    ``per_gold_and_stone`` (a pair) spent at the end."""
    scores = [
        seal["score"]
        for i, seal in enumerate(state.components.seals)
        if state.seal_owner[i] == seat
    ]
    flat = sum(score.get("points", 0) for score in scores)
    per_gold = max((score.get("per_gold", 0) for score in scores), default=0)
    per_stone = max((score.get("per_stone", 0) for score in scores), default=0)
    per_pair = max((score.get("per_gold_and_stone", 0) for score in scores), default=0)
    gold, stone = state.gold[seat], state.stone[seat]
    best = 0
    for pairs in range(min(gold, stone) + 1 if per_pair else 1):
        total = per_pair * pairs + per_gold * (gold - pairs) + per_stone * (stone - pairs)
        best = max(best, total)
    return flat + best


def result(state) -> dict:
    """Scores, ranks (ties go to the later seat in turn order, seed §赢家), details, stats."""
    n = state.players
    scores = list(state.score)
    ranks = ranks_from_scores([(scores[seat], seat) for seat in range(n)])
    return {
        "scores": scores,
        "ranks": ranks,
        "winners": [seat for seat in range(n) if ranks[seat] == 1],
        "details": state.final,
        "stats": {
            "turns": state.turn_no,
            "turns_per_seat": list(state.turns_taken),
            "decisions": len(state._actions),
            "crane_side": state.options["crane_side"],
            "crane_configuration": state.options["crane_side"]
            + ":"
            + "-".join(
                "/".join(ACTIONS[a] for a in state.tile_actions[t]) for t in state.crane_setup
            ),
        },
    }
