from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "arena.web"
    label = "web"

    def ready(self):
        from arena import pagecache_scopes

        pagecache_scopes.connect()
