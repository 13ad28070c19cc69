from django.contrib import admin

from .models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["bot_version", "tournament", "ordinal", "mu", "sigma", "games"]
    list_filter = ["tournament__title"]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["rating", "game", "mu", "sigma", "ordinal"]
