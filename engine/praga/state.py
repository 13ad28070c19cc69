"""The rules of Praga Caput Regni (seed 000), as a run of atomic decisions.

A turn is the free menu of the seed's timing section (§关于使用时机的说明): take an action tile,
perform its action, buy and perform an extra action, refresh a row, claim wheel and action
bonuses, climb, resolve lateral moves and King's Road effects, use one-shot technologies, claim
a seal, and ``end_turn``. Choices inside an action (tile, then space, then orientation...) are
pushed as steps on a stack and decided one at a time; the menu returns when the stack is empty.
"""

from __future__ import annotations

from engine.core.contract import Decision, State

from .geometry import ACTION_BOARD, ACTIONS

MINES, QUARRIES, UPGRADE, WALL, BUILDING, ROAD = range(6)
TILE_ACTION_TYPE = {UPGRADE: 0, WALL: 1, BUILDING: 2}
ROW_NAMES = ("upgrade", "wall", "building")
SECTIONS = ("", "I", "II", "III", "IV", "V")
STRUCTS = ("hunger_wall", "cathedral")
LATERAL_KEY = {"wall_left": 0, "cath_right": 1}
WINDOW_PAYS = ("gold_gold", "gold_silver")
END = {"kind": "end_turn"}


class PragaState(State):
    """One game of Praga Caput Regni."""

    __slots__ = (
        "c",
        "seats",
        "solo",
        "turn_no",
        "turns_taken",
        "cur",
        "period",
        "over",
        # crane
        "slot_tile",
        "rot",
        "token5",
        "platform",
        "era_crossed",
        "tile_actions",
        "crane_setup",
        # display and stacks
        "rows",
        "stacks",
        "tech_stacks",
        "iv_stack",
        "v_bridge",
        "v_cathedral",
        "planks",
        "plank_side",
        "river",
        "square_tile",
        "square_done",
        "city_tile",
        "city_orient",
        "city_cube",
        "city_blue",
        "seal_owner",
        "goldwin_supply",
        "silver_supply",
        "discarded",
        # players
        "score",
        "gold",
        "stone",
        "silver",
        "goldwin",
        "eggs",
        "red",
        "blue",
        "gold_pos",
        "quarry_pos",
        "tech",
        "univ",
        "pos",
        "road",
        "cubes",
        "wealth",
        "track_tokens",
        "seal_rights",
        "techs",
        "ab_top",
        "ab_orient",
        "ab_edges_used",
        "ab_stack",
        "ab_corner_pairs",
        "walls",
        "upgrades",
        "upgrades_p1",
        "v_tiles",
        "kept_tech",
        "final",
        # the turn in progress
        "t_tile",
        "t_wheel",
        "t_special",
        "t_main_done",
        "t_extra",
        "t_refresh",
        "t_claims",
        "t_start_tops",
        "t_lateral",
        "t_road_free",
        "t_road_egg",
        "t_flags",
        "t_ending",
        "steps",
        "view_cache",
    )

    # ------------------------------------------------------------------ setup (seed §设置)

    def _setup(self) -> None:
        c = self.c = self.title.components
        chance = self._chance
        opts = self.options
        self.solo = self.players == 1
        self.seats = self.players
        n = self.players
        key = str(n)
        self.turn_no = 0
        self.turns_taken = [0] * n
        self.cur = 0
        self.period = 1
        self.over = False
        # crane (seed §行动起重机设置)
        side = c.crane["tiles_b" if opts["crane_side"] == "B" else "tiles_a"]["pairs"]
        self.tile_actions = [(ACTIONS.index(a), ACTIONS.index(b)) for a, b in side]
        order = list(range(6))
        if opts["crane_order"] == "random":
            chance.shuffle(order)
        self.rot = c.crane["box_start"][key]
        self.slot_tile = [-1] * 12
        position = 0
        for t in order:
            while (position - self.rot) % 12 == c.crane["box_slot"]:
                position += 1
            self.slot_tile[(position - self.rot) % 12] = t
            position += 1
        self.crane_setup = tuple(order)  # for analytics: the action-tile order from red start
        self.token5 = [0] * 6
        self.platform = c.crane["platform_start"][key]
        self.era_crossed = False
        # hex tile stacks (seed §设置 12) and rows: three normal slots then the special one
        self.stacks = {}
        for k, tiles in c.stacks.items():
            pile = list(tiles)
            if k[1] == 1:
                chance.shuffle(pile)
            self.stacks[k] = pile
        self.rows = [[-1, -1, -1, -1] for _ in range(3)]
        # city: pre-built buildings at 2-3 players (seed §设置 13), then squares (§设置 7)
        city = c.city
        self.city_tile = {}
        self.city_orient = {}
        self.city_cube = {}
        self.city_blue = {}
        for h in city.spaces:
            mark = city.prebuilt_mark.get(h)
            if mark is not None and max(n, 2) <= mark:
                tile = self.stacks[(2, 1, False)].pop()
                self._place_city_tile(h, tile, 0, owner=-1)
        self.square_tile = {}
        self.square_done = {}
        for colour in ("a", "b"):
            spaces = [
                s
                for s in city.squares
                if city.square_colour[s] == colour and city.square_min_players[s] <= max(n, 2)
            ]
            tiles = [i for i, sq in enumerate(c.squares) if sq["colour"] == colour]
            chance.shuffle(tiles)
            for s in spaces:
                self.square_tile[s] = tiles.pop() if tiles else -1
        for s in city.squares:
            self.square_tile.setdefault(s, -1)
            self.square_done[s] = False
        for t in range(3):
            self._fill_row(t)
        # bridge (seed §设置 2-4), production tokens (5), technologies (8)
        self.iv_stack = list(range(len(c.bridge_iv)))
        chance.shuffle(self.iv_stack)
        v = list(range(len(c.bridge_v)))
        chance.shuffle(v)
        half = len(v) // 2
        self.v_bridge, self.v_cathedral = v[:half], v[half:]
        self.planks = [-1] * len(c.planks)
        self.plank_side = [chance.below(2) for _ in c.planks]
        self.river = [
            tok["count"] if max(n, 2) >= tok["min_players"] else 0 for tok in c.production_tokens
        ]
        self.tech_stacks = {}
        for level in (1, 2, 3, 4):
            pile = [i for i, t in enumerate(c.techs) if t["level"] == level]
            chance.shuffle(pile)
            self.tech_stacks[level] = pile
        self.seal_owner = [-1] * len(c.seals)
        self.goldwin_supply = c.supply["goldwin"]
        self.silver_supply = c.supply["silver"]
        self.discarded = []
        # players (seed §玩家图板设置)
        start = c.board["start"]
        self.score = [0] * n
        self.gold = [start["gold"]] * n
        self.stone = [start["stone"]] * n
        self.silver = [0] * n
        self.goldwin = [0] * n
        self.eggs = [0] * n
        self.red = [0] * n
        self.blue = [0] * n
        self.gold_pos = [c.gold_track["start"]] * n
        self.quarry_pos = [c.quarry_track["start"]] * n
        self.tech = [0] * n
        self.univ = [0] * n
        self.pos = [[[0, 0], [0, 0]] for _ in range(n)]  # [structure][row, column]
        self.road = [0] * n
        self.cubes = [c.board["cubes"] - c.board["cubes_on_board_at_start"]] * n
        self.wealth = [0] * n  # bits: 1 gold6, 2 stone6, 4 nine
        self.track_tokens = [[[], []] for _ in range(n)]
        self.seal_rights = [0] * n
        self.techs = [[] for _ in range(n)]  # [tech, turn acquired, used]
        # action boards are tuples, replaced on write: a clone copies only the outer lists
        self.ab_top = [(-1,) * 19 for _ in range(n)]
        self.ab_orient = [(0,) * 19 for _ in range(n)]
        self.ab_edges_used = [(0,) * 19 for _ in range(n)]
        self.ab_stack = [[()] * 19 for _ in range(n)]  # tuples: cheap to copy
        self.ab_corner_pairs = [frozenset() for _ in range(n)]
        self.walls = [0] * n
        self.upgrades = [0] * n
        self.upgrades_p1 = [0] * n
        self.v_tiles = [[] for _ in range(n)]
        self.kept_tech = [[] for _ in range(n)]
        self.final = None
        self.steps = []
        self.view_cache = {}
        self._start_turn()

    def _fill_row(self, t: int) -> None:
        row = self.rows[t]
        for slot in range(4):
            if row[slot] == -1:
                pile = self.stacks[(t, self.period, slot == 3)]
                if pile:
                    row[slot] = pile.pop()

    # ------------------------------------------------------------------ the turn

    def _start_turn(self) -> None:
        self.t_tile = -1
        self.t_wheel = None
        self.t_special = False
        self.t_main_done = False
        self.t_extra = False
        self.t_refresh = False
        self.t_claims = []
        self.t_start_tops = [self.ab_top[self.cur][1 + a] for a in range(6)]
        self.t_lateral = [0, 0]
        self.t_road_free = ()  # sections whose effects wait (two road actions in a turn: two)
        self.t_road_egg = ()
        self.t_flags = set()
        self.t_ending = False

    def is_over(self) -> bool:
        return self.over

    def _decide(self) -> Decision:
        if self.steps:
            step = self.steps[-1]
            return Decision(step[1], step[0], self._step_options(step))
        return Decision(self.cur, "turn", self._menu())

    def _apply(self, option: dict) -> None:
        if self.steps:
            step = self.steps.pop()
            getattr(self, "_do_" + step[0])(step, option)
        else:
            getattr(self, "_menu_" + option["kind"])(option)
        if self.t_ending and not self.steps:
            self._continue_end()

    # -- the free menu ---------------------------------------------------------------------

    def _menu(self) -> list[dict]:
        s = self.cur
        out = []
        if self.t_tile == -1:
            for slot, t in enumerate(self.slot_tile):
                if t >= 0:
                    frame = self.c.crane["frame"][(slot + self.rot) % 12]
                    if self.gold[s] >= frame.get("cost", 0):
                        out.append({"kind": "take_tile", "tile": t})
        elif not self.t_main_done:
            for a in self.tile_actions[self.t_tile]:
                if self._can_perform(s, a, special=self.t_special, source="tile"):
                    out.append({"kind": "action", "action": ACTIONS[a]})
        if self.t_wheel is not None and self._wheel_payable(s):
            out.append({"kind": "wheel_bonus"})
        for a in sorted(set(self.t_claims)):
            top, start = self.ab_top[s][1 + a], self.t_start_tops[a]
            if top >= 0:
                out.append({"kind": "action_bonus", "action": ACTIONS[a], "tile": "current"})
            if start >= 0 and start != top:
                out.append({"kind": "action_bonus", "action": ACTIONS[a], "tile": "previous"})
        if not self.t_extra and self.goldwin[s] >= 1 and self.goldwin[s] + self.silver[s] >= 2:
            pays = [p for p in WINDOW_PAYS if self._can_pay_windows(s, p)]
            for a in range(6):
                if self._can_perform(s, a, special=False, source="extra"):
                    for p in pays:
                        out.append({"kind": "extra_action", "action": ACTIONS[a], "pay": p})
        for tid in self.kept_tech[s]:
            if self._tech_usable(s, tid):
                out.append({"kind": "use_tech", "tech": self.c.techs[tid]["id"]})
        if not self.t_refresh and (self.gold[s] or self.stone[s]):
            pays = [p for p in ("gold", "stone") if (self.gold if p == "gold" else self.stone)[s]]
            for t in range(3):
                filled = [i for i in range(4) if self.rows[t][i] >= 0]
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
        if self.silver[s] >= 2:
            for k in (0, 1):
                if self._can_climb(s, k, free=False):
                    out.append({"kind": "climb", "structure": STRUCTS[k]})
        for k in (0, 1):
            if self.t_lateral[k]:
                out.append({"kind": "lateral", "structure": STRUCTS[k]})
        for section in self.t_road_free:
            if self._road_free_payable(s, section):
                out.append({"kind": "road_effect", "effect": "free", "section": section})
        if self.eggs[s]:
            for section in self.t_road_egg:
                for choice in (0, 1):
                    out.append(
                        {
                            "kind": "road_effect",
                            "effect": "egg",
                            "choice": choice,
                            "section": section,
                        }
                    )
        if self.seal_rights[s] and self.cubes[s]:  # seed §玺印: a cube marks the seal
            for i, seal in enumerate(self.c.seals):
                if self.seal_owner[i] == -1 and self._can_pay(s, seal["cost"]):
                    out.append({"kind": "claim_seal", "seal": seal["id"]})
        if self.t_tile >= 0 and (self.t_main_done or not self._main_possible(s)):
            out.append(END)
        return out

    def _main_possible(self, s: int) -> bool:
        return any(
            self._can_perform(s, a, special=self.t_special, source="tile")
            for a in self.tile_actions[self.t_tile]
        )

    def _menu_take_tile(self, option: dict) -> None:
        # seed §位置的费用及奖励: pay the red cost or score the blue points at once
        s, t = self.cur, option["tile"]
        slot = self.slot_tile.index(t)
        frame = self.c.crane["frame"][(slot + self.rot) % 12]
        self.gold[s] -= frame.get("cost", 0)
        # seed §回合结束 4: a tile that left the blue zone stays worth 5 points, stacking with
        # the blue zone's points
        points = frame.get("points", 0) + self.token5[t] * self.c.crane["past_blue_token_points"]
        self.token5[t] = 0
        self.slot_tile[slot] = -1
        self.t_tile = t
        self._gain_vp(s, points)
        if points:
            self._crane_points_tech(s)
        bonus = self.c.crane["slot_bonuses"][slot]
        self.t_wheel = slot if bonus else None
        self.t_special = bool(bonus) and bonus["kind"] == "special_or_vp"

    def _crane_points_tech(self, s: int) -> None:
        """000 §等级 Ⅰ: points from taking the tile (wheel or blue zone) earn 1 more, once."""
        if "crane_vp" not in self.t_flags and self._has_tech(s, "crane_vp"):
            self.t_flags.add("crane_vp")
            self._gain_vp(s, 1)

    def _menu_action(self, option: dict) -> None:
        self.t_main_done = True
        special = self.t_special
        self._perform(self.cur, ACTIONS.index(option["action"]), special=special, discount=None)

    def _menu_extra_action(self, option: dict) -> None:
        # seed §购买额外行动: once a turn, 2 gold windows or 1 gold + 1 silver
        s = self.cur
        self.t_extra = True
        self._pay_windows(s, option["pay"])
        self._perform(s, ACTIONS.index(option["action"]), special=False, discount=None)

    def _menu_wheel_bonus(self, option: dict) -> None:
        self._claim_wheel(self.cur)

    def _menu_action_bonus(self, option: dict) -> None:
        s, a = self.cur, ACTIONS.index(option["action"])
        self.t_claims.remove(a)
        tile = self.ab_top[s][1 + a] if option["tile"] == "current" else self.t_start_tops[a]
        self._gain(s, self.c.tiles[tile].action_bonus)

    def _menu_use_tech(self, option: dict) -> None:
        s = self.cur
        tid = self.c.tech_index[option["tech"]]
        self.kept_tech[s].remove(tid)
        for entry in self.techs[s]:
            if entry[0] == tid:
                entry[2] = True
        self.discarded.append(("tech", tid))
        self._use_tech(s, tid)

    def _menu_refresh(self, option: dict) -> None:
        # seed §刷新一列: once a turn, 1 gold or 1 stone, two tiles of one row to the bottom
        s = self.cur
        self.t_refresh = True
        if option["pay"] == "gold":
            self.gold[s] -= 1
        else:
            self.stone[s] -= 1
        t = ROW_NAMES.index(option["row"])
        for slot in option["slots"]:
            tile = self.rows[t][slot]
            self.rows[t][slot] = -1
            info = self.c.tiles[tile]
            self.stacks[(t, info.period, info.special)].insert(0, tile)
        self._fill_row(t)

    def _menu_climb(self, option: dict) -> None:
        s = self.cur
        self.silver[s] -= 2
        self.silver_supply += 2
        self._climb(s, STRUCTS.index(option["structure"]), free=False)

    def _menu_lateral(self, option: dict) -> None:
        k = STRUCTS.index(option["structure"])
        self.t_lateral[k] -= 1
        self._lateral(self.cur, k)

    def _menu_road_effect(self, option: dict) -> None:
        s, section = self.cur, option["section"]
        if option["effect"] == "free":
            self.t_road_free = tuple(x for x in self.t_road_free if x != section)
            self._road_free_effect(s, section)
        else:
            self.t_road_egg = tuple(x for x in self.t_road_egg if x != section)
            self.eggs[s] -= 1
            self._gain(s, self.c.road["sections"][SECTIONS[section]]["egg"][option["choice"]])

    def _menu_claim_seal(self, option: dict) -> None:
        # seed §玺印: pay its cost, mark it with a cube; each seal is exclusive
        s = self.cur
        i = [x["id"] for x in self.c.seals].index(option["seal"])
        self._pay(s, self.c.seals[i]["cost"])
        self.seal_owner[i] = s
        self.seal_rights[s] -= 1
        self.cubes[s] -= 1

    def _menu_end_turn(self, option: dict) -> None:
        # seed §回合结束; what settling the turn sets off (an arrow, a technology draw) is
        # decided first, then the windows, then the crane turns (see _apply)
        self.t_ending = True
        self._settle_turn(self.cur)

    def _continue_end(self) -> None:
        s = self.cur
        if self.goldwin[s] + self.silver[s] > 2:
            self.steps.append(("keep_windows", s))
        else:
            self._finish_turn()

    def _settle_turn(self, s: int) -> None:
        """Unclaimed free gains are taken; the S bonus unused becomes its points (seed §特殊板块)."""
        if self.t_wheel is not None:
            bonus = self.c.crane["slot_bonuses"][self.t_wheel]
            if bonus["kind"] != "buy_egg":
                self._claim_wheel(s)
            self.t_wheel = None
        for a in list(self.t_claims):
            if self.ab_top[s][1 + a] >= 0:
                self._gain(s, self.c.tiles[self.ab_top[s][1 + a]].action_bonus)
        self.t_claims = []
        for k in (0, 1):
            while self.t_lateral[k]:
                self.t_lateral[k] -= 1
                self._lateral(s, k)
        for section in self.t_road_free:
            if self._road_free(section)["kind"] in ("gain", "per_period1_upgrade", "per_silver"):
                self._road_free_effect(s, section)
        self.t_road_free = self.t_road_egg = ()

    def _finish_turn(self) -> None:
        s = self.cur
        self.turns_taken[s] += 1
        self._rotate_crane(self.t_tile)
        if self.over:
            return
        if self.solo:
            self._automa_turn()
            if self.over:
                return
        else:
            self.cur = (s + 1) % self.players
        self._start_turn()

    def _automa_turn(self) -> None:
        """Seed §单人变体: the opponent takes the tile furthest along and returns it."""
        best = max(
            (slot for slot, t in enumerate(self.slot_tile) if t >= 0),
            key=lambda slot: (slot + self.rot) % 12,
        )
        tile = self.slot_tile[best]
        self.slot_tile[best] = -1
        self.token5[tile] = 0
        self._rotate_crane(tile)

    def _rotate_crane(self, tile: int) -> None:
        """Seed §回合结束 2-4 and §计算回合数."""
        crane = self.c.crane
        box = crane["box_slot"]
        self.turn_no += 1
        self.rot = (self.rot + 1) % 12
        dropped = False
        if (box + self.rot) % 12 == 0:
            self.rot = (self.rot + 1) % 12
            dropped = True
        slot0 = (0 - self.rot) % 12
        self.slot_tile[slot0] = tile
        frame = crane["frame"]
        for slot, t in enumerate(self.slot_tile):
            if t >= 0 and frame[(slot + self.rot) % 12]["zone"] == "past":
                self.slot_tile[slot] = -1
                # 000 §回合结束 4: "仍然价值五分" - still worth 5, the one token marking it;
                # a second trip past the blue zone does not make it 10
                self.token5[t] = 1
                target = self._overflow_slot()
                self.slot_tile[target] = t
        key = str(self.players)
        if dropped:
            self.platform += 1
            if self.platform == crane["era_line"][key]:
                if max(self.players, 2) >= 3:
                    self._change_period()
                else:
                    self.era_crossed = True
            if self.platform >= crane["platform_spaces"]:
                self._end_game()
                return
        if self.era_crossed and self.period == 1:
            arrow = (crane["arrow_slot"] + self.rot) % 12
            if arrow == crane["star_position"]:
                self._change_period()

    def _overflow_slot(self) -> int:
        """Seed §回合结束 4: the first empty green space, else the last red space. When the
        box blocks a green space and the last red space is taken too (the seed does not say),
        the nearest empty space before it."""
        frame = self.c.crane["frame"]
        box = self.c.crane["box_slot"]
        greens = [p for p, f in enumerate(frame) if f["zone"] == "green"]
        last_red = max(p for p, f in enumerate(frame) if f["zone"] == "red")
        for position in greens + list(range(last_red, -1, -1)):
            slot = (position - self.rot) % 12
            if slot != box and self.slot_tile[slot] == -1:
                return slot
        raise AssertionError("the crane has no empty space for a tile")

    def _change_period(self) -> None:
        """Seed §计算回合数: the period I rows leave; period II stacks are dealt."""
        self.period = 2
        self.era_crossed = False
        for t in range(3):
            for slot in range(4):
                if self.rows[t][slot] >= 0:
                    self.discarded.append(("tile", self.rows[t][slot]))
                    self.rows[t][slot] = -1
            for special in (False, True):
                pile = self.stacks[(t, 1, special)]
                self.discarded.extend(("tile", x) for x in pile)
                pile.clear()
                self._chance.shuffle(self.stacks[(t, 2, special)])
            self._fill_row(t)

    def _end_game(self) -> None:
        from .scoring import final_scoring

        self.over = True
        self.final = final_scoring(self)

    # -- step options and handlers ---------------------------------------------------------

    def _step_options(self, step: tuple) -> list[dict]:
        return getattr(self, "_opt_" + step[0])(step)

    def _opt_keep_windows(self, step):
        s = step[1]
        out = []
        for g in (2, 1, 0):
            if g <= self.goldwin[s] and 2 - g <= self.silver[s]:
                out.append({"kind": "keep", "gold": g, "silver": 2 - g})
        return out

    def _do_keep_windows(self, step, option):
        s = step[1]
        self.goldwin_supply += self.goldwin[s] - option["gold"]
        self.silver_supply += self.silver[s] - option["silver"]
        self.goldwin[s], self.silver[s] = option["gold"], option["silver"]

    # production (seed §管理矿场, §管理采石场)
    def _opt_mine(self, step):
        s, track = step[1], step[2]
        out = []
        if self._track_pos(s, track) < self._track(track)["end"]:
            out.append({"kind": "mine", "mode": "advance"})
        out.append({"kind": "mine", "mode": "produce"})
        return out

    def _do_mine(self, step, option):
        s, track = step[1], step[2]
        if option["mode"] == "advance":
            self._gain(s, {"gold" if track == 0 else "stone": 1})
            self._advance_track(s, track)
        else:
            self._produce(s, track)

    def _opt_token(self, step):
        return [
            {"kind": "token", "token": tok["id"]}
            for i, tok in enumerate(self.c.production_tokens)
            if self.river[i]
        ]

    def _do_token(self, step, option):
        s, track = step[1], step[2]
        i = [t["id"] for t in self.c.production_tokens].index(option["token"])
        self.river[i] -= 1
        self.track_tokens[s][track].append(i)

    # picking hex tiles (seed §六角板块拿取概要)
    def _opt_pick(self, step):
        _, s, t, special, discount = step
        out = []
        for slot in range(4 if special else 3):
            tile = self.rows[t][slot]
            if tile >= 0 and self._tile_affordable(s, t, tile, discount):
                out.append(
                    {
                        "kind": "pick",
                        "row": ROW_NAMES[t],
                        "slot": slot,
                        "tile": self.c.tiles[tile].id,
                    }
                )
        return out

    def _do_pick(self, step, option):
        _, s, t, special, discount = step
        slot = option["slot"]
        tile = self.rows[t][slot]
        self.rows[t][slot] = -1
        if slot == 3:
            self.t_special = False
            self.t_wheel = None  # the S bonus is used for the tile, not its points
        self._fill_row(t)
        info = self.c.tiles[tile]
        if t == 0:
            self.steps.append(("orient_upgrade", s, tile))
            return
        cost = dict(info.cost)
        if t == 1 and discount:
            cost["stone"] = max(0, cost.get("stone", 0) - discount)
            discount = 0
        if t == 2 and discount:
            cut = min(discount, cost.get("gold", 0))
            cost["gold"] = cost.get("gold", 0) - cut
            discount -= cut
        self._pay(s, cost)
        self._gain(s, info.reward)
        if t == 1:
            self.steps.append(("wall_space", s, tile))
        else:
            self.steps.append(("building_space", s, tile, discount))

    def _opt_orient_upgrade(self, step):
        return [{"kind": "orient", "rotation": o} for o in range(6)]

    def _do_orient_upgrade(self, step, option):
        # seed §升级一个行动: on the matching action hex, any orientation; stacking; university
        _, s, tile = step
        info = self.c.tiles[tile]
        h = 1 + info.action
        self._place_board_tile(s, h, tile, option["rotation"])
        self.upgrades[s] += 1
        if info.period == 1:
            self.upgrades_p1[s] += 1
        for _ in range(info.period):
            self._advance_univ(s)

    def _opt_wall_space(self, step):
        s = step[1]
        return [
            {"kind": "space", "hex": h} for h in ACTION_BOARD.wall_spaces if self.ab_top[s][h] == -1
        ]

    def _do_wall_space(self, step, option):
        self.steps.append(("orient_wall", step[1], step[2], option["hex"]))

    def _opt_orient_wall(self, step):
        return [{"kind": "orient", "rotation": o} for o in range(6)]

    def _do_orient_wall(self, step, option):
        _, s, tile, h = step
        info = self.c.tiles[tile]
        self._place_board_tile(s, h, tile, option["rotation"])
        self.walls[s] += 1
        if info.hunger_wall:
            self.t_lateral[0] += 1
            self._tech_reward(s, "hunger_wall_wall")
        if self._road_while(s, "while_here_wall"):
            self._gain_vp(s, self._road_while(s, "while_here_wall"))

    def _opt_building_space(self, step):
        _, s, tile, discount = step
        city = self.c.city
        out = []
        for h in city.spaces:
            if h not in self.city_tile and self.gold[s] >= max(
                0, city.surcharge.get(h, 0) - discount
            ):
                out.append(
                    {"kind": "space", "hex": h, "row": city.rowcol[h][0], "col": city.rowcol[h][1]}
                )
        return out

    def _do_building_space(self, step, option):
        _, s, tile, discount = step
        city = self.c.city
        h = option["hex"]
        self.gold[s] -= max(0, city.surcharge.get(h, 0) - discount)
        self._gain_vp(s, city.space_vp.get(h, 0))
        self.steps.append(("orient_building", s, tile, h))

    def _opt_orient_building(self, step):
        return [{"kind": "orient", "rotation": o} for o in range(6)]

    def _do_orient_building(self, step, option):
        # seed §建造建筑: cube space, Cathedral icon, crown-?, blue corners, square resolution
        _, s, tile, h = step
        info = self.c.tiles[tile]
        owner = s if info.cube and self.cubes[s] > 0 else -1
        if owner >= 0:
            self.cubes[s] -= 1
        tokens = self._place_city_tile(h, tile, option["rotation"], owner)
        if tokens:
            self._gain_corner_tokens(s, "blue", tokens)
        if info.cathedral:
            self.t_lateral[1] += 1
            self._tech_reward(s, "cathedral_building")
        else:
            self._tech_reward(s, "plain_building")
            bonus = self._road_while(s, "while_here_plain_building")
            if bonus:
                self._gain_vp(s, bonus)
        square = self.c.city.space_square[h]
        if info.crown:
            self._gain_vp(
                s, sum(1 for x in self.c.city.square_spaces[square] if x in self.city_tile)
            )
        if all(x in self.city_tile for x in self.c.city.square_spaces[square]):
            self._resolve_square(square, s)

    def _opt_square_reward(self, step):
        _, s, square, mode = step
        return [{"kind": "square_reward", "choice": i} for i in (0, 1)]

    def _do_square_reward(self, step, option):
        _, s, square, mode = step
        sq = self.c.squares[self.square_tile[square]] if square >= 0 else None
        upper = sq["upper"] if sq else self.c.squares[mode]["upper"]
        self._gain(s, upper[option["choice"]])

    # King's Road bridge (seed §查理大桥)
    def _opt_bridge_iv(self, step):
        return [{"kind": "bridge_tile", "tile": self.c.bridge_iv[i]["id"]} for i in sorted(step[2])]

    def _do_bridge_iv(self, step, option):
        _, s, drawn = step
        chosen = [i for i in drawn if self.c.bridge_iv[i]["id"] == option["tile"]][0]
        for i in drawn:
            if i != chosen:
                self.iv_stack.insert(0, i)
        if -1 in self.planks:
            self.steps.append(("plank", s, "iv", chosen))
        else:
            self.discarded.append(("iv", chosen))
            self._gain(s, self.c.bridge_iv[chosen]["reward"])

    def _opt_bridge_v(self, step):
        pile = self.v_bridge if step[2] == "bridge" else self.v_cathedral
        return [{"kind": "bridge_tile", "tile": self.c.bridge_v[i]["id"]} for i in sorted(pile)]

    def _do_bridge_v(self, step, option):
        _, s, pile = step
        pile_list = self.v_bridge if pile == "bridge" else self.v_cathedral
        chosen = [i for i in pile_list if self.c.bridge_v[i]["id"] == option["tile"]][0]
        pile_list.remove(chosen)
        self.v_tiles[s].append(chosen)
        self._gain(s, self.c.bridge_v[chosen]["reward"])
        if pile == "bridge" and -1 in self.planks:
            self.steps.append(("plank", s, "v", chosen))

    def _opt_plank(self, step):
        return [{"kind": "plank", "plank": i} for i, x in enumerate(self.planks) if x == -1]

    def _do_plank(self, step, option):
        _, s, kind, tile = step
        i = option["plank"]
        self.planks[i] = (0 if kind == "iv" else 100) + tile
        self._gain(s, self.c.planks[i]["sides"][self.plank_side[i]])
        if kind == "iv":
            self._gain(s, self.c.bridge_iv[tile]["reward"])

    # technologies (seed §技术)
    def _opt_choose_tech(self, step):
        return [{"kind": "choose_tech", "tech": self.c.techs[i]["id"]} for i in sorted(step[2])]

    def _do_choose_tech(self, step, option):
        _, s, drawn, level = step
        chosen = self.c.tech_index[option["tech"]]
        for i in drawn:
            if i != chosen:
                self.tech_stacks[level].insert(0, i)
        self.techs[s].append([chosen, self.turn_no, False])
        if level >= 3:
            self.kept_tech[s].append(chosen)

    def _opt_choose_structure(self, step):
        _, s, purpose = step
        out = []
        for k in (0, 1):
            if purpose != "free_climb" or self._can_climb(s, k, free=True):
                out.append({"kind": "structure", "structure": STRUCTS[k]})
        return out

    def _do_choose_structure(self, step, option):
        _, s, purpose = step
        k = STRUCTS.index(option["structure"])
        if purpose == "free_climb":
            self._climb(s, k, free=True)
        else:
            self._lateral(s, k)

    def _opt_arrow_up(self, step):
        _, s, k = step
        out = [{"kind": "arrow_up", "take": False}]
        if self._can_pay(s, self._crossing_cost(s, k)):
            out.append({"kind": "arrow_up", "take": True})
        return out

    def _do_arrow_up(self, step, option):
        _, s, k = step
        if option["take"]:
            self._climb(s, k, free=False)

    def _opt_choose_action(self, step):
        s = step[1]
        return [
            {"kind": "tech_action", "action": ACTIONS[a]}
            for a in range(6)
            if self._can_perform(s, a, special=False, source="tech")
        ]

    def _do_choose_action(self, step, option):
        self._perform(step[1], ACTIONS.index(option["action"]), special=False, discount=None)

    def _opt_choose_square(self, step):
        return [
            {"kind": "square", "square": self.c.squares[t]["id"]}
            for sq, t in sorted(self.square_tile.items())
            if t >= 0
        ]

    def _do_choose_square(self, step, option):
        s = step[1]
        t = [i for i, sq in enumerate(self.c.squares) if sq["id"] == option["square"]][0]
        sq = self.c.squares[t]
        if sq.get("majority") == "one_upper_and_lower":
            # 000 §广场板块: "both rewards" of this tile are one move of the two and the 3 gold
            self._gain(s, sq["lower"])
            self.steps.append(("square_reward", s, -1, t))
            return
        for reward in sq["upper"]:
            self._gain(s, reward)

    def _opt_choose_track(self, step):
        s = step[1]
        return [
            {"kind": "track", "track": name}
            for k, name in enumerate(("gold_mine", "quarry"))
            if self._track_pos(s, k) < self._track(k)["end"]
        ] or [{"kind": "track", "track": "none"}]

    def _do_choose_track(self, step, option):
        s = step[1]
        self.steps.append(("choose_produce", s))
        if option["track"] != "none":
            self._advance_track(s, ("gold_mine", "quarry").index(option["track"]))

    def _opt_choose_produce(self, step):
        return [{"kind": "produce", "track": "gold_mine"}, {"kind": "produce", "track": "quarry"}]

    def _do_choose_produce(self, step, option):
        self._produce(step[1], ("gold_mine", "quarry").index(option["track"]))

    def _opt_road_choice(self, step):
        return [{"kind": "resource", "resource": "gold"}, {"kind": "resource", "resource": "stone"}]

    def _do_road_choice(self, step, option):
        self._gain(step[1], {option["resource"]: 1})

    # ------------------------------------------------------------------ the six actions

    def _can_perform(self, s: int, a: int, special: bool, source: str, discount=None) -> bool:
        if a in (MINES, QUARRIES):
            return True
        if a == ROAD:
            nxt = self.road[s] + 1
            return nxt <= 5 and (nxt <= 3 or self.eggs[s] >= 1)
        t = TILE_ACTION_TYPE[a]
        slots = 4 if special else 3
        if a == WALL and all(self.ab_top[s][h] >= 0 for h in ACTION_BOARD.wall_spaces):
            return False
        return any(
            self.rows[t][i] >= 0 and self._tile_affordable(s, t, self.rows[t][i], discount or 0)
            for i in range(slots)
        )

    def _tile_affordable(self, s: int, t: int, tile: int, discount: int) -> bool:
        if t == 0:
            return True
        cost = self.c.tiles[tile].cost
        gold, stone = cost.get("gold", 0), cost.get("stone", 0)
        if t == 1:
            return self.gold[s] >= gold and self.stone[s] >= max(0, stone - discount)
        cheapest = self._cheapest_free_space()
        if cheapest < 0:
            return False
        return self.stone[s] >= stone and self.gold[s] >= max(0, gold + cheapest - discount)

    def _cheapest_free_space(self) -> int:
        """The lowest surcharge of a free building space, or -1 when the city is full."""
        city = self.c.city
        for h in city.spaces_by_surcharge:
            if h not in self.city_tile:
                return city.surcharge.get(h, 0)
        return -1

    def _perform(self, s: int, a: int, special: bool, discount) -> None:
        """One action, from the tile, an extra action or a technology (seed §执行行动)."""
        self.t_claims.append(a)  # the upgrade bonus, now or retroactively (seed §升级)
        if a == UPGRADE and self._road_while(s, "while_here_upgrade"):
            self._gain_vp(s, self._road_while(s, "while_here_upgrade"))
            self.steps.append(("road_choice", s))
        if a in (MINES, QUARRIES):
            self.steps.append(("mine", s, a))
        elif a == ROAD:
            self._road_action(s)
        else:
            self.steps.append(("pick", s, TILE_ACTION_TYPE[a], special, discount or 0))

    def _road_action(self, s: int) -> None:
        """Seed §建造国王大道: sections I-III give two effects (one needs an egg); IV and V
        cost an egg and are the bridge."""
        nxt = self.road[s] + 1
        self.road[s] = nxt
        if nxt <= 3:
            # 000 §关于使用时机的说明: a section's effects wait in any order, even behind
            # the next section's when the road is built twice in a turn
            self.t_road_free += (nxt,)
            self.t_road_egg += (nxt,)
            return
        self.eggs[s] -= 1
        if nxt == 4:
            drawn = [self.iv_stack.pop() for _ in range(min(3, len(self.iv_stack)))]
            if drawn:
                self.steps.append(("bridge_iv", s, drawn))
        elif self.v_bridge:
            self.steps.append(("bridge_v", s, "bridge"))

    def _road_free(self, section: int) -> dict:
        name = SECTIONS[section]
        replaced = self.options["kings_road_tiles"]
        for tile in replaced:
            if tile.startswith(name) and tile.rstrip("ab") == name:
                return self.c.road["replacement_tiles"][tile]
        return self.c.road["sections"][name]["free"]

    def _road_free_payable(self, s: int, section: int) -> bool:
        free = self._road_free(section)
        if free["kind"] == "pay_for_vp":
            return self._can_pay(s, free["cost"])
        return free["kind"] in ("gain", "per_period1_upgrade", "per_silver")

    def _road_free_effect(self, s: int, section: int) -> None:
        free = self._road_free(section)
        kind = free["kind"]
        if kind == "pay_for_vp":
            self._pay(s, free["cost"])
            self._gain_vp(s, free["vp"])
        elif kind == "gain":
            self._gain(s, free["reward"])
        elif kind == "per_period1_upgrade":
            self._gain_vp(s, free["vp"] * self.upgrades_p1[s])
        elif kind == "per_silver":
            self._gain_vp(s, free["vp"] * self.silver[s])

    def _road_while(self, s: int, kind: str) -> int:
        """Points of a King's Road replacement tile active while the marker is on it."""
        section = self.road[s]
        if not 1 <= section <= 3:
            return 0
        free = self._road_free(section)
        return free["vp"] if free["kind"] == kind else 0

    # ------------------------------------------------------------------ tracks and gains

    def _track(self, k: int) -> dict:
        return self.c.gold_track if k == 0 else self.c.quarry_track

    def _track_pos(self, s: int, k: int) -> int:
        return self.gold_pos[s] if k == 0 else self.quarry_pos[s]

    def _advance_track(self, s: int, k: int) -> None:
        track = self._track(k)
        position = self._track_pos(s, k)
        if position >= track["end"]:
            return
        position += 1
        if k == 0:
            self.gold_pos[s] = position
        else:
            self.quarry_pos[s] = position
        cell = track["cells"][position]
        if cell.get("token") and any(self.river):
            self.steps.append(("token", s, k))
        if cell.get("seal"):
            self.seal_rights[s] += 1
        if self._has_tech(s, "track_vp", track="gold_track" if k == 0 else "quarry_track"):
            self._gain_vp(s, 2)

    def _produce(self, s: int, k: int) -> None:
        """Production with every bonus left of the marker and the track's tokens."""
        track = self._track(k)
        position = self._track_pos(s, k)
        self._gain(s, {"gold" if k == 0 else "stone": track["cells"][position]["production"]})
        for p in range(track["start"], position + 1):
            bonus = track["cells"][p].get("bonus")
            if bonus:
                self._gain(s, bonus)
        for tok in self.track_tokens[s][k]:
            self._gain(s, self.c.production_tokens[tok]["reward"])

    def _gain_vp(self, s: int, n: int) -> None:
        self.score[s] += n

    def _gain(self, s: int, reward: dict) -> None:
        """Apply a printed reward (icon section §图示说明)."""
        for key, n in reward.items():
            if key == "vp":
                self.score[s] += n
            elif key == "gold":
                self._add_resource(s, 0, n)
            elif key == "stone":
                self._add_resource(s, 1, n)
            elif key == "silver":
                got = min(n, self.silver_supply)
                self.silver_supply -= got
                self.silver[s] += got
            elif key == "goldwin":
                got = min(n, self.goldwin_supply)
                self.goldwin_supply -= got
                self.goldwin[s] += got
            elif key == "egg":
                for _ in range(n):
                    self.eggs[s] += 1
                    self._tech_reward(s, "egg_gain")
            elif key == "tech":
                for _ in range(n):
                    self._advance_tech(s)
            elif key == "univ":
                for _ in range(n):
                    self._advance_univ(s)
            elif key in ("red", "blue"):
                self._gain_corner_tokens(s, key, n)
            elif key in LATERAL_KEY:
                # 000 §关于使用时机的说明: the player on turn resolves lateral moves from any
                # source when they like; anyone else (a square reward) moves at once
                if s == self.cur and not self.t_ending and not self.over:
                    self.t_lateral[LATERAL_KEY[key]] += n
                else:
                    for _ in range(n):
                        self._lateral(s, LATERAL_KEY[key])
            elif key == "gold_track":
                for _ in range(n):
                    self._advance_track(s, 0)
            elif key == "quarry_track":
                for _ in range(n):
                    self._advance_track(s, 1)
            else:
                raise ValueError(f"unknown reward icon {key!r}")

    def _add_resource(self, s: int, which: int, n: int) -> None:
        """Gold or stone, capped at 9; wealth bonuses the first time 6 / 6 / 9 is reached."""
        store = self.gold if which == 0 else self.stone
        store[s] = min(self.c.cap, store[s] + n)
        level = store[s]
        bit = 1 if which == 0 else 2
        if level >= 6 and not self.wealth[s] & bit:
            self.wealth[s] |= bit
            self.cubes[s] += 1
            self._gain(s, self.c.wealth["gold6" if which == 0 else "stone6"])
        if store[s] >= 9 and not self.wealth[s] & 4:
            self.wealth[s] |= 4
            self.cubes[s] += 1
            self._gain(s, self.c.wealth["nine"])

    def _advance_tech(self, s: int) -> None:
        if self.tech[s] >= self.c.tech_top:
            self._gain_vp(s, 2)  # seed §技术: 2 points past the top
            return
        self.tech[s] += 1
        level = self.c.tech_books.get(self.tech[s])
        if level:
            pile = self.tech_stacks[level]
            drawn = [pile.pop() for _ in range(min(3, len(pile)))]
            if drawn:
                self.steps.append(("choose_tech", s, drawn, level))

    def _advance_univ(self, s: int) -> None:
        if self.univ[s] >= self.c.univ_top:
            self._gain_vp(s, 2)  # seed §查理大学
        else:
            self.univ[s] += 1

    def _gain_corner_tokens(self, s: int, colour: str, n: int) -> None:
        if colour == "red":
            self.red[s] += n
        else:
            self.blue[s] += n
        flag = "corner_" + colour
        if n and flag not in self.t_flags and s == self.cur:
            for tid, turn, _used in self.techs[s]:
                tech = self.c.techs[tid]
                if (
                    tech["effect"] == "corner_token"
                    and tech["colour"] == colour
                    and turn < self.turn_no
                ):
                    self.t_flags.add(flag)
                    self._gain(s, tech["reward"])

    # ------------------------------------------------------------------ Hunger Wall, Cathedral

    def _structure(self, k: int):
        variant = self.options["hunger_wall_board" if k == 0 else "cathedral_board"]
        return self.c.structures[STRUCTS[k]][variant]

    def _crossing_cost(self, s: int, k: int) -> dict:
        board = self._structure(k)
        row = self.pos[s][k][0]
        if row + 1 >= board.rows:
            return {}
        here, there = board.tiers[row], board.tiers[row + 1]
        return self.c.crossing_costs[there] if there != here else {}

    def _can_climb(self, s: int, k: int, free: bool) -> bool:
        board = self._structure(k)
        if self.pos[s][k][0] + 1 >= board.rows:
            return False
        return free or self._can_pay(s, self._crossing_cost(s, k))

    def _climb(self, s: int, k: int, free: bool) -> None:
        """One step up (seed §向上移动); crossing a tier costs gold and stone unless free."""
        board = self._structure(k)
        if not free:
            self._pay(s, self._crossing_cost(s, k))
        before = board.tiers[self.pos[s][k][0]]
        self.pos[s][k][0] += 1
        if self._has_tech(s, "climb_vp"):
            self._gain_vp(s, 2)
        top = board.tiers[-1]
        if k == 1 and board.tiers[self.pos[s][k][0]] == top and before != top and self.v_cathedral:
            self.steps.append(("bridge_v", s, "cathedral"))
        self._land(s, k)

    def _lateral(self, s: int, k: int) -> None:
        """Seed §横向移动: left on the Hunger Wall, right in the Cathedral (columns count along)."""
        board = self._structure(k)
        if self.pos[s][k][1] + 1 >= board.cols:
            return
        self.pos[s][k][1] += 1
        self._land(s, k)

    def _land(self, s: int, k: int) -> None:
        row, col = self.pos[s][k]
        cell = self._structure(k).cells[row][col]
        if "vp" in cell:
            self._gain_vp(s, cell["vp"])
        arrow = cell.get("arrow")
        if arrow == "side":
            self._lateral(s, k)
        elif arrow == "up" and row + 1 < self._structure(k).rows:
            if self._crossing_cost(s, k):
                self.steps.append(("arrow_up", s, k))
            else:
                self._climb(s, k, free=True)

    # ------------------------------------------------------------------ tiles on boards

    def _place_board_tile(self, s: int, h: int, tile: int, rotation: int) -> None:
        """Seed §相邻奖励 and §角落奖励 on the action board (edges used once per tile side)."""
        info = self.c.tiles[tile]
        board = ACTION_BOARD.board
        self.ab_stack[s][h] += (tile,)
        tops, orients, used = (
            list(self.ab_top[s]),
            list(self.ab_orient[s]),
            list(self.ab_edges_used[s]),
        )
        tops[h], orients[h], used[h] = tile, rotation, 0
        self.ab_top[s], self.ab_orient[s] = tuple(tops), tuple(orients)
        for k in range(6):
            icon = info.edges[(k - rotation) % 6]
            n = board.neighbours[h][k]
            if icon is None or n < 0 or tops[n] < 0:
                continue
            back = (k + 3) % 6
            other = self.c.tiles[tops[n]].edges[(back - orients[n]) % 6]
            if other is None or used[n] >> back & 1:
                continue
            used[h] |= 1 << k
            used[n] |= 1 << back
            self._gain(s, {icon: 1})
            self._gain(s, {other: 1})
        self.ab_edges_used[s] = tuple(used)
        tokens = 0
        pairs = set(self.ab_corner_pairs[s])
        for k in range(6):
            if info.corners[(k - rotation) % 6] is None:
                continue
            v = board.vertices[h][k]
            for h2, k2 in board.vertex_hexes[v]:
                if h2 == h or tops[h2] < 0:
                    continue
                if self.c.tiles[tops[h2]].corners[(k2 - orients[h2]) % 6] is None:
                    continue
                # 000 §升级一个行动: a used connection never pays again, a brand-new one does.
                # A meeting of two spaces at a corner is used while one of the two tiles
                # that were paid for it is still on top (so covering either side renews it
                # only when both sides have been covered since)
                key = ((v * 32 + min(h, h2)) * 32 + max(h, h2)) * 1024
                if key + tops[h2] not in pairs:
                    pairs.add(key + tops[h2])
                    pairs.add(key + tile)
                    tokens += 1
        self.ab_corner_pairs[s] = frozenset(pairs)
        if tokens:
            self._gain_corner_tokens(s, "red", tokens)

    def _place_city_tile(self, h: int, tile: int, rotation: int, owner: int) -> int:
        """Put a building in the city; returns the blue corner tokens it earns."""
        city = self.c.city
        self.city_tile[h] = tile
        self.city_orient[h] = rotation
        if owner >= 0:
            self.city_cube[h] = owner
        info = self.c.tiles[tile]
        tokens = 0
        for k in range(6):
            if info.corners[(k - rotation) % 6] is None:
                continue
            v = city.board.vertices[h][k]
            tokens += self.city_blue.get(v, 0) + (1 if v in city.blue_vertices else 0)
            self.city_blue[v] = self.city_blue.get(v, 0) + 1
        return tokens

    def _resolve_square(self, square: int, active: int) -> None:
        """Seed §广场奖励: the last building around a square resolves it."""
        self.square_done[square] = True
        spaces = self.c.city.square_spaces[square]
        count = [0] * self.players
        spent = [0] * self.players
        for h in spaces:
            owner = self.city_cube.get(h, -1)
            if owner >= 0:
                count[owner] += 1
                spent[owner] += self.c.tiles[self.city_tile[h]].cost_total
        t = self.square_tile[square]
        claimants = [p for p in range(self.players) if count[p]]
        if t >= 0 and claimants:
            sq = self.c.squares[t]
            best = max((count[p], spent[p]) for p in claimants)
            winners = [p for p in claimants if (count[p], spent[p]) == best]
            order = [(active + i) % self.players for i in range(self.players)]
            for p in reversed(order):
                if p not in claimants:
                    continue
                if p in winners and sq.get("majority") != "one_upper_and_lower":
                    for reward in sq["upper"]:
                        self._gain(p, reward)
                else:
                    if p in winners:
                        self._gain(p, sq["lower"])
                    self.steps.append(("square_reward", p, square, -1))
        for h in spaces:
            owner = self.city_cube.pop(h, -1)
            if owner >= 0:
                self.cubes[owner] += 1

    # ------------------------------------------------------------------ technologies

    def _has_tech(self, s: int, effect: str, **match) -> bool:
        for tid, turn, _used in self.techs[s]:
            tech = self.c.techs[tid]
            if (
                tech["effect"] == effect
                and all(tech.get(k) == v for k, v in match.items())
                and turn < self.turn_no
            ):
                return True
        return False

    def _tech_reward(self, s: int, effect: str) -> None:
        for tid, turn, _used in self.techs[s]:
            tech = self.c.techs[tid]
            if tech["effect"] == effect and turn < self.turn_no:
                self._gain(s, tech["reward"])

    def _tech_usable(self, s: int, tid: int) -> bool:
        effect = self.c.techs[tid]["effect"]
        if effect == "free_climb":
            return self._can_climb(s, 0, True) or self._can_climb(s, 1, True)
        if effect in ("upgrade_vp3", "upgrade_goldwin"):
            return self._can_perform(s, UPGRADE, False, "tech")
        if effect == "building_discount":
            return self._can_perform(s, BUILDING, False, "tech", discount=2)
        if effect == "wall_discount":
            return self._can_perform(s, WALL, False, "tech", discount=2)
        if effect == "square_rewards":
            return any(t >= 0 for t in self.square_tile.values())
        return True

    def _use_tech(self, s: int, tid: int) -> None:
        """Levels III-IV, one shot (seed §等级 Ⅲ, §等级 Ⅳ); their actions are not the extra one."""
        effect = self.c.techs[tid]["effect"]
        if effect == "egg_and_road":
            self._gain(s, {"egg": 1})
            if self._can_perform(s, ROAD, False, "tech"):
                self._perform(s, ROAD, special=False, discount=None)
        elif effect == "free_climb":
            self.steps.append(("choose_structure", s, "free_climb"))
        elif effect == "univ4":
            self._gain(s, {"univ": 4})
        elif effect == "upgrade_vp3":
            self._gain_vp(s, 3)
            self._perform(s, UPGRADE, special=False, discount=None)
        elif effect == "produce_gold_stone2":
            self._gain(s, {"stone": 2})
            self._produce(s, 0)
        elif effect == "produce_stone_gold2":
            self._gain(s, {"gold": 2})
            self._produce(s, 1)
        elif effect == "building_discount":
            self._perform(s, BUILDING, special=False, discount=2)
        elif effect == "wall_discount":
            self._perform(s, WALL, special=False, discount=2)
        elif effect == "any_action":
            self.steps.append(("choose_action", s))
        elif effect == "upgrade_goldwin":
            self._gain(s, {"goldwin": 1})
            self._perform(s, UPGRADE, special=False, discount=None)
        elif effect == "square_rewards":
            self.steps.append(("choose_square", s))
        elif effect == "track_and_produce":
            self.steps.append(("choose_track", s))

    # ------------------------------------------------------------------ paying

    def _wheel_payable(self, s: int) -> bool:
        bonus = self.c.crane["slot_bonuses"][self.t_wheel]
        return bonus["kind"] != "buy_egg" or self._can_pay(s, bonus["cost"])

    def _claim_wheel(self, s: int) -> None:
        bonus = self.c.crane["slot_bonuses"][self.t_wheel]
        self.t_wheel = None
        kind = bonus["kind"]
        if kind == "special_or_vp":
            self.t_special = False
            self._gain_vp(s, bonus["vp"])
            self._crane_points_tech(s)
        elif kind == "buy_egg":
            self._pay(s, bonus["cost"])
            self._gain(s, {"egg": 1})
        else:
            self._gain(s, bonus["reward"])
            if bonus["reward"].get("vp"):
                self._crane_points_tech(s)
            for tid, turn, _used in self.techs[s]:
                tech = self.c.techs[tid]
                if (
                    tech["effect"] == "wheel_extra"
                    and tech["icon"] in bonus["reward"]
                    and turn < self.turn_no
                ):
                    self._gain(s, {tech["icon"]: 1, "vp": 1})

    def _can_pay(self, s: int, cost: dict) -> bool:
        have = {"gold": self.gold, "stone": self.stone, "silver": self.silver, "egg": self.eggs}
        return all(have[k][s] >= v for k, v in cost.items())

    def _pay(self, s: int, cost: dict) -> None:
        for k, v in cost.items():
            if k == "gold":
                self.gold[s] -= v
            elif k == "stone":
                self.stone[s] -= v
            elif k == "silver":
                self.silver[s] -= v
                self.silver_supply += v
            elif k == "egg":
                self.eggs[s] -= v

    def _can_pay_windows(self, s: int, pay: str) -> bool:
        if pay == "gold_gold":
            return self.goldwin[s] >= 2
        return self.goldwin[s] >= 1 and self.silver[s] >= 1

    def _pay_windows(self, s: int, pay: str) -> None:
        self.goldwin[s] -= 1
        self.goldwin_supply += 1
        if pay == "gold_gold":
            self.goldwin[s] -= 1
            self.goldwin_supply += 1
        else:
            self.silver[s] -= 1
            self.silver_supply += 1

    # ------------------------------------------------------------------ views

    def observation(self, seat: int) -> dict:
        from .views import observation

        return observation(self, seat)

    def _result(self) -> dict:
        from .scoring import result

        return result(self)

    def _copy_into(self, twin: PragaState) -> None:
        from .copying import copy_into

        copy_into(self, twin)
