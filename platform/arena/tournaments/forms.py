from django import forms

import engine
from arena.bots.models import BotVersion

from .models import Tournament
from .spec import FIELDS, NAME_MAX_LENGTH, OPTIONS_HELP, SpecError, check_spec


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


class TitledCheckboxes(forms.CheckboxSelectMultiple):
    """Entrant checkboxes that carry their bot's title (``data-title``), so the page lists
    only the chosen title's versions."""

    def create_option(self, *args, **kwargs):
        option = super().create_option(*args, **kwargs)
        version = getattr(option["value"], "instance", None)
        if version is not None:
            option["attrs"]["data-title"] = version.bot.title
        return option


def _whole(name: str) -> forms.IntegerField:
    """A form field with the bounds and default of the shared specification."""
    bound = FIELDS[name]
    return forms.IntegerField(
        min_value=bound.low,
        max_value=bound.high,
        initial=bound.default,
        required=bound.default is not None,  # a field with no default may be left empty
        help_text=bound.help,
    )


class TournamentForm(forms.Form):
    """The web's tournament form: its fields come from, and its checks end in, ``spec``."""

    name = forms.CharField(max_length=NAME_MAX_LENGTH)
    title = forms.ChoiceField(choices=())
    seats = _whole("seats")
    format = forms.ChoiceField(choices=Tournament.Format.choices)
    rounds = _whole("rounds")
    ladder_games = _whole("ladder_games")
    options = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), required=False, help_text=OPTIONS_HELP
    )
    entrants = EntrantChoice(queryset=BotVersion.objects.none(), widget=TitledCheckboxes)
    decision_ms = _whole("decision_ms")
    bank_ms = _whole("bank_ms")
    seed = _whole("seed")

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

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            spec = check_spec({**data, "entrants": list(data["entrants"])})
        except SpecError as err:
            for field, messages in err.fields.items():
                for message in messages:
                    self.add_error(field if field in self.fields else None, message)
            return data
        return spec.as_kwargs()
