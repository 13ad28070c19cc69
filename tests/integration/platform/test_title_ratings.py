"""Title ratings: one per bot and player count across every competition and version, each
rated game counted once (a competition rated again adds nothing), equal to rating the stored
games again in the order they were rated."""

import pytest
from openskill.models import PlackettLuce

from arena.bots.services import add_builtin_version
from arena.games.models import GameSeat
from arena.ratings.models import TitleRating, TitleRatingChange
from arena.ratings.services import recompute_ratings
from tests.factories import make_builtin, make_tournament, make_user, play_in_process

pytestmark = pytest.mark.django_db


def title_games(bot, players=2) -> int:
    return TitleRating.objects.get(bot=bot, players=players).games


def rated_seats(bot, players=2) -> int:
    return GameSeat.objects.filter(
        bot_version__bot=bot, game__rated=True, game__tournament__seats=players
    ).count()


def test_every_competition_and_version_count_once_toward_a_bots_title_rating(toy_title):
    alice = make_user("alice")
    versions = [make_builtin(alice, builtin="random") for _ in range(3)]
    first = play_in_process(make_tournament(alice, versions, rounds=2))
    play_in_process(make_tournament(alice, versions, rounds=1, name="Second cup"))
    bot = versions[0].bot
    assert title_games(bot) == rated_seats(bot) > 0
    newer = add_builtin_version(bot=bot, builtin_name="random")
    play_in_process(make_tournament(alice, [newer, *versions[1:]], rounds=1, name="Third"))
    rating = TitleRating.objects.get(bot=bot, players=2)
    assert rating.games == rated_seats(bot) and rating.bot_version == newer
    points = TitleRatingChange.objects.filter(title_rating=rating)
    assert points.count() == rating.games
    # the version each point was played with, joined from the bot's seat in its game
    points = TitleRatingChange.with_version(points)
    assert set(points.values_list("version_id", flat=True)) == {versions[0].pk, newer.pk}
    assert points.order_by("-at", "-game", "-title_rating").first().version_id == newer.pk

    before = {r.bot_id: (r.games, r.mu) for r in TitleRating.objects.all()}
    recompute_ratings(first.pk)
    assert {r.bot_id: (r.games, r.mu) for r in TitleRating.objects.all()} == before


def test_a_game_between_two_versions_of_one_bot_leaves_its_title_rating_alone(toy_title):
    alice = make_user("alice")
    first = make_builtin(alice, builtin="random")
    second = add_builtin_version(bot=first.bot, builtin_name="random")
    other = make_builtin(make_user("bob"), builtin="random")
    cup = play_in_process(make_tournament(alice, [first, second, other], rounds=1))
    games = cup.games.all()
    assert len(games) == 3 and all(g.status == "finished" and g.rated for g in games)
    rating = TitleRating.objects.get(bot=first.bot, players=2)
    # the two games against bob count; the one between the two versions does not
    assert rating.games == 2 == TitleRating.objects.get(bot=other.bot, players=2).games
    versions_game = games.exclude(seats__bot_version=other).get()
    assert not TitleRatingChange.objects.filter(game=versions_game).exists()
    assert versions_game.rating_changes.count() == 2  # the versions' own ratings moved


def test_title_ratings_equal_rating_the_stored_games_again_in_their_order():
    alice = make_user("alice")
    versions = [make_builtin(alice, title="citadels", builtin="builder") for _ in range(5)]
    play_in_process(make_tournament(alice, versions, title="citadels", seats=4, rounds=1))
    play_in_process(
        make_tournament(alice, versions[:4], title="citadels", seats=4, rounds=2, name="Two")
    )
    model, again = PlackettLuce(), {}
    game_order = TitleRatingChange.objects.order_by("at", "game", "title_rating").values_list(
        "game_id", flat=True
    )
    seen = []
    for game_id in game_order:
        if game_id in seen:
            continue
        seen.append(game_id)
        seats = list(GameSeat.objects.filter(game_id=game_id).order_by("seat"))
        bots = [s.bot_version.bot_id for s in seats]
        teams = [[again.get(b, model.rating())] for b in bots]
        new = model.rate(teams, ranks=[s.rating_rank for s in seats])
        again.update({b: r for b, (r,) in zip(bots, new, strict=True)})
    stored = {r.bot_id: r for r in TitleRating.objects.filter(players=4)}
    assert set(stored) == set(again) == {v.bot_id for v in versions}
    for bot, rating in again.items():
        assert stored[bot].mu == pytest.approx(rating.mu)
        assert stored[bot].sigma == pytest.approx(rating.sigma)
        assert stored[bot].ordinal == pytest.approx(rating.mu - 3 * rating.sigma)
