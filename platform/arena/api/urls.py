from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter()
router.register("bots", views.BotViewSet)
router.register("bot-versions", views.BotVersionViewSet)
router.register("tournaments", views.TournamentViewSet)
router.register("games", views.GameViewSet)

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("token/", obtain_auth_token, name="api-token"),
    path("", include(router.urls)),
]
