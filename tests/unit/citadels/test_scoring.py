"""Game end and scoring (seed 001 勝利條件, seed 003 计分方式)."""

from engine.citadels.phases import OVER
from engine.citadels.scoring import score_seat
from engine.citadels.turn import STALEMATE_ROUNDS

from .builders import EIGHT, do, finish_round, table


def test_the_game_ends_at_the_end_of_the_round_in_which_a_city_reaches_eight():
    s = table(
        characters={0: "bishop", 1: "warlord"},
        cities={0: EIGHT[:7]},
        hands={0: ["watchtower"]},
        gold={0: 1},
    )
    do(s, "take_gold")
    do(s, "build", district="watchtower")
    do(s, "end_turn")
    assert s.end_triggered and s.phase != OVER  # the Warlord still plays
    assert s.decision().seat == 1
    finish_round(s)
    assert s.phase == OVER


def test_scores_add_district_costs_five_colours_and_completion_bonuses():
    city = ["manor", "temple", "tavern", "watchtower", "keep", "castle", "church", "market"]
    s = table(cities={0: city, 1: EIGHT + ["watchtower"], 2: ["palace"]})
    s.completed = [True, True, False, False]
    s.first_completers = [1]
    first, second = score_seat(s, 1), score_seat(s, 0)
    assert second["districts"] == 3 + 1 + 1 + 1 + 3 + 4 + 2 + 2
    assert second["five_colours"] == 3 and second["complete_city"] == 2
    assert first["complete_city"] == 4 and first["five_colours"] == 0
    assert second["score"] == 17 + 3 + 2


def test_the_game_winner_is_the_highest_score():
    s = table(cities={0: ["palace"], 1: ["cathedral", "temple"]})
    s.phase = OVER
    result = s.result()
    assert result["winners"] == [1] and result["scores"][:2] == [5, 6]


def test_a_game_where_nobody_builds_for_twenty_rounds_ends_in_a_stalemate():
    s = table(characters={0: "bishop"})
    for _ in range(STALEMATE_ROUNDS):
        finish_round(s)
        if s.phase == OVER:
            break
        while s.phase != 1:  # draft: pick the first option
            s.apply(0)
    assert s.phase == OVER and s.result()["stats"]["stalemate"]
