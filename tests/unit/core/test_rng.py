"""The engine's own PRNG: fixed sequence, unbiased bounds, stable derived seeds."""

from engine.core.rng import Rng, derive_seed


def test_bounded_sequence_is_pinned():
    # Regression values: a change here changes every game played from a seed.
    rng = Rng(42)
    assert [rng.below(1000) for _ in range(5)] == [783, 97, 824, 955, 955]


def _reference_pcg32(seed, stream, count):
    """Straight transcription of pcg32_srandom_r / pcg32_random_r from the PCG paper's C code."""
    mask = (1 << 64) - 1
    state, inc = 0, ((stream << 1) | 1) & mask

    def step():
        nonlocal state
        old = state
        state = (old * 6364136223846793005 + inc) & mask
        x = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        r = old >> 59
        return ((x >> r) | (x << ((-r) & 31))) & 0xFFFFFFFF

    step()
    state = (state + seed) & mask
    step()
    return [step() for _ in range(count)]


def test_matches_the_pcg32_reference_algorithm():
    rng = Rng(42, stream=54)
    assert [rng._next32() for _ in range(6)] == _reference_pcg32(42, 54, 6)


def test_published_pcg32_demo_values():
    # pcg32-demo from the PCG distribution, seeded with (42, 54), prints these first outputs.
    rng = Rng(42, stream=54)
    assert [rng._next32() for _ in range(3)] == [0xA15C02B7, 0x7B47F409, 0xBA1D3330]


def test_below_stays_in_range_and_covers_it():
    rng = Rng(1)
    seen = {rng.below(7) for _ in range(500)}
    assert seen == set(range(7))


def test_copy_continues_identically():
    rng = Rng(3)
    rng.below(10)
    twin = rng.copy()
    assert [rng.below(100) for _ in range(10)] == [twin.below(100) for _ in range(10)]


def test_derived_seeds_are_stable_and_distinct():
    assert derive_seed(1, "bot", 0) == derive_seed(1, "bot", 0)
    assert derive_seed(1, "bot", 0) != derive_seed(1, "bot", 1)
    assert derive_seed(1, "bot", 0) == 0x1894E40D705DB20F  # FNV-1a of "1|bot|0|"
