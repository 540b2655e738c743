"""The judges' form for a new stage: its kind, then each parameter of that kind and of the
game named, bounded and explained (no raw JSON), checked before the stage is made."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from contests.models import Contest, Stage
from games import registry
from judging.record import formats


def kinds_for(contest: Contest) -> list[tuple[str, str]]:
    """The kinds of stage a contest's game can be run in (each registered format says)."""
    return formats.choices(registry.get(contest.game))


class StageForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        label=gettext_lazy("Name"),
        help_text=gettext_lazy("As contestants read it: Final, Trial laps, Round 2."),
    )
    order = forms.IntegerField(
        min_value=1,
        max_value=1000,
        label=gettext_lazy("Order"),
        help_text=gettext_lazy("Its place among the contest's stages."),
    )

    def __init__(self, contest: Contest, kind: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.contest, self.kind = contest, kind
        self.fields["order"].initial = (
            contest.stages.order_by("-order").values_list("order", flat=True).first() or 0
        ) + 1
        self.stage_params = list(formats.of(kind).params)
        for p in self.stage_params:
            if p.boolean:
                field: forms.Field = forms.BooleanField(required=False)
            elif p.text or p.places:  # a name, or a list of places ("1, 3, 10")
                field = forms.CharField(required=False, max_length=200 if p.places else 100)
            else:
                field = forms.IntegerField(required=False, min_value=p.minimum, max_value=p.maximum)
            field.label, field.help_text, field.initial = p.label, p.help, p.default
            self.fields[f"stage_{p.name}"] = field
        self.fields["entries"] = forms.ModelMultipleChoiceField(
            queryset=contest.entries.filter(status="active").order_by("is_reference", "name"),
            required=False,
            widget=forms.CheckboxSelectMultiple,
            label=gettext("Only these entries"),
            help_text=gettext("Every entry with a playable version when the stage runs, if none is ticked."),
        )
        self.fields["entries"].label_from_instance = lambda entry: (
            gettext("%(name)s (reference)") % {"name": entry.name} if entry.is_reference else entry.name
        )
        self.game_params = list(registry.get(contest.game).info.params)
        for p in self.game_params:
            help_text = gettext("%(help)s%(says)s; the contest's (%(value)s) if empty.") % {
                "help": _sentence(p.help),
                "says": p.says()[0].upper() + p.says()[1:],
                "value": p.line(contest.game_params.get(p.name, p.default)),
            }
            label = gettext("%(name)s (game)") % {"name": p.name}
            if p.choices:
                choices = [("", gettext("the contest's")), *((p.line(c), p.line(c)) for c in p.choices)]
                field = forms.TypedChoiceField(
                    choices=choices,
                    required=False,
                    empty_value=None,
                    coerce=lambda text, p=p: next(c for c in p.choices if p.line(c) == text),
                )
            elif p.kind == "boolean":
                field = forms.TypedChoiceField(
                    choices=[("", gettext("the contest's")), ("true", "true"), ("false", "false")],
                    required=False,
                    empty_value=None,
                    coerce=lambda text: text == "true",
                )
            elif p.kind == "string":
                field = forms.CharField(required=False, max_length=200, strip=False, empty_value=None)
            else:
                number = forms.IntegerField if p.kind == "integer" else forms.FloatField
                field = number(required=False, min_value=p.minimum, max_value=p.maximum)
            field.label, field.help_text = label, help_text
            self.fields[f"game_{p.name}"] = field

    def params(self) -> dict[str, Any]:
        """The stage's parameters: those given, the others left to their defaults."""
        params: dict[str, Any] = {}
        for p in self.stage_params:
            value = self.cleaned_data.get(f"stage_{p.name}")
            if p.boolean:
                if value:
                    params[p.name] = True
            elif value not in (None, ""):
                params[p.name] = value
        for p in self.game_params:
            value = self.cleaned_data.get(f"game_{p.name}")
            if value is not None:
                params[p.name] = value
        return params

    def save(self, judge) -> Stage:
        """The stage, made by the judges' service (which checks it again and logs it)."""
        from judging import services as judges

        chosen = self.cleaned_data.get("entries")
        return judges.add_stage(
            judge,
            self.contest,
            kind=self.kind,
            name=self.cleaned_data["name"],
            order=self.cleaned_data["order"],
            params=self.params(),
            entries=sorted(e.pk for e in chosen) if chosen else "ready",
        )


def _sentence(text: str) -> str:
    """A game's help for a parameter as a sentence before the next ("rows of the board. ")."""
    text = text.strip()
    return "" if not text else text + (" " if text.endswith((".", "!", "?")) else ". ")
