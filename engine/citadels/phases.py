"""Small shared constants of the game's flow."""

DRAFT, TURN, OVER = range(3)  # game phases
NORMAL, INCOME_ONLY = range(2)  # turn modes: a full turn, or the action only (bewitched, Hospital)

# Purple abilities used this turn (bits of ``t_used``): once per turn each.
USED_LABORATORY = 1
USED_SMITHY = 2
USED_MUSEUM = 4
