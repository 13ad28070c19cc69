from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "arena.api"
    label = "api"
