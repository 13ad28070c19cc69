from django.contrib import admin

from .models import Entrant, Tournament


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    raw_id_fields = ["bot_version"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "title", "format", "seats", "status", "organiser", "created"]
    list_filter = ["title", "format", "status"]
    search_fields = ["name"]
    inlines = [EntrantInline]
