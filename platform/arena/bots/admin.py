from django.contrib import admin

from .models import Bot, BotVersion


class BotVersionInline(admin.TabularInline):
    model = BotVersion
    extra = 0
    fields = ["number", "kind", "builtin_name", "status", "sha256", "created"]
    readonly_fields = ["sha256", "created"]


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ["name", "title", "owner", "created"]
    list_filter = ["title"]
    search_fields = ["name", "owner__username"]
    inlines = [BotVersionInline]


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "kind", "status", "sha256", "created"]
    list_filter = ["status", "kind", "bot__title"]
    search_fields = ["bot__name", "sha256"]
    readonly_fields = ["sha256", "size", "created", "validated_at"]
