"""The Ratings and bots page's numbers as named tables (plain lists of dicts), built from
queries_ratings and the statistics module: what its figures draw and the API exports."""

from __future__ import annotations

import math

from engine.core.stats import wilson_interval

from . import queries_ratings as q


def chosen_bots(sel, seats: list[dict], played: list[dict], most: int) -> tuple[int, ...]:
    """The bots the picker chose, else the bot filter's bot, else the bot of the bot-version
    filter's version (from ``seats``, :func:`q.seat_counts`: none if it sat in no game of
    the selection), else the ``most`` bots with the most seat-games in the selection."""
    if getattr(sel, "bots", ()):
        return tuple(sel.bots)
    if sel.bot is not None:
        return (sel.bot,)
    if sel.bot_version is not None:
        return tuple({r["bot_id"] for r in seats if r["bot_version_id"] == sel.bot_version})
    return tuple(r["bot_id"] for r in played[:most])


def ratings(sel) -> dict:
    """μ − 3σ over games for the chosen bots with their version changes, the head-to-head
    matrix, the score and game-length distributions and fault rates per bot version."""
    seats, lengths = q.seat_counts(sel), q.length_counts(sel)  # each read once
    played = q.bot_games(seats)
    names = {r["bot_id"]: f"{r['owner']}/{r['bot']}" for r in played}
    drawn = chosen_bots(sel, seats, played, q.DEFAULT_BOTS)
    history = [_history_row(r, names) for r in q.rating_history(sel, drawn, most=q.HISTORY_POINTS)]
    matched = (
        drawn if len(drawn) >= 2 else tuple(r["bot_id"] for r in played[: q.HEAD_TO_HEAD_BOTS])
    )
    return {
        "games": q.games_in(sel),
        "bots": [
            {
                "bot_id": r["bot_id"],
                "bot": names[r["bot_id"]],
                "seat_games": r["seat_games"],
                "drawn": r["bot_id"] in drawn,
            }  # fmt: skip
            for r in played
        ],
        "rating_history": history,
        # what a point of the rating line is: a run of games (arena.ratings.lines)
        "rating_points": "runs",
        "version_changes": version_changes(history),
        "head_to_head_games": q.games_met(sel, matched),
        "head_to_head": [_meeting(r, names) for r in q.head_to_head(sel, matched)],
        "score_distribution": _distribution(seats, q.score_range, q.score_bins, "seats"),
        "game_lengths": _distribution(lengths, q.length_range, q.length_bins, "games"),
        "faults": [_fault_row(r, names) for r in q.faults(seats)],
    }


def _history_row(r: dict, names: dict) -> dict:
    finished = r["finished_at"]
    return {
        "bot_id": r["bot_id"],
        "bot": names.get(r["bot_id"], r["bot"]),
        "version": r["version"],
        "tournament_id": r["tournament_id"],
        "game_id": r["game_id"],
        "game_index": r["game_index"],
        "games": r["games"],
        "finished_at": finished.isoformat() if hasattr(finished, "isoformat") else finished,
        "mu": r["mu"],
        "sigma": r["sigma"],
        "ordinal": r["ordinal"],
        "band_low": r["mu"] - 3 * r["sigma"],
        "band_high": r["mu"] + 3 * r["sigma"],
    }


def version_changes(history: list[dict]) -> list[dict]:
    """Where in each bot's series a version played its first game after another version
    had played: the marker of a new upload."""
    found, last = [], {}
    for r in history:
        before = last.get(r["bot_id"])
        if before is not None and before != r["version"]:
            found.append(
                {
                    "bot_id": r["bot_id"],
                    "bot": r["bot"],
                    "version": r["version"],
                    "game_index": r["game_index"],
                    "ordinal": r["ordinal"],
                }  # fmt: skip
            )
        last[r["bot_id"]] = r["version"]
    return found


def _meeting(r: dict, names: dict) -> dict:
    """A head-to-head cell: A's share of seat pairs finished above B (a level finish counts
    half) with its Wilson interval."""
    share = float(r["above"]) + float(r["level"]) / 2
    low, high = wilson_interval(share, r["pairs"])
    return {
        "bot_a": names.get(r["bot_a"], str(r["bot_a"])),
        "bot_b": names.get(r["bot_b"], str(r["bot_b"])),
        "games": r["games"],
        "pairs": r["pairs"],
        "above": r["above"],
        "level": r["level"],
        "above_rate": share / r["pairs"],
        "above_rate_low": low,
        "above_rate_high": high,
    }


def bin_width(low, high) -> int:
    """A whole bin width that cuts [low, high] into about q.BINS bins."""
    if low is None or high is None:
        return 1
    return max(1, math.ceil((high - low + 1) / q.BINS))


def _distribution(counts: list[dict], span, bins, counted: str) -> list[dict]:
    found = span(counts)
    width = bin_width(found["low"], found["high"])
    rows = []
    for r in bins(counts, width) if found["low"] is not None else []:
        row = {"players": r["players"], "from": r["low"], "to": r["low"] + width - 1,
               counted: r[counted]}  # fmt: skip
        if "average_ms" in r:
            row["average_seconds"] = None if r["average_ms"] is None else r["average_ms"] / 1000
        rows.append(row)
    return rows


def _fault_row(r: dict, names: dict) -> dict:
    faulted = int(r["faulted"] or 0)
    low, high = wilson_interval(faulted, r["seat_games"])
    return {
        "bot": names.get(r["bot_id"], r["bot"]),
        "version": r["version"],
        "bot_version_id": r["bot_version_id"],
        "seat_games": r["seat_games"],
        "faulted": faulted,
        "disqualified": int(r["disqualified"] or 0),
        "faults": int(r["faults"] or 0),
        "fault_rate": faulted / r["seat_games"],
        "fault_rate_low": low,
        "fault_rate_high": high,
    }
