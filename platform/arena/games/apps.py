from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "arena.games"
    label = "games"
