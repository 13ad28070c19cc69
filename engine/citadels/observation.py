"""The one place where hidden information is filtered: what a seat may know.

A seat sees its own hand and characters, the size of the other hands, every city, all gold,
the crown, the face-up discards, the characters it was shown in the draft, the public event
log, and the details of its own pending sub-decision. Never another seat's hand, the deck
order, the face-down characters it did not see, or the seed.
"""

from .components import CHARACTER_IDS, DISTRICT_IDS
from .phases import DRAFT, OVER
from .table import current_threshold

_PHASES = {DRAFT: "draft", OVER: "over"}


def observe(s, seat: int) -> dict:
    names = DISTRICT_IDS
    cities = []
    for v in range(s.players):
        adorned = s.adorned[v]
        cities.append(
            [
                {"district": names[k], "beautified": bool(adorned[i])}
                for i, k in enumerate(s.cities[v])
            ]
        )
    lineup = s.lineup
    return {
        "seat": seat,
        "players": s.players,
        "round": s.round,
        "phase": _PHASES.get(s.phase, "turn"),
        "crown": s.crown,
        "bank": s.bank,
        "deck_size": len(s.deck),
        "gold": list(s.gold),
        "hand": sorted(names[k] for k in s.hands[seat]),
        "hand_sizes": [len(h) for h in s.hands],
        "cities": cities,
        "museum": [len(m) for m in s.museum],
        "my_museum": sorted(names[k] for k in s.museum[seat]),
        "characters_in_game": [CHARACTER_IDS[c] for c in lineup[1:] if c >= 0],
        "my_characters": [CHARACTER_IDS[lineup[r]] for r in sorted(s.ranks_of[seat])],
        "face_up": [CHARACTER_IDS[c] for c in s.face_up],
        "draft_seen": [[CHARACTER_IDS[c] for c in offered] for offered in s.seen[seat]],
        "calling": CHARACTER_IDS[lineup[s.calling]]
        if 0 < s.calling <= 9 and lineup[s.calling] >= 0
        else None,
        "turn_seat": s.t_seat,
        "killed": _character_at(s, s.killed),
        "robbed": _character_at(s, s.robbed),
        "bewitched": _character_at(s, s.bewitched),
        "end_districts": current_threshold(s),
        "bell_tower": s.bell_tower,
        "end_triggered": s.end_triggered,
        "completed": list(s.completed),
        "pending": _pending(s, seat),
        "events": s.events[:],
    }


def _character_at(s, rank: int):
    return CHARACTER_IDS[s.lineup[rank]] if rank else None


def _pending(s, seat: int):
    """Details of the seat's own pending sub-decision that its options alone do not show."""
    if not s.stack:
        return None
    kind, owner, payload = s.stack[-1]
    if owner != seat:
        return None
    if kind == "keep":
        drawn, keep = payload
        return {"decision": kind, "drawn": sorted(DISTRICT_IDS[k] for k in drawn), "keep": keep}
    if kind == "wizard_take":
        other, hand = payload
        return {"decision": kind, "seat": other, "hand": [DISTRICT_IDS[k] for k in hand]}
    if kind == "magician_discard":
        return {"decision": kind, "discarded": payload}
    if kind in ("wizard_place", "graveyard"):
        return {"decision": kind, "district": DISTRICT_IDS[payload]}
    if kind in ("tribute", "exchange_give"):
        return {"decision": kind, "seat": payload if kind == "tribute" else payload[0]}
    return {"decision": kind}
