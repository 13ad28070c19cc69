from django import forms

import engine
from arena.bots.models import BotVersion

from .models import Tournament


def parse_options(text: str) -> dict[str, str]:
    """``name = value`` lines (blank lines and ``#`` comments ignored) into overrides."""
    overrides = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if "=" not in line:
            raise forms.ValidationError(
                f"Line {number} ({line!r}) is not of the form name = value."
            )
        name, value = (part.strip() for part in line.split("=", 1))
        overrides[name] = value
    return overrides


class EntrantChoice(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: BotVersion) -> str:
        return f"{obj.bot.title} · {obj.label}"


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=100)
    title = forms.ChoiceField(choices=())
    seats = forms.IntegerField(min_value=1, max_value=16, initial=4)
    format = forms.ChoiceField(choices=Tournament.Format.choices)
    rounds = forms.IntegerField(
        min_value=1,
        max_value=1000,
        initial=1,
        help_text="Round robin: each round every entrant plays once in each seat. Duplicate: "
        "each round's tables are replayed in every seat rotation with one seed.",
    )
    ladder_games = forms.IntegerField(
        min_value=0, max_value=100_000, initial=0, help_text="Ladder: games before it closes."
    )
    options = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        help_text="Rule options, one per line as name = value; left out options take the "
        "title's defaults for the number of seats.",
    )
    entrants = EntrantChoice(
        queryset=BotVersion.objects.none(), widget=forms.CheckboxSelectMultiple
    )
    decision_ms = forms.IntegerField(min_value=10, max_value=600_000, initial=1000)
    bank_ms = forms.IntegerField(min_value=0, max_value=3_600_000, initial=10_000)
    seed = forms.IntegerField(
        min_value=0,
        required=False,
        help_text="Leave empty to draw one at random. It is shown once the tournament is over.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["title"].choices = [(t, engine.title(t).name) for t in engine.titles()]
        self.fields["entrants"].queryset = (
            BotVersion.objects.filter(status=BotVersion.Status.READY)
            .select_related("bot__owner")
            .order_by("bot__title", "bot__owner__username", "bot__name", "-number")
        )
        self.help = {t: engine.title(t).option_help() for t in engine.titles()}

    def clean_options(self):
        return parse_options(self.cleaned_data.get("options", ""))
