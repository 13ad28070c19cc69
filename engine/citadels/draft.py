"""Choosing characters at the start of each round (seed 001 選擇角色, 2名玩家, 7名玩家)."""

from engine.core.contract import Decision

from .components import CHARACTER_IDS, CHARACTER_INDEX, CHARACTER_RANK, KING
from .phases import CALLS, DRAFT

KING_RANK = CHARACTER_RANK[KING]


def start_round(s) -> None:
    """Shuffle the characters in play, set some aside, and lay out who picks in which order."""
    s.round += 1
    s.phase = DRAFT
    s.calling = 0
    s.killed = s.robbed = s.bewitched = 0
    s.robber = s.witch = s.tax_seat = s.protected = s.heir = -1
    s.tax_owed = []
    s.holder = [-1] * 10
    s.ranks_of = [()] * s.players  # tuples: replaced, never mutated, so clones share them
    s.seen = [()] * s.players
    characters = [c for c in s.lineup[1:] if c >= 0]
    s._chance.shuffle(characters)
    # seed 001 選擇角色: one card always goes aside face down, unseen.
    s.aside_down = [characters.pop()]
    s.face_up = []
    order = [(s.crown + i) % s.players for i in range(s.players)]
    if s.players == 2:
        s.draft_steps = two_player_steps(order[0], order[1])
    elif s.players == 3 and s.options["three_player_rule"] == "two_characters_each":
        s.draft_steps = [(seat, "pick") for seat in order + order]  # reference §3, 3 players
    else:
        s.face_up = face_up_discards(characters, len(characters) - (s.players + 1))
        s.draft_steps = [(seat, "pick") for seat in order]
    s.pool = characters
    s.events.append(
        {
            "event": "round",
            "round": s.round,
            "crown": s.crown,
            "face_up": [CHARACTER_IDS[c] for c in s.face_up],
        }
    )
    _prepare_step(s)


def face_up_discards(characters: list[int], count: int) -> list[int]:
    """Take ``count`` face-up discards out of ``characters`` (already shuffled).

    seed 001 選擇角色 **: the King (and, reference §3, the Emperor) is never a face-up discard;
    a drawn King is replaced by the next card, which is what skipping rank 4 here does.
    """
    face_up = []
    for c in list(characters):
        if len(face_up) >= count:
            break
        if CHARACTER_RANK[c] != KING_RANK:
            face_up.append(c)
            characters.remove(c)
    return face_up


def two_player_steps(a: int, b: int) -> list[tuple[int, str]]:
    """seed 001 2名玩家: A keeps 1 and passes; B keeps 1 and discards 1; A keeps 1 and discards
    1; B keeps 1; the last card goes face down."""
    return [(a, "pick"), (b, "pick"), (b, "discard"), (a, "pick"), (a, "discard"), (b, "pick")]


def _prepare_step(s) -> None:
    """Before a seat chooses: apply the 7-player rule and note what the seat was shown."""
    seat, action = s.draft_steps[0]
    if action == "pick":
        # seed 001 7名玩家 (and 8 players, reference §3): the last chooser also takes the
        # face-down card and chooses between the two.
        if len(s.pool) == 1 and s.aside_down:
            s.pool.append(s.aside_down.pop())
        s.seen[seat] += (tuple(sorted(s.pool, key=CHARACTER_RANK.__getitem__)),)


def decision(s) -> Decision:
    seat, action = s.draft_steps[0]
    pool = sorted(s.pool, key=CHARACTER_RANK.__getitem__)
    kind = "draft_pick" if action == "pick" else "draft_discard"
    return Decision(seat, kind, [{"kind": action, "character": CHARACTER_IDS[c]} for c in pool])


def pick(s, option: dict) -> None:
    """Keep one character of the pool, hidden from the others."""
    seat, _ = s.draft_steps.pop(0)
    character = CHARACTER_INDEX[option["character"]]
    s.pool.remove(character)
    rank = CHARACTER_RANK[character]
    s.holder[rank] = seat
    s.ranks_of[seat] += (rank,)
    _next(s)


def discard(s, option: dict) -> None:
    """seed 001 2名玩家: put one character of the pool aside face down."""
    s.draft_steps.pop(0)
    character = CHARACTER_INDEX[option["character"]]
    s.pool.remove(character)
    s.aside_down.append(character)
    _next(s)


def _next(s) -> None:
    if s.draft_steps:
        _prepare_step(s)
        return
    s.aside_down += s.pool  # seed 001: the last unchosen card goes face down
    s.pool = []
    s.history.append(
        tuple(
            tuple(CHARACTER_IDS[s.lineup[r]] for r in s.ranks_of[seat]) for seat in range(s.players)
        )
    )
    s.phase = CALLS  # the state hands over to turn.start_calls


HANDLERS = {"pick": pick, "discard": discard}
