from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import CursorPagination, PageNumberPagination


class Pages(PageNumberPagination):
    """``?page=`` and ``?page_size=`` (1 to 200, default 50); every list answers ``count``,
    ``next``, ``previous`` and ``results``. A page or page_size that is not such a number is
    a 400 (DRF would quietly use the first page or the default size); a page past the end is
    a 404."""

    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not raw.isdigit() or not 1 <= int(raw) <= self.max_page_size:
            raise ValidationError(
                {"page_size": [f"page_size is a whole number from 1 to {self.max_page_size}."]}
            )
        return int(raw)

    def get_page_number(self, request, paginator):
        raw = request.query_params.get(self.page_query_param)
        if raw is not None and not raw.isdigit():
            raise ValidationError({"page": ["page is a whole number from 1."]})
        return super().get_page_number(request, paginator)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update(minimum=1, maximum=self.max_page_size)
            elif parameter["name"] == self.page_query_param:
                parameter["schema"]["minimum"] = 1
        return parameters


class Keyset(CursorPagination):
    """For lists that grow with the history (games, a rating's history): ``?cursor=`` (an
    opaque position from ``next`` or ``previous``) and ``?page_size=`` (1 to 200, default 50),
    in id order; ``next``, ``previous`` and ``results``, no ``count``. A page is read from
    the last id seen by index (``id > last ORDER BY id LIMIT n``), so the thousandth page
    costs what the first does, where a page number skipped every earlier row and ``count``
    counted every match."""

    ordering = "id"
    page_size_query_param = "page_size"
    max_page_size = 200
    get_page_size = Pages.get_page_size

    def paginate_queryset(self, queryset, request, view=None):
        if "page" in request.query_params:
            raise ValidationError(
                {"page": ["This list pages by cursor: follow its next link (no page numbers)."]}
            )
        return super().paginate_queryset(queryset, request, view)

    def decode_cursor(self, request):
        try:
            return super().decode_cursor(request)
        except NotFound:
            raise ValidationError(
                {"cursor": ["Not a cursor this list gave: follow its next or previous link."]}
            ) from None

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update(minimum=1, maximum=self.max_page_size)
        return parameters


class KeysetByGame(Keyset):
    """:class:`Keyset` in game id order, for a rating's history: its changes are applied in
    game order, and read by the unique (rating, game) index a page costs what it shows. In
    id order PostgreSQL walked the primary key from the start of the whole history, passing
    every other rating's changes (270 ms for the first page of a version that joined at
    three quarters of 100,000 games, bench/history.py)."""

    ordering = "game_id"
