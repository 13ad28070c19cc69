from django.apps import AppConfig


class OutboxConfig(AppConfig):
    name = "arena.outbox"
    label = "outbox"
