"""End of game scoring (seed 001 勝利條件, seed 003 计分方式, reference §3 Scoring)."""

from engine.core.contract import ranks_from_scores

from .components import (
    COLOUR,
    DISTRICT_IDS,
    HAUNTED_CITY,
    IMPERIAL_TREASURY,
    MAP_ROOM,
    MUSEUM,
    POINTS,
    SPECIAL,
    WISHING_WELL,
)

ALL_COLOURS = 5


def district_points(city: list[int], adorned: list[int]) -> int:
    """Each district scores its cost (Dragon Gate and University 8), +1 if beautified."""
    return sum(POINTS[k] for k in city) + sum(adorned)


def colour_and_well_bonus(city: list[int], haunted_usable: bool) -> tuple[int, int]:
    """(five-colour bonus, Wishing Well bonus), choosing the Haunted City's colour at best.

    seed 001 鬼城: counts as any colour for scoring, unless built in the last round.
    seed 001 FAQ ☆許愿井: a Haunted City given another colour is no longer purple.
    """
    colours = {COLOUR[k] for k in city if k != HAUNTED_CITY}
    purples = sum(
        1 for k in city if COLOUR[k] == SPECIAL and k != WISHING_WELL and k != HAUNTED_CITY
    )
    has_well = WISHING_WELL in city
    if HAUNTED_CITY not in city:
        return (3 if len(colours) == ALL_COLOURS else 0), (purples if has_well else 0)
    best = None
    choices = range(ALL_COLOURS) if haunted_usable else (SPECIAL,)
    for colour in choices:
        five = 3 if len(colours | {colour}) == ALL_COLOURS else 0
        well = (purples + (colour == SPECIAL)) if has_well else 0
        if best is None or five + well > sum(best):
            best = (five, well)
    return best


def score_seat(s, seat: int) -> dict:
    city, adorned = s.cities[seat], s.adorned[seat]
    districts = district_points(city, adorned)
    five, well = colour_and_well_bonus(city, s.haunted_round[seat] != s.round)
    if seat in s.first_completers:
        complete = 4
    elif s.completed[seat]:
        complete = 2
    else:
        complete = 0
    purple = well
    if MAP_ROOM in city:
        purple += len(s.hands[seat])
    if IMPERIAL_TREASURY in city:
        purple += s.gold[seat]  # reference §1.3: gold on districts does not count
    if MUSEUM in city:
        purple += len(s.museum[seat])
    total = districts + five + complete + purple
    return {
        "score": total,
        "districts": districts,
        "five_colours": five,
        "complete_city": complete,
        "purple_bonus": purple,
        "gold": s.gold[seat],
        "hand": len(s.hands[seat]),
        "city": [DISTRICT_IDS[k] for k in city],
    }


def result(s) -> dict:
    """Scores, ranks and winners. seed 001 FAQ: equal top scores share the win; the option
    ``tie_break`` applies the official tie-break (district values, then gold)."""
    details = [score_seat(s, seat) for seat in range(s.players)]
    scores = [d["score"] for d in details]
    if s.options["tie_break"] == "district_value_then_gold":
        keys = [(d["score"], d["districts"], d["gold"]) for d in details]
    else:
        keys = scores
    ranks = ranks_from_scores(keys)
    return {
        "scores": scores,
        "ranks": ranks,
        "winners": [seat for seat in range(s.players) if ranks[seat] == 1],
        "details": details,
        "stats": {
            "rounds": s.round,
            "characters_by_round": [[list(held) for held in row] for row in s.history],
            "first_complete": list(s.first_completers),
            "targets": targets_by_round(s.events),
            "stalemate": not s.end_triggered,
        },
    }


def targets_by_round(events: list[dict]) -> list[dict]:
    """Who named whom, from the public log: kills, thefts and bewitchings with their round."""
    found, current = [], 0
    for event in events:
        kind = event["event"]
        if kind == "round":
            current = event["round"]
        elif kind in ("killed", "robbed", "bewitched"):
            found.append({"round": current, "power": kind, "character": event["character"]})
    return found
