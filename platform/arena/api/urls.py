"""The API's routes, mounted at /api/v1/ and, as an alias with the same handlers, at /api/
(see arena/urls.py and docs/api/README.md). The analytics are mounted beside it at /api/v1/analytics/ (dashboards/api_urls.py)."""

from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerView,
)
from rest_framework.routers import DefaultRouter

from . import ladders, views

router = DefaultRouter()
router.register("titles", views.TitleViewSet, basename="title")
router.register("bots", views.BotViewSet)
router.register("bot-versions", views.BotVersionViewSet)
router.register("tournaments", views.TournamentViewSet)
router.register("games", views.GameViewSet)
router.register("ratings", views.RatingViewSet)
router.register("ladders", ladders.LadderViewSet, basename="ladder")
router.register("title-ratings", ladders.TitleRatingViewSet)

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="v1:schema"), name="docs"),
    path(
        "redoc/",
        SpectacularRedocView.as_view(url_name="v1:schema", template_name="api/redoc.html"),
        name="redoc",
    ),
    path("token/", views.TokenView.as_view(), name="token"),
    path("token/rotate/", views.TokenRotateView.as_view(), name="token-rotate"),
    path("token/revoke/", views.TokenRevokeView.as_view(), name="token-revoke"),
    path("me/", views.SelfView.as_view(), name="me"),
    path("queue/", views.QueueView.as_view(), name="queue"),
    path("record-key/", views.RecordKeyView.as_view(), name="record-key"),
    path("", include(router.urls)),
]
