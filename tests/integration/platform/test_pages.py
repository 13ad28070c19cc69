"""The pages and read endpoints everyone sees, and what each one shows."""

import pytest

import engine
from arena.games import services as games
from arena.games.models import Game, GameSeat
from arena.games.tasks import run_job
from arena.ratings.models import Rating
from arena.tournaments import services as tournaments
from tests.factories import make_builtin, make_tournament, make_user, play_in_process

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(toy_title):
    """A finished two-game tournament of the toy title, played in-process."""
    alice = make_user("alice")
    versions = [make_builtin(alice, name=f"bot-{i}") for i in range(2)]
    tournament = make_tournament(alice, versions, seats=2, name="Pages cup")
    return play_in_process(tournament, stderr=["log of seat 0", "log of seat 1"])


def test_every_public_page_renders_for_the_anonymous_client(client, played):
    game = played.games.first()
    bot = game.seats.first().bot_version.bot
    for url in [
        "/",
        "/tournaments/",
        f"/tournaments/{played.pk}/",
        f"/bots/{bot.pk}/",
        f"/games/{game.pk}/",
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
    assert b"Pages cup" in client.get("/").content


def test_the_tournament_page_shows_progress_and_standings(client, played):
    page = client.get(f"/tournaments/{played.pk}/").content.decode()
    assert "2 / 2 games done" in page
    assert page.count("alice/bot-") >= 2
    assert 'id="standings"' in page


def test_the_tournament_page_links_its_standings_as_csv(client, played):
    page = client.get(f"/tournaments/{played.pk}/").content.decode()
    link = page.split('id="standings-csv" href="')[1].split('"')[0]
    response = client.get(link)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert b"alice/bot-" in b"".join(response.streaming_content)


def test_the_game_page_offers_the_replay_and_only_the_owner_sees_the_log_link(client, played):
    game = played.games.first()
    assert b"stderr</a>" not in client.get(f"/games/{game.pk}/").content
    client.force_login(played.organiser)
    assert b"stderr</a>" in client.get(f"/games/{game.pk}/").content
    replay = client.get(f"/games/{game.pk}/replay.json")
    assert replay["Content-Disposition"].startswith("attachment")
    assert replay.json()["title"] == "toy" and replay.json()["seed"] == game.seed


def test_a_bot_that_faults_in_many_games_is_flagged_on_its_page(client, played, settings):
    version = played.games.first().seats.first().bot_version
    page = client.get(f"/bots/{version.bot_id}/").content.decode()
    assert 'id="fault-flag"' not in page
    alice = played.organiser
    for _ in range(5):
        t = make_tournament(alice, [version, make_builtin(alice)], seats=2, name="faulty")
        g = Game.objects.create(tournament=t, number=1, seed=1, status=Game.Status.FINISHED)
        GameSeat.objects.create(
            game=g, seat=0, bot_version=version, status="faulted", fault_count=1
        )
        # what rating the game writes: its game, faulted
        Rating.objects.create(tournament=t, bot_version=version, mu=25, sigma=8, ordinal=1,
                              games=1, faulted_games=1)  # fmt: skip
    page = client.get(f"/bots/{version.bot_id}/").content.decode()
    assert 'id="fault-flag"' in page and "faulted in 5 of its 7 games" in page


def test_a_rule_option_the_title_refuses_is_shown_on_the_form(client, toy_title):
    alice = make_user("alice")
    versions = [make_builtin(alice) for _ in range(2)]
    client.force_login(alice)
    response = client.post(
        "/tournaments/new/",
        {
            "name": "Bad options", "title": "toy", "seats": 2, "format": "round_robin",
            "rounds": 1, "ladder_games": 0, "options": "max_cards = 9", "decision_ms": 1000,
            "bank_ms": 1000, "seed": 1, "entrants": [v.pk for v in versions],
        },
    )  # fmt: skip
    assert response.status_code == 200
    errors = response.context["form"].errors["options"]
    assert "max_cards" in errors[0] and "9 is not allowed" in errors[0]


def test_a_citadels_game_page_names_the_characters_in_english_and_chinese(client):
    alice = make_user("alice")
    versions = [make_builtin(alice, title="citadels", name=f"c-{i}") for i in range(4)]
    tournament = make_tournament(alice, versions, title="citadels", seats=4, rounds=1)
    tournaments.start_tournament(tournament.pk)
    game = tournament.games.order_by("number").first()
    job = games.claim_game(game.pk, worker="w")
    outcome = run_job(job)
    games.store_game_result(job, outcome)
    stats = outcome.result["stats"]
    names = engine.title("citadels").display_names()
    page = client.get(f"/games/{game.pk}/").content.decode()
    table = page.split('id="characters-by-round"')[1].split("</table>")[0]
    for number, seats in enumerate(stats["characters_by_round"], start=1):
        cells = "".join(f"<td>{' + '.join(names[c] for c in held)}</td>" for held in seats)
        assert f'<td class="num">{number}</td>{cells}' in table
    assert stats["targets"]  # this seed has kills and thefts to show
    for target in stats["targets"]:
        line = f"Round {target['round']}: {target['power']} {names[target['character']]}"
        assert line in page
    assert f"<dt>Rounds</dt><dd>{stats['rounds']}</dd>" in page
    assert "characters_by_round" not in page  # no raw dump of the statistics


def test_my_bots_shows_each_bots_ladder_rank_rating_trend_and_latest_setbacks(client, toy_title):
    from arena.tournaments import house_ladders
    from tests.browser.site import _play_queued

    alice = make_user("alice")
    mine = make_builtin(alice, name="mine")
    ladder = house_ladders.create_ladder(
        organiser=alice, name="Toy ladder", title="toy", players=2, thinking=False
    )
    assert _play_queued(ladder, 24) == 24  # 3 entrants, 2 seats: mine sits in about 2 of 3
    client.force_login(alice)
    page = client.get("/bots/").content.decode()
    row = page.split('id="my-bots"')[1].split("</table>")[0]
    place = row.split('class="ladder-place"')[1].split("</div>")[0]
    assert "Toy ladder" in place and "#" in place and " of " in place and "game" in place
    assert "▲" in place or "▼" in place  # more than 10 games there: a trend
    lost = GameSeat.objects.filter(bot_version=mine, rank__gt=1).count()
    setbacks = page.split('id="setbacks"')[1].split("</table>")[0] if lost else ""
    assert setbacks.count("<tr>") - 1 == min(lost, 10)


def test_a_challenge_shows_its_opponents_results_and_games(client, toy_title):
    from arena.tournaments import house_ladders, ladders
    from tests.browser.site import _play_queued

    alice = make_user("alice")
    mine = make_builtin(alice, name="mine")
    ladder = house_ladders.create_ladder(
        organiser=alice, name="Toy ladder", title="toy", players=2, thinking=False
    )
    rival = ladder.entrants.exclude(bot=mine.bot).first().bot
    challenge = ladders.create_challenge(
        requester=alice, ladder=ladder, bot=mine.bot, opponents=[rival], games=2
    )
    for _ in range(20):  # the outbox would send the next challenge game after each
        if not challenge.games.exclude(status="finished").exists():
            break
        ladders.top_up(ladder)
        _play_queued(ladder, 1)
    html = client.get(f"/ladders/{ladder.pk}/").content.decode()
    row = html.split('id="challenges"')[1].split("</table>")[0]
    assert rival.name in row
    games = list(challenge.games.order_by("number"))
    won = GameSeat.objects.filter(game__in=games, bot_version=mine, rank=1).count()
    assert f"won {won} of 2 finished" in row
    assert all(f'href="{g.get_absolute_url()}"' in row for g in games)


@pytest.fixture
def two_versions(toy_title):
    """alice's bot on a two-seat toy ladder: v1 played there, then v2 joined and played."""
    return _two_versions(players=2)


def _two_versions(players: int):
    from arena.bots.services import add_builtin_version
    from arena.tournaments import house_ladders, ladders
    from tests.browser.site import _play_queued

    alice = make_user("alice")
    first = make_builtin(alice, name="mine")
    ladder = house_ladders.create_ladder(
        organiser=alice, name="Toy ladder", title="toy", players=players, thinking=False
    )
    _play_queued(ladder, 6)
    second = add_builtin_version(bot=first.bot, builtin_name="random")
    ladders.join_ladders(second)
    for _ in range(12):  # the games queued before it joined go first
        ladders.top_up(ladder)
        _play_queued(ladder, 1)
    return ladder, first, second


def test_the_bot_page_compares_its_new_version_with_the_one_before_on_a_ladder(
    client, two_versions
):
    ladder, first, second = two_versions
    html = client.get(f"/bots/{first.bot.pk}/").content.decode()
    section = html.split("Did the new version help?")[1].split("<h2>")[0]
    assert "v2 beside v1" in section and "Toy ladder" in section
    rows = section.split('class="version-comparison"')[1].split("</table>")[0]
    assert "v2 (new)" in rows and "v1 (before)" in rows and "%" in rows
    assert 'class="head-to-head"' in section


def test_the_owner_challenges_the_new_version_against_the_previous_from_the_bot_page(
    client, two_versions, settings
):
    from arena.tournaments.models import Challenge

    ladder, first, second = two_versions
    bot = first.bot
    url = f"/ladders/{ladder.pk}/challenge-previous/{bot.pk}/"
    assert url not in client.get(f"/bots/{bot.pk}/").content.decode()
    client.force_login(make_user("bob"))
    assert url not in client.get(f"/bots/{bot.pk}/").content.decode()
    assert client.post(url, {"games": 2}).status_code == 403
    client.force_login(bot.owner)
    assert f'action="{url}"' in client.get(f"/bots/{bot.pk}/").content.decode()

    page = client.post(url, {"games": 3}, follow=True).content.decode()
    assert "3 games of the new version against the previous one queued first" in page
    challenge = Challenge.objects.get(requester=bot.owner)
    assert challenge.bot_version == second and list(challenge.opponents.all()) == [first]
    games = list(challenge.games.prefetch_related("seats"))
    assert len(games) == 3
    assert all({s.bot_version_id for s in g.seats.all()} == {first.pk, second.pk} for g in games)

    settings.ARENA_CHALLENGE_GAMES_PER_DAY = 4
    refusals = [("many", "whole number"), ("0", "Ask for 1 to"), ("2", "1 more can run now")]
    for games_asked, said in refusals:
        response = client.post(url, {"games": games_asked}, follow=True)
        assert response.status_code == 200 and "Challenge refused" in response.content.decode()
        assert said in response.content.decode()
    assert Challenge.objects.count() == 1


def test_new_against_previous_on_a_three_seat_ladder_seats_one_more_bot_the_same_each_time(
    toy_title,
):
    from arena.tournaments import ladders

    ladder, first, second = _two_versions(players=3)
    challenge = ladders.challenge_previous_version(
        requester=first.bot.owner, ladder=ladder, bot=first.bot, games=3
    )
    tables = [
        {s.bot_version_id for s in g.seats.all()} for g in challenge.games.prefetch_related("seats")
    ]
    assert len(tables) == 3 and len({frozenset(t) for t in tables}) == 1
    (third,) = tables[0] - {first.pk, second.pk}
    assert {first.pk, second.pk} < tables[0]
    assert ladder.entries.get(bot_version=third).status == "active"
    with pytest.raises(ladders.LadderError, match="owner"):
        ladders.challenge_previous_version(
            requester=make_user("bob"), ladder=ladder, bot=first.bot, games=1
        )


def test_the_tournament_page_tables_each_games_seats_with_scores_ranks_and_faults(client, played):
    game = played.games.order_by("number").first()
    seat = game.seats.order_by("seat").first()
    GameSeat.objects.filter(pk=seat.pk).update(status="faulted")
    queued = Game.objects.create(tournament=played, number=3, seed=3, status="queued")
    GameSeat.objects.create(game=queued, seat=0, bot_version=seat.bot_version)
    html = client.get(f"/tournaments/{played.pk}/").content.decode()
    rows = html.split('id="games"')[1].split("</table>")[0].split("<tr>")[2:]
    assert len(rows) == 3 and f'href="/games/{game.pk}/">1</a>' in rows[0]
    first = " · ".join(
        f"{s.bot_version.bot.name} ({s.score}, {s.rank})"
        + (' <span class="badge faulted">faulted</span>' if s.seat == 0 else "")
        for s in game.seats.order_by("seat").select_related("bot_version__bot")
    )
    assert f"<td>{first}</td>" in rows[0]
    assert f"<td>{seat.bot_version.bot.name}</td>" in rows[2] and "badge queued" in rows[2]


def test_the_ladder_page_tables_its_leaderboard_and_earlier_versions(client, two_versions):
    ladder, first, second = two_versions
    html = client.get(f"/ladders/{ladder.pk}/").content.decode()
    board = html.split('id="leaderboard"')[1].split("</table>")[0]
    rating = Rating.objects.get(tournament=ladder, bot_version=second)
    mine = next(row for row in board.split("<tr")[2:] if "/mine</a>" in row)
    assert f'<a href="/bots/{first.bot.pk}/">alice/mine</a>' in mine and "<td>v2</td>" in mine
    assert f'<td class="num">{rating.mu:.2f}</td><td class="num">{rating.sigma:.2f}</td>' in mine
    assert f'<td class="num">{rating.games}</td>' in mine
    won = round(100 * rating.wins / rating.games)
    assert f'<td class="num">{won} % (' in mine
    past = html.split('id="past"')[1].split("</table>")[0]
    left = ladder.entries.get(bot_version=first).left_at
    assert f"<td>v1</td><td>replaced by a newer version</td><td>{left:%Y-%m-%d %H:%M}</td>" in past


def test_the_bot_page_counts_the_games_where_its_two_versions_met(client, two_versions):
    ladder, first, second = two_versions
    # Games of the ladder where both sat, after both had played (as a challenge's would
    # be), the new version above, level and below; and one not finished.
    last = ladder.games.order_by("-number").first().number
    for offset, (new_rank, old_rank, status) in enumerate(
        [(1, 2, "finished"), (1, 1, "finished"), (2, 1, "finished"), (1, 2, "finished"),
         (1, 2, "running")]
    ):  # fmt: skip
        game = Game.objects.create(
            tournament=ladder, number=last + 1 + offset, seed=offset, status=status
        )
        GameSeat.objects.create(game=game, seat=0, bot_version=second, rank=new_rank)
        GameSeat.objects.create(game=game, seat=1, bot_version=first, rank=old_rank)
    html = client.get(f"/bots/{first.bot.pk}/").content.decode()
    said = html.split('class="head-to-head">')[1].split("</p>")[0]
    # 4 finished: above in 2, level in 1: (2 + 1/2) / 4
    assert "Where they met (4 games), v2 finished above v1 in 62 % of them" in said
