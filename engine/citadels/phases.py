"""Small shared constants of the game's flow."""

# Game phases. CALLS is a hand-over, never a decision: the draft is over and the state asks
# ``turn`` to call the characters (so ``draft`` needs no import of ``turn``).
DRAFT, TURN, OVER, CALLS = range(4)
NORMAL, INCOME_ONLY = range(2)  # turn modes: a full turn, or the action only (bewitched, Hospital)

# Purple abilities used this turn (bits of ``t_used``): once per turn each.
USED_LABORATORY = 1
USED_SMITHY = 2
USED_MUSEUM = 4
