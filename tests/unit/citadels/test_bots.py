"""Built-in Citadels bots: they finish games everywhere and beat random players clearly."""

import pytest

import engine
from engine.citadels.components import DARK_CITY_CHARACTERS, DARK_CITY_DISTRICTS

FULL = {
    "dark_city_characters": list(DARK_CITY_CHARACTERS),
    "dark_city_districts": list(DARK_CITY_DISTRICTS),
}


def test_the_built_in_bots_are_registered():
    assert engine.bots("citadels") == ["aggressor", "builder", "random", "search"]


@pytest.mark.parametrize("players", range(2, 9))
def test_every_bot_finishes_games_with_every_option(players):
    names = (["builder", "aggressor", "random"] * 3)[:players]
    options = {**FULL, "rank9": "artist" if players == 8 else "none"}
    state = engine.play_game("citadels", names, seed=players, options=options)
    assert state.is_over()


@pytest.mark.parametrize("bot", ["builder", "aggressor"])
def test_a_heuristic_bot_wins_far_more_than_its_share_against_three_random_bots(bot):
    # Over 500 games (bench/bots.py --title citadels) builder wins ~90% and aggressor ~68%; 40
    # games below 40% would be far outside chance for either.
    games, wins = 40, 0.0
    for game in range(games):
        seat = game % 4
        names = ["random"] * 4
        names[seat] = bot
        winners = engine.play_game("citadels", names, seed=500 + game, options=FULL).result()[
            "winners"
        ]
        if seat in winners:
            wins += 1 / len(winners)
    assert wins / games > 0.40
