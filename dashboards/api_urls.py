from django.urls import path

from .api import view_for
from .pages import PAGES

urlpatterns = [path(f"{name}/", view_for(name), name=f"analytics-{name}") for name in PAGES]
