"""The engine's own pseudo-random generator.

PCG32 (O'Neill 2014, "PCG: A Family of Simple Fast Space-Efficient Statistically Good
Algorithms for Random Number Generation", XSH-RR variant), written out here so that the
sequence for a seed never changes with a Python or library upgrade. The state is two ints,
so a clone copies in constant time. Rules draw only through :meth:`Rng.below`, and every
draw is written to the game's chance log, so a replay does not even need this algorithm.
"""

_MASK64 = (1 << 64) - 1
_MULT = 6364136223846793005


class Rng:
    """Seeded PCG32 stream with unbiased bounded integers and Fisher-Yates shuffles."""

    __slots__ = ("_state", "_inc")

    def __init__(self, seed: int, stream: int = 54):
        self._inc = ((stream << 1) | 1) & _MASK64
        self._state = 0
        self._next32()
        self._state = (self._state + (seed & _MASK64)) & _MASK64
        self._next32()

    def _next32(self) -> int:
        old = self._state
        self._state = (old * _MULT + self._inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF

    def below(self, n: int) -> int:
        """Return an integer uniformly drawn from ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n == 1:
            return 0
        threshold = (1 << 32) % n
        while True:
            r = self._next32()
            if r >= threshold:
                return r % n

    def copy(self) -> "Rng":
        twin = Rng.__new__(Rng)
        twin._state = self._state
        twin._inc = self._inc
        return twin

    def getstate(self) -> tuple[int, int]:
        return self._state, self._inc

    @classmethod
    def fromstate(cls, state: tuple[int, int]) -> "Rng":
        """The generator ``getstate()`` described, drawing on from where it was."""
        twin = cls.__new__(cls)
        twin._state, twin._inc = (int(x) & _MASK64 for x in state)
        return twin


def derive_seed(seed: int, *labels: int | str) -> int:
    """A new 64-bit seed derived from ``seed`` and labels (e.g. a bot's seat), stable forever.

    Uses FNV-1a over the decimal text, so it does not depend on ``hash()`` randomisation.
    """
    h = 0xCBF29CE484222325
    for part in (seed, *labels):
        for byte in f"{part}|".encode():
            h ^= byte
            h = (h * 0x100000001B3) & _MASK64
    return h
