from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

from arena import pagecache
from arena.api import errors as api_errors
from arena.bots import transfer
from arena.bots import views as bots
from arena.games import views as games
from arena.players import views as players
from arena.tournaments import ladder_views as ladders
from arena.tournaments import views as tournaments
from arena.web import views as web

# The public pages that grow with a history are cached, per viewer and until what they show
# changes (arena/pagecache.py).
urlpatterns = [
    path("", web.home, name="home"),
    path("getting-started/", web.getting_started, name="getting-started"),
    path("getting-started/kits/<str:name>.zip", web.starter_kit_download, name="starter-kit"),
    path("getting-started/docs/<str:name>.md", web.bot_doc, name="bot-doc"),
    path("getting-started/<str:stem>.whl", web.arena_wheel, name="arena-wheel"),
    path("signup/", players.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # The site's own templates by a name of their own: the admin's registration/ templates
    # of the same name would win (the admin app is listed first).
    path(
        "password/",
        auth_views.PasswordChangeView.as_view(template_name="players/password_change_form.html"),
        name="password_change",
    ),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(
            template_name="players/password_change_done.html"
        ),
        name="password_change_done",
    ),
    path("me/", players.profile, name="profile"),
    path("me/token/create/", players.token_create, name="token-create"),
    path("me/token/revoke/", players.token_revoke, name="token-revoke"),
    path("bots/", bots.my_bots, name="my-bots"),
    path("bots/<int:bot_id>/", pagecache.bot_page("bot_id")(bots.bot_detail), name="bot"),
    path("bots/<int:bot_id>/upload/", bots.bot_upload, name="bot-upload"),
    path(
        "internal/artifacts/<str:sha256>",
        transfer.artifact_download,
        name="internal-artifact",
    ),
    path("tournaments/", tournaments.tournament_list, name="tournaments"),
    path("tournaments/new/", tournaments.tournament_new, name="tournament-new"),
    path(
        "tournaments/<int:tournament_id>/",
        pagecache.tournament_page("tournament_id")(tournaments.tournament_detail),
        name="tournament",
    ),
    path(
        "tournaments/<int:tournament_id>/<str:action>/",
        tournaments.tournament_action,
        name="tournament-action",
    ),
    path("ladders/", ladders.ladder_list, name="ladders"),
    path("ladders/new/", ladders.ladder_new, name="ladder-new"),
    path(
        "ladders/<int:ladder_id>/",
        pagecache.tournament_page("ladder_id")(ladders.ladder_detail),
        name="ladder",
    ),
    path("ladders/<int:ladder_id>/challenge/", ladders.ladder_challenge, name="ladder-challenge"),
    path(
        "ladders/<int:ladder_id>/challenge-previous/<int:bot_id>/",
        ladders.ladder_challenge_previous,
        name="ladder-challenge-previous",
    ),
    path(
        "ladders/<int:ladder_id>/withdraw/<int:bot_id>/",
        ladders.ladder_withdraw,
        name="ladder-withdraw",
    ),
    path("bots/<int:bot_id>/challenges/", bots.bot_challenges, name="bot-challenges"),
    path("bots/<int:bot_id>/decision-logs/", bots.bot_decision_logs, name="bot-decision-logs"),
    path("games/<int:game_id>/", games.game_detail, name="game"),
    path("games/<int:game_id>/replay.json", games.game_replay, name="game-replay"),
    path("games/<int:game_id>/view.json", games.game_view_frames, name="game-view"),
    path("games/<int:game_id>/position.json", games.game_position, name="game-position"),
    path("games/viewer/<str:name>", games.viewer_asset, name="viewer-asset"),
    path("games/<int:game_id>/seats/<int:seat>/stderr.txt", games.seat_stderr, name="seat-stderr"),
    path("staff/queue/", pagecache.queue_page(games.queue_page), name="queue"),
    # The REST API: /api/v1/ is the versioned contract; /api/ serves the same handlers as an
    # alias for clients written before the version (docs/api/README.md). /api/analytics/ is
    # the dashboards' (its routes do not collide with the alias's).
    path("api/v1/", include(("arena.api.urls", "api"), namespace="v1")),
    path("api/", include(("arena.api.urls", "api"), namespace="api")),
    path("api/v1/analytics/", include("dashboards.api_urls")),
    path("api/analytics/", include("dashboards.api_urls")),
    # Last under /api/: any other URL there is the API's 404 body, or a 308 to its slashed form.
    re_path(r"^api/(?P<rest>.*)$", api_errors.unmatched),
    path("dashboards/", include("dashboards.urls")),
    path("admin/", admin.site.urls),
]

# Under /api/ a refused URL or a crash answers the API's error body, not an HTML page.
handler404 = "arena.api.errors.not_found"
handler500 = "arena.api.errors.server_error"
