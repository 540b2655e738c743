"""A contest's entry form: the questions its original page asked of every entrant.

``Contest.entry_form`` is a list of field specs, each a dict::

    {"name": "escape", "label": "Escape valve", "type": "text", "required": true,
     "help": "A keystroke that stops your program", "choices": [...], "max": 500}

Types: ``text`` (one line), ``textarea`` (several lines), ``email``, ``number`` (a
non-negative number), ``integer`` (a non-negative whole number), ``checkbox`` (a yes that
may be required: a permission), ``choice`` (one of ``choices``). The page's form and the API
check answers with the same function (``clean``), so both refuse the same answers with the
same words.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext

TYPES = ("text", "textarea", "email", "number", "integer", "checkbox", "choice")
TEXT_MAX = 500
TEXTAREA_MAX = 10_000


class FormError(ValueError):
    """An answer the form refuses; the message names the field as the form labels it."""


def label(spec: dict[str, Any]) -> str:
    return spec.get("label") or spec["name"]


def check_specs(specs: Any) -> list[str]:
    """What is wrong with a contest's list of field specs (for the admin), as messages."""
    if not isinstance(specs, list):
        return [gettext("The entry form is a list of fields.")]
    problems, names = [], set()
    for i, spec in enumerate(specs, 1):
        if not isinstance(spec, dict) or not isinstance(spec.get("name"), str) or not spec["name"]:
            problems.append(gettext("Field %(number)s needs a name.") % {"number": i})
            continue
        if spec["name"] in names:
            problems.append(gettext("Two fields are named %(name)s.") % {"name": spec["name"]})
        names.add(spec["name"])
        kind = spec.get("type", "text")
        if kind not in TYPES:
            problems.append(
                gettext("Field %(name)s has type %(kind)s; the types are %(types)s.")
                % {"name": spec["name"], "kind": repr(kind), "types": ", ".join(TYPES)}
            )
        if kind == "choice" and not (isinstance(spec.get("choices"), list) and spec["choices"]):
            problems.append(gettext("Field %(name)s is a choice with no choices.") % {"name": spec["name"]})
    return problems


def clean_answer(spec: dict[str, Any], value: Any) -> Any:
    """One answer checked and normalised, or None when it is not given (FormError if wrong)."""
    kind, name = spec.get("type", "text"), label(spec)
    if kind == "checkbox":
        given = value in (True, "on", "true", "True", "yes", "1", 1)
        if value not in (None, "", False, "false", "False", "no", "0", 0) and not given:
            raise FormError(gettext("%(name)s is a yes or a no.") % {"name": name})
        if spec.get("required") and not given:
            raise FormError(gettext("%(name)s: you must agree to enter.") % {"name": name})
        return given
    if isinstance(value, str):
        value = value.strip()
    if value in ("", None):
        if spec.get("required"):
            raise FormError(gettext("%(name)s is required.") % {"name": name})
        return None
    if kind in ("number", "integer"):
        if isinstance(value, bool):
            raise FormError(gettext("%(name)s must be a number.") % {"name": name})
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise FormError(gettext("%(name)s must be a number.") % {"name": name}) from None
        if number != number or number in (float("inf"), float("-inf")):
            raise FormError(gettext("%(name)s must be a number.") % {"name": name})
        if number < 0:
            raise FormError(gettext("%(name)s cannot be negative.") % {"name": name})
        if kind == "integer":
            if number != int(number):
                raise FormError(gettext("%(name)s must be a whole number.") % {"name": name})
            return int(number)
        return number
    if not isinstance(value, str):
        raise FormError(gettext("%(name)s must be text.") % {"name": name})
    limit = int(spec.get("max") or (TEXTAREA_MAX if kind == "textarea" else TEXT_MAX))
    if len(value) > limit:
        raise FormError(
            gettext("%(name)s must be text of at most %(limit)s characters.") % {"name": name, "limit": limit}
        )
    if kind != "textarea" and ("\n" in value or "\r" in value):
        raise FormError(gettext("%(name)s must be one line.") % {"name": name})
    if kind == "email":
        try:
            validate_email(value)
        except ValidationError:
            raise FormError(
                gettext("%(name)s must be an e-mail address, like name@example.org.") % {"name": name}
            ) from None
    if kind == "choice":
        choices = [str(c) for c in spec.get("choices", [])]
        if value not in choices:
            raise FormError(
                gettext("%(name)s must be one of: %(choices)s.") % {"name": name, "choices": ", ".join(choices)}
            )
    return value


def clean(specs: list[dict[str, Any]], answers: dict[str, Any]) -> dict[str, Any]:
    """Every answer checked against the contest's form; unknown fields refused."""
    if not isinstance(answers, dict):
        raise FormError(gettext("The entry form's answers are a set of named fields."))
    unknown = set(answers) - {spec["name"] for spec in specs}
    if unknown:
        raise FormError(
            gettext("The entry form has no field %(fields)s.") % {"fields": ", ".join(sorted(map(str, unknown)))}
        )
    out: dict[str, Any] = {}
    for spec in specs:
        value = clean_answer(spec, answers.get(spec["name"]))
        if value is not None:
            out[spec["name"]] = value
    return out
