"""Chance as the game sees it: every random draw goes through here and into the record."""

from .rng import Rng


class Chance:
    """Draws from the engine's PRNG and logs each outcome and its range, in the order drawn
    (the range lets the record pack the outcome into its few bits: ``engine/core/digits.py``).

    In replay mode the outcomes come from the record instead of the PRNG (``replay``: a
    ``digits.Digits`` or ``digits.Listed``), so a record rebuilds its game even if the
    generator were ever to change.
    """

    __slots__ = ("_rng", "log", "bounds", "_replay")

    def __init__(self, seed: int, replay=None):
        self._rng = Rng(seed)
        self.log: list[int] = []
        self.bounds: list[int] = []
        self._replay = replay

    def below(self, n: int) -> int:
        """An outcome uniform in ``range(n)``, logged."""
        k = self._rng.below(n) if self._replay is None else self._replay.take(n)
        self.log.append(k)
        self.bounds.append(n)
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
        """The generator's state and the outcomes drawn so far with their ranges, as JSON (a
        live game only)."""
        if self._replay is not None:
            raise ValueError("a replaying Chance has no generator state to save")
        return {
            "rng": list(self._rng.getstate()),
            "log": list(self.log),
            "bounds": list(self.bounds),
        }

    @classmethod
    def restore(cls, seed: int, snapshot: dict) -> "Chance":
        """A live Chance that draws on from ``snapshot`` (see :meth:`snapshot`)."""
        chance = cls(seed)
        chance._rng = Rng.fromstate(tuple(snapshot["rng"]))
        chance.log = list(snapshot["log"])
        chance.bounds = list(snapshot["bounds"])
        return chance

    def clone(self) -> "Chance":
        twin = Chance.__new__(Chance)
        twin._rng = self._rng.copy()
        twin.log = list(self.log)
        twin.bounds = list(self.bounds)
        # A twin takes its own outcomes from where this one stands in the record.
        twin._replay = None if self._replay is None else self._replay.copy()
        return twin
