"""What a raw id looks like in text a person reads (issue 17: ``A:upgrade/mines-wall`` is
not something a person reads): the ids of Praga's records and data files, snake_case keys,
and the remains of a value no one named."""

import re

RAW_ID = re.compile(
    r"\b[UWB]\d{3}\b"  # hex tiles: U110, W105, B114
    r"|\bT[1-4][a-z]+\b"  # technologies: T3road
    r"|\b(?:IV|V)\d\b"  # bridge tiles: IV1
    r"|\bP\d\d\b"  # square tiles: P01
    r"|\bvp\d*\b"  # points, seals and tokens: vp6, vp2
    r"|\b[a-z]+_[a-z_]+\b"  # data keys: gold_silver, hunger_wall
    r"|[A-Za-z]:[a-z]|[a-z]/[a-z]"  # composite ids: A:upgrade/mines-wall
    r"|\bNone\b|\bnull\b|\bundefined\b|\bNaN\b|[{}]|\[object"
)


def raw_ids(text: str) -> list[str]:
    """The raw ids found in ``text`` (empty when it reads as words)."""
    return [m.group(0) for m in RAW_ID.finditer(text)]
