"""The named rule options of Citadels. The seeds' player-count rules are the defaults."""

from engine.core.options import Option

from .components import DARK_CITY_CHARACTERS, DARK_CITY_DISTRICTS

RANK9 = ("none", "queen", "artist")
THREE_PLAYER_RULES = ("seed_no_assassin", "two_characters_each")
TIE_BREAKS = ("shared", "district_value_then_gold")
DIPLOMAT_TIMINGS = ("any_time", "end_of_turn")
ABBOT_TIES = ("nobody_pays", "abbot_chooses")
EXPANSION_REMOVALS = ("base_purple", "any_base")

OPTION_SPECS = (
    Option(
        "dark_city_characters",
        "Dark City characters used instead of the base character of the same rank "
        "(seed 001 擴展角色介紹: one character per rank)",
        DARK_CITY_CHARACTERS,
        (),
        is_list=True,
    ),
    Option(
        "rank9",
        "the rank-9 character: none, the Queen (皇后) or the Artist (美術家); "
        "required with 8 players (reference §3)",
        RANK9,
        lambda players: "queen" if players == 8 else "none",
        for_players=lambda players: RANK9[1:] if players == 8 else RANK9,
    ),
    Option(
        "dark_city_districts",
        "Dark City purple districts added to the deck; beyond 3, as many base purple cards "
        "are removed at random (seed 001 FAQ 擴充地區牌)",
        DARK_CITY_DISTRICTS,
        (),
        is_list=True,
    ),
    Option(
        "end_districts",
        "city size that ends the game at the end of the round: 8, the shorter game 7, "
        "or 10 (seed 001 rule for 2 and 3 players)",
        (7, 8, 10),
        lambda players: 10 if players <= 3 else 8,
    ),
    Option(
        "three_player_rule",
        "3 players only: the seeds' rule (no rank-1 character, one character each) or the "
        "classic rule of reference §3 (8 characters, two each)",
        THREE_PLAYER_RULES,
        "seed_no_assassin",
    ),
    Option(
        "tie_break",
        "equal scores share the win (seed 001 FAQ) or the official tie-break: district "
        "values, then gold (reference §2.4)",
        TIE_BREAKS,
        "shared",
    ),
    Option(
        "diplomat_timing",
        "the Diplomat's exchange any time in his turn, which goes on afterwards (seed 001 "
        "角色技能, the default), or at the end of his turn, ending it (the FFG card, reference "
        "§2.3)",
        DIPLOMAT_TIMINGS,
        "any_time",
    ),
    Option(
        "abbot_tie",
        "richest players tied: nobody pays the Abbot (classic text, reference §2.3) or he "
        "chooses which of them pays (2016 edition); the seed is silent",
        ABBOT_TIES,
        "nobody_pays",
    ),
    Option(
        "expansion_removal",
        "for each expansion district beyond 3, a random base purple card leaves (reference "
        "§1.4) or a random base card of any colour (seed 001 FAQ 擴充地區牌: 'district cards')",
        EXPANSION_REMOVALS,
        "base_purple",
    ),
)
