"""The statistics module agrees with SciPy on known values (SciPy is a test dependency only)."""

import pytest
from scipy import stats as scipy_stats

from engine.core.stats import chi_square_homogeneity, chi_square_sf, wilson_interval


@pytest.mark.parametrize(("wins", "n"), [(0, 10), (1, 10), (5, 10), (10, 10), (37, 120), (1, 3)])
def test_the_wilson_interval_is_scipys(wins, n):
    expected = scipy_stats.binomtest(wins, n).proportion_ci(method="wilson")
    assert wilson_interval(wins, n) == pytest.approx((expected.low, expected.high), abs=1e-9)


def test_a_fractional_win_count_gives_an_interval_between_its_neighbours():
    low, high = wilson_interval(4.5, 10)
    assert wilson_interval(4, 10)[0] < low < wilson_interval(5, 10)[0]
    assert wilson_interval(4, 10)[1] < high < wilson_interval(5, 10)[1]


@pytest.mark.parametrize(
    ("wins", "games"),
    [
        ([25, 25, 25, 25], [100, 100, 100, 100]),
        ([30, 20, 25, 25], [100, 100, 100, 100]),
        ([12, 3], [20, 20]),
        ([40.5, 30.25, 29.25], [100, 100, 100]),
        ([60, 5, 5, 5, 5], [100, 100, 100, 90, 80]),
    ],
)
def test_the_chi_square_test_of_equal_seats_is_scipys(wins, games):
    table = [wins, [n - w for w, n in zip(wins, games, strict=True)]]
    statistic, p, dof, _ = scipy_stats.chi2_contingency(table, correction=False)
    assert chi_square_homogeneity(wins, games) == (
        pytest.approx(statistic, rel=1e-12),
        dof,
        pytest.approx(p, rel=1e-9, abs=1e-15),
    )


@pytest.mark.parametrize("dof", [1, 2, 3, 5, 7, 20])
@pytest.mark.parametrize("x", [0.01, 0.5, 1.0, 3.0, 7.8, 15.0, 40.0, 120.0])
def test_the_chi_square_tail_is_scipys(x, dof):
    assert chi_square_sf(x, dof) == pytest.approx(scipy_stats.chi2.sf(x, dof), rel=1e-9, abs=1e-300)


def test_nothing_to_test_gives_p_one():
    assert chi_square_homogeneity([5], [10]) == (0.0, 0, 1.0)
    assert chi_square_homogeneity([0, 0, 0], [4, 4, 4]) == (0.0, 0, 1.0)
    assert chi_square_homogeneity([3, 0], [5, 0]) == (0.0, 0, 1.0)
