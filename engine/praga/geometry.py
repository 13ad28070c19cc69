"""Hex geometry of Praga: the action board and the city map, with edges and corners.

Pointy-top hexes in axial coordinates ``(q, r)``. Edge ``k`` of a hex faces the neighbour in
direction ``DIRECTIONS[k]`` (E, NE, NW, W, SW, SE); corner ``k`` lies between edges ``k`` and
``k + 1``, where three hexes meet. A tile laid with orientation ``o`` puts its printed edge
``i`` (and corner ``i``) on board edge ``(i + o) % 6``.
"""

from __future__ import annotations

DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
ACTIONS = ("mines", "quarries", "upgrade", "wall", "building", "road")


class HexBoard:
    """A finite set of hexes with neighbour and shared-corner (vertex) tables, all indexed."""

    __slots__ = ("coords", "index", "neighbours", "vertices", "vertex_hexes")

    def __init__(self, coords: list[tuple[int, int]]):
        self.coords = list(coords)
        self.index = {c: i for i, c in enumerate(self.coords)}
        self.neighbours = [
            [self.index.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS] for q, r in self.coords
        ]
        keys: dict[tuple, int] = {}
        self.vertices: list[list[int]] = []
        self.vertex_hexes: list[list[tuple[int, int]]] = []
        for q, r in self.coords:
            row = []
            for k in range(6):
                a, b = DIRECTIONS[k], DIRECTIONS[(k + 1) % 6]
                key = tuple(sorted([(q, r), (q + a[0], r + a[1]), (q + b[0], r + b[1])]))
                if key not in keys:
                    keys[key] = len(keys)
                    self.vertex_hexes.append([])
                row.append(keys[key])
            self.vertices.append(row)
        for h, row in enumerate(self.vertices):
            for k, v in enumerate(row):
                self.vertex_hexes[v].append((h, k))


def _ring(radius: int) -> list[tuple[int, int]]:
    if radius == 0:
        return [(0, 0)]
    out = []
    q, r = DIRECTIONS[4][0] * radius, DIRECTIONS[4][1] * radius
    for k in range(6):
        for _ in range(radius):
            out.append((q, r))
            q, r = q + DIRECTIONS[k][0], r + DIRECTIONS[k][1]
    return out


class ActionBoard:
    """A player's action board: centre, six action hexes (index 1 + action), twelve wall spaces.

    The six action hexes sit in directions 0..5 around the centre in the order of ``ACTIONS``
    (reconstructed; the seed only says the six actions surround the centre). Walls go on the
    ring around them (seed §建造城墙: touching the action board, never on another wall).
    """

    def __init__(self):
        coords = [(0, 0)] + [DIRECTIONS[k] for k in range(6)] + _ring(2)
        self.board = HexBoard(coords)
        self.action_hex = {a: 1 + k for k, a in enumerate(ACTIONS)}
        self.wall_spaces = list(range(7, 19))


ACTION_BOARD = ActionBoard()


class CityMap:
    """The city: squares, building spaces (Old Town with surcharge and points, New Town),
    King's Road, river, river houses and outskirts, parsed from an explicit map in the data.
    """

    def __init__(self, data: dict):
        cells, coords = [], []
        for row, line in enumerate(data["rows"]):
            for col, code in enumerate(line.split()):
                cells.append((row, col, code))
                coords.append((col - (row - (row & 1)) // 2, row))
        self.board = HexBoard(coords)
        self.rowcol = [(row, col) for row, col, _ in cells]
        self.codes = [code for _, _, code in cells]
        self.squares: list[int] = []
        self.square_colour: dict[int, str] = {}
        self.square_min_players: dict[int, int] = {}
        self.spaces: list[int] = []
        self.surcharge: dict[int, int] = {}
        self.space_vp: dict[int, int] = {}
        self.prebuilt_mark: dict[int, int] = {}
        self.old_town: set[int] = set()
        for h, code in enumerate(self.codes):
            if code[0] == "S":
                self.squares.append(h)
                self.square_colour[h] = code[-1]
                self.square_min_players[h] = int(code[1]) if len(code) == 3 else 1
            elif code[0] in "bo":
                self.spaces.append(h)
                if code[0] == "o":
                    self.old_town.add(h)
                    self.surcharge[h] = int(code[1])
                    self.space_vp[h] = int(code[2])
                    if len(code) == 4:
                        self.prebuilt_mark[h] = int(code[3])
                elif code[-1].isdigit():
                    self.prebuilt_mark[h] = int(code[-1])
        self.spaces_by_surcharge = sorted(self.spaces, key=lambda h: (self.surcharge.get(h, 0), h))
        self.space_square: dict[int, int] = {}
        self.square_spaces: dict[int, list[int]] = {s: [] for s in self.squares}
        for h in self.spaces:
            near = [n for n in self.board.neighbours[h] if n in self.square_colour]
            if len(near) != 1:
                row, col = self.rowcol[h]
                raise ValueError(
                    f"city map: building space at row {row}, col {col} touches {len(near)} "
                    "squares; each must touch exactly one"
                )
            self.space_square[h] = near[0]
            self.square_spaces[near[0]].append(h)
        index = {rc: h for h, rc in enumerate(self.rowcol)}
        self.blue_vertices = sorted(
            {self.board.vertices[index[(r, c)]][k] for r, c, k in data["blue_corners"]}
        )

    def render(self, occupant=lambda h: None) -> str:
        """Text picture of the map; ``occupant(h)`` may return a 3-letter label for a hex."""
        lines = []
        rows = max(r for r, _ in self.rowcol) + 1
        for row in range(rows):
            parts = []
            for h, (r, _c) in enumerate(self.rowcol):
                if r == row:
                    parts.append((occupant(h) or self.codes[h]).ljust(5))
            lines.append(("  " if row & 1 else "") + "".join(parts).rstrip())
        return "\n".join(lines)
