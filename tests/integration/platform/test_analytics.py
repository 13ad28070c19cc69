"""Analytics rows are read from the engine result's stats and details, whatever their shape."""

from arena.games.analytics import characters_by_round, crane_configuration


def test_characters_are_read_round_by_round_from_the_stats():
    result = {"stats": {"characters_by_round": [[["king"], ["thief", "bishop"]], [["witch"], []]]}}
    assert characters_by_round(result) == [
        (0, 1, "king"), (1, 1, "thief"), (1, 1, "bishop"), (0, 2, "witch"),
    ]  # fmt: skip


def test_characters_are_read_per_seat_from_the_details():
    result = {"details": [{"characters": ["king", "thief"]}, {"characters": [["merchant"]]}]}
    assert characters_by_round(result) == [(0, 1, "king"), (0, 2, "thief"), (1, 1, "merchant")]


def test_a_result_without_characters_gives_no_rows():
    assert characters_by_round({"scores": [1, 2], "details": [{}, {}]}) == []


def test_the_crane_configuration_comes_from_the_stats_or_else_the_options():
    label, parts = crane_configuration({"stats": {"crane_side": "B", "turns": 9}}, {})
    assert (label, parts) == ("crane_side=B", {"crane_side": "B"})
    label, _ = crane_configuration({"stats": {}}, {"crane_order": "random", "crane_side": "A"})
    assert label == "crane_order=random, crane_side=A"
