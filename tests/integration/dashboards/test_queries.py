"""Each dashboard query equals a brute-force recomputation in Python over the stored games.

The recomputations read the games' own rows (seats, scores, winners, the result's stats and
details) where those hold the figure, and for what nothing else holds (the draft, the crane
zones) the facts derived again from each game's replay record: the fold deletes the stored
fact rows once they are in the totals, so the figures are checked against the records.
"""

import datetime as dt
from collections import defaultdict

import pytest
from django.http import QueryDict

import engine
from arena.games import totals
from arena.games.models import AnalyticsFact, Game, GameSeat, with_records
from arena.games.results import replayed_result
from dashboards import queries, tables
from dashboards.queries import Selection, SelectionError, selection_from
from engine.core.analytics import fact_rows

pytestmark = pytest.mark.django_db


def finished(sel: Selection):
    games = Game.objects.filter(status="finished", tournament__title=sel.title)
    if sel.tournament:
        games = games.filter(tournament_id=sel.tournament)
    if sel.players:
        games = games.filter(tournament__seats=sel.players)
    for name, value in sel.options:
        games = games.filter(**{f"tournament__options__{name}": queries._option_value(value)})
    return games


_RESULTS: dict[str, dict] = {}


def _result(game: Game) -> dict:
    """A stored game's result as its record replays to it (the store keeps no copy of the
    statistics or the seats' score details), once per record (by its seal's digest)."""
    key = game.record["final"]["record_digest"]
    if key not in _RESULTS:
        _RESULTS[key] = replayed_result(game.record)
    return _RESULTS[key]


def stats(game: Game) -> dict:
    return _result(game)["stats"]


def details(seat: GameSeat) -> dict:
    return _result(seat.game)["details"][seat.seat]


def selected_seats(sel: Selection):
    seats = GameSeat.objects.filter(game__in=finished(sel))
    if sel.bot_version:
        seats = seats.filter(bot_version_id=sel.bot_version)
    return seats


def seat_rows(sel: Selection) -> list[GameSeat]:
    return list(selected_seats(sel).select_related("game__tournament"))


def shares(seat: GameSeat, winners: dict[int, int]) -> float:
    return 1 / winners[seat.game_id] if seat.winner else 0.0


def winners_by_game(sel: Selection) -> dict[int, int]:
    counts = defaultdict(int)
    for seat in GameSeat.objects.filter(game__in=finished(sel), winner=True):
        counts[seat.game_id] += 1
    return counts


def selections(history) -> list[Selection]:
    some_version = GameSeat.objects.filter(game__tournament__title="citadels").first()
    tournament = Game.objects.filter(tournament__title="praga").first().tournament_id
    return [
        Selection("citadels"),
        Selection("praga"),
        Selection("citadels", players=4),
        Selection("citadels", bot_version=some_version.bot_version_id),
        Selection("praga", tournament=tournament),
        Selection("praga", options=(("crane_side", "B"),)),
        Selection("citadels", options=(("rank9", "artist"),)),
        Selection("citadels", since=history["today"] - dt.timedelta(days=1)),
    ]


def test_the_history_holds_a_few_hundred_games_of_both_titles(history):
    assert history["games"] >= 200
    for title in ("citadels", "praga"):
        assert Game.objects.filter(tournament__title=title, status="finished").count() >= 100


def test_seat_results_equal_a_recount_of_the_stored_seats(history):
    for sel in selections(history):
        winners = winners_by_game(sel)
        expected = defaultdict(lambda: [0, 0.0, 0])
        for seat in seat_rows(sel):
            row = expected[(seat.game.tournament.seats, seat.seat)]
            row[0] += 1
            row[1] += shares(seat, winners)
            row[2] += seat.score
        found = {(r["players"], r["seat"]): r for r in queries.seat_results(sel)}
        assert set(found) == set(expected), sel
        for key, (games, wins, score) in expected.items():
            assert found[key]["games"] == games
            assert found[key]["wins"] == pytest.approx(wins)
            assert float(found[key]["average_score"]) == pytest.approx(score / games)
        assert queries.games_in(sel) == len({s.game_id for s in seat_rows(sel)})


def test_characters_held_and_their_wins_equal_a_recount_of_the_results(history):
    for sel in selections(history)[:4]:
        if sel.title != "citadels":
            continue
        winners = winners_by_game(sel)
        seats = {(s.game_id, s.seat): s for s in seat_rows(sel)}
        expected_rounds = defaultdict(int)
        expected_games = defaultdict(lambda: [0, 0.0])
        for game in finished(sel):
            held_in_game = defaultdict(set)
            for by_seat in stats(game)["characters_by_round"]:
                for seat, held in enumerate(by_seat):
                    for character in held:
                        if (game.pk, seat) in seats:
                            expected_rounds[character] += 1
                            held_in_game[character].add(seat)
            for character, held_at in held_in_game.items():
                for seat in held_at:
                    expected_games[character][0] += 1
                    expected_games[character][1] += shares(seats[(game.pk, seat)], winners)
        rounds = {r["subject"]: r["facts"] for r in queries.fact_summary(sel, "held")}
        assert rounds == dict(expected_rounds)
        found = {r["subject"]: r for r in queries.fact_outcomes(sel, "held")}
        assert set(found) == set(expected_games)
        for character, (games, wins) in expected_games.items():
            assert found[character]["games"] == games
            assert found[character]["wins"] == pytest.approx(wins)


def facts_at(sel: Selection, kind: str) -> list[AnalyticsFact]:
    """The ``kind`` facts of the selected seats, derived from the games' records."""
    seats = set(selected_seats(sel).values_list("game_id", "seat"))
    found = []
    digests = Game.objects.filter(pk__in={game for game, _ in seats}).values_list(
        "pk", "record__final__record_digest"
    )
    for game, digest in digests:
        for seat, fact_kind, subject, detail, facts, value in facts_of_record(game, digest):
            if fact_kind == kind and (seat is None or (game, seat) in seats):
                found.append(AnalyticsFact(game_id=game, seat=seat, kind=kind, subject=subject,
                                           detail=detail, facts=facts, value=value))  # fmt: skip
    return found


_FACTS: dict[str, list[list]] = {}


def facts_of_record(game: int, digest: str) -> list[list]:
    """The fact rows of a game's record as its replay derives them, once per record (by its
    seal's digest): the recounts ask again for every selection and kind."""
    if digest not in _FACTS:
        record = with_records(Game.objects.filter(pk=game)).get().record  # read whole
        title = engine.title(record["title"])
        _FACTS[digest] = fact_rows(title, title.replay(record))
    return _FACTS[digest]


def test_a_folded_games_facts_are_deleted_and_a_rebuild_derives_them_from_records(history):
    sel = Selection("citadels")
    before = {r["subject"]: r for r in queries.fact_summary(sel, "pick")}  # the read folds
    assert not AnalyticsFact.objects.exists() and before
    assert totals.rebuild() == Game.objects.filter(status="finished").count()
    assert not AnalyticsFact.objects.exists()  # folded again, and deleted again
    assert {r["subject"]: r for r in queries.fact_summary(sel, "pick")} == before


def test_fact_summaries_equal_a_recount_of_the_facts(history):
    for sel in selections(history):
        kinds = ("pick", "offered", "killed", "robbed") if sel.title == "citadels" else ("take",)
        for kind in kinds:
            expected = defaultdict(lambda: [0, 0])  # facts, their values' sum
            for row in facts_at(sel, kind):
                expected[row.subject][0] += row.facts
                expected[row.subject][1] += row.value
            found = {r["subject"]: r for r in queries.fact_summary(sel, kind)}
            assert set(found) == set(expected), (sel, kind)
            for subject, (facts, total) in expected.items():
                assert found[subject]["facts"] == facts
                assert found[subject]["total"] == total
                assert float(found[subject]["average"]) == pytest.approx(total / facts)


def test_crane_configurations_by_seat_equal_a_recount_of_the_games(history):
    for sel in selections(history):
        if sel.title != "praga":
            continue
        winners = winners_by_game(sel)
        expected = defaultdict(lambda: [0, 0.0])
        for seat in seat_rows(sel):
            key = (stats(seat.game)["crane_configuration"], seat.game.tournament.seats, seat.seat)
            expected[key][0] += 1
            expected[key][1] += shares(seat, winners)
        found = {
            (r["subject"], r["players"], r["seat"]): r
            for r in queries.game_fact_seats(sel, "configuration")
        }
        assert set(found) == set(expected)
        for key, (games, wins) in expected.items():
            assert found[key]["games"] == games
            assert found[key]["wins"] == pytest.approx(wins)
        bins = defaultdict(int)
        for seat in seat_rows(sel):
            bins[(stats(seat.game)["crane_configuration"], seat.score // 10 * 10)] += 1
        found_bins = {
            (r["subject"], r["low"]): r["seats"]
            for r in queries.game_fact_scores(sel, "configuration")
        }
        assert found_bins == dict(bins)


def test_crane_zones_equal_a_recount_of_the_tiles_taken(history):
    sel = Selection("praga")
    expected = defaultdict(int)
    for row in facts_at(sel, "take"):
        expected[(row.subject, row.detail)] += row.facts
    found = {(r["subject"], r["detail"]): r["facts"] for r in queries.fact_details(sel, "take")}
    assert found == dict(expected)
    assert {zone for _, zone in found} <= {"red", "green", "blue"}


def test_score_by_source_equals_a_recount_of_the_seats_details(history):
    sources = {"citadels": tables_sources("citadels"), "praga": tables_sources("praga")}
    for sel in selections(history):
        winners = winners_by_game(sel)
        expected = defaultdict(list)
        for seat in seat_rows(sel):
            for source in sources[sel.title]:
                won = 1 if shares(seat, winners) > 0 else 0
                expected[(source, won)].append(details(seat).get(source, 0))
        found = {(r["source"], r["winner"]): r for r in queries.score_by_source(sel)}
        assert set(found) == set(expected)
        for key, values in expected.items():
            assert found[key]["games"] == len(values)
            assert float(found[key]["average"]) == pytest.approx(sum(values) / len(values))


def tables_sources(title: str) -> tuple[str, ...]:
    from engine.citadels.analytics import SCORE_SOURCES as citadels
    from engine.praga.analytics import SCORE_SOURCES as praga

    return {"citadels": citadels, "praga": praga}[title]


def test_a_date_range_without_games_selects_nothing(history):
    before = Selection("citadels", until=history["today"] - dt.timedelta(days=1))
    assert queries.games_in(before) == 0
    assert queries.seat_results(before) == []
    page = tables.seats(before)
    assert page["games"] == 0 and page["seats"] == [] and page["seat_test"] == []


def test_the_seats_page_tests_equal_seats_and_flags_unbalanced_seating(history):
    page = tables.seats(Selection("citadels", players=4))
    (test,) = page["seat_test"]
    assert test["dof"] == 3 and 0 <= test["p_value"] <= 1
    for row in page["seats"]:
        assert row["win_rate_low"] <= row["win_rate"] <= row["win_rate_high"]
        assert row["fair"] == 0.25
    # a round robin of 4 entrants at 4 seats seats each of them at every seat equally often
    assert page["unbalanced"] == []
    lopsided = tables.unbalanced(
        [
            {"players": 2, "bot_version_id": 9, "seat": 0, "games": 10},
            {"players": 2, "bot_version_id": 9, "seat": 1, "games": 4},
        ]  # fmt: skip
    )
    assert lopsided == [{"players": 2, "bot_version_id": 9, "seat_games": [10, 4]}]


def test_a_page_is_cached_until_a_fold_adds_games(history):
    from arena.tournaments.history import simulate

    sel = Selection("praga")
    first = tables.page("cranes", sel)
    assert tables.page("cranes", sel) == first
    key_before = queries.totals_version()
    GameSeat.objects.filter(game__tournament__title="praga").first()  # reading changes nothing
    assert queries.totals_version() == key_before
    praga_before = finished(sel).count()
    stored = simulate(8, seed=99, say=lambda _: None)  # a game of each league, stored, folded
    assert queries.totals_version() == key_before + stored
    assert tables.page("cranes", sel)["games"] == first["games"] + finished(sel).count() - (
        praga_before
    )


def test_selection_filters_are_read_from_the_query_string_and_bad_ones_explained():
    params = QueryDict("title=praga&players=4&option=crane_side=B&since=2026-01-02")
    sel = selection_from(params)
    assert sel == Selection(
        "praga", players=4, options=(("crane_side", "B"),), since=dt.date(2026, 1, 2)
    )
    for bad, word in [
        ("title=chess", "title"),
        ("players=four", "players"),
        ("since=yesterday", "since"),
        ("option=crane_side", "option"),
    ]:
        with pytest.raises(SelectionError, match=word):
            selection_from(QueryDict(bad))
