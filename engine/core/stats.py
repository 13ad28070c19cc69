"""Small statistics helpers shared by the CLI and the dashboards (pure, no floats in rules)."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (Wilson 1927; Agresti & Coull 1998, eq. 2).

    ``successes`` may be fractional (a shared win counts 1/k).
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def chi_square_homogeneity(successes: list[float], trials: list[int]) -> tuple[float, int, float]:
    """Pearson's chi-square test that every group has the same success rate (the 2 x k
    table of successes and failures, no continuity correction): the statistic, its degrees
    of freedom (groups - 1) and the p-value. Successes may be fractional (a shared win counts
    1/k). Groups without trials are left out; with fewer than two groups left, or a pooled
    rate of 0 or 1, there is nothing to test: (0.0, 0, 1.0)."""
    groups = [(s, n) for s, n in zip(successes, trials, strict=True) if n > 0]
    total_n = sum(n for _, n in groups)
    rate = sum(s for s, _ in groups) / total_n if total_n else 0.0
    if len(groups) < 2 or not 0 < rate < 1:
        return 0.0, 0, 1.0
    statistic = 0.0
    for s, n in groups:
        win, lose = n * rate, n * (1 - rate)
        statistic += (s - win) ** 2 / win + ((n - s) - lose) ** 2 / lose
    dof = len(groups) - 1
    return statistic, dof, chi_square_sf(statistic, dof)


def chi_square_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square distributed with ``dof`` degrees of freedom: the regularized
    upper incomplete gamma function Q(dof/2, x/2)."""
    if x <= 0:
        return 1.0
    return _gamma_q(dof / 2, x / 2)


def _gamma_q(a: float, x: float) -> float:
    """Q(a, x) by its power series below x < a + 1 and by Lentz's continued fraction above
    (the two classical expansions, e.g. Abramowitz & Stegun 6.5.29 and 6.5.31)."""
    log_prefix = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_prefix) * h)


def mantel_haenszel(
    strata: list[tuple[float, float, float, float]], z: float = Z95
) -> tuple[float, float, float] | None:
    """The common odds ratio over 2 x 2 tables and its confidence interval (Mantel &
    Haenszel 1959; the variance of its logarithm by Robins, Breslow & Greenland 1986).

    Each stratum is (exposed wins, exposed losses, unexposed wins, unexposed losses); counts
    may be fractional (a shared win counts 1/k). A stratum with no exposed or no unexposed
    trials says nothing and adds nothing. None when no stratum compares both ways.
    """
    r_sum = s_sum = pr = ps_qr = qs = 0.0
    for a, b, c, d in strata:
        n = a + b + c + d
        if n <= 0:
            continue
        p, q, r, s = (a + d) / n, (b + c) / n, a * d / n, b * c / n
        r_sum, s_sum = r_sum + r, s_sum + s
        pr, ps_qr, qs = pr + p * r, ps_qr + p * s + q * r, qs + q * s
    if r_sum <= 0 or s_sum <= 0:
        return None
    ratio = r_sum / s_sum
    variance = pr / (2 * r_sum**2) + ps_qr / (2 * r_sum * s_sum) + qs / (2 * s_sum**2)
    half = z * math.sqrt(variance)
    return ratio, ratio * math.exp(-half), ratio * math.exp(half)


def rate_at_odds_ratio(base: float, ratio: float) -> float:
    """The rate whose odds are ``ratio`` times the odds of ``base``."""
    return ratio * base / (1 - base + ratio * base)
