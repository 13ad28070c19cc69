"""The state of a Citadels game: the table, the round, the turn, and the pending sub-decisions.

Hot state is ints and lists of ints (card and character ids, see ``cards``). The rules live in
``draft``, ``turn``, ``powers`` and ``purples``; this module holds the data, dispatches
decisions and options to them, and copies itself for ``clone()``.
"""

from engine.core.contract import Decision, State

from . import draft, observation, powers, purples, scoring, setup, turn
from .phases import CALLS, DRAFT, OVER, TURN

_TABLE = (
    "deck",  # district kinds, top of the deck at the end of the list
    "hands",  # per seat: district kinds
    "cities",  # per seat: district kinds in building order
    "adorned",  # per seat, parallel to cities: 1 where the Artist put a gold
    "museum",  # per seat: kinds under that seat's Museum
    "gold",  # per seat
    "bank",
    "crown",  # seat holding the crown
    "lineup",  # rank (0-9) -> character id in play this game, or -1
    "threshold",  # city size that ends the game (Bell Tower lowers it by one while active)
    "bell_tower",  # True while a Bell Tower stands in a city (seed 001 FAQ ☆鐘塔)
    "end_triggered",
    "completed",  # per seat: reached the threshold once (bonus kept, seed 001 FAQ)
    "first_completers",  # seats earning +4 (several only through the Bell Tower FAQ)
    "haunted_round",  # per seat: round the Haunted City was built, or -1
    "round",
    "phase",
    "events",  # public event log: JSON-able dicts, append-only
    "history",  # per round: characters held per seat (for the result's stats)
    "idle_rounds",  # consecutive rounds in which nobody built (stalemate rule)
    "built_this_round",
)
_DRAFT = (
    "aside_down",  # character ids set aside face down (hidden)
    "face_up",  # character ids set aside face up (public)
    "pool",  # characters being passed
    "draft_steps",  # list of (seat, "pick" | "discard") still to come
    "seen",  # per seat: tuples of character ids this seat was offered this round
    "holder",  # rank -> seat holding it this round, or -1
    "ranks_of",  # per seat: ranks held this round
)
_ROUND = (
    "calling",  # rank being called (0 during the draft)
    "killed",  # rank killed this round, or 0
    "robbed",  # rank robbed this round, or 0
    "robber",  # seat to receive the stolen gold
    "bewitched",  # rank bewitched this round, or 0
    "witch",  # seat of the Witch who bewitched, or -1
    "tax_seat",  # seat collecting the Tax Collector's tax, or -1
    "tax_owed",  # seats that built before the Tax Collector was revealed
    "protected",  # seat whose city the Warlord and Diplomat cannot touch (Bishop), or -1
    "heir",  # seat of a killed King, crowned at the end of the round, or -1
)
_TURN = (
    "t_seat",
    "t_rank",
    "t_char",  # character whose powers this turn uses
    "t_mode",
    "t_income",  # the action (gold or cards) is taken
    "t_power",  # the character power is used
    "t_collected",  # district income is taken
    "t_builds",  # builds left
    "t_built",  # districts built this turn
    "t_spent",  # gold spent on building (Alchemist)
    "t_used",  # purple abilities used this turn (bit set)
    "t_beautified",  # districts beautified this turn (Artist)
    "t_ending",  # the turn ends once the pending sub-decisions are done
    "t_resume",  # a bewitched income-only turn: the Witch resumes it afterwards
    "stack",  # pending sub-decisions: (kind, seat, payload)
)


class CitadelsState(State):
    """One game of Citadels with Dark City."""

    __slots__ = _TABLE + _DRAFT + _ROUND + _TURN

    def _setup(self) -> None:
        setup.setup_game(self)

    def is_over(self) -> bool:
        return self.phase == OVER

    def _decide(self) -> Decision:
        if self.stack:
            kind, seat, payload = self.stack[-1]
            return Decision(seat, kind, SUB_OPTIONS[kind](self, seat, payload))
        if self.phase == DRAFT:
            return draft.decision(self)
        if not self.t_income:
            return Decision(self.t_seat, "action", turn.action_options(self))
        return Decision(self.t_seat, "turn", turn.main_options(self))

    def _apply(self, option: dict) -> None:
        kind = option["kind"]
        if self.stack:
            entry = self.stack.pop()
            SUB_HANDLERS[entry[0]](self, entry[1], entry[2], option)
        else:
            HANDLERS[kind](self, option)
        if not self.stack:
            if self.t_ending and self.phase == TURN:
                turn.end_turn(self)
            elif self.phase == CALLS:
                turn.start_calls(self)

    def observation(self, seat: int) -> dict:
        return observation.observe(self, seat)

    def _result(self) -> dict:
        return scoring.result(self)

    def _copy_into(self, twin: "CitadelsState") -> None:
        twin.deck = self.deck[:]
        twin.hands = [h[:] for h in self.hands]
        twin.cities = [c[:] for c in self.cities]
        twin.adorned = [a[:] for a in self.adorned]
        twin.museum = self.museum[:]  # tuples
        twin.gold = self.gold[:]
        twin.bank = self.bank
        twin.crown = self.crown
        twin.lineup = self.lineup  # fixed for the game, never mutated
        twin.threshold = self.threshold
        twin.bell_tower = self.bell_tower
        twin.end_triggered = self.end_triggered
        twin.completed = self.completed[:]
        twin.first_completers = self.first_completers[:]
        twin.haunted_round = self.haunted_round[:]
        twin.round = self.round
        twin.phase = self.phase
        twin.events = self.events[:]  # the event dicts themselves are never mutated
        twin.history = self.history[:]  # rows are tuples
        twin.idle_rounds = self.idle_rounds
        twin.built_this_round = self.built_this_round
        twin.aside_down = self.aside_down[:]
        twin.face_up = self.face_up[:]
        twin.pool = self.pool[:]
        twin.draft_steps = self.draft_steps[:]
        twin.seen = self.seen[:]  # tuples
        twin.holder = self.holder[:]
        twin.ranks_of = self.ranks_of[:]  # tuples
        twin.calling = self.calling
        twin.killed = self.killed
        twin.robbed = self.robbed
        twin.robber = self.robber
        twin.bewitched = self.bewitched
        twin.witch = self.witch
        twin.tax_seat = self.tax_seat
        twin.tax_owed = self.tax_owed[:]
        twin.protected = self.protected
        twin.heir = self.heir
        twin.t_seat = self.t_seat
        twin.t_rank = self.t_rank
        twin.t_char = self.t_char
        twin.t_mode = self.t_mode
        twin.t_income = self.t_income
        twin.t_power = self.t_power
        twin.t_collected = self.t_collected
        twin.t_builds = self.t_builds
        twin.t_built = self.t_built
        twin.t_spent = self.t_spent
        twin.t_used = self.t_used
        twin.t_beautified = self.t_beautified
        twin.t_ending = self.t_ending
        twin.t_resume = self.t_resume
        twin.stack = self.stack[:]  # entries are tuples


# Main decisions: option kind -> handler(state, option).
HANDLERS = {
    **draft.HANDLERS,
    **turn.HANDLERS,
    **powers.HANDLERS,
    **purples.HANDLERS,
}
# Sub-decisions on the stack: decision kind -> options(state, seat, payload) and
# handler(state, seat, payload, option).
SUB_OPTIONS = {**turn.SUB_OPTIONS, **powers.SUB_OPTIONS, **purples.SUB_OPTIONS}
SUB_HANDLERS = {**turn.SUB_HANDLERS, **powers.SUB_HANDLERS, **purples.SUB_HANDLERS}
