"""A run of small choices packed into as few bits as their ranges allow (record format 3).

Each choice is a digit ``d`` with a base ``b`` (``0 <= d < b``): an option's index among the
``b`` options of its decision, or a chance outcome drawn from ``range(b)``. The run is one
mixed-radix number, least significant digit first: ``d0 + b0 * (d1 + b1 * (d2 + …))``. A
decision of 4 options costs 2 bits, one with a single option costs nothing. The bases are not
stored: a replay knows each one when it gets there (the decision's options, the draw's
range), so it takes the digits one at a time as the game asks for them (:class:`Digits`).
The number is written as base64url of its little-endian bytes, without padding.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable

from .errors import ReplayMismatch


def pack(digits: Iterable[tuple[int, int]]) -> str:
    """The code of ``(digit, base)`` pairs, in order (see the module doc)."""
    value, scale = 0, 1
    for digit, base in digits:
        value += digit * scale
        scale *= base
    size = (value.bit_length() + 7) // 8
    return base64.urlsafe_b64encode(value.to_bytes(size, "little")).rstrip(b"=").decode("ascii")


class Digits:
    """The digits of a code, taken one at a time with the base the replay knows for each.

    ``what`` names the run in errors ("chance outcomes", "actions"); ``count`` is how many
    digits the record says it holds."""

    __slots__ = ("_value", "_left", "what")

    def __init__(self, code: str, count: int, what: str):
        if not isinstance(code, str) or not isinstance(count, int) or count < 0:
            raise ReplayMismatch(f"malformed record: the {what} must be a count and a code")
        try:
            raw = base64.b64decode(code + "=" * (-len(code) % 4), altchars=b"-_", validate=True)
        except (binascii.Error, ValueError):
            raise ReplayMismatch(f"malformed record: the {what} code is not base64url") from None
        self._value = int.from_bytes(raw, "little")
        self._left = count
        self.what = what

    def take(self, base: int) -> int:
        """The next digit, in ``range(base)``."""
        if self._left <= 0:
            raise ReplayMismatch(f"the record has fewer {self.what} than the game asks for")
        self._left -= 1
        if base == 1:
            return 0
        self._value, digit = divmod(self._value, base)
        return digit

    def copy(self) -> Digits:
        """An independent reader at the same place."""
        twin = Digits.__new__(Digits)
        twin._value, twin._left, twin.what = self._value, self._left, self.what
        return twin

    def left(self) -> int:
        """Digits the game has not taken; a non-zero remainder counts as one more."""
        return self._left + (1 if self._left == 0 and self._value else 0)


class Listed:
    """The same interface over a plain list of outcomes (record formats 1 and 2)."""

    __slots__ = ("_items", "_cursor", "what")

    def __init__(self, items: list, what: str):
        self._items = items
        self._cursor = 0
        self.what = what

    def take(self, base: int) -> int:
        """The next outcome, which must lie in ``range(base)``."""
        if self._cursor >= len(self._items):
            raise ReplayMismatch(f"the record has fewer {self.what} than the game draws")
        item = self._items[self._cursor]
        self._cursor += 1
        if not isinstance(item, int) or isinstance(item, bool) or not 0 <= item < base:
            raise ReplayMismatch(f"recorded chance outcome {item!r} is outside range({base})")
        return item

    def copy(self) -> Listed:
        """An independent reader at the same place."""
        twin = Listed(self._items, self.what)
        twin._cursor = self._cursor
        return twin

    def left(self) -> int:
        """Outcomes the game has not taken."""
        return len(self._items) - self._cursor
