from rest_framework.pagination import PageNumberPagination


class Pages(PageNumberPagination):
    """``?page=`` and ``?page_size=`` (at most 200); every list answers ``count``, ``next``,
    ``previous`` and ``results``."""

    page_size_query_param = "page_size"
    max_page_size = 200
