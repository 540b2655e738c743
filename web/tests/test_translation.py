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
# Every template of the site: each has every word a visitor reads in a translation tag.
TEMPLATE_FOLDERS = [ROOT / "templates", *(ROOT / app / "templates" for app in ("accounts", "contests", "games",
                                                                          "judging", "web"))]  # fmt: skip
MARKED = sorted(str(p.relative_to(ROOT)) for folder in TEMPLATE_FOLDERS for p in folder.glob("**/*.html"))
MSGFMT = shutil.which("msgfmt")
NAMES = {"API", "Arbiter", "CPU", "SHA"}  # the same in every language


def test_every_template_is_checked():
    assert len(MARKED) > 30 and "web/templates/contests/console.html" in MARKED


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
    text = re.sub(r"<(pre|code|script)\b.*?</\1>", " ", text, flags=re.S)  # commands and file names as typed; scripts
    text = re.sub(r"{#.*?#}|{%.*?%}|{{.*?}}|<[^>]*>|&[a-z]+;|&#\d+;", " ", text, flags=re.S)
    return [word for word in re.findall(r"[A-Za-z]{2,}", text) if word not in NAMES]


@pytest.mark.parametrize("name", MARKED)
def test_a_marked_template_has_no_words_outside_a_translation(name):
    assert _visible_words((ROOT / name).read_text()) == []


def test_the_check_of_a_template_finds_an_unmarked_word():
    assert _visible_words('<p>{% translate "Log in" %} <a href="x">Sign up</a></p>') == ["Sign", "up"]
    assert _visible_words("<pre>make kit</pre> <code>arbiter play</code> then") == ["then"]


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


# --- The site's JavaScript -------------------------------------------------------------------
# Every string literal of a script that holds a word is either marked (an argument of gettext,
# ngettext...) or code, known as code by where it stands: a tag, selector, event or attribute's
# name passed to the DOM, a class or id assigned, an object's key, a value compared, a CSS
# class of a legend's entry, or on a line that says "// not text" (and why). Anything else (a sentence
# assigned to textContent, a title, an aria-label, a word kept in a variable for later) fails.
SCRIPTS = sorted({*ROOT.glob("static/js/*.js"), *ROOT.glob("*/static/*/*.js")})
MARKING = {"gettext", "ngettext", "pgettext", "npgettext", "gettext_noop"}
# Calls whose arguments are code: the argument positions, or None for all of them.
CODE_CALLS: dict[str, set[int] | None] = {
    "createElement": None, "createElementNS": None, "querySelector": None, "querySelectorAll": None,
    "getElementById": None, "addEventListener": None, "removeAttribute": None, "hasAttribute": None,
    "getAttribute": None, "add": None, "remove": None, "toggle": None, "contains": None, "setProperty": None,
    "Event": None, "fetch": None, "parseFromString": None, "replaceState": None, "postMessage": None,
    "DateTimeFormat": None, "NumberFormat": None, "register": {0}, "board": None,
    "text": {0, 2}, "paragraph": {1},  # the viewer's helpers: (tag, content, class), (content, class)
}  # fmt: skip
TEXT_ATTRIBUTES = {"aria-label", "aria-valuetext", "aria-description", "title", "alt", "placeholder"}
TEXT_PROPERTIES = {"textContent", "innerText", "innerHTML", "title", "placeholder", "alt", "value"}
COMPARISONS = {"===", "!==", "==", "!="}
TOKEN = re.compile(
    r"(?P<space>\s+)|(?P<comment>//[^\n]*|/\*.*?\*/)|(?P<name>[A-Za-z_$][\w$]*)|(?P<number>\d[\w.]*)"
    r"|(?P<string>\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*')"
    r"|(?P<punct>\$\{|=>|\.\.\.|[=!]==|[=!<>+\-*/%&|^]=|&&|\|\||\?\?|\+\+|--|.)",
    re.S,
)  # fmt: skip
# After these a "/" starts a regular expression, not a division.
BEFORE_REGEX = set("(,=:[!&|?{};+-*%<>~^") | {"return", "typeof", "case", "&&", "||", "=>", "===", "!==", "==", "!="}


def _script_tokens(source: str) -> list[tuple[str, str, int]]:
    """(kind, text, line) of a script without its spaces and comments: "str" for a string
    literal's text or a template literal's text between its ${...}, whose code follows as
    tokens of its own; "regex" for a regular expression."""
    tokens: list[tuple[str, str, int]] = []
    braces: list[str] = []  # "{" or "${": which closes a template's code
    i = 0

    def template(i: int) -> int:  # from after a ` or a ${...}'s }, to after the ` or ${
        chunk = ""
        while source[i] != "`":
            if source.startswith("${", i):
                tokens.append(("str", chunk, source.count("\n", 0, i) + 1))
                tokens.append(("punct", "${", source.count("\n", 0, i) + 1))
                braces.append("${")
                return i + 2
            chunk += source[i : i + 2] if source[i] == "\\" else source[i]
            i += 2 if source[i] == "\\" else 1
        tokens.append(("str", chunk, source.count("\n", 0, i) + 1))
        return i + 1

    while i < len(source):
        line = source.count("\n", 0, i) + 1
        if source[i] == "`":
            i = template(i + 1)
            continue
        previous = tokens[-1][1] if tokens else None
        if source[i] == "/" and source[i + 1] not in "/*" and (previous is None or previous in BEFORE_REGEX):
            end = re.compile(r"/(?:\\.|\[(?:\\.|[^\]\\])*\]|[^/\\\n\[])+/[a-z]*").match(source, i).end()
            tokens.append(("regex", source[i:end], line))
            i = end
            continue
        match = TOKEN.match(source, i)
        kind, value = match.lastgroup, match.group()
        i = match.end()
        if kind == "string":
            tokens.append(("str", value[1:-1], line))
        elif value == "{":
            braces.append("{")
            tokens.append(("punct", value, line))
        elif value == "}" and braces and braces.pop() == "${":
            tokens.append(("punct", "}", line))
            i = template(i)
        elif kind not in ("space", "comment"):
            tokens.append((kind, value, line))
    return tokens


def _unmarked_text(source: str) -> list[str]:
    """The string literals of a script that hold a word and are neither marked nor code."""
    pragmas = {n for n, text in enumerate(source.splitlines(), 1) if "// not text" in text}
    tokens = _script_tokens(source)
    frames: list[dict] = []  # each open (, [, {, ${: its kind, callee, argument number, first literal
    code_until = None  # the depth at which an assignment to a property that is code ends
    found = []
    for n, (kind, value, line) in enumerate(tokens):
        before = tokens[n - 1][1] if n else None
        after = tokens[n + 1][1] if n + 1 < len(tokens) else None
        if value in ("(", "[", "{", "${") and kind == "punct":
            if value == "(":
                frame = {"kind": "call", "callee": before if n and tokens[n - 1][0] == "name" else None}
            elif value == "[":
                frame = {"kind": "index" if n and (tokens[n - 1][0] == "name" or before in (")", "]")) else "array"}
            elif value == "{":
                block = before in (None, ")", "=>", "else", "try", "finally", "do", ";", "{", "}")
                frame = {"kind": "block" if block else "object"}
            else:
                frame = {"kind": "template"}
            frames.append({**frame, "arg": 0, "first": None})
        elif value in (")", "]", "}") and kind == "punct" and frames:
            frames.pop()
            if code_until is not None and len(frames) < code_until:
                code_until = None
        elif value in (",", ";") and kind == "punct":
            if frames and value == ",":
                frames[-1]["arg"] += 1
            if code_until is not None and len(frames) == code_until:
                code_until = None
        elif value == "=" and kind == "punct" and n >= 2 and tokens[n - 2][1] == "." and before not in TEXT_PROPERTIES:
            code_until = len(frames)
        if kind != "str":
            continue
        if frames and frames[-1]["kind"] == "call" and frames[-1]["arg"] == 0:
            frames[-1]["first"] = value
        if not _is_code(value, frames, before, after, code_until, line in pragmas):
            found.append(value)
    return found


def _is_code(value, frames, before, after, code_until, pragma) -> bool:
    words = re.sub(r"^#[0-9a-fA-F]{3,8}$|^https?://\S*$|^use strict$", "", value)
    if not re.search(r"[A-Za-z]{2,}", words) or re.fullmatch(r"[a-z0-9]+(?:[-_][a-z0-9]+)+", value) or pragma:
        return True
    if any(f["kind"] == "call" and f["callee"] in MARKING for f in frames):
        return True  # marked
    if code_until is not None or before in COMPARISONS or after in COMPARISONS:
        return True
    if frames and (frames[-1]["kind"] == "index" or (frames[-1]["kind"] == "object" and after == ":")):
        return True
    # A legend's entry: [its sample's CSS classes, what it means].
    kinds = [f["kind"] for f in frames[-3:]]
    if kinds == ["call", "array", "array"] and frames[-3]["callee"] == "legend" and frames[-1]["arg"] == 0:
        return True
    for frame in reversed(frames):  # the call this literal is an argument of, through {...} and [...]
        if frame["kind"] in ("object", "array", "template"):
            continue
        if frame["kind"] != "call" or frame["callee"] is None:
            return False
        if frame["callee"] == "setAttribute":
            return frame["arg"] == 0 or frame["first"] not in TEXT_ATTRIBUTES
        positions = CODE_CALLS.get(frame["callee"], set())
        return positions is None or frame["arg"] in positions
    return False


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_script_shows_no_english_that_is_not_marked(script):
    assert _unmarked_text(script.read_text()) == []


def test_the_check_of_a_script_finds_unmarked_text_and_passes_marked_text_and_code():
    source = """
      const kind = cpu ? gettext("CPU time") : "real time";
      el.className = { X: "poison", O: "cookie" }[cell] || "tally clocks";
      el.setAttribute("aria-hidden", "true");
      el.setAttribute("aria-label", `Time of each move; the longest ${top} s`);
      el.title = interpolate(gettext("row %(row)s"), { row: r }, true);
      el.textContent = `Move ${n}: ${who ? `seat ${who}` : "nobody"} played`;
      p.appendChild(text("p", "The start of the game.", "move-title"));
      document.querySelector("[data-act=play]").addEventListener("click", go);
      if (e.key === "Enter") go(/seat (\\d+)/g, "seat 1");
      Arbiter.legend([["chomp-key cookie", gettext("a cookie")], ["key", "eaten"]]);
      const rows = "ABCDEFGHI"; // not text
    """
    assert _unmarked_text(source) == [
        "real time", "Time of each move; the longest ", "Move ", "seat ", "nobody", " played",
        "The start of the game.", "seat 1", "eaten",
    ]  # fmt: skip


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


@pytest.mark.slow
def test_makemessages_on_the_tree_leaves_nothing_to_translate(tmp_path):
    """The catalogues hold every message the code and templates mark now: `makemessages` run on a
    copy of the tracked files (as docs/translating.md says) leaves no entry untranslated or fuzzy.
    A string marked after the catalogues were last made would pass the checks above and still
    show in English."""
    assert MSGFMT is not None, "gettext's msgfmt is missing: scripts/system-deps.sh test installs it"
    import os
    import sys

    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in tracked.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, tmp_path / name)
    ignores = ["var/*", "examples/*", "bench/*", "docs/*", "*/tests/*", ".venv/*"]
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "ARBITER_VAR_DIR": str(tmp_path / "var")}
    for domain in ("django", "djangojs"):
        made = subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-l", "nl", "-d", domain, "--no-location",
             *(f"--ignore={pattern}" for pattern in ignores)],
            cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert made.returncode == 0, made.stderr
    left = {}
    for catalogue in sorted(tmp_path.glob("**/locale/*/LC_MESSAGES/*.po")):
        checked = subprocess.run([MSGFMT, "--statistics", "-o", os.devnull, str(catalogue)], capture_output=True,
                                 text=True, check=False)  # fmt: skip
        if "untranslated" in checked.stderr or "fuzzy" in checked.stderr:
            untranslated = subprocess.run(["msgattrib", "--untranslated", "--only-fuzzy", str(catalogue)],
                                          capture_output=True, text=True, check=False).stdout  # fmt: skip
            left[str(catalogue.relative_to(tmp_path))] = checked.stderr.strip() + "\n" + untranslated[-2000:]
    assert not left, "\n".join(f"{name}: {said}" for name, said in left.items())
