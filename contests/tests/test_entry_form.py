"""The entry form's questions: every type checked the same way by the page and the API."""

import pytest

from contests.entry_form import FormError, check_specs, clean

SPECS = [
    {"name": "name", "label": "First and last name", "type": "text", "required": True},
    {"name": "email", "label": "E-mail address", "type": "email", "required": True},
    {"name": "publish", "label": "Permission to publish", "type": "checkbox", "required": True},
    {"name": "best", "label": "Your best score", "type": "integer", "required": True},
    {"name": "os", "label": "Operating system", "type": "choice", "choices": ["Linux", "Windows"]},
    {"name": "speed", "label": "Computer speed (MHz)", "type": "number"},
    {"name": "comments", "label": "Comments", "type": "textarea"},
]
GOOD = {"name": " Ada Lovelace ", "email": "ada@example.org", "publish": "on", "best": "1234"}


def test_good_answers_are_normalised():
    assert clean(SPECS, {**GOOD, "os": "Linux", "speed": "450", "comments": "line 1\nline 2"}) == {
        "name": "Ada Lovelace",
        "email": "ada@example.org",
        "publish": True,
        "best": 1234,
        "os": "Linux",
        "speed": 450.0,
        "comments": "line 1\nline 2",
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": ""}, "First and last name is required"),
        ({"name": "a\nb"}, "First and last name must be one line"),
        ({"name": "x" * 501}, "at most 500 characters"),
        ({"email": "not an address"}, "E-mail address must be an e-mail address"),
        ({"publish": ""}, "Permission to publish: you must agree"),
        ({"publish": "maybe"}, "Permission to publish is a yes or a no"),
        ({"best": "12.5"}, "Your best score must be a whole number"),
        ({"best": "-3"}, "Your best score cannot be negative"),
        ({"best": "lots"}, "Your best score must be a number"),
        ({"best": "nan"}, "Your best score must be a number"),
        ({"best": True}, "Your best score must be a number"),
        ({"os": "BeOS"}, "Operating system must be one of: Linux, Windows"),
        ({"name": ["a list"]}, "First and last name must be text"),
        ({"colour": "red"}, "The entry form has no field colour"),
    ],
)
def test_each_wrong_answer_is_refused_in_words(change, message):
    with pytest.raises(FormError, match=message):
        clean(SPECS, {**GOOD, **change})


def test_the_admin_is_told_what_is_wrong_with_a_form():
    assert check_specs(SPECS) == []
    assert check_specs({"name": "x"}) == ["The entry form is a list of fields."]
    assert check_specs([{"label": "no name"}, {"name": "a", "type": "colour"}, {"name": "b", "type": "choice"}]) == [
        "Field 1 needs a name.",
        "Field a has type 'colour'; the types are text, textarea, email, number, integer, checkbox, choice.",
        "Field b is a choice with no choices.",
    ]
