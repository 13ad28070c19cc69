"""Explicit structural copy of a Praga state (no deepcopy): ints are shared, lists rebuilt."""

from __future__ import annotations

_SHARED = (
    "c",
    "seats",
    "solo",
    "turn_no",
    "cur",
    "period",
    "over",
    "rot",
    "platform",
    "era_crossed",
    "tile_actions",
    "goldwin_supply",
    "silver_supply",
    "final",
    "t_tile",
    "t_wheel",
    "t_special",
    "t_main_done",
    "t_extra",
    "t_refresh",
    "t_road_free",
    "t_road_egg",
)
_FLAT = (
    "turns_taken",
    "slot_tile",
    "token5",
    "iv_stack",
    "v_bridge",
    "v_cathedral",
    "planks",
    "plank_side",
    "river",
    "seal_owner",
    "discarded",
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
    "road",
    "cubes",
    "wealth",
    "seal_rights",
    "walls",
    "upgrades",
    "upgrades_p1",
    "t_claims",
    "t_start_tops",
    "t_lateral",
    "steps",
)
_NESTED = ("rows", "v_tiles", "kept_tech", "ab_top", "ab_orient", "ab_edges_used")


def copy_into(src, twin) -> None:
    """Fill ``twin`` with an independent copy of ``src``'s game state."""
    for name in _SHARED:
        setattr(twin, name, getattr(src, name))
    for name in _FLAT:
        setattr(twin, name, getattr(src, name)[:])
    for name in _NESTED:
        setattr(twin, name, [x[:] for x in getattr(src, name)])
    twin.stacks = {k: v[:] for k, v in src.stacks.items()}
    twin.tech_stacks = {k: v[:] for k, v in src.tech_stacks.items()}
    twin.square_tile = dict(src.square_tile)
    twin.square_done = dict(src.square_done)
    twin.city_tile = dict(src.city_tile)
    twin.city_orient = dict(src.city_orient)
    twin.city_cube = dict(src.city_cube)
    twin.city_blue = dict(src.city_blue)
    twin.pos = [[p[0][:], p[1][:]] for p in src.pos]
    twin.track_tokens = [[t[0][:], t[1][:]] for t in src.track_tokens]
    twin.techs = [[e[:] for e in mine] for mine in src.techs]
    twin.ab_stack = [[x[:] for x in mine] for mine in src.ab_stack]
    twin.ab_corner_pairs = [set(x) for x in src.ab_corner_pairs]
    twin.t_flags = set(src.t_flags)
