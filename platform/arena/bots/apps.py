from django.apps import AppConfig


class BotsConfig(AppConfig):
    name = "arena.bots"
    label = "bots"
