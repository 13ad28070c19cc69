"""Chance as the game sees it: every random draw goes through here and into the record."""

from .errors import ReplayMismatch
from .rng import Rng


class Chance:
    """Draws from the engine's PRNG and logs each outcome, in the order drawn.

    In replay mode the outcomes come from a recorded list instead of the PRNG, so a record
    rebuilds its game even if the generator were ever to change.
    """

    __slots__ = ("_rng", "log", "_replay", "_cursor")

    def __init__(self, seed: int, replay: list[int] | None = None):
        self._rng = Rng(seed)
        self.log: list[int] = []
        self._replay = replay
        self._cursor = 0

    def below(self, n: int) -> int:
        """An outcome uniform in ``range(n)``, logged."""
        if self._replay is None:
            k = self._rng.below(n)
        else:
            if self._cursor >= len(self._replay):
                raise ReplayMismatch("the record has fewer chance outcomes than the game draws")
            k = self._replay[self._cursor]
            self._cursor += 1
            if not isinstance(k, int) or not 0 <= k < n:
                raise ReplayMismatch(f"recorded chance outcome {k!r} is outside range({n})")
        self.log.append(k)
        return k

    def shuffle(self, items: list) -> None:
        """Shuffle ``items`` in place (Fisher-Yates, one logged draw per position)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def pick(self, items: list):
        """One element of a non-empty list, uniformly."""
        return items[self.below(len(items))]

    def snapshot(self) -> dict:
        """The generator's state and the outcomes drawn so far, as JSON (a live game only)."""
        if self._replay is not None:
            raise ValueError("a replaying Chance has no generator state to save")
        return {"rng": list(self._rng.getstate()), "log": list(self.log)}

    @classmethod
    def restore(cls, seed: int, snapshot: dict) -> "Chance":
        """A live Chance that draws on from ``snapshot`` (see :meth:`snapshot`)."""
        chance = cls(seed)
        chance._rng = Rng.fromstate(tuple(snapshot["rng"]))
        chance.log = list(snapshot["log"])
        return chance

    def clone(self) -> "Chance":
        twin = Chance.__new__(Chance)
        twin._rng = self._rng.copy()
        twin.log = list(self.log)
        twin._replay = self._replay
        twin._cursor = self._cursor
        return twin
