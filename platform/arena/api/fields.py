"""Fields the API reads more strictly than DRF does: whole numbers within what a database
column holds (SQLite's INTEGER and PostgreSQL's bigint: a larger one is a 400 or a 404, never
an overflow in the driver), ids as JSON numbers, booleans as JSON true or false, text as JSON
strings."""

from __future__ import annotations

import re

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

# The widest integer any column here holds (SQLite INTEGER, PostgreSQL bigint).
INT_MIN, INT_MAX = -(2**63), 2**63 - 1
ID_SCHEMA = {"type": "integer", "minimum": INT_MIN, "maximum": INT_MAX}
_WHOLE = re.compile(r"-?\d+")


def fits_a_column(value: int) -> bool:
    return INT_MIN <= value <= INT_MAX


def whole_number(raw) -> int | None:
    """``raw`` as an int when it is a whole number in a column's range (an int, or digits as
    a form or a path gives them), else None."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, str) and _WHOLE.fullmatch(raw.strip()):
        raw = int(raw)
    if isinstance(raw, int) and fits_a_column(raw):
        return raw
    return None


@extend_schema_field(ID_SCHEMA)
class IdField(serializers.PrimaryKeyRelatedField):
    """An object's id: a whole number (not 1.5, not true) that names one."""

    def to_internal_value(self, data):
        number = whole_number(data)
        if number is None:
            self.fail("incorrect_type", data_type=type(data).__name__)
        return super().to_internal_value(number)


class StrictBooleanField(serializers.BooleanField):
    """JSON true or false only (DRF would take 0, 1, "yes" and "off" too)."""

    def to_internal_value(self, data):
        if isinstance(data, bool):
            return data
        self.fail("invalid", input=data)


class StrictCharField(serializers.CharField):
    """A JSON string only (DRF would take 0 or false and store "0" or "False"), its length
    bounded as sent: DRF trims the blanks first, so a value over the schema's maxLength
    would pass once trimmed."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        if self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)
