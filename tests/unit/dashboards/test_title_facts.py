"""Each title's analytics facts agree with its own result and record (engine.core.analytics)."""

from collections import Counter, defaultdict

import pytest

import engine
from engine.citadels.components import DARK_CITY_CHARACTERS, DARK_CITY_DISTRICTS
from engine.core.analytics import ROW_FIELDS, Fact, fact_rows, fold_facts

CITADELS_SETUPS = [
    (2, {}),
    (3, {"three_player_rule": "two_characters_each"}),
    (4, {"dark_city_characters": list(DARK_CITY_CHARACTERS[:4]), "rank9": "artist"}),
    (5, {"dark_city_characters": list(DARK_CITY_CHARACTERS[4:]), "rank9": "queen"}),
    (7, {"dark_city_districts": list(DARK_CITY_DISTRICTS[:6])}),
]


def played(title: str, players: int, options: dict, seed: int):
    names = engine.bots(title, thinking=False)
    bots = [names[i % len(names)] for i in range(players)]
    return engine.play_game(title, bots, seed, engine.title(title).options(players, **options))


def by_kind(state) -> dict[str, list[dict]]:
    """The title's facts (with their steps, before folding) by kind, as dicts."""
    grouped = defaultdict(list)
    for fact in state.title.analytics(state):
        grouped[fact.kind].append(
            {"seat": fact.seat, "step": fact.step, "subject": fact.subject,
             "value": fact.value, "detail": fact.detail}
        )  # fmt: skip
    return grouped


@pytest.mark.parametrize(("players", "options"), CITADELS_SETUPS)
@pytest.mark.parametrize("seed", [1, 2])
def test_citadels_draft_facts_match_the_characters_each_seat_held(players, options, seed):
    state = played("citadels", players, options, seed)
    facts = by_kind(state)
    held_by_round = state.result()["stats"]["characters_by_round"]
    picked = sorted((f["step"], f["seat"], f["subject"]) for f in facts["pick"])
    expected = sorted(
        (rnd, seat, character)
        for rnd, seats in enumerate(held_by_round, start=1)
        for seat, held in enumerate(seats)
        for character in held
    )
    assert picked == expected
    for rnd in {f["step"] for f in facts["pick"]}:  # positions 1..n in each round
        positions = sorted(f["value"] for f in facts["pick"] if f["step"] == rnd)
        assert positions == list(range(1, len(positions) + 1))
    # one offered fact per character it could choose, the one it took among them
    offered = Counter((f["step"], f["seat"]) for f in facts["offered"])
    assert set(offered) == {(rnd, seat) for rnd, seat, _ in picked}
    taken = sorted((f["step"], f["seat"], f["subject"]) for f in facts["offered"] if f["value"])
    assert taken == picked


@pytest.mark.parametrize(("players", "options"), CITADELS_SETUPS)
def test_citadels_points_and_score_facts_add_up_to_the_result(players, options):
    state = played("citadels", players, options, 3)
    facts = by_kind(state)
    details = state.result()["details"]
    for seat, entries in enumerate(details):
        sources = {f["subject"]: f["value"] for f in facts["score"] if f["seat"] == seat}
        assert sum(sources.values()) == entries["score"]
        assert "gold" not in sources and "hand" not in sources
        points = sum(f["value"] for f in facts["points"] if f["seat"] == seat)
        assert points == entries["districts"]  # the city's district points, round by round
        gold = sum(f["value"] for f in facts["gold"] if f["seat"] == seat)
        assert gold == entries["gold"] - 2  # every seat starts with 2 gold (seed 001 遊戲準備)
    rounds = state.result()["stats"]["rounds"]
    assert len(facts["gold"]) == len(facts["points"]) == rounds * players
    built = Counter(f["seat"] for f in facts["built"]) - Counter(
        f["seat"] for f in facts["destroyed"]
    )
    for seat, entries in enumerate(details):
        assert built[seat] >= len(entries["city"])  # Diplomat exchanges keep the count


def test_citadels_powers_name_the_character_held_that_round():
    state = played("citadels", 5, {}, 11)
    facts = by_kind(state)
    holders = {(f["step"], f["subject"]): f["seat"] for f in facts["pick"]}
    targets = state.result()["stats"]["targets"]
    assert targets  # the base Assassin and Thief act in this game
    for kind in ("killed", "robbed"):
        # a power named a character nobody held harms nobody: no fact
        expected = sorted(
            (t["round"], t["character"])
            for t in targets
            if t["power"] == kind and (t["round"], t["character"]) in holders
        )
        found = facts[kind]
        assert sorted((f["step"], f["subject"]) for f in found) == expected
        assert all(holders[(f["step"], f["subject"])] == f["seat"] for f in found)


@pytest.mark.parametrize("players", [1, 2, 4])
@pytest.mark.parametrize(
    "options", [{}, {"crane_side": "B", "crane_order": "random", "kings_road_tiles": ["I"]}]
)
def test_praga_facts_give_the_configuration_each_turns_tile_and_the_score(players, options):
    state = played("praga", players, options, 5)
    facts = by_kind(state)
    result = state.result()
    (configuration,) = facts["configuration"]
    assert configuration["subject"] == result["stats"]["crane_configuration"]
    assert configuration["detail"] == state.options["crane_side"]
    takes = facts["take"]
    # the seats' own turns (a solo game's automaton takes turns of its own)
    assert len(takes) == sum(result["stats"]["turns_per_seat"])
    assert [f["step"] for f in takes] == list(range(1, len(takes) + 1))
    assert Counter(f["seat"] for f in takes) == Counter(
        dict(enumerate(result["stats"]["turns_per_seat"]))
    )
    assert {f["detail"] for f in takes} <= {"red", "green", "blue"}
    assert all(len(f["subject"].split("+")) == 2 for f in takes)
    for seat, entries in enumerate(result["details"]):
        sources = {f["subject"]: f["value"] for f in facts["score"] if f["seat"] == seat}
        assert sum(sources.values()) == entries["total"]
    variants = {f["subject"] for f in facts["variant"]}
    assert "kings_road_tiles=" + ("I" if options else "none") in variants


@pytest.mark.parametrize(("title", "players"), [("citadels", 4), ("praga", 3)])
def test_the_rows_fold_the_facts_per_seat_kind_subject_and_detail(title, players):
    state = played(title, players, {}, 4)
    facts = state.title.analytics(state)
    rows = [dict(zip(ROW_FIELDS, row, strict=True)) for row in fact_rows(state.title, state)]
    keys = [(r["seat"], r["kind"], r["subject"], r["detail"]) for r in rows]
    assert len(keys) == len(set(keys)) < len(facts)
    for row in rows:
        folded = [f for f in facts if f.key() == (row["seat"], row["kind"], row["subject"],
                                                   row["detail"])]  # fmt: skip
        assert row["facts"] == len(folded)
        assert row["value"] == sum(f.value for f in folded)


def test_a_fact_longer_than_its_column_is_cut_and_folded_with_its_equals():
    long = "x" * 200
    rows = fold_facts([Fact("held", long, 2, seat=1, step=1), Fact("held", long + "y", 3, seat=1)])
    assert rows == [[1, "held", "x" * 120, "", 2, 5]]


def test_a_failing_title_analytics_costs_only_the_facts():
    class Broken:
        def analytics(self, state):
            raise KeyError("no such field")

    assert fact_rows(Broken(), None) == [[None, "analytics_error", "KeyError", "", 1, 1]]


def test_a_title_without_analytics_reports_no_facts(toy_title):
    state = engine.play_game(toy_title.id, ["random", "random"], 1)
    assert fact_rows(state.title, state) == []


@pytest.mark.parametrize(("players", "options"), CITADELS_SETUPS)
def test_citadels_last_seen_is_the_latest_pick_position_a_character_was_offered_at(
    players, options
):
    state = played("citadels", players, options, 3)
    offered_at = defaultdict(list)  # (round, character) -> pick positions it was offered at
    position = None
    for fact in state.title.analytics(state):  # a pick's offered facts follow the pick
        if fact.kind == "pick":
            position = fact.value
        elif fact.kind == "offered":
            offered_at[(fact.step, fact.subject)].append(position)
    last_seen = {(f["step"], f["subject"]): f["value"] for f in by_kind(state)["last_seen"]}
    assert last_seen == {key: max(at) for key, at in offered_at.items()}
