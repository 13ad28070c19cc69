"""How the reconstructed Praga component files were laid out, part two: the small pieces' files
(``misc.json``: production tokens, seals, squares, supply, the egg and wall scores;
``bridge.json``, ``road.json``, ``techs.json``). Written by ``reconstruct.py``, which says how
each value was reached; each entry carries its ``source``."""


def misc():
    return {
        "production_tokens": {
            "source": "public §7 (faces and sets by player count); the two 4-player-only "
            "tokens reconstructed",
            "tokens": [
                {
                    "id": "vp2",
                    "reward": {"vp": 2},
                    "count": 2,
                    "min_players": 2,
                    "source": "public §7",
                },
                {
                    "id": "vp_gold",
                    "reward": {"vp": 1, "gold": 1},
                    "count": 1,
                    "min_players": 2,
                    "source": "public §7",
                },
                {
                    "id": "vp_stone",
                    "reward": {"vp": 1, "stone": 1},
                    "count": 1,
                    "min_players": 2,
                    "source": "public §7",
                },
                {
                    "id": "gold",
                    "reward": {"gold": 1},
                    "count": 1,
                    "min_players": 3,
                    "source": "public §7",
                },
                {
                    "id": "stone",
                    "reward": {"stone": 1},
                    "count": 1,
                    "min_players": 3,
                    "source": "public §7",
                },
                {
                    "id": "silver",
                    "reward": {"silver": 1},
                    "count": 1,
                    "min_players": 4,
                    "source": "reconstructed",
                },
                {
                    "id": "tech",
                    "reward": {"tech": 1},
                    "count": 1,
                    "min_players": 4,
                    "source": "reconstructed",
                },
            ],
        },
        "seals": [
            {
                "id": "gold2",
                "cost": {"silver": 2},
                "score": {"per_gold": 2},
                "source": "seed §玺印 + public §7 cost [IMG]",
            },
            {
                "id": "stone2",
                "cost": {"silver": 2},
                "score": {"per_stone": 2},
                "source": "seed §玺印 + public §7 cost [IMG]",
            },
            {
                "id": "pair3",
                "cost": {"silver": 1},
                "score": {"per_gold_and_stone": 3},
                "source": "seed §玺印; cost reconstructed",
            },
            {"id": "vp6", "cost": {}, "score": {"points": 6}, "source": "public §7 [IMG]"},
            {"id": "vp4", "cost": {}, "score": {"points": 4}, "source": "reconstructed"},
        ],
        "squares": {
            # Every tile has two rewards (seed §广场奖励): the upper one, a choice of the
            # alternatives listed, and the lower one. A claimant takes one of the two; the
            # majority takes both (still one alternative of the upper, plus the lower).
            "source": "one tile from the seed (§广场板块: a lateral move on the Hunger Wall or "
            "the Cathedral; below, 3 gold); the rest reconstructed",
            "rule": "upper: one of its alternatives; lower: one reward (seed §广场奖励)",
            "tiles": [
                {
                    "id": "P01",
                    "colour": "a",
                    "upper": [{"wall_left": 1}, {"cath_right": 1}],
                    "lower": {"gold": 3},
                    "source": "seed",
                },
                {
                    "id": "P02",
                    "colour": "a",
                    "upper": [{"gold": 2}, {"stone": 2}],
                    "lower": {"vp": 3},
                    "source": "reconstructed",
                },
                {
                    "id": "P03",
                    "colour": "a",
                    "upper": [{"tech": 1}, {"univ": 1}],
                    "lower": {"vp": 2},
                    "source": "reconstructed",
                },
                {
                    "id": "P04",
                    "colour": "a",
                    "upper": [{"silver": 1}, {"vp": 3}],
                    "lower": {"stone": 3},
                    "source": "reconstructed",
                },
                {
                    "id": "P05",
                    "colour": "a",
                    "upper": [{"egg": 1}, {"goldwin": 1}],
                    "lower": {"vp": 3},
                    "source": "reconstructed",
                },
                {
                    "id": "P06",
                    "colour": "a",
                    "upper": [{"wall_left": 1}, {"vp": 2}],
                    "lower": {"gold": 2},
                    "source": "reconstructed",
                },
                {
                    "id": "P07",
                    "colour": "b",
                    "upper": [{"wall_left": 1}, {"cath_right": 1}],
                    "lower": {"stone": 3},
                    "source": "reconstructed",
                },
                {
                    "id": "P08",
                    "colour": "b",
                    "upper": [{"gold": 2}, {"tech": 1}],
                    "lower": {"vp": 2},
                    "source": "reconstructed",
                },
                {
                    "id": "P09",
                    "colour": "b",
                    "upper": [{"stone": 2}, {"univ": 1}],
                    "lower": {"vp": 2},
                    "source": "reconstructed",
                },
                {
                    "id": "P10",
                    "colour": "b",
                    "upper": [{"cath_right": 1}, {"silver": 1}],
                    "lower": {"gold": 3},
                    "source": "reconstructed",
                },
                {
                    "id": "P11",
                    "colour": "b",
                    "upper": [{"egg": 1}, {"vp": 3}],
                    "lower": {"vp": 3},
                    "source": "reconstructed",
                },
            ],
        },
        "supply": {
            "goldwin": 6,
            "silver": 14,
            "eggs": "12 + 4 of value 3 (40 in all): never short",
            "bonus_tokens": "30 + 8 of value 3: never short",
            "source": "seed §组件",
        },
        "egg_scores": {"0": 0, "1": 1, "2": 3, "3": 6, "4": 10, "source": "seed §剩余的鸡蛋"},
        "wall_scores": {"3": 4, "4": 10, "5": 10, "6": 18, "source": "seed §城墙"},
    }


def bridge():
    return {
        "source": "seed §桥面板块 (all 12 tiles' effects); which stack each belongs to: seed "
        "colours (silver IV, gold V); the 3 IV track tiles split by track reconstructed",
        "iv": [
            {"id": "IV1", "reward": {"wall_left": 1, "silver": 1, "vp": 2}, "source": "seed"},
            {"id": "IV2", "reward": {"cath_right": 1, "silver": 1, "vp": 2}, "source": "seed"},
            {"id": "IV3", "reward": {"tech": 3}, "source": "seed (track: technology)"},
            {"id": "IV4", "reward": {"univ": 3}, "source": "seed (track: university)"},
            {
                "id": "IV5",
                "reward": {"gold_track": 1, "quarry_track": 1, "tech": 1},
                "source": "reconstructed",
            },
            {"id": "IV6", "reward": {"univ": 2, "tech": 1}, "source": "reconstructed"},
        ],
        "v": [
            {"id": "V1", "reward": {"vp": 3}, "final": "university_height", "source": "seed"},
            {"id": "V2", "reward": {}, "final": "upgrades3", "source": "seed"},
            {"id": "V3", "reward": {}, "final": "walls2", "source": "seed"},
            {"id": "V4", "reward": {"vp": 3}, "final": "gold_mines", "source": "seed"},
            {"id": "V5", "reward": {"vp": 3}, "final": "quarries", "source": "seed"},
            {"id": "V6", "reward": {}, "final": "rows2", "source": "seed"},
        ],
        "planks": [
            {"sides": [{"gold": 2}, {"stone": 2}], "source": "reconstructed"},
            {"sides": [{"silver": 1}, {"tech": 1}], "source": "reconstructed"},
            {"sides": [{"vp": 3}, {"univ": 1}], "source": "reconstructed"},
            {"sides": [{"goldwin": 1}, {"egg": 1}], "source": "reconstructed"},
            {"sides": [{"wall_left": 1}, {"cath_right": 1}], "source": "reconstructed"},
        ],
        "planks_source": "reconstructed printed bonuses (seed: double-sided, any combination)",
    }


def road():
    return {
        "source": "seed §国王大道 icon list for the effects; their assignment to sections "
        "reconstructed",
        "sections": {
            "I": {
                "source": "seed icons; placement in section I reconstructed",
                "free": {"kind": "pay_for_vp", "cost": {"gold": 1}, "vp": 4},
                "egg": [{"silver": 2}, {"tech": 1, "univ": 1}],
            },
            "II": {
                "source": "seed icons; placement in section II reconstructed",
                "free": {"kind": "per_period1_upgrade", "vp": 3},
                "egg": [{"goldwin": 1}, {"wall_left": 1, "cath_right": 1}],
            },
            "III": {
                "source": "reconstructed",
                "free": {"kind": "gain", "reward": {"silver": 1, "vp": 2}},
                "egg": [{"gold": 3}, {"stone": 3}],
            },
        },
        "replacement_tiles": {
            "I": {"kind": "while_here_upgrade", "vp": 2, "source": "seed"},
            "IIa": {"kind": "per_silver", "vp": 2, "source": "seed"},
            "IIb": {"kind": "while_here_wall", "vp": 2, "source": "seed"},
            "III": {"kind": "while_here_plain_building", "vp": 3, "source": "seed"},
        },
    }


def techs():
    t = []

    def add(level, tid, effect, **params):
        t.append({"id": tid, "level": level, "effect": effect, **params, "source": "seed"})

    add(1, "T1gold", "wheel_extra", icon="gold")
    add(1, "T1stone", "wheel_extra", icon="stone")
    add(1, "T1mine", "track_vp", track="gold_track")
    add(1, "T1quarry", "track_vp", track="quarry_track")
    add(1, "T1climb", "climb_vp")
    add(1, "T1crane", "crane_vp")
    add(2, "T2cath", "cathedral_building", reward={"gold": 1, "vp": 1})
    add(2, "T2red", "corner_token", colour="red", reward={"stone": 1, "vp": 1})
    add(2, "T2blue", "corner_token", colour="blue", reward={"gold": 1, "vp": 1})
    add(2, "T2plain", "plain_building", reward={"stone": 1, "vp": 1})
    add(2, "T2egg", "egg_gain", reward={"stone": 1, "vp": 1})
    add(2, "T2wall", "hunger_wall_wall", reward={"gold": 1, "vp": 1})
    add(3, "T3road", "egg_and_road")
    add(3, "T3climb", "free_climb")
    add(3, "T3univ", "univ4")
    add(3, "T3upgrade", "upgrade_vp3")
    add(3, "T3gold", "produce_gold_stone2")
    add(3, "T3stone", "produce_stone_gold2")
    add(4, "T4building", "building_discount")
    add(4, "T4wall", "wall_discount")
    add(4, "T4any", "any_action")
    add(4, "T4upgrade", "upgrade_goldwin")
    add(4, "T4square", "square_rewards")
    add(4, "T4track", "track_and_produce")
    for x in t:
        if x["id"] in (
            "T1gold",
            "T1stone",
            "T1mine",
            "T1quarry",
            "T2cath",
            "T2red",
            "T2blue",
            "T2plain",
            "T2wall",
        ):
            x["source"] = "seed (effect); the icon it names reconstructed"
    return {
        "source": "seed §组件 (24 tiles) and §技术 (the effects of each level)",
        "level_split_source": "reconstructed: six tiles per level; the four level I effects "
        "fill six tiles by naming two icons each for the wheel bonus and the tracks",
        "techs": t,
    }
