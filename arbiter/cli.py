"""``arbiter``: the command-line client of an Arbiter site.

    export ARBITER_URL=https://contest.example.org ARBITER_TOKEN=arb_...
    arbiter contests
    arbiter submit chomp muncher.c --wait
    arbiter status [SUBMISSION]
    arbiter standings chomp
    arbiter matches chomp --mine
    arbiter replay 42
    arbiter play chomp mine.c games/chomp/players/random_player.c   # locally, no server
    arbiter bundle 42                             # match-42-bundle.zip: what it was played with
    arbiter replay --check match-42-bundle.zip    # play it again here: the same moves and scores?

Every command takes ``--json`` for output a script can read. The URL and token may also be
set in ~/.config/arbiter/config.ini (section [arbiter], keys url and token).
"""

from __future__ import annotations

import argparse
import configparser
import gettext as translations
import json
import os
import sys
import time
import unicodedata
import uuid
from pathlib import Path
from typing import Any

import httpx

DEFAULT_URL = "http://127.0.0.1:8000"
WAITING = {"queued", "building", "testing"}


def _catalogue() -> translations.NullTranslations:
    """The client's own words in the shell's language when the site's catalogues have it (the
    locale folder beside this package, as a clone or the kit has it); English otherwise. No
    Django: a command that only asks a site starts at once."""
    code = shell_language()
    wanted = [code.replace("-", "_"), code.split("-")[0]] if code else []
    folder = Path(__file__).resolve().parents[1] / "locale"
    return translations.translation("django", localedir=folder, languages=wanted, fallback=True)


def gettext(message: str) -> str:
    return _catalogue().gettext(message)


class CliError(Exception):
    """A message for the user; the command exits with status 1."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def shell_language() -> str | None:
    """The language the shell asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, in gettext's order)
    as a language tag, "nl-NL"; None if unset, C or POSIX. The site answers in it when it has
    it (its Accept-Language), and a command played here speaks it."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = (os.environ.get(name) or "").split(":")[0]
        if value:
            code = value.split(".")[0].split("@")[0]
            return None if code in ("C", "POSIX") else code.replace("_", "-")
    return None


def _speak_the_shells_language() -> None:
    """After django.setup(): what this process's Django says, in the shell's language if the
    site has it."""
    from django.utils import translation

    from judging.management.language import shell_language as site_language

    code = site_language()
    if code:
        translation.activate(code)


def config() -> tuple[str, str | None]:
    parser = configparser.ConfigParser()
    home = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    parser.read(home / "arbiter" / "config.ini")
    section = parser["arbiter"] if parser.has_section("arbiter") else {}
    url = os.environ.get("ARBITER_URL") or section.get("url") or DEFAULT_URL
    token = os.environ.get("ARBITER_TOKEN") or section.get("token")
    return url.rstrip("/"), token


class Client:
    def __init__(self, url: str, token: str | None, timeout: float = 30) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if language := shell_language():
            headers["Accept-Language"] = language
        self.url = url
        self.http = httpx.Client(base_url=url + "/api", headers=headers, timeout=timeout)

    def request(self, method: str, path: str, raw: bool = False, **kwargs: Any) -> Any:
        try:
            response = self.http.request(method, path, **kwargs)
        except httpx.HTTPError as e:
            raise CliError(gettext("cannot reach %(url)s: %(why)s") % {"url": self.url, "why": e}) from None
        if response.status_code == 401:
            raise CliError(
                gettext("the server refused the token (unknown or revoked); create one on your profile page")
            )
        if response.status_code >= 400:
            try:
                message = response.json()["error"]["message"]
            except (ValueError, KeyError, TypeError):
                message = response.text[:200] or response.reason_phrase
            raise CliError(message, response.status_code)
        if raw:
            return response.content
        try:
            return response.json()
        except ValueError:
            raise CliError(
                gettext("%(url)s did not answer as an Arbiter site does; is ARBITER_URL right?") % {"url": self.url}
            ) from None

    def get(self, path: str, **params: Any) -> Any:
        return self.request("GET", path, params={k: v for k, v in params.items() if v is not None})

    def all_pages(self, path: str, **params: Any) -> list[Any]:
        page, items = 1, []
        while True:
            data = self.get(path, page=page, **params)
            items += data["results"]
            if not data.get("next"):
                return items
            page += 1


def _contest(client: Client, slug: str) -> dict:
    try:
        return client.get(f"/contests/{slug}/")
    except CliError as e:
        if e.status == 404:
            raise CliError(
                gettext("no contest %(slug)r; `arbiter contests` lists them") % {"slug": slug}, 404
            ) from None
        raise


def _print(args, data: Any, lines: list[str]) -> None:
    if args.json:
        print(json.dumps(data, indent=1))  # ensure_ascii: every control character escaped
    else:
        print("\n".join(safe(line) for line in lines))


def safe(text: str) -> str:
    """A line as a terminal may show it: a control or format character the server passed on
    (an escape sequence in an entry's name or a reason) is written as its escape, not obeyed."""
    return "".join(
        ch if ch == "\t" or unicodedata.category(ch) not in ("Cc", "Cf") else ch.encode("unicode_escape").decode()
        for ch in text
    )


def cmd_contests(client: Client, args) -> int:
    contests = client.all_pages("/contests/")
    state = {True: gettext("open"), False: gettext("closed")}
    _print(args, contests, [f"{c['slug']:24} {c['game']:16} {state[c['is_open']]:7} {c['title']}" for c in contests])
    return 0


def _entry_for(client: Client, slug: str, name: str | None) -> tuple[dict | None, str]:
    """My entry to submit to, or None and the name of the one the upload will create."""
    entries = client.all_pages(f"/contests/{slug}/entries/")
    if name:
        for entry in entries:
            if entry["name"].lower() == name.lower():
                return entry, entry["name"]
        return None, name
    if len(entries) == 1:
        return entries[0], entries[0]["name"]
    if len(entries) > 1:
        names = ", ".join(e["name"] for e in entries)
        raise CliError(
            gettext("you have several entries in %(slug)s (%(names)s); say which with --entry NAME")
            % {"slug": slug, "names": names}
        )
    return None, client.get("/me/")["username"]


def _wait(client: Client, submission: dict, timeout: float) -> dict:
    deadline = time.monotonic() + timeout
    while submission["status"] in WAITING:
        if time.monotonic() > deadline:
            raise CliError(
                gettext("still %(status)s after %(seconds).0f s; `arbiter status %(id)s` later")
                % {"status": submission["status"], "seconds": timeout, "id": submission["id"]}
            )
        _await_event(client, submission, min(30.0, deadline - time.monotonic()))
        submission = client.get(f"/submissions/{submission['id']}/")
    return submission


def _await_event(client: Client, submission: dict, seconds: float) -> None:
    """Wait on the server-sent events for a change of this submission (or a few seconds)."""
    try:
        with client.http.stream(
            "GET", "/events/", params={"contest": submission["contest"]}, timeout=httpx.Timeout(5, read=seconds)
        ) as stream:
            for line in stream.iter_lines():
                if line.startswith("data:") and json.loads(line[5:]).get("submission") == submission["id"]:
                    return
    except (httpx.HTTPError, ValueError):
        time.sleep(1)


def _describe(submission: dict) -> list[str]:
    lines = [
        f"submission {submission['id']}: {submission['contest']} v{submission['number']} {submission['filename']} ({submission['language']}): {submission['status']}"
    ]
    if submission.get("build_log"):
        lines += ["--- " + gettext("build log"), submission["build_log"]]
    if submission.get("test_log"):
        lines += ["--- " + gettext("system test"), submission["test_log"]]
    return lines


def cmd_submit(client: Client, args) -> int:
    _contest(client, args.contest)
    path = Path(args.file)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise CliError(f"{path}: {e.strerror}") from None
    entry, name = _entry_for(client, args.contest, args.entry)
    form = {"language": args.lang} if args.lang else {}
    if entry is None:  # the entry comes with its program, or not at all if the program is refused
        url, form = f"/contests/{args.contest}/entries/", {**form, "name": name}
    else:
        url = f"/entries/{entry['id']}/submissions/"
    key = str(uuid.uuid4())  # a retried upload with this key is not counted twice
    for attempt in range(3):
        try:
            answer = client.request(
                "POST", url, data=form, files={"source": (path.name, data)}, headers={"Idempotency-Key": key}
            )
            submission = answer if entry is not None else answer["submission"]
            break
        except CliError as e:
            if "cannot reach" not in str(e) or attempt == 2:
                raise
            time.sleep(2)
    if args.wait:
        submission = _wait(client, client.get(f"/submissions/{submission['id']}/"), args.timeout)
    _print(args, submission, _describe(submission))
    return 0 if submission["status"] not in ("build_failed", "test_failed") else 1


def cmd_status(client: Client, args) -> int:
    if args.submission:
        submission = client.get(f"/submissions/{args.submission}/")
        _print(args, submission, _describe(submission))
        return 0
    rows = []
    for contest in client.all_pages("/contests/"):
        for entry in client.all_pages(f"/contests/{contest['slug']}/entries/"):
            latest = client.get(f"/entries/{entry['id']}/submissions/")["results"][:1]
            rows.append(
                {
                    "contest": contest["slug"],
                    "entry": entry["name"],
                    "status": entry["status"],
                    "latest": latest[0] if latest else None,
                }
            )
    _print(
        args,
        rows,
        [
            f"{r['contest']:24} {r['entry']:20} {r['status']:12} "
            + (f"v{r['latest']['number']} {r['latest']['status']}" if r["latest"] else gettext("no submission"))
            for r in rows
        ]
        or [gettext("no entries yet")],
    )
    return 0


STANDINGS_LIMIT = 500  # rows a request, the most the API gives


def _standings(client: Client, args) -> dict:
    """The table as the command shows it: one page (``--page``), or every page, their rows
    put together (as many requests as pages of ``--limit`` rows)."""
    path = f"/contests/{args.contest}/standings/"
    limit = args.limit or STANDINGS_LIMIT
    if args.page:
        return client.get(path, stage=args.stage, page=args.page, limit=args.limit)
    table = client.get(path, stage=args.stage, limit=limit)
    shown = {row["entry"] for row in table["rows"]}
    for number in range(2, table.get("pages", 1) + 1):
        more = client.get(path, stage=table["stage"], page=number, limit=limit)
        table["rows"] += [row for row in more["rows"] if row["entry"] not in shown]  # a row moved up meanwhile
        shown |= {row["entry"] for row in more["rows"]}
    table.update(page=1, pages=1, next=None)
    return table


def cmd_standings(client: Client, args) -> int:
    _contest(client, args.contest)
    table = _standings(client, args)
    sure = table.get("ratings") or {}
    rated = sure.get("rated")
    level = f"{sure.get('level', 0.95):.0%}"
    rank, entry, rating, games = gettext("rank"), gettext("entry"), gettext("rating"), gettext("games")
    head = f"{'#':>3} {level + ' ' + rank:>9} {entry:24} " + (f"{rating:>7} " if rated else "") + f"{games:>5} "
    head += " ".join(f"{c['label'][:14]:>14}" for c in table["columns"])
    played = gettext("%(played)s of %(total)s matches played")
    lines = [played % {"played": table["matches_played"], "total": table["matches_total"]}, head]

    def line(row: dict) -> str:
        values = " ".join(f"{row['values'][c['key']]:>14g}" for c in table["columns"])
        low, high = row.get("rank_low"), row.get("rank_high")
        interval = "" if low is None else str(low) if low == high else f"{low}-{high}"
        interval += " ~" if row.get("tied") else ""
        rating = f"{row['rating']:>7.0f} " if rated and row.get("rating") is not None else " " * 8 if rated else ""
        return f"{row['rank']:>3} {interval:>9} {row['name'][:24]:24} {rating}{row['games']:>5} {values}"

    lines += [line(row) for row in table["rows"]]
    if table.get("pages", 1) > 1:
        shown = {row["entry"] for row in table["rows"]}
        lines += [line(row) + "  " + gettext("(yours)") for row in table.get("yours", []) if row["entry"] not in shown]
        page = gettext("page %(page)s of %(pages)s (%(count)s rows); --page N for another")
        lines.append(page % {"page": table["page"], "pages": table["pages"], "count": table["count"]})
    if sure:
        said = gettext("rank: each row's %(level)s interval from %(games)s games; ~ statistically tied")
        lines.append(
            said % {"level": level, "games": sure["games"]}
            + ("; " + gettext("rating 1500 + 173.7 (mu - %(k)s sigma)") % {"k": f"{sure['k']:g}"} if rated else "")
        )
    _print(args, table, lines)
    return 0


def cmd_matches(client: Client, args) -> int:
    _contest(client, args.contest)
    matches = client.get("/matches/", contest=args.contest, mine="1" if args.mine else None)["results"]
    lines = []
    for m in matches:
        seats = " vs ".join(f"{s['entry_name']} ({s['status'] or '-'})" for s in m["seats"])
        lines.append(f"{m['id']:>6} {m['status']:9} {seats}  {m['reason']}")
    _print(args, matches, lines or [gettext("no matches")])
    return 0


def cmd_replay(client: Client, args) -> int:
    replay = client.get(f"/matches/{args.match}/replay/")
    lines = [f"{replay['game']} {replay.get('params', {})} seed {replay.get('seed')}"]
    for move in replay["moves"]:
        lines.append(
            f"{move['n']:>4} seat {move['seat']}: {move.get('move', move.get('status', '?')):12} cpu {move.get('cpu_s', 0):.3f} s"
        )
        if move.get("stderr"):
            lines += [f"       | {line}" for line in move["stderr"].rstrip().splitlines()]
    lines.append(gettext("result: %(reason)s") % {"reason": replay["result"]["reason"]})
    _print(args, replay, lines)
    return 0


def cmd_bundle(client: Client, args) -> int:
    data = client.request("GET", f"/matches/{args.match}/bundle/", raw=True)
    out = Path(args.out or f"match-{args.match}-bundle.zip")
    out.write_bytes(data)
    _print(
        args,
        {"bundle": str(out), "bytes": len(data)},
        [gettext("%(file)s: %(bytes)s bytes; `arbiter replay --check %(file)s`") % {"file": out, "bytes": len(data)}],
    )
    return 0


def _programs(items: list[str]) -> dict[int, Path]:
    programs = {}
    for item in items:
        seat, sep, path = item.partition("=")
        if not sep or not seat.strip().isdigit():
            raise CliError(gettext("--program %(item)r: write it as SEAT=FILE (seat 0 first)") % {"item": item})
        programs[int(seat)] = Path(path)
    return programs


def cmd_check(args) -> int:
    """Play a bundle's match again here and say whether it came out the same (exit 0), or
    where it differs (exit 2)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
    import django

    django.setup()
    _speak_the_shells_language()
    from judging.bundles import BundleError, check
    from sandbox.errors import SandboxError

    try:
        report = check(Path(args.check), _programs(args.program or []))
    except BundleError as e:
        raise CliError(str(e)) from None
    except SandboxError as e:
        raise CliError(gettext("the sandbox cannot run programs here: %(why)s") % {"why": e}) from None
    if report.identical:
        verdict = gettext("identical: every move, verdict and score as on the site")
    else:
        verdict = gettext("DIFFERENT")
    said = gettext("match %(match)s (%(game)s) played again here: %(verdict)s")
    lines = [said % {"match": report.match, "game": report.game, "verdict": verdict}]
    lines += [f"  {line}" for found in report.differences for line in found.splitlines()]  # a dialogue's: several
    lines += ["  " + gettext("note: %(note)s") % {"note": note} for note in report.notes]
    lines.append("  " + gettext("here: %(reason)s") % {"reason": report.here["reason"]})
    _print(args, report.to_json(), [safe(line) for line in lines])
    return 0 if report.identical else 2


def cmd_play(args) -> int:
    """A local game under the game's original contest's conditions, or (``--contest``) under a
    site contest's, read from its API."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
    conditions = None
    if args.contest:
        url, token = config()
        contest = Client(args.url or url, args.token or token).get(f"/contests/{args.contest}/")
        if contest["game"] != args.game:
            raise CliError(
                gettext("%(slug)s is a contest of %(game)s, not of %(name)s")
                % {"slug": args.contest, "game": contest["game"], "name": args.game}
            )
        conditions = {
            "from": f"the contest {contest['title']} ({args.url or url}/contests/{args.contest}/)",
            "language_table": contest["language_table"],
            "clock": contest["clock"],
            "params": contest["game_params"],
        }
    import tempfile

    import django
    from django.core.management import call_command
    from django.core.management.base import CommandError

    django.setup()
    _speak_the_shells_language()
    folder = tempfile.TemporaryDirectory(prefix="arbiter-game-")
    game = args.game
    if "@" in game and not Path(game).exists():  # an uploaded game: its referee, from the site
        url, token = config()
        client = Client(args.url or url, args.token or token)
        archive = Path(folder.name) / f"{Path(game).name}.zip"
        client.get(f"/games/{game}/")  # "No such game." when the site has none of that name
        archive.write_bytes(client.request("GET", f"{client.url}/games/{game}/game.zip", raw=True))
        game = str(archive)
    options = ["play", game, *args.programs]
    if args.table:
        options += ["--table", args.table]
    for flag in ("param", "clock", "lang"):
        for value in getattr(args, flag) or []:
            options += [f"--{flag}", value]
    if args.seed is not None:  # else the game's: an output-only game's practice inputs
        options += ["--seed", str(args.seed)]
    if args.replay:
        options += ["--replay", args.replay]
    if args.json:
        options.append("--json")
    with tempfile.NamedTemporaryFile("w", suffix=".json") as taken:
        if conditions is not None:
            json.dump(conditions, taken)
            taken.flush()
            options += ["--conditions", taken.name]
        try:
            call_command(*options)
        except CommandError as e:
            raise CliError(str(e)) from None
        finally:
            folder.cleanup()
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="arbiter", description=gettext("Submit programs to an Arbiter site and follow them.")
    )
    p.add_argument("--url", help=gettext("the site (default: $ARBITER_URL or %(url)s)") % {"url": DEFAULT_URL})
    p.add_argument("--token", help=gettext("a personal API token (default: $ARBITER_TOKEN)"))
    sub = p.add_subparsers(dest="command", required=True)

    def command(name: str, help: str) -> argparse.ArgumentParser:
        c = sub.add_parser(name, help=help)
        c.add_argument("--json", action="store_true", help=gettext("print JSON"))
        return c

    command("contests", gettext("list the contests"))
    c = command("submit", gettext("submit a program"))
    c.add_argument("contest")
    c.add_argument("file")
    c.add_argument("--lang", help=gettext("language key (default: by the file's extension)"))
    c.add_argument("--entry", help=gettext("which of your entries (created when it does not exist)"))
    c.add_argument("--wait", action="store_true", help=gettext("wait for the build and the system test"))
    c.add_argument("--timeout", type=float, default=600, help=gettext("seconds to wait at most (default 600)"))
    c = command("status", gettext("a submission's status, or all your entries'"))
    c.add_argument("submission", nargs="?", type=int)
    c = command("standings", gettext("a contest's standings"))
    c.add_argument("contest")
    c.add_argument("--stage", type=int)
    c.add_argument("--page", type=int, help=gettext("only this page of the table (default: every row)"))
    c.add_argument(
        "--limit",
        type=int,
        help=gettext("rows a page (at most %(most)s; default 100 with --page)") % {"most": STANDINGS_LIMIT},
    )
    c = command("matches", gettext("a contest's matches, newest first"))
    c.add_argument("contest")
    c.add_argument("--mine", action="store_true", help=gettext("only games of your entries"))
    c = command(
        "replay", gettext("a match's moves, times and your program's stderr; --check: play a bundle again here")
    )
    c.add_argument("match", type=int, nargs="?")
    c.add_argument(
        "--check", metavar="BUNDLE", help=gettext("a match's bundle (`arbiter bundle N`): play it again locally")
    )
    c.add_argument(
        "--program", action="append", metavar="SEAT=FILE", help=gettext("a program the bundle names by hash only")
    )
    c = command("bundle", gettext("download a match's bundle, to play it again at home"))
    c.add_argument("match", type=int)
    c.add_argument("-o", "--out", help=gettext("the file (default match-N-bundle.zip)"))
    c = command("play", gettext("play a match locally with the real referee and sandbox (no server)"))
    c.add_argument("game")
    c.add_argument("programs", nargs="+")
    c.add_argument("--param", action="append")
    c.add_argument("--clock", action="append")
    c.add_argument("--lang", action="append")
    c.add_argument("--seed", type=int, default=None, help=gettext("default 0; an output-only game's practice inputs"))
    c.add_argument("--replay")
    c.add_argument(
        "--contest", help=gettext("a site contest's settings, from its API (default: the game's original contest)")
    )
    c.add_argument("--table", help=gettext("the language table: arbiter, codecup, potm"))
    return p


COMMANDS = {
    "contests": cmd_contests,
    "submit": cmd_submit,
    "status": cmd_status,
    "standings": cmd_standings,
    "matches": cmd_matches,
    "replay": cmd_replay,
    "bundle": cmd_bundle,
}


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.command == "play":
            return cmd_play(args)
        if args.command == "replay" and args.check:
            return cmd_check(args)
        if args.command == "replay" and args.match is None:
            raise CliError(gettext("replay: give a match's number, or --check BUNDLE"))
        url, token = config()
        client = Client(args.url or url, args.token or token)
        return COMMANDS[args.command](client, args)
    except CliError as e:
        print("\n".join(safe(line) for line in f"arbiter: {e}".splitlines()), file=sys.stderr)  # a build log's lines
        return 1


if __name__ == "__main__":
    sys.exit(main())
