"""The site in two languages (issue 38): Dutch by the browser's Accept-Language or the header's
switcher, English otherwise; every catalogue whole (nothing untranslated or fuzzy, its compiled
file up to date); the pages marked so far have no text outside a translation tag."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.test import Client

from contests.tests.factories import make_user

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = sorted(p for p in ROOT.glob("**/locale/*/LC_MESSAGES/*.po") if ".venv" not in p.parts)
# The templates whose every word is marked (the rest are being marked: docs/translating.md).
MARKED = [
    "templates/base.html", "templates/home.html", "templates/_contests.html", "templates/403.html",
    "templates/404.html", "templates/500.html", "templates/_pages.html",
    "accounts/templates/registration/login.html", "accounts/templates/registration/signup.html",
    "accounts/templates/registration/_language.html",
]  # fmt: skip
MSGFMT = shutil.which("msgfmt")
NAMES = {"API", "Arbiter"}  # the same in every language


def test_there_is_a_dutch_catalogue():
    assert ROOT / "locale/nl/LC_MESSAGES/django.po" in CATALOGUES


@pytest.mark.parametrize("catalogue", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_catalogue_is_whole_and_compiled(catalogue, tmp_path):
    assert MSGFMT is not None, "gettext's msgfmt is missing: scripts/system-deps.sh test installs it"
    checked = subprocess.run(
        [MSGFMT, "--check", "--statistics", "-o", str(tmp_path / "django.mo"), str(catalogue)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stderr
    said = checked.stderr.strip()
    assert "untranslated" not in said and "fuzzy" not in said, said
    compiled = catalogue.with_suffix(".mo")
    assert compiled.read_bytes() == (tmp_path / "django.mo").read_bytes(), f"{compiled} is older than its .po"


def _visible_words(template: str) -> list[str]:
    """The words of a template a visitor reads that no translation tag holds."""
    text = re.sub(r"{%\s*blocktranslate.*?endblocktranslate\s*%}", " ", template, flags=re.S)
    text = re.sub(r"{#.*?#}|{%.*?%}|{{.*?}}|<[^>]*>|&[a-z]+;|&#\d+;", " ", text, flags=re.S)
    return [word for word in re.findall(r"[A-Za-z]{2,}", text) if word not in NAMES]


@pytest.mark.parametrize("name", MARKED)
def test_a_marked_template_has_no_words_outside_a_translation(name):
    assert _visible_words((ROOT / name).read_text()) == []


def test_the_check_of_a_template_finds_an_unmarked_word():
    assert _visible_words('<p>{% translate "Log in" %} <a href="x">Sign up</a></p>') == ["Sign", "up"]


@pytest.mark.django_db
def test_the_browser_s_language_chooses_dutch_and_english_stays_the_default():
    dutch = Client(HTTP_ACCEPT_LANGUAGE="nl-NL,nl;q=0.9,en;q=0.5").get("/").content.decode()
    assert '<html lang="nl">' in dutch and ">Wedstrijden</h1>" in dutch and ">Inloggen</a>" in dutch
    english = Client().get("/").content.decode()
    assert '<html lang="en">' in english and ">Contests</h1>" in english and ">Log in</a>" in english
    other = Client(HTTP_ACCEPT_LANGUAGE="fr").get("/accounts/login/").content.decode()
    assert '<html lang="en">' in other  # a language the site has not: English


@pytest.mark.django_db
def test_the_switcher_changes_the_language_of_a_logged_in_user():
    client = Client()
    client.force_login(make_user("anna"))
    page = client.get("/").content.decode()
    assert 'id="language"' in page and '<option value="nl"' in page and ">Log out</button>" in page
    answer = client.post("/i18n/setlang/", {"language": "nl", "next": "/"})
    assert answer.status_code == 302 and answer["Location"] == "/"
    page = client.get("/").content.decode()
    assert '<html lang="nl">' in page and ">Uitloggen</button>" in page and ">Meldingen</a>" in page
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert ">Log out</button>" in client.get("/").content.decode()


# --- Python's messages ------------------------------------------------------------------------

# Where a message to a person is made: a page's flash, a form's or the API's refusal, a command's.
MESSAGE_CALLS = {
    "success", "error", "warning", "info", "ValidationError", "PermissionDenied", "CommandError", "Http404",
    "ParseError", "NotFound", "Throttled", "APIException", "PermissionDeniedError", "Conflict",
    "HttpResponseBadRequest", "HttpResponseForbidden", "HttpResponseNotFound", "CliError",
}  # fmt: skip
FLASHES = {"success", "error", "warning", "info"}  # messages.success(request, TEXT)
FORM_WORDS = {"label", "help_text"}  # a form's field, as its page shows it
SOURCES = ["web", "accounts", "contests", "judging", "arbiter", "games", "sandbox"]
# Models' and serializers' help texts document the admin's and the API's fields, in English as
# their names are (docs/translating.md).
DOCUMENTING = ("models.py", "serializers.py", "schema.py")


def _words(node: ast.expr) -> bool:
    """A string literal, or an f-string, whose own text holds two words or more."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = " ".join(part.value for part in node.values if isinstance(part, ast.Constant))
    else:
        return False
    return len(re.findall(r"[A-Za-z]{2,}", text)) >= 2


def unmarked_messages(source: str, path: str) -> list[str]:
    """Each call that hands a person a sentence no gettext holds, as "path:line"."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        said = []
        if name in MESSAGE_CALLS:
            said = node.args[1:2] if name in FLASHES else node.args[:1]
            said += [k.value for k in node.keywords if k.arg in ("message", "detail")]
        serializer = isinstance(node.func, ast.Attribute) and getattr(node.func.value, "id", "") == "serializers"
        if not path.endswith(DOCUMENTING) and not serializer:
            said += [k.value for k in node.keywords if k.arg in FORM_WORDS]
        found += [f"{path}:{node.lineno}" for value in said if _words(value)]
    return found


def test_no_message_to_a_person_is_left_unmarked_in_python():
    found = []
    for app in SOURCES:
        for path in sorted((ROOT / app).rglob("*.py")):
            if {"tests", "migrations"} & set(path.parts):
                continue
            found += unmarked_messages(path.read_text(), str(path.relative_to(ROOT)))
    assert found == [], "\n".join(found)


def test_the_python_check_finds_an_unmarked_message():
    source = (
        'messages.success(request, "Revoked the token.")\n'
        'messages.success(request, gettext("Revoked the token."))\n'
        'raise CommandError(f"{path}: {why}")\n'
        'raise ValidationError(f"no user named {name}")\n'
        'field = forms.CharField(help_text="What it is for")\n'
        'field = serializers.CharField(help_text="The API schema\'s own words")\n'
    )
    assert unmarked_messages(source, "web/x.py") == ["web/x.py:1", "web/x.py:4", "web/x.py:5"]
