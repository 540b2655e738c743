"""A match's bundle: everything it was played with, to play it again at home and learn whether
it comes out the same (``arbiter replay --check BUNDLE``).

A bundle is a zip: ``bundle.json`` (the game and the referee's version, the seed, the
parameters, the clock and memory, the language table, each seat's language, file name,
SHA-256 and build and run commands), ``replay.json`` (the replay as its viewer may see it),
``programs/SEAT/FILE`` for each program its viewer may read (their own, a reference
program's; a judge's: all) and ``data/FILE``, the contest's data file. Another contestant's
program is named by its hash alone: given with ``--program SEAT=FILE``, it must be that file.

Checking builds each program with the bundle's table and language, plays the game with its
seed, parameters, clock and data in the real referee and jail, and compares what a
deterministic program makes again (``Game.reproduced``: every move, fault, score and status;
never a time). A bundle is a download from the web: read with limits, every name checked."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path, PurePosixPath
from typing import Any

from django.utils.translation import gettext

from games import registry
from games.base import ParamError
from games.clocks import Clock, ClockError
from games.hosted import KEY, HostedGame, ManifestError
from judging.models import Match
from judging.play.referee import Player, play
from judging.uploaded import hosting
from sandbox import languages
from sandbox.errors import UnsafeArchive
from sandbox.programs import build_program

FORMAT = "arbiter-bundle"
VERSION = 1
MAX_MEMBERS = 64
MAX_BYTES = 256 << 20  # a bundle's members together, unpacked (a program or a data file may be large)


class BundleError(Exception):
    """A bundle that cannot be checked, in words: not a bundle, damaged, a program missing."""


def _arbiter_version() -> str:
    try:
        return metadata.version("arbiter")
    except metadata.PackageNotFoundError:
        return "unknown"


def _member(name: str) -> str:
    """A file name as it may stand in the zip: its last part, nothing a shell or an unzip would
    read as a path."""
    cleaned = "".join(ch if ch.isprintable() and ch not in "/\\" else "_" for ch in PurePosixPath(name).name)
    return cleaned.strip(". ") or "program"


def make(match: Match, replay: dict[str, Any], readable: Callable[[Any], bool], site: str) -> bytes:
    """The bundle of a finished ``match`` as its viewer gets it: ``replay`` as they may see it,
    the source of each seat whose entry ``readable`` lets them read."""
    contest = match.contest
    game = registry.get(contest.game)
    table = languages.table(contest.language_table)
    files: dict[str, bytes] = {"replay.json": json.dumps(replay, indent=1).encode()}
    seats = []
    for seat in match.seats.select_related("entry", "submission").order_by("index"):
        submission = seat.submission
        commands = table.commands.get(submission.language)
        build, run = commands.shown() if commands else ("", "")
        shown = {
            "seat": seat.index,
            "entry": seat.entry.name,
            "reference": seat.entry.is_reference,
            "language": submission.language,
            "toolchain": submission.toolchain,
            "filename": submission.filename,
            "sha256": submission.sha256,
            "build": build,
            "run": run,
            "from_sources": submission.rebuilt_from_sources,
            "file": None,
        }
        if readable(seat.entry):
            shown["file"] = f"programs/{seat.index}/{_member(submission.filename)}"
            with submission.source.open("rb") as f:
                files[shown["file"]] = f.read()
        seats.append(shown)
    data = None
    if contest.game_data:
        with contest.game_data.open("rb") as f:
            content = f.read()
        data = {"file": f"data/{_member(contest.game_data.name)}", "sha256": hashlib.sha256(content).hexdigest()}
        files[data["file"]] = content
    game_archive = None
    if isinstance(game, HostedGame):  # an uploaded game: its referee travels with the bundle
        content = hosting.archive_of(game)
        game_archive = {"file": "game.zip", "sha256": hashlib.sha256(content).hexdigest()}
        files["game.zip"] = content
    clock = replay.get("clock") or Clock.from_json({**game.default_clock, **contest.clock}).to_json()
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "site": site,
        "match": match.pk,
        "contest": contest.slug,
        "stage": match.stage.name if match.stage_id else "test game",
        "game": game.info.name,
        "referee_version": replay.get("version", game.info.version),
        "arbiter_version": _arbiter_version(),
        "seed": match.seed,
        "params": replay.get("params", match.params),
        "clock": clock,
        "language_table": contest.language_table,
        "install": game.install_script,
        "game_archive": game_archive,
        "data": data,
        "seats": seats,
        "result": replay.get("result"),
        "replay": "replay.json",
    }
    files["bundle.json"] = json.dumps(manifest, indent=1).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            archive.writestr(zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0)), files[name])
    return buffer.getvalue()


# --- Checking -------------------------------------------------------------------------------


@dataclass
class Report:
    game: str
    match: int | None
    identical: bool
    differences: list[str]
    conditions: dict[str, Any]
    here: dict[str, Any]  # the result played here
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "match": self.match,
            "identical": self.identical,
            "differences": self.differences,
            "notes": self.notes,
            "conditions": self.conditions,
            "here": self.here,
        }


class _Bundle:
    """A bundle's zip, read with limits: no member over what is left of MAX_BYTES, no more
    than MAX_MEMBERS members, names only as bundle.json gives them."""

    def __init__(self, path: Path) -> None:
        try:
            self.zip = zipfile.ZipFile(path)
        except FileNotFoundError:
            raise BundleError(gettext("%(path)s: no such file") % {"path": path}) from None
        except (zipfile.BadZipFile, OSError, ValueError) as e:
            raise BundleError(
                gettext("%(path)s is not a bundle (a zip from a match's page): %(why)s") % {"path": path, "why": e}
            ) from None
        members = self.zip.infolist()
        if len(members) > MAX_MEMBERS:
            raise BundleError(
                gettext("%(path)s holds %(members)s files; a bundle holds at most %(most)s")
                % {"path": path, "members": len(members), "most": MAX_MEMBERS}
            )
        self.sizes = {m.filename: m.file_size for m in members}
        self.left = MAX_BYTES

    def read(self, name: str) -> bytes:
        if not isinstance(name, str) or name not in self.sizes:
            raise BundleError(gettext("the bundle has no file %(name)s") % {"name": repr(name)})
        if self.sizes[name] > self.left:
            raise BundleError(
                gettext("%(name)s unpacks to more than %(mb)s MB") % {"name": name, "mb": MAX_BYTES >> 20}
            )
        try:
            with self.zip.open(name) as f:
                data = f.read(self.left + 1)
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, RuntimeError) as e:
            raise BundleError(
                gettext("%(name)s in the bundle is damaged: %(why)s") % {"name": name, "why": e}
            ) from None
        if len(data) > self.left:
            raise BundleError(
                gettext("%(name)s unpacks to more than %(mb)s MB") % {"name": name, "mb": MAX_BYTES >> 20}
            )
        self.left -= len(data)
        return data

    def json(self, name: str) -> dict[str, Any]:
        try:
            value = json.loads(self.read(name))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise BundleError(
                gettext("%(name)s in the bundle is not JSON: %(why)s") % {"name": name, "why": e}
            ) from None
        if not isinstance(value, dict):
            raise BundleError(gettext("%(name)s in the bundle is not a JSON object") % {"name": name})
        return value


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _seat_sources(bundle: _Bundle, seats: list[dict], programs: Mapping[int, Path]) -> list[bytes]:
    sources = []
    for seat in seats:
        index = seat.get("seat")
        if index in programs:
            try:
                data = Path(programs[index]).read_bytes()
            except OSError as e:
                raise BundleError(
                    gettext("--program %(index)s=%(file)s: %(why)s")
                    % {"index": index, "file": programs[index], "why": e.strerror}
                ) from None
            if _sha256(data) != seat.get("sha256"):
                raise BundleError(
                    gettext(
                        "--program %(index)s=%(file)s is not the program the site played for %(entry)s (its "
                        "SHA-256 is %(here)s, the site's %(site)s)"
                    )
                    % {
                        "index": index,
                        "file": programs[index],
                        "entry": seat.get("entry"),
                        "here": _sha256(data),
                        "site": seat.get("sha256"),
                    }
                )
        elif seat.get("file"):
            data = bundle.read(seat["file"])
            if _sha256(data) != seat.get("sha256"):
                raise BundleError(
                    gettext("%(file)s in the bundle is not the program the site played (SHA-256 differs)")
                    % {"file": seat["file"]}
                )
        else:
            raise BundleError(
                gettext(
                    "seat %(index)s (%(entry)s) is another contestant's program: the bundle has its SHA-256 only "
                    "(%(sha256)s); give it with --program %(index)s=FILE"
                )
                % {"index": index, "entry": seat.get("entry"), "sha256": seat.get("sha256")}
            )
        sources.append(data)
    return sources


def _said(value: Any) -> str:
    """A compared value in words: a move as "seat 0 played Cd2" (or its fault), else JSON."""
    if isinstance(value, list) and len(value) == 3 and (value[0] is None or isinstance(value[0], int)):
        seat, move, status = value
        who = f"seat {seat}" if seat is not None else "the program"
        return f"{who} played {move}" if move is not None else f"{who}: {status}"
    return json.dumps(value, ensure_ascii=False)


CONTEXT_LINES = 3  # of a dialogue, before its first line that differs


def _dialogues_differ(seat: int, site: list[str], here: list[str]) -> str:
    """Where a seat's dialogue with a race's server went another way: its first line that
    differs, after the few lines before it. The whole of both (some 70,000 characters of a
    Wheels race) was printed on one line."""
    n = next((i for i, (x, y) in enumerate(zip(site, here, strict=False)) if x != y), min(len(site), len(here)))
    before = [f"    {line}" for line in site[max(0, n - CONTEXT_LINES) : n]]
    at = (
        f"    on the site: {site[n] if n < len(site) else '(its dialogue ends here)'}\n"
        f"    here:        {here[n] if n < len(here) else '(its dialogue ends here)'}"
    )
    return "\n".join(
        [f"seat {seat}: its dialogue differs at line {n + 1} of {len(site)} (here {len(here)}):", *before, at]
    )


def differences(site: dict[str, Any], here: dict[str, Any]) -> list[str]:
    """Where a game played again differs from the site's, in words: the first move that
    differs (and the number of moves), then each other key that differs."""
    out = []
    for key in site.keys() | here.keys():
        a, b = site.get(key), here.get(key)
        if a == b:
            continue
        if isinstance(a, list) and isinstance(b, list) and key in ("moves", "dialogues"):
            for n, (x, y) in enumerate(zip(a, b, strict=False), 1):
                if x != y and key == "dialogues" and isinstance(x, list) and isinstance(y, list):
                    out.append(_dialogues_differ(n - 1, x, y))
                    break
                if x != y:
                    what = "move" if key == "moves" else "seat"
                    out.append(f"{what} {n if key == 'moves' else n - 1}: on the site {_said(x)}, here {_said(y)}")
                    break
            if len(a) != len(b):
                out.append(f"{key}: {len(a)} on the site, {len(b)} here")
        else:
            out.append(f"{key}: on the site {_said(a)}, here {_said(b)}")
    return sorted(out, key=lambda line: (not line.startswith(("move", "seat")), line))


def _game(bundle, manifest: dict[str, Any]):
    """The bundle's game: an uploaded game's from the archive in the bundle (its referee, as
    the site had it: no site needed), a built-in game's from the registry."""
    name = str(manifest.get("game"))
    shipped = manifest.get("game_archive")
    if not shipped:
        try:
            return registry.get(name)
        except registry.UnknownGame as e:
            raise BundleError(str(e)) from None
    if not isinstance(shipped, dict):
        raise BundleError(gettext("bundle.json: its game_archive is not {file, sha256}"))
    content = bundle.read(shipped.get("file"))
    if _sha256(content) != shipped.get("sha256"):
        raise BundleError(gettext("the game's archive in the bundle is damaged (SHA-256 differs)"))
    match = KEY.match(name)
    if match is None:
        raise BundleError(
            gettext("bundle.json names the uploaded game %(name)s, not as name@version") % {"name": repr(name[:50])}
        )
    try:
        return hosting.game_of(hosting.read_archive(content), int(match[2]))
    except (ManifestError, UnsafeArchive) as e:
        raise BundleError(gettext("the game's archive in the bundle: %(why)s") % {"why": e}) from None


def check(path: Path, programs: Mapping[int, Path] | None = None) -> Report:
    """Play a bundle's match again here and compare it with the site's."""

    bundle = _Bundle(Path(path))
    manifest = bundle.json("bundle.json")
    if manifest.get("format") != FORMAT:
        raise BundleError(gettext("bundle.json is not an Arbiter bundle's (its format is not arbiter-bundle)"))
    if manifest.get("version") != VERSION:
        raise BundleError(
            gettext("this Arbiter reads bundles of version %(version)s, not %(given)s")
            % {"version": VERSION, "given": repr(manifest.get("version"))}
        )
    game = _game(bundle, manifest)
    seats = manifest.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats) or not seats:
        raise BundleError(gettext("bundle.json names no seats"))
    notes = []
    if manifest.get("referee_version") != game.info.version:
        notes.append(
            f"the referee here is version {game.info.version} of {game.info.title}, the site's was "
            f"{manifest.get('referee_version')}: a rule may have changed"
        )
    table = manifest.get("language_table")
    if table not in languages.TABLES:
        raise BundleError(
            gettext("the language table %(table)s is not known here (one of %(tables)s)")
            % {"table": repr(table), "tables": ", ".join(languages.TABLES)}
        )
    try:
        params = game.resolve_params(manifest.get("params") or {})
        clock = Clock.from_json(manifest.get("clock") or {})
        seed = int(manifest["seed"])
    except (ParamError, ClockError, KeyError, TypeError, ValueError) as e:
        raise BundleError(
            gettext("bundle.json: its parameters, clock or seed do not read: %(why)s") % {"why": e}
        ) from None
    data = None
    if manifest.get("data"):
        data = bundle.read(manifest["data"].get("file"))
        if _sha256(data) != manifest["data"].get("sha256"):
            raise BundleError(gettext("the contest's data file in the bundle is damaged (SHA-256 differs)"))
    site_replay = bundle.json(str(manifest.get("replay", "replay.json")))
    players = []
    for seat, source in zip(seats, _seat_sources(bundle, seats, programs or {}), strict=True):
        try:
            build = build_program(
                source,
                str(seat.get("filename") or "program"),
                language=seat.get("language"),
                table_name=table,
                from_sources=bool(seat.get("from_sources")),
                install=str(manifest.get("install") or ""),
            )
        except (ValueError, KeyError) as e:
            raise BundleError(
                gettext("seat %(seat)s (%(entry)s): %(why)s")
                % {"seat": seat.get("seat"), "entry": seat.get("entry"), "why": e}
            ) from None
        if not build.ok:
            raise BundleError(
                gettext("seat %(seat)s (%(entry)s) did not build here:\n%(log)s")
                % {"seat": seat.get("seat"), "entry": seat.get("entry"), "log": build.log}
            )
        if seat.get("toolchain") and build.toolchain and seat["toolchain"] != build.toolchain:
            notes.append(f"seat {seat.get('seat')}: built here with {build.toolchain}, on the site {seat['toolchain']}")
        players.append(
            Player(name=str(seat.get("entry") or seat.get("filename")), program=build.program, submission={})
        )
    record = play(game, params, seed, players, clock, data=data)
    site, here = game.reproduced(site_replay), game.reproduced(record.replay)
    if "dialogues" in site:  # another entrant's dialogue, which the bundle's viewer may not read: not compared
        here["dialogues"] = [
            None if x is None else y for x, y in zip(site["dialogues"], here["dialogues"], strict=False)
        ]
    found = differences(site, here)
    if found:
        notes.append(
            "a program that seeds its random numbers from the clock or the system (std::random_device, "
            "time(NULL), Python's random) or stops its search on a deadline plays differently each time: "
            "pin its seed (its stderr in the replay may show the one it used) and check again"
        )
    conditions = {
        "game": game.info.name,
        "referee_version": game.info.version,
        "seed": seed,
        "params": params,
        "clock": clock.to_json(),
        "language_table": table,
    }
    result = record.outcome
    return Report(
        game=game.info.name,
        match=manifest.get("match"),
        identical=not found,
        differences=found,
        conditions=conditions,
        here={
            "points": list(result.points),
            "scores": list(result.scores),
            "statuses": list(result.statuses),
            "reason": result.reason,
        },
        notes=notes,
    )
