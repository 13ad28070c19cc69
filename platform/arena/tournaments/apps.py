from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "arena.tournaments"
    label = "tournaments"
