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


class ActionBoard:
    """A player's action board from ``player_board.json`` ``action_board``: hex 0 is the centre
    (the windows reference), hex ``1 + k`` the action ``ACTIONS[k]``, then the wall spaces in
    data order. Which hex holds which action and where walls may go are data (reconstructed:
    the seed only says the six actions surround the centre and walls touch the action board,
    seed §建造城墙); ``validation`` refuses a layout the rules cannot play.
    """

    __slots__ = ("board", "action_hex", "wall_spaces")

    def __init__(self, data: dict):
        actions = data["actions"]
        if sorted(actions) != sorted(ACTIONS):
            raise ValueError(
                f"action board: actions {sorted(actions)}; the board has exactly "
                f"{', '.join(ACTIONS)}"
            )
        coords = [tuple(data["centre"])]
        coords += [tuple(actions[a]) for a in ACTIONS]
        coords += [tuple(c) for c in data["wall_spaces"]]
        if len(set(coords)) != len(coords):
            raise ValueError("action board: two spaces share a hex")
        self.board = HexBoard(coords)
        self.action_hex = {a: 1 + k for k, a in enumerate(ACTIONS)}
        self.wall_spaces = list(range(1 + len(ACTIONS), len(coords)))
        self._check()

    def _check(self) -> None:
        """Seed §建造城墙: the six actions surround the centre; a wall touches the action board."""
        around = set(self.board.neighbours[0])
        for a, h in self.action_hex.items():
            if h not in around:
                raise ValueError(
                    f"action board: {a} at {self.board.coords[h]} does not touch the centre"
                )
        if not self.wall_spaces:
            raise ValueError("action board: no wall space (seed §建造城墙 places walls on it)")
        actions = set(self.action_hex.values())
        for h in self.wall_spaces:
            if not actions & set(self.board.neighbours[h]):
                raise ValueError(
                    f"action board: wall space {self.board.coords[h]} touches no action hex "
                    "(seed §建造城墙: walls touch the action board)"
                )

    @property
    def size(self) -> int:
        """How many hexes the board has (centre, actions and wall spaces)."""
        return len(self.board.coords)


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
