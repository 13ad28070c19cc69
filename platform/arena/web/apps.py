from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "arena.web"
    label = "web"
