"""The state of a Praga Caput Regni game (seed 000), as a run of atomic decisions.

A turn is the free menu of the seed's timing section (§关于使用时机的说明): take an action tile,
perform its action, buy and perform an extra action, refresh a row, claim wheel and action
bonuses, climb, resolve lateral moves and King's Road effects, use one-shot technologies, claim
a seal, and ``end_turn``. Choices inside an action (tile, then space, then orientation...) are
pushed as steps on a stack and decided one at a time; the menu returns when the stack is empty.

This module holds the data and dispatches decisions; the rules live in ``setup``, ``turn``,
``crane``, ``actions``, ``steps``, ``board``, ``city``, ``road``, ``structures``, ``tracks``,
``techs``, ``rewards`` and ``holdings``; what a seat sees in ``observation``.
"""

from __future__ import annotations

from engine.core.contract import Decision, State

from . import observation, scoring, setup, steps, turn
from .copying import copy_into

_TABLE = (
    "components",  # the Components the game was created with (the title's data folder)
    "solo",
    "turn_no",  # crane turns so far (the automa's included)
    "turns_taken",  # per seat
    "active",  # seat on turn
    "period",  # 1 or 2 (seed §计算回合数)
    "over",
    "final",  # per-seat final scoring breakdown once over
    "discarded",  # ("tile" | "iv" | "tech", index) out of the game
)
_CRANE = (
    "slot_tile",  # crane slot -> action tile index, or -1
    "crane_rotation",  # frame position of slot 0: position = (slot + rotation) % slots
    "five_point_token",  # per action tile: 1 while it carries the 5-point token
    "platform",  # the platform marker's space
    "era_crossed",  # at 1-2 players: the period ends when the arrow reaches the star
    "tile_actions",  # action tile -> its two action indices
    "crane_setup",  # action-tile order at setup (for the result's stats)
)
_DISPLAY = (
    "rows",  # display row -> 4 slots of tile indices (slot 3 is the special one), -1 empty
    "stacks",  # (row, period, special) -> tile indices, top at the end
    "tech_stacks",  # level -> technology indices, top at the end
    "iv_stack",
    "v_bridge",  # V bridge tiles reached by the road
    "v_cathedral",  # V bridge tiles reached by the Cathedral's top tier
    "planks",  # per plank: -1, an IV tile index, or 100 + a V tile index
    "plank_side",
    "river_tokens",  # per production token kind: how many wait in the river
    "square_tile",  # square hex -> square tile index, or -1
    "square_done",
    "city_tile",  # city hex -> tile index
    "city_rotation",
    "city_cube",  # city hex -> seat whose cube stands there
    "city_blue",  # city vertex -> corners of buildings meeting there
    "seal_owner",  # per seal: seat, or -1
    "gold_window_supply",
    "silver_window_supply",
)
_PLAYERS = (  # every field is a list indexed by seat
    "score",
    "gold",
    "stone",
    "silver_windows",
    "gold_windows",
    "eggs",
    "red_tokens",
    "blue_tokens",
    "gold_mine_pos",
    "quarry_pos",
    "tech_track",
    "university",
    "structure_pos",  # [structure][row, column]
    "road_built",  # King's Road sections built
    "cubes",
    "wealth_bonuses",  # bits: 1 gold 6, 2 stone 6, 4 nine
    "track_tokens",  # [track] -> production token indices
    "seal_rights",
    "techs",  # [tech, turn acquired, used]
    "board_top",  # action board hex -> top tile index, or -1 (tuples, replaced on write)
    "board_rotation",
    "board_edges_used",  # hex -> bit per edge already paid
    "board_stacks",  # hex -> tuple of tiles, bottom first
    "board_corner_pairs",  # corner meetings already paid (see board.place_board_tile)
    "walls",
    "upgrades",
    "period1_upgrades",
    "v_tiles",
    "unused_techs",  # level III-IV technologies kept for their one use
)
_TURN = (
    "t_tile",  # action tile taken, or -1
    "t_wheel_slot",  # crane slot whose wheel bonus is still to claim, or None
    "t_special",  # the S bonus (special tile) is still available
    "t_main_done",
    "t_extra_done",
    "t_refresh_done",
    "t_bonus_claims",  # actions whose upgrade bonus may still be claimed
    "t_start_tops",  # per action: the upgrade on top when the turn began
    "t_lateral_moves",  # per structure: lateral moves waiting
    "t_road_free",  # King's Road sections whose free effect waits
    "t_road_egg",  # ... whose egg effect waits
    "t_once",  # once-a-turn technology rewards already taken
    "t_ending",  # the turn ends once the pending steps are done
    "steps",  # pending sub-decisions: (kind, seat, payload...)
    "view_cache",
)


class PragaState(State):
    """One game of Praga Caput Regni."""

    __slots__ = _TABLE + _CRANE + _DISPLAY + _PLAYERS + _TURN
    CACHES = {"view_cache": dict}  # observations by seat, reset on every change

    def _setup(self) -> None:
        setup.setup_game(self)

    def is_over(self) -> bool:
        return self.over

    def _decide(self) -> Decision:
        if self.steps:
            step = self.steps[-1]
            return Decision(step[1], step[0], steps.OPTIONS[step[0]](self, step))
        return Decision(self.active, "turn", turn.menu(self))

    def _apply(self, option: dict) -> None:
        if self.steps:
            step = self.steps.pop()
            steps.HANDLERS[step[0]](self, step, option)
        else:
            turn.HANDLERS[option["kind"]](self, option)
        if self.t_ending and not self.steps:
            turn.continue_end(self)

    def observation(self, seat: int) -> dict:
        return observation.observe(self, seat)

    def _result(self) -> dict:
        return scoring.result(self)

    def _copy_into(self, twin: PragaState) -> None:
        copy_into(self, twin)
