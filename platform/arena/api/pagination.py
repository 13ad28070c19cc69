from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination


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
