"""How the reconstructed Praga component files were laid out (run once; not loaded at game time).
The small pieces' files are laid out in ``reconstruct_pieces.py``.

The rulebook (seed 000) gives rules, counts and icon meanings but not what is printed on each
tile, board space and wheel slot, and no public source has it (shared/reference/praga.md). This
script writes the JSON files of ``engine/praga/data/`` from the seed's facts, the public facts
and simple, documented patterns for the rest, so that every reconstructed value can be traced to
a rule here and replaced by real data later. Each entry carries ``source``: ``seed``, ``public``
(with the reference section) or ``reconstructed``.

    python -m engine.praga.data.reconstruct   # rewrites the JSON files next to this script
"""

import json
from pathlib import Path

from .reconstruct_pieces import bridge, misc, road, techs

HERE = Path(__file__).parent
ACTIONS = ["mines", "quarries", "upgrade", "wall", "building", "road"]


def crane():
    # Wheel slot 0 is the square box (it holds the round-counting cube); slots 1..11 carry the
    # inner bonuses read from a small photo (public §2, [IMG], low confidence), clockwise.
    bonuses = [
        None,
        {"kind": "special_or_vp", "vp": 1},
        {"kind": "gain", "reward": {"stone": 1}},
        {"kind": "gain", "reward": {"gold": 1}},
        {"kind": "special_or_vp", "vp": 2},
        {"kind": "gain", "reward": {"silver": 1}},
        {"kind": "buy_egg", "cost": {"gold": 2}},
        {"kind": "gain", "reward": {"stone": 1}},
        {"kind": "special_or_vp", "vp": 1},
        {"kind": "gain", "reward": {"gold": 1}},
        {"kind": "gain", "reward": {"silver": 1}},
        {"kind": "buy_egg", "cost": {"stone": 2}},
    ]
    return {
        "source": "public §2 (wheel bonuses, [IMG]); positions, costs and points reconstructed",
        "wheel_slots": 12,
        "box_slot": 0,
        "slot_bonuses": bonuses,
        "slot_bonus_sources": [None]
        + [
            "public §2 [IMG] (icon); egg price reconstructed"
            if b["kind"] == "buy_egg"
            else "public §2 [IMG]"
            for b in bonuses[1:]
        ],
        # Frame positions clockwise from the start of the red zone: 4 red, 3 green, 3 blue, then
        # two positions past the blue zone (a tile reaching them has left the blue zone).
        "frame": (
            [{"zone": "red", "cost": c} for c in (3, 2, 1, 1)]
            + [{"zone": "green"} for _ in range(3)]
            + [{"zone": "blue", "points": p} for p in (1, 2, 3)]
            + [{"zone": "past"}, {"zone": "past"}]
        ),
        "frame_sources": ["reconstructed"] * 12,
        "past_blue_token_points": 5,
        "past_blue_token_points_source": "seed §回合结束 4",
        # Start rotation: frame position of the box slot, per player count, chosen so that the
        # cube drops (box passes the red-zone start) on the very last turn of a 16-turn game and
        # the 3-player countdown matches the seed's example (the drop after the first player's
        # 13th turn leaves 4, 4 and 3 turns). Solo uses the 2-player crane (seed §单人变体).
        "box_start": {"1": 2, "2": 2, "3": 8, "4": 3},
        "platform_spaces": 6,
        "platform_start": {"1": 3, "2": 3, "3": 1, "4": 0},
        # Era line: the period changes when the platform cube moves onto this space.
        "era_line": {"1": 4, "2": 4, "3": 4, "4": 3},
        # 2 players: the period changes when the white arrow reaches the star (last red space)
        # after the cube crossed the line. Arrow slot chosen so this is after 16 of 32 turns.
        "arrow_slot": 8,
        "star_position": 3,
        "tiles_a": {
            "source": "reconstructed pairs; the seed names the first-game order by colour "
            "(upgrade, wall, building, upgrade, wall, building) and a tile with "
            "King's Road + upgrade (seed §玩家回合范例)",
            "pairs": [
                ["upgrade", "mines"],
                ["wall", "quarries"],
                ["building", "road"],
                ["upgrade", "road"],
                ["wall", "mines"],
                ["building", "quarries"],
            ],
        },
        "tiles_b": {
            "source": "reconstructed: less regular pairs, each action twice",
            "pairs": [
                ["mines", "quarries"],
                ["upgrade", "wall"],
                ["building", "road"],
                ["upgrade", "quarries"],
                ["wall", "building"],
                ["mines", "road"],
            ],
        },
    }


EDGE_ICONS = ["silver", "tech", "gold", "stone", "univ", "vp", "goldwin"]


def _edges(i, n):
    edges = [None] * 6
    for k in range(n):
        edges[(i + 2 * k + k * k) % 6] = EDGE_ICONS[(i * 3 + k * 2) % len(EDGE_ICONS)]
    return edges


def _cap_or_icon(icon, cap):
    """Seed §相邻奖励: "板块边缘的学士帽图示不是相邻奖励" - the cap printed on an upgrade's
    edge only reminds that upgrading raises the university. Where the pattern above puts the
    cap, an upgrade shows the reminder ("cap", no reward) and a wall an icon-less side."""
    return cap if icon == "univ" else icon


def _corners(i, n, colour):
    corners = [None] * 6
    for k in range(n):
        corners[(i * 5 + 3 * k + 1) % 6] = colour
    return corners


def tiles():
    out = []
    # Upgrade tiles: centre action cycles through the six actions; the centre reward grows in
    # period II and on special tiles (seed example: a period II upgrade giving 2 stone).
    up_rewards = {
        1: [{"gold": 1}, {"stone": 1}, {"vp": 1}, {"silver": 1}, {"tech": 1}, {"univ": 1}],
        2: [{"stone": 2}, {"gold": 2}, {"vp": 2}, {"goldwin": 1}, {"tech": 1, "vp": 1}, {"vp": 1}],
    }
    special_up = {
        1: [{"gold": 1, "stone": 1}, {"vp": 2}, {"silver": 1, "tech": 1}, {"egg": 1}],
        2: [{"vp": 3}, {"goldwin": 1, "vp": 1}, {"tech": 1, "univ": 1}, {"egg": 1, "vp": 1}],
    }
    for period in (1, 2):
        for i in range(15):
            special = i >= 11
            action = ACTIONS[(i + period) % 6]
            reward = special_up[period][i - 11] if special else up_rewards[period][i % 6]
            out.append(
                {
                    "id": f"U{period}{i:02d}",
                    "type": "upgrade",
                    "period": period,
                    "special": special,
                    "action": action,
                    "action_bonus": reward,
                    "edges": [_cap_or_icon(e, "cap") for e in _edges(i, 3 if special else 2)],
                    "corners": _corners(i, 2 if (special or i % 3 == 0) else 1, "red"),
                    "source": "reconstructed",
                }
            )
    # Wall tiles: cost mostly stone, reward points (seed example: cost 4 stone, reward 6 points);
    # half carry the Hunger Wall icon.
    wall_costs = [
        {"stone": 2},
        {"stone": 3},
        {"stone": 4},
        {"stone": 2, "gold": 1},
        {"stone": 3, "gold": 1},
        {"stone": 1, "gold": 2},
        {"stone": 5},
    ]
    for period in (1, 2):
        for i in range(18):
            special = i >= 14
            cost = dict(wall_costs[i % 7])
            if period == 2:
                cost["stone"] = cost.get("stone", 0) + 1
            total = sum(cost.values())
            reward = {"vp": total + (1 if period == 2 else 0) + (2 if special else 0)}
            if i % 4 == 1:
                reward = {"vp": total - 1, "silver": 1}
            if i % 5 == 3:
                reward = {"vp": total - 2, "tech": 1}
            if cost == {"stone": 4} and period == 1:
                reward = {"vp": 6}
            out.append(
                {
                    "id": f"W{period}{i:02d}",
                    "type": "wall",
                    "period": period,
                    "special": special,
                    "cost": cost,
                    "reward": {k: v for k, v in reward.items() if v > 0},
                    "hunger_wall": i % 2 == 0 or special,
                    "edges": [_cap_or_icon(e, None) for e in _edges(i + 1, 3 if special else 2)],
                    "corners": _corners(i + 2, 2 if special else 1 + (i % 2), "red"),
                    "source": "reconstructed",
                }
            )
    # Building tiles: cost mostly gold (seed example: 4 gold, reward 1 silver window, Cathedral
    # icon); the Cathedral icon always comes with a cube space, a crown-? building has none.
    bld_costs = [
        {"gold": 2},
        {"gold": 3},
        {"gold": 4},
        {"gold": 2, "stone": 2},
        {"gold": 1, "stone": 2},
        {"gold": 3, "stone": 1},
        {"stone": 3},
    ]
    for period in (1, 2):
        for i in range(18):
            special = i >= 14
            cost = dict(bld_costs[i % 7])
            if period == 2:
                cost["gold"] = cost.get("gold", 0) + 1
            kind = i % 3  # 0, 1: cube + Cathedral icon; 2: crown-?
            cube = kind != 2
            total = sum(cost.values())
            if cube:
                reward = [{"silver": 1}, {"vp": total - 1}, {"tech": 1}, {"univ": 1, "vp": 1}][
                    i % 4
                ]
            else:
                reward = {"vp": max(1, total - 2)}
            if special:
                reward = dict(reward)
                reward["vp"] = reward.get("vp", 0) + 2
            if cost == {"gold": 4} and cube and period == 1:
                reward = {"silver": 1}
            out.append(
                {
                    "id": f"B{period}{i:02d}",
                    "type": "building",
                    "period": period,
                    "special": special,
                    "cost": cost,
                    "reward": reward,
                    "cathedral": cube,
                    "cube": cube,
                    "crown": not cube,
                    "edges": [None] * 6,
                    "corners": _corners(i + 4, 2 if special else 1, "blue"),
                    "source": "reconstructed",
                }
            )
    return {"source": "counts: seed §组件 (per period 11+4, 14+4, 14+4)", "tiles": out}


def _grid(rows, cols, vps, arrows):
    cells = []
    for r in range(rows):
        row = []
        for c in range(cols):
            cell = {}
            if (r, c) in vps:
                cell["vp"] = vps[(r, c)]
            if (r, c) in arrows:
                cell["arrow"] = arrows[(r, c)]
            row.append(cell)
        cells.append(row)
    return cells


def structures():
    # Hunger Wall (lateral moves go left, start lower right) and Cathedral (lateral moves go
    # right, start lower left): 6 rows in 3 tiers of 2 rows, 6 columns. Crossing costs are the
    # seed's (I->II: 1 gold 1 stone; II->III: 1 gold 2 stone). Row values end at 13 (seed
    # example: Cathedral top row worth 13); column 4 (1-based) multiplies tokens by 3 (seed).
    # Columns are numbered along the lateral direction, so column 0 is the start column.
    def board(name, vps, arrows, rows_vp):
        return {
            "name": name,
            "rows": 6,
            "cols": 6,
            "tiers": [0, 0, 1, 1, 2, 2],
            "row_points": rows_vp,
            "column_multipliers": [0, 1, 2, 3, 4, 5],
            "cells": _grid(6, 6, vps, arrows),
            "source": "reconstructed (seed: tiers, crossing costs, top row 13, column 4 = x3)",
        }

    base_vp = {(0, 2): 1, (1, 3): 2, (2, 1): 2, (3, 4): 3, (4, 2): 3, (5, 5): 4}
    base_ar = {
        (0, 4): "up",
        (1, 1): "side",
        (1, 4): "up",
        (2, 3): "up",
        (3, 2): "side",
        (4, 4): "side",
    }
    a_vp = {(0, 1): 2, (1, 4): 1, (2, 2): 3, (3, 5): 2, (4, 1): 4}
    a_ar = {(0, 3): "side", (1, 2): "up", (2, 4): "side", (3, 1): "up", (5, 3): "side"}
    b_vp = {(0, 5): 2, (1, 1): 2, (2, 5): 1, (3, 3): 3, (4, 3): 2, (5, 2): 5}
    b_ar = {(0, 2): "up", (1, 4): "up", (2, 2): "side", (4, 1): "side"}
    rows = [0, 2, 4, 7, 10, 13]
    return {
        "crossing_costs": {"1": {"gold": 1, "stone": 1}, "2": {"gold": 1, "stone": 2}},
        "crossing_costs_source": "seed §向上移动",
        "hunger_wall": {
            "base": board("base", base_vp, base_ar, rows),
            "A": board("A", a_vp, a_ar, [0, 1, 4, 6, 10, 14]),
            "B": board("B", b_vp, b_ar, [1, 2, 3, 7, 9, 12]),
        },
        "cathedral": {
            "base": board(
                "base",
                {(0, 3): 1, (1, 2): 2, (2, 4): 2, (3, 1): 3, (4, 3): 3, (5, 4): 4},
                a_ar,
                rows,
            ),
            "A": board("A", b_vp, base_ar, [0, 2, 5, 7, 9, 14]),
            "B": board("B", a_vp, b_ar, [1, 1, 4, 6, 11, 13]),
        },
    }


def player_board():
    return {
        "source": "public §6 (start spaces, counts, token at gold 5 / stone 4, maxima 8 / 7); "
        "bonuses reconstructed to fit the seed's two production examples",
        # cell index = printed space number; production = the highest number left of the marker
        "gold_track": {
            "start": 4,
            "cells": {
                "4": {"production": 3, "source": "public §6 (start space 4 = 3 mines)"},
                "5": {"production": 4, "source": "reconstructed"},
                "6": {"production": 5, "token": True, "source": "public §6 (token at 5)"},
                "7": {"production": 6, "bonus": {"vp": 2}, "source": "seed example"},
                "8": {"production": 7, "bonus": {"silver": 1}, "source": "reconstructed"},
                "9": {"production": 8, "seal": True, "source": "public §6 (maximum 8), seed"},
            },
        },
        "quarry_track": {
            "start": 3,
            "cells": {
                "3": {"production": 2, "source": "public §6 (start space 3 = 2 quarries)"},
                "4": {"production": 3, "source": "reconstructed"},
                "5": {"production": 4, "token": True, "source": "public §6 (token at 4)"},
                "6": {"production": 5, "bonus": {"tech": 1}, "source": "seed example"},
                "7": {"production": 6, "bonus": {"vp": 1}, "source": "seed example"},
                "8": {"production": 7, "seal": True, "source": "public §6 (maximum 7), seed"},
            },
        },
        "tech_track": {
            "top": 8,
            # One book per level, I to IV in order (seed §技术: up to four technologies)
            "books": {"1": 1, "3": 2, "4": 3, "6": 4},
            "books_note": "position -> technology level; the seed's example puts level IV at "
            "step 6 (7 steps = one above the IV mark); steps 1, 3 and 4 for levels I-III are "
            "reconstructed",
        },
        "university": {
            "top": 8,
            "multipliers": [0, 0, 0, 1, 1, 2, 2, 2, 3],
            "note": "seed: lowest three positions x0, top x3, top height 8 (bridge tile V)",
        },
        "wealth": {
            "gold6": {"silver": 1},
            "stone6": {"tech": 1},
            "nine": {"goldwin": 1},
            "source": "reconstructed rewards; thresholds seed §财产奖励",
        },
        "start": {"gold": 2, "stone": 2},
        "cubes": 11,
        "cubes_on_board_at_start": 9,
        "resource_cap": 9,
        "windows_kept": 2,
        "action_board": action_board(),
    }


def action_board():
    # Axial [q, r]: the six action hexes around the centre in directions E, NE, NW, W, SW, SE
    # (engine/praga/geometry.py), the twelve wall spaces on the ring around them from SW.
    directions = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    actions = ("mines", "quarries", "upgrade", "wall", "building", "road")
    ring, (q, r) = [], (-2, 2)
    for dq, dr in directions:
        for _ in range(2):
            ring.append([q, r])
            q, r = q + dq, r + dr
    return {
        "source": "seed §建造城墙 (the six actions surround the centre; walls touch the action "
        "board, never on another wall); which action sits in which direction and the twelve "
        "wall spaces on the ring around them reconstructed",
        "note": "axial hex coordinates [q, r], pointy-top (engine/praga/geometry.py); the "
        "centre holds the windows reference",
        "centre": [0, 0],
        "actions": {a: list(d) for a, d in zip(actions, directions, strict=True)},
        "wall_spaces": ring,
    }


def city():
    # Explicit hex map (odd-r offset rows, pointy-top hexes). Cell codes:
    #   ..  outskirts (green, no building)       == King's Road     ~~ river
    #   hh  river houses (red/blue roofs)         Sa / Sb  square of colour a / b
    #   S3a square used at 3+ players; S4b square used at 4 players
    #   bb  New Town building space              o<gold><vp> Old Town space: surcharge, points
    #   b2 / b3 / o..2 / o..3  building space pre-built at games of at most 2 / 3 players
    rows = [
        "Sa  o12 ..  ..  ..  o23 Sa  o12 ..  ..  hh  ~~",
        "  o12 o12 S3a o12 ..  ..  o12 o12 Sa  o12 hh  ~~",
        "..  ..  o233 o12 o23 Sa  o12 ..  o12 o23 hh  ~~",
        "  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ==  ~~",
        "..  ..  bb3 Sb  bb  ..  bb  ..  ..  bb  Sb  ~~",
        "  bb  ..  bb  bb  bb  Sb  bb  ..  b2  bb  hh  ~~",
        "bb  Sb  bb2 ..  ..  bb  b3  ..  S4b bb  hh  ~~",
    ]
    return {
        "source": "reconstructed layout (seed §合法的建筑空间 lists the kinds of hexes)",
        "legend": "see engine/praga/data/reconstruct.py city()",
        "rows": rows,
        "square_marks": "S3/S4 prefix: used only at 3+ / 4 players",
        "blue_corners": [[1, 4, 0], [2, 6, 5], [0, 6, 3], [5, 3, 1], [4, 7, 2], [6, 6, 0]],
        "blue_corners_note": "[row, col, corner] of a printed blue corner on the board",
    }


def main():
    files = {
        "crane.json": crane(),
        "tiles.json": tiles(),
        "structures.json": structures(),
        "player_board.json": player_board(),
        "city.json": city(),
        "misc.json": misc(),
        "bridge.json": bridge(),
        "road.json": road(),
        "techs.json": techs(),
    }
    for name, data in files.items():
        (HERE / name).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
