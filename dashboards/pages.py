"""The dashboards: for each page, its title (when it is about one title's facts), heading
and note. Views and the API both read this table."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Page:
    name: str
    heading: str
    title: str | None  # a page about one title's facts has that title fixed
    note: str = ""
    picks_bots: bool = False  # the page has a bot picker (``bots``, repeatable)


PAGES = {
    "seats": Page(
        "seats",
        "Seats: does where you sit decide who wins?",
        None,
        "A shared win counts 1/k for each of its k winners. A seat's interval is the 95 % "
        "Wilson interval of its win rate; the dashed line is the fair share 1/players.",
    ),
    "characters": Page(
        "characters",
        "Citadels characters: what they win, when they are taken, what befalls them",
        "citadels",
        "What these numbers can and cannot say: they describe the bots that played, not the "
        "characters alone. A strong bot picks differently (it may take the Architect when it "
        "is ahead), so a character's win rate mixes the character's strength with the "
        "strength and situation of whoever takes it: selection bias. Compare characters of "
        "the same rank, within one bot, and with the game counts in mind.",
    ),
    "cranes": Page(
        "cranes",
        "Praga crane configurations: seats, scores and the crane's zones",
        "praga",
        "A configuration is the crane side and the order of the six action tiles at setup; "
        "games with other boards or King's Road tiles can be separated with the rule-option "
        "filters.",
    ),
    "ratings": Page(
        "ratings",
        "Ratings and bots: who is strong, who beats whom, who faults",
        None,
        "μ − 3σ is the rating the standings rank by: a bot is at least this strong with high "
        "confidence. Choose bots with the picker (none chosen: the filtered bot or bot "
        "version's bot, else the bots with the most games). "
        "A fault is a seat that faulted or was disqualified.",
        picks_bots=True,
    ),
}
