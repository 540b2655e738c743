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
        return ["The entry form is a list of fields."]
    problems, names = [], set()
    for i, spec in enumerate(specs, 1):
        if not isinstance(spec, dict) or not isinstance(spec.get("name"), str) or not spec["name"]:
            problems.append(f"Field {i} needs a name.")
            continue
        if spec["name"] in names:
            problems.append(f"Two fields are named {spec['name']}.")
        names.add(spec["name"])
        kind = spec.get("type", "text")
        if kind not in TYPES:
            problems.append(f"Field {spec['name']} has type {kind!r}; the types are {', '.join(TYPES)}.")
        if kind == "choice" and not (isinstance(spec.get("choices"), list) and spec["choices"]):
            problems.append(f"Field {spec['name']} is a choice with no choices.")
    return problems


def clean_answer(spec: dict[str, Any], value: Any) -> Any:
    """One answer checked and normalised, or None when it is not given (FormError if wrong)."""
    kind, name = spec.get("type", "text"), label(spec)
    if kind == "checkbox":
        given = value in (True, "on", "true", "True", "yes", "1", 1)
        if value not in (None, "", False, "false", "False", "no", "0", 0) and not given:
            raise FormError(f"{name} is a yes or a no.")
        if spec.get("required") and not given:
            raise FormError(f"{name}: you must agree to enter.")
        return given
    if isinstance(value, str):
        value = value.strip()
    if value in ("", None):
        if spec.get("required"):
            raise FormError(f"{name} is required.")
        return None
    if kind in ("number", "integer"):
        if isinstance(value, bool):
            raise FormError(f"{name} must be a number.")
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise FormError(f"{name} must be a number.") from None
        if number != number or number in (float("inf"), float("-inf")):
            raise FormError(f"{name} must be a number.")
        if number < 0:
            raise FormError(f"{name} cannot be negative.")
        if kind == "integer":
            if number != int(number):
                raise FormError(f"{name} must be a whole number.")
            return int(number)
        return number
    if not isinstance(value, str):
        raise FormError(f"{name} must be text.")
    limit = int(spec.get("max") or (TEXTAREA_MAX if kind == "textarea" else TEXT_MAX))
    if len(value) > limit:
        raise FormError(f"{name} must be text of at most {limit} characters.")
    if kind != "textarea" and ("\n" in value or "\r" in value):
        raise FormError(f"{name} must be one line.")
    if kind == "email":
        try:
            validate_email(value)
        except ValidationError:
            raise FormError(f"{name} must be an e-mail address, like name@example.org.") from None
    if kind == "choice":
        choices = [str(c) for c in spec.get("choices", [])]
        if value not in choices:
            raise FormError(f"{name} must be one of: {', '.join(choices)}.")
    return value


def clean(specs: list[dict[str, Any]], answers: dict[str, Any]) -> dict[str, Any]:
    """Every answer checked against the contest's form; unknown fields refused."""
    if not isinstance(answers, dict):
        raise FormError("The entry form's answers are a set of named fields.")
    unknown = set(answers) - {spec["name"] for spec in specs}
    if unknown:
        raise FormError(f"The entry form has no field {', '.join(sorted(map(str, unknown)))}.")
    out: dict[str, Any] = {}
    for spec in specs:
        value = clean_answer(spec, answers.get(spec["name"]))
        if value is not None:
            out[spec["name"]] = value
    return out
