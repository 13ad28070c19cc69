"""Choosing characters for every player count (seed 001 選擇角色, 2名玩家, 3名玩家, 7名玩家;
reference §3)."""

import pytest

from engine.citadels.components import CHARACTER_RANK, KING
from engine.citadels.phases import TURN
from engine.citadels.title import CITADELS
from engine.core.errors import ConfigError

from .builders import dark


def draft_to_end(s):
    """Pick the first option until the turn phase; return the seats in the order they chose."""
    order = []
    while s.phase != TURN:
        decision = s.decision()
        order.append((decision.seat, decision.kind, len(decision.options)))
        s.apply(0)
    return order


@pytest.mark.parametrize(("players", "face_up"), [(4, 2), (5, 1), (6, 0), (7, 0)])
def test_face_up_discards_leave_a_pool_of_players_plus_one(players, face_up):
    s = CITADELS.new_game(players, seed=3)
    assert len(s.face_up) == face_up and len(s.aside_down) == 1
    first = s.decision()
    assert first.seat == s.crown and len(first.options) == min(players + 1, 7)


@pytest.mark.parametrize("players", [4, 5])
def test_the_king_and_the_emperor_are_never_discarded_face_up(players):
    for seed in range(200):
        for options in ({}, dark("emperor")):
            s = CITADELS.new_game(players, options, seed)
            assert all(CHARACTER_RANK[c] != CHARACTER_RANK[KING] for c in s.face_up)


def test_each_player_picks_in_turn_from_the_crown_and_the_last_card_goes_face_down():
    s = CITADELS.new_game(4, seed=8)
    order = draft_to_end(s)
    assert [seat for seat, _, _ in order] == [(s.crown + i) % 4 for i in range(4)]
    assert [n for _, _, n in order] == [5, 4, 3, 2]
    assert len(s.aside_down) == 2 and all(len(r) == 1 for r in s.ranks_of)


def test_seven_players_the_last_chooses_between_the_last_card_and_the_face_down_one():
    s = CITADELS.new_game(7, seed=4)
    order = draft_to_end(s)
    assert [n for _, _, n in order] == [7, 6, 5, 4, 3, 2, 2]
    last = order[-1][0]
    assert len(s.observation(last)["draft_seen"][0]) == 2
    assert len(s.aside_down) == 1


def test_eight_players_need_a_rank_nine_character_and_use_the_seven_player_rule():
    with pytest.raises(ConfigError, match="rank9"):
        CITADELS.options(8, rank9="none")
    s = CITADELS.new_game(8, seed=4)
    assert s.options["rank9"] == "queen"
    order = draft_to_end(s)
    assert [n for _, _, n in order][-1] == 2 and len(order) == 8


def test_two_players_follow_the_seed_draft_of_two_characters_each():
    s = CITADELS.new_game(2, seed=6)
    a, b = s.crown, 1 - s.crown
    order = draft_to_end(s)
    assert order == [
        (a, "draft_pick", 7),
        (b, "draft_pick", 6),
        (b, "draft_discard", 5),
        (a, "draft_pick", 4),
        (a, "draft_discard", 3),
        (b, "draft_pick", 2),
    ]
    assert all(len(r) == 2 for r in s.ranks_of) and len(s.aside_down) == 4
    assert s.options["end_districts"] == 10


def test_three_players_by_default_play_without_the_assassin_to_ten_districts():
    s = CITADELS.new_game(3, seed=2)
    assert s.lineup[1] == -1 and s.options["end_districts"] == 10
    assert len(s.face_up) == 2
    order = draft_to_end(s)
    assert [n for _, _, n in order] == [4, 3, 2]
    assert "assassin" not in s.observation(0)["characters_in_game"]


def test_three_players_classic_rule_two_characters_each():
    s = CITADELS.new_game(
        3, {"three_player_rule": "two_characters_each", "end_districts": 8}, seed=2
    )
    order = draft_to_end(s)
    assert [seat for seat, _, _ in order] == [(s.crown + i) % 3 for i in range(3)] * 2
    assert all(len(r) == 2 for r in s.ranks_of)


def test_rank_nine_with_four_players_discards_three_face_up():
    s = CITADELS.new_game(4, {"rank9": "artist"}, seed=9)
    assert len(s.face_up) == 3 and len(s.pool) == 5


def test_a_player_with_two_characters_plays_a_turn_for_each():
    s = CITADELS.new_game(2, seed=6)
    draft_to_end(s)
    turns = []
    while s.phase == TURN:
        decision = s.decision()
        if decision.kind == "action":
            turns.append(decision.seat)
            s.apply({"kind": "take_gold"})
        elif {"kind": "end_turn"} in decision.options:
            s.apply({"kind": "end_turn"})
        else:
            s.apply(0)
    assert sorted(turns) == [0, 0, 1, 1]  # nobody is killed: ending turns at once


def test_what_a_seat_was_shown_in_the_draft_is_in_its_observation_only():
    s = CITADELS.new_game(5, seed=12)
    first = s.decision().seat
    shown = [o["character"] for o in s.decision().options]
    s.apply(0)
    assert s.observation(first)["draft_seen"] == [shown]
    other = (first + 1) % 5
    assert s.observation(other)["draft_seen"] != [shown]
