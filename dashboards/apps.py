from django.apps import AppConfig


class DashboardsConfig(AppConfig):
    name = "dashboards"
    label = "dashboards"
    verbose_name = "Statistics dashboards"
