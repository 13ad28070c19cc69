"""Text and SVG pictures of a Praga game, for debugging (never used by the rules).

python -m engine.praga.render --players 3 --seed 7 --decisions 300 [--svg city.svg]
"""

from __future__ import annotations

import argparse
import math

from .geometry import ACTIONS

ZONE_MARK = {"red": "R", "green": "G", "blue": "B", "past": "-"}
CODE_FILL = {"S": "#e8d28a", "b": "#f4efe4", "o": "#e9d7c3", "=": "#b8a07a", "~": "#8fb8de"}
CODE_FILL.update({"h": "#c98b7a", ".": "#b9d8a4"})


def text(state) -> str:
    """A compact text picture: crane, display, each player's tracks, the city map."""
    components = state.components
    lines = [f"turn {state.turn_no}  period {state.period}  active seat {state.active}"]
    crane = []
    for position in range(12):
        slot = (position - state.crane_rotation) % 12
        t = state.slot_tile[slot]
        zone = ZONE_MARK[components.crane["frame"][position]["zone"]]
        label = (
            "box"
            if slot == components.crane["box_slot"]
            else "/".join(ACTIONS[a][:3] for a in state.tile_actions[t])
            if t >= 0
            else "."
        )
        crane.append(f"{zone}{position}:{label}")
    lines.append("crane  " + "  ".join(crane) + f"   platform {state.platform}")
    for t, name in enumerate(("upgrade", "wall", "building")):
        row = [components.tiles[x].id if x >= 0 else "----" for x in state.rows[t]]
        lines.append(f"{name:<9}" + " ".join(row))
    for seat in range(state.players):
        lines.append(
            f"seat {seat + 1}: {state.score[seat]:>3} pts  gold {state.gold[seat]} stone {state.stone[seat]}"
            f"  windows {state.gold_windows[seat]}g/{state.silver_windows[seat]}s  eggs {state.eggs[seat]}"
            f"  mine {state.gold_mine_pos[seat]} quarry {state.quarry_pos[seat]}"
            f"  tech {state.tech_track[seat]} univ {state.university[seat]}"
            f"  wall {state.structure_pos[seat][0]} cathedral {state.structure_pos[seat][1]}  road {state.road_built[seat]}"
            f"  walls {state.walls[seat]} tokens {state.red_tokens[seat]}r/{state.blue_tokens[seat]}b"
        )
    lines.append(
        components.city.render(
            lambda h: (
                (
                    components.tiles[state.city_tile[h]].id[:1]
                    + (str(state.city_cube[h]) if h in state.city_cube else "_")
                    + components.tiles[state.city_tile[h]].id[-1]
                )
                if h in state.city_tile
                else None
            )
        )
    )
    return "\n".join(lines)


def _hex_points(x: float, y: float, size: float) -> str:
    return " ".join(
        f"{x + size * math.cos(math.radians(60 * k - 30)):.1f},"
        f"{y + size * math.sin(math.radians(60 * k - 30)):.1f}"
        for k in range(6)
    )


def _centre(q: int, r: int, size: float, ox: float, oy: float) -> tuple[float, float]:
    return ox + size * math.sqrt(3) * (q + r / 2), oy + size * 1.5 * r


def city_svg(state, size: float = 28) -> str:
    """The city map as SVG: hex kinds, buildings with their owner's cube, squares."""
    components = state.components
    city = components.city
    parts = []
    xs = [_centre(q, r, size, 0, 0) for q, r in city.board.coords]
    ox, oy = size - min(x for x, _ in xs) + 4, size + 4
    width = max(x for x, _ in xs) + ox + size + 4
    height = max(y for _, y in xs) + oy + size + 4
    for h, (q, r) in enumerate(city.board.coords):
        x, y = _centre(q, r, size, ox, oy)
        code = city.codes[h]
        fill = CODE_FILL.get(code[0], "#ffffff")
        label = code
        if h in state.city_tile:
            fill = "#d9534f"
            owner = state.city_cube.get(h, -1)
            label = components.tiles[state.city_tile[h]].id + (f" p{owner}" if owner >= 0 else "")
        elif h in state.square_tile and state.square_tile[h] >= 0:
            label = components.squares[state.square_tile[h]]["id"]
        parts.append(
            f'<polygon points="{_hex_points(x, y, size - 1)}" fill="{fill}" stroke="#555"/>'
            f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="9" text-anchor="middle">{label}</text>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}">'
        + "".join(parts)
        + "</svg>"
    )


def action_board_svg(state, seat: int, size: float = 34) -> str:
    """One player's action board: action hexes, upgrades (top tile) and walls."""
    components = state.components
    parts = []
    ox = oy = size * 5
    names = {1 + k: a for k, a in enumerate(ACTIONS)}
    for h, (q, r) in enumerate(components.action_board.board.coords):
        x, y = _centre(q, r, size, ox, oy)
        top = state.board_top[seat][h]
        label = components.tiles[top].id if top >= 0 else names.get(h, "" if h else "windows")
        fill = "#f0e0a0" if 1 <= h <= 6 else "#dddddd" if top >= 0 else "#ffffff"
        parts.append(
            f'<polygon points="{_hex_points(x, y, size - 1)}" fill="{fill}" stroke="#555"/>'
            f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="9" text-anchor="middle">{label}</text>'
        )
    side = size * 10
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{side:.0f}" height="{side:.0f}">'
        + "".join(parts)
        + "</svg>"
    )


def main() -> int:
    from engine import make_bot, title

    parser = argparse.ArgumentParser(description="Print a Praga position after random play.")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decisions", type=int, default=300)
    parser.add_argument("--svg", help="write the city map as SVG to this file")
    args = parser.parse_args()
    state = title("praga").new_game(args.players, seed=args.seed)
    bots = [make_bot("praga", "random", i) for i in range(args.players)]
    for _ in range(args.decisions):
        if state.is_over():
            break
        d = state.decision()
        state.apply(bots[d.seat].choose(None, d.kind, d.options))
    print(text(state))
    if args.svg:
        with open(args.svg, "w") as out:
            out.write(city_svg(state))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
