from django.urls import path

from . import views

urlpatterns = [
    path("", views.index, name="dashboards"),
    path("plotly.min.js", views.plotly_js, name="dashboards-plotly"),
    path("<str:name>/", views.dashboard, name="dashboard"),
]
