"""Praga Caput Regni's facts for the dashboards (shape: engine.core.analytics), from the
public contract only.

The game is stepped again from its seed and recorded actions (the engine's own PRNG makes
that the same game); at each action tile taken, the taking seat's observation of the crane
tells which zone the tile stood in and what it cost or paid. The configuration and the final
score come from ``result()``.

Kinds: ``configuration`` (per game; subject: the crane configuration label of
``result()["stats"]``, side and action-tile order; detail: the crane side), ``variant`` (per
game, one per variant option: ``kings_road_tiles=I+III``, ``cathedral_board=A`` …), ``take``
(per seat and turn; subject: the tile's two actions, ``upgrade+mines``; detail: the crane
zone, red / green / blue; value: points received minus gold paid), ``score`` (per seat, per
source of the final score: each final scoring step and ``during_game``).
"""

from __future__ import annotations

from engine.core.analytics import Fact, score_sources

# The result()["details"] entries that add up to the final score: points during the game,
# then each final scoring step (seed §游戏结束; engine.praga.scoring.STEPS).
SCORE_SOURCES = (
    "during_game", "squares", "academic", "structures", "walls", "abilities", "eggs",
)  # fmt: skip
# Options that are part of the crane configuration rather than a variant of boards or tiles.
CRANE_OPTIONS = frozenset({"crane_side", "crane_order"})


def facts(state) -> list[Fact]:
    """Every fact of a finished Praga game (see the module docstring for the kinds)."""
    result = state.result()
    stats = result["stats"]
    side = str(stats.get("crane_side", state.options.get("crane_side", "")))
    found = [Fact("configuration", str(stats.get("crane_configuration", side)), detail=side)]
    found += _variants(state.options)
    found += _takes(state)
    found += score_sources(result["details"], SCORE_SOURCES)
    return found


def _variants(options: dict) -> list[Fact]:
    found = []
    for name, value in sorted(options.items()):
        if name in CRANE_OPTIONS:
            continue
        shown = "+".join(map(str, value)) if isinstance(value, list) else str(value)
        found.append(Fact("variant", f"{name}={shown or 'none'}"))
    return found


def _takes(state) -> list[Fact]:
    """One ``take`` fact per action tile taken, from the crane as the taking seat saw it."""
    replay = state.title.new_game(state.players, state.options, state.seed)
    found: list[Fact] = []
    for action in state.actions():
        if action.get("kind") == "take_tile":
            seat = replay.decision().seat
            tiles = replay.observation(seat)["crane"]["tiles"]
            tile = next(t for t in tiles if t["tile"] == action["tile"])
            found.append(
                Fact(
                    "take",
                    "+".join(tile["actions"]),
                    tile.get("points", 0) - tile.get("cost", 0),
                    seat=seat,
                    step=len(found) + 1,
                    detail=tile["zone"],
                )
            )
        replay.apply(action)
    return found
