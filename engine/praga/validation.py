"""Refuse, at load, a component folder the rules cannot play (issue 15: components that swap).

Values are free to change (costs, rewards, points, layouts); a shape or a name the code has no
rule for is refused with a message naming the file and the field, instead of failing mid-game
or being silently ignored.
"""

from __future__ import annotations

from .crane import TURNS_PER_PLAYER, wheel_turns_in_game
from .geometry import ACTIONS
from .holdings import PAYABLE
from .rewards import REWARDS
from .road import FREE_EFFECTS, WHILE_HERE
from .scoring import SEAL_SCORES, V_TILE_POINTS
from .techs import USES
from .vocabulary import CAP

WHEEL_BONUSES = ("special_or_vp", "buy_egg", "gain")
# Level I-II technologies are lasting effects, read where they act (holdings.has_tech,
# rewards.tech_reward and the modules that call them).
LASTING_EFFECTS = (
    "wheel_extra",
    "track_vp",
    "climb_vp",
    "crane_vp",
    "cathedral_building",
    "corner_token",
    "plain_building",
    "egg_gain",
    "hunger_wall_wall",
)
MAX_CHOICE = 2  # the option format offers a square's alternatives as choice 0 or 1


class ComponentError(ValueError):
    """A data folder the rules cannot honour; the message names the file and field."""


def check(components) -> None:
    """Every check below; raises :class:`ComponentError` at the first problem."""
    try:
        _crane(components)
        _tiles(components)
        _small_components(components)
        _technologies(components)
        _bridge_and_road(components)
    except ComponentError as problem:
        raise ComponentError(f"Praga data {components.folder}: {problem}") from None


def _fail(where: str, problem: str) -> None:
    raise ComponentError(f"{where}: {problem}")


def _reward(where: str, reward) -> None:
    if not isinstance(reward, dict):
        _fail(where, f"a reward must be an object of icon: count, not {reward!r}")
    for icon, count in reward.items():
        if icon not in REWARDS:
            _fail(where, f"unknown reward icon {icon!r}; the rules know {', '.join(REWARDS)}")
        if not isinstance(count, int) or count < 0:
            _fail(where, f"{icon}: a count must be a whole number >= 0, not {count!r}")


def _cost(where: str, cost: dict) -> None:
    for resource in cost:
        if resource not in PAYABLE:
            _fail(where, f"cannot pay {resource!r}; costs are in {', '.join(PAYABLE)}")


def _crane(components) -> None:
    crane = components.crane
    slots = crane["wheel_slots"]
    if not isinstance(slots, int) or slots < 8:
        _fail("crane.json wheel_slots", f"{slots!r}: the wheel needs at least 8 slots")
    for field in ("frame", "slot_bonuses"):
        if len(crane[field]) != slots:
            _fail(f"crane.json {field}", f"{len(crane[field])} entries for {slots} wheel_slots")
    for field in ("box_slot", "arrow_slot", "star_position"):
        if not 0 <= crane[field] < slots:
            _fail(f"crane.json {field}", f"{crane[field]} is not a slot of 0..{slots - 1}")
    if crane["slot_bonuses"][crane["box_slot"]] is not None:
        _fail("crane.json slot_bonuses", "the box slot holds the cube, not a bonus")
    for i, bonus in enumerate(crane["slot_bonuses"]):
        if bonus is None:
            continue
        if bonus.get("kind") not in WHEEL_BONUSES:
            _fail(
                f"crane.json slot_bonuses[{i}].kind",
                f"{bonus.get('kind')!r} is not one of {', '.join(WHEEL_BONUSES)}",
            )
        if bonus["kind"] == "gain":
            _reward(f"crane.json slot_bonuses[{i}].reward", bonus["reward"])
        if bonus["kind"] == "buy_egg":
            _cost(f"crane.json slot_bonuses[{i}].cost", bonus["cost"])
    for side in ("tiles_a", "tiles_b"):
        pairs = crane[side]["pairs"]
        if not 0 < len(pairs) < slots - 1:
            _fail(f"crane.json {side}.pairs", f"{len(pairs)} action tiles do not fit {slots} slots")
        for pair in pairs:
            for action in pair:
                if action not in ACTIONS:
                    _fail(f"crane.json {side}.pairs", f"unknown action {action!r}")
    if not isinstance(crane["past_blue_token_points"], int):
        _fail("crane.json past_blue_token_points", "must be a whole number of points")
    _sixteen_turns(crane)


def _sixteen_turns(crane: dict) -> None:
    """000 §游戏结束: whatever the wheel, every player plays exactly 16 turns (in solo the
    automa turns the wheel once after each of the player's turns)."""
    for key in sorted(crane["box_start"]):
        players = int(key)
        turns = wheel_turns_in_game(crane, players)
        turners = 2 if players == 1 else players
        if turns != TURNS_PER_PLAYER * turners:
            each = f"{turns // turners} turns each" if turns % turners == 0 else "unequal turns"
            _fail(
                "crane.json wheel_slots, box_start, platform_start, platform_spaces",
                f"a {players}-player game turns the wheel {turns} times ({each}); every "
                f"player plays exactly {TURNS_PER_PLAYER} turns (seed §游戏结束), so it must "
                f"turn {TURNS_PER_PLAYER * turners} times",
            )


def _tiles(components) -> None:
    for tile in components.tiles:
        raw = tile.public
        where = f"tiles.json {tile.id}"
        for field in ("edges", "corners"):
            if len(raw[field]) != 6:
                _fail(f"{where} {field}", f"a hex has 6 sides, not {len(raw[field])}")
        for k, icon in enumerate(raw["edges"]):
            if icon == "univ":
                _fail(
                    f"{where} edges[{k}]",
                    "'univ': the cap on a tile edge is no adjacency "
                    "reward (seed §相邻奖励); write 'cap' for the printed reminder",
                )
            if icon is not None and icon != CAP and icon not in REWARDS:
                _fail(f"{where} edges[{k}]", f"unknown edge icon {icon!r}")
        for field in ("reward", "action_bonus"):
            _reward(f"{where} {field}", raw.get(field, {}))
        _cost(f"{where} cost", raw.get("cost", {}))


def _small_components(components) -> None:
    for square in components.squares:
        where = f"misc.json squares {square['id']}"
        upper = square["upper"]
        if not isinstance(upper, list) or not 1 <= len(upper) <= MAX_CHOICE:
            _fail(f"{where} upper", f"a list of 1 or {MAX_CHOICE} alternatives, not {upper!r}")
        for i, alternative in enumerate(upper):
            _reward(f"{where} upper[{i}]", alternative)
        _reward(f"{where} lower", square["lower"])
        if "majority" in square:
            _fail(f"{where} majority", "the majority always takes both rewards (seed §广场奖励)")
    for seal in components.seals:
        where = f"misc.json seals {seal['id']}"
        _cost(f"{where} cost", seal["cost"])
        score = seal["score"]
        if not isinstance(score, dict) or not score or set(score) - set(SEAL_SCORES):
            _fail(f"{where} score", f"{score!r}: use {', '.join(SEAL_SCORES)}")
    for i, token in enumerate(components.production_tokens):
        _reward(f"misc.json production_tokens[{i}].reward", token["reward"])
    for name, reward in components.wealth.items():
        if name == "source":
            continue
        _reward(f"player_board.json wealth.{name}", reward)
    for track_name in ("gold_track", "quarry_track"):
        for position, cell in getattr(components, track_name)["cells"].items():
            if "bonus" in cell:
                _reward(f"player_board.json {track_name}.cells.{position}.bonus", cell["bonus"])


def _technologies(components) -> None:
    levels = sorted({tech["level"] for tech in components.techs})
    for tech in components.techs:
        where = f"techs.json {tech['id']}"
        if tech["level"] not in (1, 2, 3, 4):
            _fail(f"{where} level", f"{tech['level']!r}: levels are 1 to 4")
        known = LASTING_EFFECTS if tech["level"] <= 2 else tuple(USES)
        if tech["effect"] not in known:
            _fail(
                f"{where} effect",
                f"{tech['effect']!r} is no level {tech['level']} effect "
                f"the rules know ({', '.join(known)})",
            )
        if "reward" in tech:
            _reward(f"{where} reward", tech["reward"])
    books = components.tech_books
    for position, level in books.items():
        if not 1 <= position <= components.tech_top:
            _fail("player_board.json tech_track.books", f"step {position} is off the track")
        if level not in levels:
            _fail("player_board.json tech_track.books", f"step {position}: no level {level} tiles")
    missing = [level for level in levels if level not in books.values()]
    if missing:
        _fail(
            "player_board.json tech_track.books",
            "no book gives level "
            + ", ".join(str(level) for level in missing)
            + ": those tiles could never be taken",
        )


def _bridge_and_road(components) -> None:
    for tile in components.bridge_iv:
        _reward(f"bridge.json iv {tile['id']} reward", tile["reward"])
    for tile in components.bridge_v:
        _reward(f"bridge.json v {tile['id']} reward", tile["reward"])
        if tile["final"] not in V_TILE_POINTS:
            _fail(
                f"bridge.json v {tile['id']} final",
                f"{tile['final']!r}: use " + ", ".join(V_TILE_POINTS),
            )
    for i, plank in enumerate(components.planks):
        for side, reward in enumerate(plank["sides"]):
            _reward(f"bridge.json planks[{i}].sides[{side}]", reward)
    effects = [
        (f"road.json sections.{name}.free", section["free"])
        for name, section in components.road["sections"].items()
    ] + [
        (f"road.json replacement_tiles.{name}", tile)
        for name, tile in components.road["replacement_tiles"].items()
    ]
    for where, effect in effects:
        if effect["kind"] not in FREE_EFFECTS and effect["kind"] not in WHILE_HERE:
            _fail(
                f"{where}.kind",
                f"{effect['kind']!r}: use " + ", ".join((*FREE_EFFECTS, *WHILE_HERE)),
            )
        if effect["kind"] == "gain":
            _reward(f"{where}.reward", effect["reward"])
    for name, section in components.road["sections"].items():
        for i, reward in enumerate(section["egg"]):
            _reward(f"road.json sections.{name}.egg[{i}]", reward)
