"""The skill-adjusted effect recovers an effect planted in simulated games where strong bots
favour the category, which biases the raw win rates (dashboards/adjusted.py)."""

import math
import random

from dashboards.adjusted import stratified
from engine.core.stats import mantel_haenszel, rate_at_odds_ratio

PLANTED = 0.4  # the category's log-odds effect on winning, for a bot of any strength


def simulated(seed: int, versions: int = 30, seat_games: int = 1500) -> tuple[list, dict]:
    """Seat-games of bot versions of spread strength; the stronger a version, the more often
    it takes the category; a win's log-odds is the version's strength plus PLANTED when held.
    Returns the held rows and the versions' totals as the dashboards' queries give them."""
    rng = random.Random(seed)
    held, totals = [], {}
    for version in range(versions):
        strength = rng.gauss(-1.0, 1.0)
        takes = 1 / (1 + math.exp(-2 * strength))  # strong bots take it more
        games = wins = held_games = held_wins = 0
        for _ in range(seat_games):
            holds = rng.random() < takes
            won = rng.random() < 1 / (1 + math.exp(-(strength + PLANTED * holds)))
            games, wins = games + 1, wins + won
            held_games, held_wins = held_games + holds, held_wins + (won and holds)
        held.append({"subject": "architect", "players": 4, "bot_version_id": version,
                     "games": held_games, "wins": held_wins})  # fmt: skip
        totals[(4, version)] = (games, wins)
    return held, totals


def key(row, version=False):
    return (row["players"], row["bot_version_id"]) if version else row["subject"]


def test_the_adjusted_interval_holds_the_planted_effect_which_the_raw_rate_overstates():
    held, totals = simulated(seed=5)
    strata = [
        (r["wins"], r["games"] - r["wins"], totals[key(r, True)][1] - r["wins"],
         totals[key(r, True)][0] - r["games"] - totals[key(r, True)][1] + r["wins"])
        for r in held
    ]  # fmt: skip
    ratio, low, high = mantel_haenszel(strata)
    assert low < math.exp(PLANTED) < high
    # pooled over versions, the strong bots' wins are credited to the category
    a, b, c, d = (sum(s[i] for s in strata) for i in range(4))
    raw_ratio = (a * d) / (b * c)
    assert raw_ratio > high

    effect = stratified(held, totals, key)["architect"]
    base = (sum(t[1] for t in totals.values()) - a) / (sum(t[0] for t in totals.values()) - a - b)
    planted = rate_at_odds_ratio(base, math.exp(PLANTED)) - base
    assert effect["adjusted_low"] < planted < effect["adjusted_high"]
    assert effect["adjusted_low"] < effect["adjusted_effect"] < effect["adjusted_high"]


def test_no_stratum_that_compares_both_ways_gives_no_effect():
    assert mantel_haenszel([(3, 2, 0, 0), (0, 0, 4, 1)]) is None
    assert stratified([], {}, key) == {}
