"""Static Citadels facts loaded once from ``data/``: characters and district cards.

Inside the engine a district card is an int (its kind id, an index into the tables below) and a
character is an int too; names appear only at the edges (options, observations, records).
"""

import json
from pathlib import Path

_DATA = Path(__file__).with_name("data")


def _load(name: str) -> dict:
    return json.loads((_DATA / name).read_text(encoding="utf-8"))


# -- colours -----------------------------------------------------------------------------
COLOURS = ("noble", "religious", "trade", "military", "special")
NOBLE, RELIGIOUS, TRADE, MILITARY, SPECIAL = range(5)
_COLOUR_INDEX = {name: i for i, name in enumerate(COLOURS)}

# -- characters ---------------------------------------------------------------------------
_CHARACTERS = _load("characters.json")["characters"]
CHARACTER_IDS = tuple(c["id"] for c in _CHARACTERS)
CHARACTER_INDEX = {name: i for i, name in enumerate(CHARACTER_IDS)}
CHARACTER_RANK = tuple(c["rank"] for c in _CHARACTERS)
CHARACTER_NAMES = tuple(c["name"] for c in _CHARACTERS)
CHARACTER_ZH = tuple(c["zh"] for c in _CHARACTERS)
CHARACTER_COLOUR = tuple(
    -1 if c["colour"] is None else _COLOUR_INDEX[c["colour"]] for c in _CHARACTERS
)
BASE_OF_RANK = {c["rank"]: CHARACTER_INDEX[c["id"]] for c in _CHARACTERS if c["set"] == "base"}
DARK_OF_RANK = {c["rank"]: CHARACTER_INDEX[c["id"]] for c in _CHARACTERS if c["set"] == "dark_city"}
DARK_CITY_CHARACTERS = tuple(c["id"] for c in _CHARACTERS if c["set"] == "dark_city")

(
    ASSASSIN,
    WITCH,
    THIEF,
    TAX_COLLECTOR,
    MAGICIAN,
    WIZARD,
    KING,
    EMPEROR,
    BISHOP,
    ABBOT,
    MERCHANT,
    ALCHEMIST,
    ARCHITECT,
    NAVIGATOR,
    WARLORD,
    DIPLOMAT,
    QUEEN,
    ARTIST,
) = (CHARACTER_INDEX[name] for name in CHARACTER_IDS)

# -- districts ----------------------------------------------------------------------------
_DISTRICTS = _load("districts.json")["districts"]
DISTRICT_IDS = tuple(d["id"] for d in _DISTRICTS)
DISTRICT_INDEX = {name: i for i, name in enumerate(DISTRICT_IDS)}
DISTRICT_NAMES = tuple(d["name"] for d in _DISTRICTS)
DISTRICT_ZH = tuple(d["zh"] for d in _DISTRICTS)
COST = tuple(d["cost"] for d in _DISTRICTS)
POINTS = tuple(d.get("points", d["cost"]) for d in _DISTRICTS)
COLOUR = tuple(_COLOUR_INDEX[d["colour"]] for d in _DISTRICTS)
COPIES = tuple(d["count"] for d in _DISTRICTS)
SET = tuple(d["set"] for d in _DISTRICTS)
BASE_KINDS = tuple(i for i, s in enumerate(SET) if s == "base")
BASE_PURPLE_KINDS = tuple(i for i in BASE_KINDS if COLOUR[i] == SPECIAL)
DARK_CITY_DISTRICTS = tuple(d["id"] for d in _DISTRICTS if d["set"] == "dark_city")

(
    HAUNTED_CITY,
    KEEP,
    LABORATORY,
    SMITHY,
    OBSERVATORY,
    GRAVEYARD,
    DRAGON_GATE,
    UNIVERSITY,
    LIBRARY,
    GREAT_WALL,
    SCHOOL_OF_MAGIC,
    LIGHTHOUSE,
    ARMORY,
    MUSEUM,
    IMPERIAL_TREASURY,
    MAP_ROOM,
    WISHING_WELL,
    QUARRY,
    POOR_HOUSE,
    BELL_TOWER,
    FACTORY,
    PARK,
    HOSPITAL,
    THRONE_ROOM,
    BALL_ROOM,
) = (
    DISTRICT_INDEX[name]
    for name in (
        "haunted_city",
        "keep",
        "laboratory",
        "smithy",
        "observatory",
        "graveyard",
        "dragon_gate",
        "university",
        "library",
        "great_wall",
        "school_of_magic",
        "lighthouse",
        "armory",
        "museum",
        "imperial_treasury",
        "map_room",
        "wishing_well",
        "quarry",
        "poor_house",
        "bell_tower",
        "factory",
        "park",
        "hospital",
        "throne_room",
        "ball_room",
    )
)

BANK_GOLD = 30  # seed 003 配件: 30 枚金幣; seed 001 FAQ: an empty bank pays nothing
START_GOLD = 2  # seed 001 遊戲準備: 2 枚金幣
START_HAND = 4  # seed 001 遊戲準備: 4 張地區卡
