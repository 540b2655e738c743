"""A contest's settings in one form, with every check the platform makes of them. The admin's
contest page, the organisers' pages and the API (``POST /api/contests/``, ``PATCH
/api/contests/SLUG/``) all check with ``ContestForm``, then save through
``contests.services.save_contest``, which writes the judges' log."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from contests import bounds, entry_form, services
from contests.models import Contest
from contests.services import CONTEST_SETTINGS
from games import registry
from games.base import ParamError
from games.clocks import Clock, ClockError
from games.hosted import HostedGame
from sandbox import languages

DEFAULT_MEMORY_MB = Clock().memory_mb  # a program's memory when neither the contest nor its game sets one

# The settings in groups, in the order the admin and the organisers' page show them.
SECTIONS: tuple[tuple[Any, tuple[str, ...]], ...] = (
    (gettext_lazy("Contest"), ("title", "slug", "summary", "is_public")),
    (gettext_lazy("Game"), ("game", "game_params", "clock", "memory_mb", "game_data")),
    (gettext_lazy("Rules"), ("rules", "rules_source")),
    (gettext_lazy("Schedule"), ("opens_at", "closes_at")),
    (
        gettext_lazy("Submission policy"),
        (
            "language_table", "allowed_languages", "max_source_bytes", "source_counts", "max_executable_bytes",
            "max_entries_per_user", "max_submissions_per_day", "max_submissions_per_week", "entry_form",
        ),
    ),
)  # fmt: skip

PARAMS_HELP = gettext_lazy("A JSON object of the game's parameters; each one left out is the game's default.")

# /organise/contests/new/ is the page of a new contest, so no contest may be at that address.
RESERVED_SLUGS = ("new",)


def game_choices(current: str = "") -> list[tuple[str, str]]:
    """Every game of the registry, read when asked (uploaded games join it), by title and key;
    a contest made for a game to come keeps it (listed, never open) until it is hosted."""
    choices = [(name, f"{game.info.title} ({name})") for name, game in sorted(registry.GAMES.items())]
    if current and current not in registry.GAMES:
        choices.append((current, gettext("%(game)s (not hosted yet: the contest cannot open)") % {"game": current}))
    return choices


def _values_in_words(p: Any) -> str:
    """What values a parameter takes, in the reader's language: "2 to 50", "one of hex, go"."""
    if p.choices:
        return gettext("one of %(choices)s") % {"choices": ", ".join(p.line(c) for c in p.choices)}
    if p.kind == "boolean":
        return gettext("true or false")
    if p.kind == "string":
        return gettext("a line of text")
    low, high = (
        gettext("any") if v is None else f"{v:g}" if isinstance(v, float) else str(v) for v in (p.minimum, p.maximum)
    )
    return gettext("%(low)s to %(high)s") % {"low": low, "high": high}


def _param_in_words(p: Any) -> str:
    """A parameter for the organiser: its name, its values, its default; the game's own help
    after it, in the game's words."""
    default = repr(p.line(p.default)) if p.kind == "string" else p.line(p.default)
    said = gettext("%(name)s: %(values)s, %(default)s if not set") % {
        "name": p.name,
        "values": _values_in_words(p),
        "default": default,
    }
    return said + (f" ({p.help.rstrip('.')})" if p.help else "")


def game_defaults(name: str) -> dict[str, Any]:
    """What a contest of the game has when it sets nothing: its parameters, its clock (the
    memory apart) and its memory; and its parameters in words."""
    game = registry.GAMES[name]
    clock = dict(getattr(game, "default_clock", {}) or {})
    memory = clock.pop("memory_mb", DEFAULT_MEMORY_MB)
    params = game.info.params
    about = "; ".join(_param_in_words(p) for p in params)
    return {
        "params": {p.name: p.default for p in params},
        "clock": clock,
        "memory_mb": memory,
        "about": f"{game.info.title}: {about}."
        if params
        else gettext("%(game)s takes no parameters.") % {"game": game.info.title},
    }


def settings_of(contest: Contest) -> dict[str, Any]:
    """A contest's settings as a form's data (the API's PATCH sends only those that change; a
    new contest's are the model's defaults). Its data file stays as it is."""
    return {name: getattr(contest, name) for name in CONTEST_SETTINGS if name != "game_data"}


class JSONField(forms.JSONField):
    """Django's JSON field, with JSON nested too deeply for Python's parser (a 100,000-deep
    array) refused as the API's JSONParser refuses it, not a RecursionError and a 500."""

    def to_python(self, value: Any) -> Any:
        try:
            return super().to_python(value)
        except RecursionError:
            raise forms.ValidationError(gettext("The JSON is nested too deeply."), code="invalid") from None

    def bound_data(self, data: Any, initial: Any) -> Any:
        try:
            return super().bound_data(data, initial)
        except RecursionError:
            return forms.fields.InvalidJSONInput(data)


class SettingsJSONField(JSONField):
    """JSON settings shown empty when there are none (not as {} or null), so that the
    placeholder shows the game's defaults; empty, they are none."""

    def prepare_value(self, value: Any) -> Any:
        return "" if value in (None, {}, []) else super().prepare_value(value)


def _in_zone(moment) -> str:
    return f"{timezone.localtime(moment):%Y-%m-%d %H:%M} {timezone.get_current_timezone_name()}"


class ContestForm(forms.ModelForm):
    """Every setting of a contest, checked as the platform will use it: the game is one the
    registry hosts, its parameters those the game takes (``resolve_params``), the clock one
    ``Clock.from_json`` reads with the game's defaults under it, the deadline after the
    opening, the languages in the chosen table, the entry form's fields well formed, a data
    file one the game can use, the source limit within what the site accepts at all."""

    rules_source = forms.URLField(
        required=False,
        assume_scheme="https",
        label=gettext_lazy("Original rules"),
        help_text=Contest._meta.get_field("rules_source").help_text,
    )
    memory_mb = forms.IntegerField(
        required=False,
        min_value=1,
        label=gettext_lazy("Memory (MB)"),
        help_text=gettext_lazy("Each program's memory (the clock's memory_mb); the game's if empty."),
    )
    allowed_languages = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Languages allowed"),
        help_text=gettext_lazy("Every language of the table if none is ticked."),
    )

    class Meta:
        model = Contest
        fields = list(CONTEST_SETTINGS)
        labels = {
            "title": gettext_lazy("Title"),
            "slug": gettext_lazy("Slug"),
            "summary": gettext_lazy("Summary"),
            "is_public": gettext_lazy("Listed publicly"),
            "game_params": gettext_lazy("Game parameters"),
            "clock": gettext_lazy("Clock"),
            "game_data": gettext_lazy("Game data file"),
            "rules": gettext_lazy("Rules (Markdown)"),
            "language_table": gettext_lazy("Language table"),
            "max_source_bytes": gettext_lazy("Largest source (bytes)"),
            "source_counts": gettext_lazy("What the size counts"),
            "max_executable_bytes": gettext_lazy("Largest built program (bytes)"),
            "max_entries_per_user": gettext_lazy("Entries per contestant"),
            "max_submissions_per_day": gettext_lazy("Submissions a day"),
            "max_submissions_per_week": gettext_lazy("Submissions a week"),
            "entry_form": gettext_lazy("Entry form"),
        }
        help_texts = {
            "slug": gettext_lazy("Its address: /contests/SLUG/. Letters, digits, hyphens and underscores."),
            "clock": gettext_lazy(
                "A JSON object of time limits (games.clocks.Clock names them); the game's if empty, "
                "and any the game sets that this leaves out."
            ),
            "rules": gettext_lazy(
                "Markdown, as contestants read it on the contest's page. HTML that could run (a script, "
                "an event handler) is removed."
            ),
        }
        field_classes = {"game_params": SettingsJSONField, "clock": SettingsJSONField, "entry_form": SettingsJSONField}
        error_messages = {"slug": {"unique": gettext_lazy("Another contest already has this slug; choose another.")}}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        hosted = ", ".join(sorted(registry.GAMES))
        self.fields["game"] = forms.ChoiceField(
            choices=game_choices(self.instance.game if self.instance.pk else ""),
            label=gettext("Game"),
            help_text=gettext("The games hosted here, by title and key."),
            # %(value)s is left for the field to fill in.
            error_messages={
                "invalid_choice": gettext("%(value)s is not a game hosted here; the games are: %(games)s.")
                % {"value": "%(value)s", "games": hosted}
            },
        )
        self.fields["language_table"] = forms.ChoiceField(
            choices=[(t.name, t.title) for t in languages.TABLES.values()],
            label=gettext("Language table"),
            help_text=self.fields["language_table"].help_text,
            required=False,
        )
        self.fields["source_counts"].required = False
        self.fields["allowed_languages"].choices = [(key, services.language_title(key)) for key in languages.LANGUAGES]
        for name, bound in (("memory_mb", bounds.MEMORY), *bounds.CONTEST_LIMITS.items()):
            field = self.fields[name]
            allows = gettext("This site allows %(bound)s.") % {"bound": bound.said()}
            field.help_text = f"{field.help_text} {allows}".strip()
        self.fields["entry_form"].help_text = gettext(
            'A JSON list of the questions every entrant answers: [{"name": "email", "label": '
            '"E-mail", "type": "email", "required": true}]. Types: %(types)s; a '
            'choice lists its "choices".'
        ) % {"types": ", ".join(entry_form.TYPES)}
        self.fields["clock"].help_text = " ".join(
            (
                str(self.fields["clock"].help_text),
                gettext("This site allows a move %(move)s, a game %(game)s, a run %(run)s.")
                % {
                    "move": bounds.MOVE_SECONDS.said(),
                    "game": bounds.GAME_SECONDS.said(),
                    "run": bounds.RUN_SECONDS.said(),
                },
            )
        )
        zone = timezone.get_current_timezone_name()
        self.fields["opens_at"].label = gettext("Opens (%(zone)s)") % {"zone": zone}
        self.fields["closes_at"].label = gettext("Closes (%(zone)s)") % {"zone": zone}
        # The memory has a field of its own; the row keeps it in the clock, as memory_mb.
        clock = dict(self.initial.get("clock") or {})
        if "memory_mb" in clock:
            self.initial.setdefault("memory_mb", clock.pop("memory_mb"))
            self.initial["clock"] = clock
        self.show_defaults(self.chosen_game())

    def chosen_game(self) -> str:
        """The game the form is about, if hosted: the one sent, else the contest's, else the
        first listed."""
        name = (self.data.get("game") if self.is_bound else None) or self.initial.get("game") or self.instance.game
        if not name:
            return min(registry.GAMES, default="")
        return name if isinstance(name, str) and name in registry.GAMES else ""

    def show_defaults(self, name: str) -> None:
        """The game's defaults as the placeholders of its parameters, clock and memory."""
        if not name:
            return
        defaults = game_defaults(name)
        self.fields["game_params"].widget.attrs["placeholder"] = json.dumps(defaults["params"])
        self.fields["clock"].widget.attrs["placeholder"] = json.dumps(defaults["clock"])
        self.fields["memory_mb"].widget.attrs["placeholder"] = str(defaults["memory_mb"])
        self.fields["game_params"].help_text = f"{PARAMS_HELP} {defaults['about']}"

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"]
        if slug in RESERVED_SLUGS:
            raise forms.ValidationError(
                gettext("%(slug)s is the address of the new contest's page; choose another slug.") % {"slug": slug}
            )
        return slug

    def clean_game_params(self) -> dict:
        params = self.cleaned_data["game_params"]
        if params is None:
            return {}
        if not isinstance(params, dict):
            raise forms.ValidationError(gettext('The game parameters are a JSON object, such as {"rows": 7}.'))
        return params

    def clean_clock(self) -> dict:
        clock = self.cleaned_data["clock"]
        if clock is None:
            return {}
        if not isinstance(clock, dict):
            raise forms.ValidationError(gettext('The clock is a JSON object, such as {"wall_per_move_s": 10}.'))
        return clock

    def clean_language_table(self) -> str:
        return self.cleaned_data["language_table"] or "arbiter"

    def clean_source_counts(self) -> str:
        return self.cleaned_data["source_counts"] or "bytes"

    def clean_entry_form(self) -> list:
        specs = self.cleaned_data["entry_form"]
        if specs is None:
            return []
        problems = entry_form.check_specs(specs)
        if problems:
            raise forms.ValidationError(problems)
        return specs

    def clean_max_source_bytes(self) -> int:
        value = self.cleaned_data["max_source_bytes"]
        cap = settings.UPLOAD_MAX_BYTES
        if value is not None and value > cap:
            raise forms.ValidationError(
                gettext(
                    "At most %(cap)s bytes: the site refuses any larger request (UPLOAD_MAX_BYTES); raise that first."
                )
                % {"cap": f"{cap:,}"}
            )
        return value

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        name = cleaned.get("game")
        game = registry.GAMES.get(name) if name else None
        moved = name and self.instance.pk and name != self.instance.game
        if moved and not _versions_of_one_game(name, self.instance.game) and self.instance.entries.exists():
            self.add_error(
                "game",
                gettext(
                    "The game cannot change: %(contest)s has entries, whose programs play "
                    "%(game)s. Open a new contest for %(new)s."
                )
                % {"contest": self.instance.title, "game": self.instance.game, "new": name},
            )
        if isinstance(game, HostedGame) and not (cleaned.get("rules") or "").strip():
            cleaned["rules"] = game.manifest.rules  # the uploaded game's rules page, until the organiser writes one
        if game is not None and "game_params" in cleaned:
            try:
                game.resolve_params(cleaned["game_params"])
            except ParamError as e:
                self.add_error("game_params", str(e))
            else:
                for param, value in cleaned["game_params"].items():  # the site's bound is on numbers
                    numeric = isinstance(value, int | float) and not isinstance(value, bool)
                    if numeric and (problem := bounds.GAME_PARAM.refusal(param, value)):
                        self.add_error("game_params", problem)
        for limit, bound in bounds.CONTEST_LIMITS.items():
            value = cleaned.get(limit)
            if value is not None and (problem := bound.refusal(limit, value)):
                self.add_error(limit, problem)
        if "clock" in cleaned:
            self._clean_clock_and_memory(cleaned, game)
        self._clean_game_data(cleaned, name)
        opens, closes = cleaned.get("opens_at"), cleaned.get("closes_at")
        if opens and closes and closes <= opens:
            self.add_error(
                "closes_at",
                gettext("The contest must close after it opens: it would close at %(closes)s and open at %(opens)s.")
                % {"closes": _in_zone(closes), "opens": _in_zone(opens)},
            )
        table = languages.TABLES.get(cleaned.get("language_table") or "")
        missing = [key for key in cleaned.get("allowed_languages") or [] if table and key not in table]
        if missing:
            self.add_error(
                "allowed_languages",
                gettext("The table %(table)s has no %(missing)s; it has %(keys)s.")
                % {"table": table.title, "missing": ", ".join(missing), "keys": ", ".join(table.commands)},
            )
        return cleaned

    def _clean_clock_and_memory(self, cleaned: dict[str, Any], game) -> None:
        """The clock as the row keeps it (the memory in it), read by ``Clock.from_json`` over
        the game's defaults, as the referee will read it."""
        clock, memory = dict(cleaned["clock"]), cleaned.get("memory_mb")
        if memory is not None:
            if clock.get("memory_mb") not in (None, memory):
                self.add_error(
                    "memory_mb",
                    gettext(
                        "The clock says memory_mb %(clock)s and this field %(memory)s: set the memory in one place."
                    )
                    % {"clock": clock["memory_mb"], "memory": memory},
                )
                return
            clock["memory_mb"] = memory
        defaults = dict(getattr(game, "default_clock", {}) or {}) if game is not None else {}
        try:
            Clock.from_json({**defaults, **clock})
        except ClockError as e:
            self.add_error("clock", gettext("The clock: %(problem)s.") % {"problem": e})
            return
        refused = bounds.clock_refusals({**defaults, **clock})
        for name, problem in refused.items():
            said = problem if name in clock else gettext("The game's %(problem)s") % {"problem": problem}
            self.add_error("memory_mb" if name == "memory_mb" and memory is not None else "clock", said)
        if not refused:
            cleaned["clock"] = clock

    def _clean_game_data(self, cleaned: dict[str, Any], name: str | None) -> None:
        data = cleaned.get("game_data")
        if not (data and hasattr(data, "read") and name):
            return
        check = getattr(registry.GAMES.get(name), "check_data", None)
        if check is None:
            self.add_error("game_data", gettext("%(game)s takes no data file.") % {"game": name})
            return
        data.seek(0)
        content = data.read()
        data.seek(0)
        try:
            check(content)
        except ValueError as e:
            self.add_error("game_data", str(e))


class ContestPageForm(ContestForm):
    """The organisers' page: ``ContestForm``'s settings and checks, with inputs a browser fills
    without the admin's scripts, and a note for the judges' log."""

    reason = forms.CharField(
        required=False,
        max_length=2000,
        label=gettext_lazy("Note for the judges' log"),
        help_text=gettext_lazy("Optional: why, for the judges who read the log."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("opens_at", "closes_at"):
            self.fields[name].widget = forms.DateTimeInput(
                attrs={"type": "datetime-local", "step": "1"}, format="%Y-%m-%dT%H:%M:%S"
            )
        for name, rows in (("game_params", 2), ("clock", 2), ("entry_form", 4), ("rules", 16)):
            self.fields[name].widget.attrs.update(rows=rows, cols=80)

    def sections(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [(title, [self[name] for name in names]) for title, names in SECTIONS]


def _versions_of_one_game(new: str, old: str) -> bool:
    """Two versions of one uploaded game (``nim@1``, ``nim@2``): a contest with entries may move
    from one to the other, its organiser's decision; its programs play the same game."""
    return "@" in new and "@" in old and new.partition("@")[0] == old.partition("@")[0]
