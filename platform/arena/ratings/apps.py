from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "arena.ratings"
    label = "ratings"
