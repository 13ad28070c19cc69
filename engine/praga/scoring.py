"""Final scoring (seed §最终计分, six steps) and the result with the tie rule (§赢家)."""

from __future__ import annotations

from engine.core.contract import ranks_from_scores

from .geometry import ACTIONS

STEPS = ("squares", "academic", "structures", "walls", "abilities", "eggs")


def final_scoring(state) -> list[dict]:
    """Add the six final-scoring steps to every player's score; returns per-seat breakdowns."""
    c = state.c
    n = state.players
    details = [{"during_game": state.score[s]} for s in range(n)]
    # 1. squares never enclosed: every claimant takes the lower reward
    for s in range(n):
        before = state.score[s]
        for square, done in sorted(state.square_done.items()):
            t = state.square_tile[square]
            if done or t < 0:
                continue
            if any(state.city_cube.get(h) == s for h in c.city.square_spaces[square]):
                state._gain(s, c.squares[t]["lower"])
        details[s]["squares"] = state.score[s] - before
    # Nothing gained now is used (seed §最终计分 1): a technology drawn now goes back unchosen.
    for step in state.steps:
        if step[0] == "choose_tech":
            state.tech_stacks[step[3]][:0] = step[2]
    state.steps.clear()
    for s in range(n):
        d = details[s]
        # 2. academic: technology steps x the university multiplier
        d["academic"] = state.tech[s] * c.univ_multipliers[state.univ[s]]
        # 3. Hunger Wall and Cathedral rows; corner tokens x the column value
        rows = 0
        for k in (0, 1):
            board = state._structure(k)
            rows += board.row_points[state.pos[s][k][0]]
        wall_col = state._structure(0).column_multipliers[state.pos[s][0][1]]
        cath_col = state._structure(1).column_multipliers[state.pos[s][1][1]]
        d["structure_rows"] = rows
        d["corner_tokens"] = state.blue[s] * wall_col + state.red[s] * cath_col
        d["structures"] = rows + d["corner_tokens"]
        # 4. walls
        walls = state.walls[s]
        d["walls"] = c.wall_scores[min(walls, 6)] if walls >= 3 else 0
        # 5. final-scoring abilities: V tiles and seals
        d["v_tiles"] = sum(
            _v_tile_points(state, s, c.bridge_v[v]["final"]) for v in state.v_tiles[s]
        )
        d["seals"] = _seal_points(state, s)
        d["abilities"] = d["v_tiles"] + d["seals"]
        # 6. eggs
        d["eggs"] = c.egg_scores[min(state.eggs[s], 4)]
        state.score[s] += d["academic"] + d["structures"] + d["walls"] + d["abilities"] + d["eggs"]
        d["total"] = state.score[s]
    return details


def _v_tile_points(state, s: int, final: str) -> int:
    """Seed §桥面板块 (gold V tiles)."""
    if final == "university_height":
        return state.univ[s]
    if final == "upgrades3":
        return 3 * state.upgrades[s]
    if final == "walls2":
        return 2 * state.walls[s]
    if final == "gold_mines":
        return state.c.gold_track["cells"][state.gold_pos[s]]["production"]
    if final == "quarries":
        return state.c.quarry_track["cells"][state.quarry_pos[s]]["production"]
    if final == "rows2":
        return sum(2 * (state.pos[s][k][0] + 1) for k in (0, 1))
    raise ValueError(f"unknown final-scoring ability {final!r}")


def _seal_points(state, s: int) -> int:
    """Seed §玺印: spend gold and stone for points, split the best way between one's seals."""
    kinds = [seal["score"] for i, seal in enumerate(state.c.seals) if state.seal_owner[i] == s]
    flat = sum({"vp6": 6, "vp4_gold1": 4}.get(k, 0) for k in kinds)
    gold, stone = state.gold[s], state.stone[s]
    best = 0
    pairs_max = min(gold, stone) if "pair3" in kinds else 0
    for pairs in range(pairs_max + 1):
        g, st = gold - pairs, stone - pairs
        total = 3 * pairs
        if "gold2" in kinds:
            total += 2 * g
        if "stone2" in kinds:
            total += 2 * st
        best = max(best, total)
    return flat + best


def result(state) -> dict:
    """Scores, ranks (ties go to the later seat in turn order, seed §赢家), details, stats."""
    n = state.players
    scores = list(state.score)
    ranks = ranks_from_scores([(scores[s], s) for s in range(n)])
    return {
        "scores": scores,
        "ranks": ranks,
        "winners": [s for s in range(n) if ranks[s] == 1],
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
