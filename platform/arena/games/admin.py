from django.contrib import admin

from .models import AnalyticsFact, AnalyticsSeat, Game, GameSeat


class GameSeatInline(admin.TabularInline):
    model = GameSeat
    extra = 0
    fields = ["seat", "bot_version", "score", "rank", "status", "fault_count"]
    raw_id_fields = ["bot_version"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "attempts", "worker", "finished_at"]
    list_filter = ["status", "tournament__title"]
    raw_id_fields = ["tournament"]
    inlines = [GameSeatInline]


admin.site.register(AnalyticsSeat)
admin.site.register(AnalyticsFact)
