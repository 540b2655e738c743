"""Play one match locally with the production referee and sandbox: no worker.

python manage.py play chomp my_player.c games/chomp/players/random_player.c --param rows=7 --param cols=9

By default under the conditions of the game's original contest (its language table, so its
compilers' flags; its clock and memory): a program behaves as it did there, and as on a site
contest that keeps them. ``--contest SLUG`` takes an installed contest's exact settings instead
(its table, clock, memory, parameters and data file); ``--table`` and ``--clock`` override.
The JSON says which conditions it played under.
"""

from __future__ import annotations

import dataclasses
import json
import signal
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext, gettext_lazy, ngettext

from contests.models import Contest
from games import registry
from games.base import Game, ParamError, places
from games.clocks import Clock, ClockError
from games.hosted import KEY, HostedGame, ManifestError
from judging.management.language import SpeaksTheShellsLanguage
from judging.news.results import ordinal
from judging.play.referee import Player, RefereeFault, play
from judging.uploaded import hosting, libraries
from sandbox import languages
from sandbox.errors import Interrupted, SandboxError, UnsafeArchive
from sandbox.interrupt import clear_stop, request_stop
from sandbox.programs import build_program


def _stop(signum, frame) -> None:
    """SIGTERM: the loops waiting for a program or a slot raise Interrupted at their next turn,
    and every jail is closed on the way out. Raising here instead could fire inside a
    finalizer, which drops the exception, or halfway through closing a jail."""
    request_stop()


# A clock's keys whose values are words, not numbers (``games.clocks.Clock``): the rest are numbers.
CLOCK_WORDS = {f.name: "string" for f in dataclasses.fields(Clock) if f.type in ("str", str)}


def _pairs(items: list[str], what: str, game=None, kinds: dict[str, str] | None = None) -> dict[str, Any]:
    """``NAME=VALUE`` items as a dict: each value as its parameter's kind reads it (a game's
    parameter of text, true or false, or a number; ``kinds`` names others'), else a number."""
    kinds = dict(kinds or {}) | ({p.name: p.kind for p in game.info.params} if game is not None else {})
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise CommandError(
                gettext("--%(what)s %(item)s: write it as NAME=VALUE") % {"what": what, "item": repr(item)}
            )
        key = key.strip()
        kind = kinds.get(key, "number")
        if kind == "string":
            out[key] = value
            continue
        if kind == "boolean":
            if value.strip().lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise CommandError(
                    gettext("--%(what)s %(item)s: %(value)s is not true or false")
                    % {"what": what, "item": repr(item), "value": repr(value)}
                )
            out[key] = value.strip().lower() in ("true", "1", "yes")
            continue
        try:
            number = float(value)
        except ValueError:
            raise CommandError(
                gettext("--%(what)s %(item)s: %(value)s is not a number")
                % {"what": what, "item": repr(item), "value": repr(value)}
            ) from None
        out[key] = int(number) if number.is_integer() else number
    return out


def _conditions(game, slug: str | None) -> dict:
    """What a game is played under: the game's original contest's, or an installed contest's."""
    if slug is None:
        return {
            "from": f"the manifest of {game.info.title} ({game.info.name})"
            if isinstance(game, HostedGame)
            else f"the original contest of {game.info.title}",
            "language_table": game.original_table,
            "clock": dict(game.default_clock),
            "params": {},
        }

    contest = Contest.objects.filter(slug=slug).first()
    if contest is None:
        raise CommandError(gettext("--contest %(slug)s: no such contest here") % {"slug": slug})
    if contest.game != game.info.name:
        raise CommandError(
            gettext("--contest %(slug)s is a contest of %(game)s, not of %(name)s")
            % {"slug": slug, "game": contest.game, "name": game.info.name}
        )
    data = None
    if contest.game_data:
        with contest.game_data.open("rb") as f:
            data = f.read()
    return {
        "from": f"the contest {contest.title} ({slug})",
        "language_table": contest.language_table,
        "clock": {**game.default_clock, **contest.clock},
        "params": dict(contest.game_params),
        "data": data,
    }


STDERR_LINES = 5  # of each program's stderr in the readable summary (--replay keeps it all)


def _stderr_of(replay: dict, seats: int) -> list[str]:
    """What each seat's program wrote to stderr, as the replay kept it: its moves' in order,
    a race's seat's, an output-only run's."""
    found = [[] for _ in range(seats)]
    for move in replay.get("moves", []):
        if move.get("stderr") and isinstance(move.get("seat"), int) and 0 <= move["seat"] < seats:
            found[move["seat"]].append(move["stderr"])
    for index, seat in enumerate(replay.get("seats", [])[:seats]):
        if seat.get("stderr"):
            found[index].append(seat["stderr"])
    if replay.get("stderr") and seats:
        found[0].append(replay["stderr"])
    return ["".join(parts) for parts in found]


def readable(summary: dict, clock: Clock, stderr: list[str]) -> list[str]:
    """The summary for a person, in the shell's language: the conditions, a line a seat, the
    result, each program's last lines of stderr and where the replay is."""
    params = ", ".join(f"{name}={value}" for name, value in summary["params"].items()) or gettext("none")
    conditions = summary["conditions"]
    lines = [
        gettext("%(game)s under %(conditions)s") % {"game": summary["game"], "conditions": conditions["from"]},
        "  "
        + gettext("parameters: %(params)s; languages: the %(table)s table")
        % {"params": params, "table": conditions["language_table"]},
        *("  " + gettext("clock: %(words)s") % {"words": words} for words in clock.in_words()),
        "",
    ]
    width = max(len(seat["program"]) for seat in summary["seats"])
    seats = summary["seats"]
    # a game of more than two by its place too, as the site's pages say it ("2nd of 4")
    placed = places([s["points"] for s in seats], [s["status"] or "" for s in seats]) if len(seats) > 2 else []
    for index, seat in enumerate(seats):
        place = ""
        if placed and placed[index]:
            place = gettext("%(place)s of %(seats)s") % {"place": ordinal(placed[index]), "seats": len(seats)} + "  "
        points = ngettext("%(points)s point", "%(points)s points", 1 if seat["points"] == 1 else 2) % {
            "points": f"{seat['points']:>6g}"
        }
        figures = gettext("%(moves)s moves  CPU %(cpu)s s  wall %(wall)s s") % {
            "moves": seat["moves"],
            "cpu": f"{seat['cpu_s']:.3f}",
            "wall": f"{seat['wall_s']:.3f}",
        }
        lines.append(
            gettext("seat %(index)s") % {"index": index}
            + f"  {seat['program']:<{width}}  {seat['status'] or '-':<7} {points}  {place}{figures}"
        )
        lines += ["        " + gettext("warning: %(warning)s") % {"warning": warning} for warning in seat["warnings"]]
    if "verdict" in summary:
        lines.append(
            gettext("verdict: %(verdict)s, %(verified)s verified of %(claimed)s claimed")
            % {"verdict": summary["verdict"], "verified": summary["verified"], "claimed": summary["claimed"]}
        )
    if summary["reason"]:
        lines.append(gettext("result: %(reason)s") % {"reason": summary["reason"]})
    else:
        lines.append(gettext("result: (no reason given)"))
    for index, written in enumerate(stderr):
        tail = written.rstrip("\n").splitlines()[-STDERR_LINES:]
        if tail:
            said = gettext("stderr of seat %(index)s (%(program)s), its last lines:")
            lines += ["", said % {"index": index, "program": summary["seats"][index]["program"]}]
            lines += [f"  {line}" for line in tail]
    if summary["replay"]:
        lines += ["", gettext("replay: %(file)s") % {"file": summary["replay"]}]
    else:
        lines += ["", gettext("replay: not kept (--replay FILE keeps it)")]
    return lines


def _batch_summary(replay: dict) -> dict:
    """An output-only run's verdict: the score verified and claimed, the first wrong line."""
    if "verification" not in replay:
        return {}
    report = replay["verification"] or {}
    seat = replay["seats"][0]
    return {
        "verdict": "valid" if report.get("ok") else "refused",
        "verified": report.get("verified"),
        "claimed": report.get("claimed"),
        "wrong_line": report.get("line"),
        "time_s": seat["wall_s"],
        "program_bytes": seat.get("program_bytes"),
        "printed": replay.get("printed", "")[-500:],
    }


def _game(name: str) -> Game:
    """The game to play: the registry's, or one on this disk (an organiser's folder, a game's
    archive downloaded from a site), played by its referee program."""

    path = Path(name)
    if not path.exists() or name in registry.BUILT_IN:
        try:
            return registry.get(name)
        except registry.UnknownGame as e:
            hint = (
                ""
                if "@" in name
                else gettext("; a game uploaded to a site is named with its version: %(name)s@1") % {"name": name}
            )
            raise CommandError(f"{e}{hint}") from None
    named = KEY.match(path.name.removesuffix(".zip"))  # nim@3.zip: a site's version 3, downloaded
    try:
        files = hosting.read_folder(path) if path.is_dir() else hosting.read_archive(path.read_bytes())
        return hosting.game_of(files, int(named[2]) if named else 1)
    except (ManifestError, UnsafeArchive, OSError) as e:
        raise CommandError(f"{name}: {e}") from None


def _say_libraries(stderr, game: Game) -> None:
    """Before a referee's libraries are installed here, the first time: OpenSpiel's are some
    230 MB, and its first game at home was minutes of silence."""
    requirements = getattr(game.interaction, "requirements", "")
    if not requirements or libraries.installed(requirements):
        return
    wanted = [line.split("#")[0].strip() for line in requirements.splitlines()]
    named = ", ".join(w.split()[0] for w in wanted if w and not w.startswith("-"))
    stderr.write(
        gettext("installing the referee's libraries (%(named)s) into %(folder)s, once: a large one takes minutes")
        % {"named": named, "folder": libraries.folder(requirements)}
    )


class Command(SpeaksTheShellsLanguage, BaseCommand):
    help = gettext_lazy("Play one match between local programs with the real referee and sandbox; print what happened.")

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "game",
            help=gettext(
                "one of: %(games)s, an uploaded game's name@version, "
                "or the folder or archive of a game with its game.json (docs/referee-protocol.md)"
            )
            % {"games": ", ".join(sorted(registry.BUILT_IN))},
        )
        parser.add_argument(
            "programs",
            nargs="+",
            metavar="PROGRAM",
            help=gettext("source files, archives or executables, seat 0 first"),
        )
        parser.add_argument(
            "--param", action="append", default=[], metavar="NAME=VALUE", help=gettext("a game parameter")
        )
        parser.add_argument(
            "--clock",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help=gettext(
                "a key of the clock: a time limit in seconds, or measure=wall|cpu (default: the original contest's)"
            ),
        )
        parser.add_argument(
            "--lang",
            action="append",
            default=[],
            metavar="LANG",
            help=gettext("language of each program, in order (default: by extension)"),
        )
        parser.add_argument(
            "--seed",
            type=int,
            default=None,
            help=gettext("the game's seed (default 0; an output-only game's practice inputs)"),
        )
        parser.add_argument("--replay", metavar="FILE", help=gettext("write the whole replay here as JSON"))
        parser.add_argument(
            "--contest",
            metavar="SLUG",
            help=gettext("an installed contest's settings (default: the game's original contest)"),
        )
        parser.add_argument(
            "--table",
            metavar="NAME",
            help=gettext("the language table (one of: %(tables)s)") % {"tables": ", ".join(languages.TABLES)},
        )
        parser.add_argument(
            "--conditions", metavar="FILE", help=gettext("a JSON file of conditions (the CLI's, from a site's API)")
        )
        parser.add_argument("--json", action="store_true", help=gettext("print the summary as JSON, for a script"))

    def handle(self, *args, **options) -> None:
        previous = signal.signal(signal.SIGTERM, _stop)
        try:
            self._play(options)
        except Interrupted:
            raise CommandError(gettext("stopped by SIGTERM; its jails are closed")) from None
        finally:
            signal.signal(signal.SIGTERM, previous)
            clear_stop()

    def _play(self, options) -> None:
        game = _game(options["game"])
        conditions = _conditions(game, options["contest"])
        if options["conditions"]:
            conditions = {"params": {}, "clock": {}, **json.loads(Path(options["conditions"]).read_text())}
            conditions["clock"] = {**game.default_clock, **conditions["clock"]}
        if options["table"]:
            if options["table"] not in languages.TABLES:
                raise CommandError(
                    gettext("--table %(table)s: one of %(tables)s")
                    % {"table": options["table"], "tables": ", ".join(languages.TABLES)}
                )
            conditions["language_table"] = options["table"]
        try:
            params = game.resolve_params({**conditions["params"], **_pairs(options["param"], "param", game)})
            clock = Clock.from_json({**conditions["clock"], **_pairs(options["clock"], "clock", kinds=CLOCK_WORDS)})
        except (ParamError, ClockError) as e:
            raise CommandError(str(e)) from None
        conditions["clock"], conditions["params"] = clock.to_json(), params
        langs = options["lang"] + [None] * len(options["programs"])
        players = []
        for path, lang in zip(options["programs"], langs, strict=False):
            source = Path(path)
            try:
                data = source.read_bytes()
            except OSError as e:
                raise CommandError(f"{path}: {e.strerror}") from None
            try:
                build = build_program(
                    data,
                    source.name,
                    language=lang,
                    table_name=conditions["language_table"],
                    install=game.install_script,
                )
            except (ValueError, KeyError) as e:
                raise CommandError(f"{path}: {e}") from None
            except SandboxError as e:
                raise CommandError(gettext("the sandbox cannot run programs here: %(why)s") % {"why": e}) from None
            if not build.ok:
                raise CommandError(gettext("%(path)s did not build:\n%(log)s") % {"path": path, "log": build.log})
            players.append(Player(name=source.name, program=build.program, submission={"language": build.language}))
        # At home this game is the only one: its programs and an uploaded game's referee all
        # run at once whatever the installation's slots (a game of turns runs one at a time).
        settings.SANDBOX_SLOTS = max(settings.SANDBOX_SLOTS, len(players) + 1)
        _say_libraries(self.stderr, game)
        try:
            seed = options["seed"] if options["seed"] is not None else getattr(game, "practice_seed", 0)
            record = play(game, params, seed, players, clock, data=conditions.pop("data", None))
        except ValueError as e:
            raise CommandError(str(e)) from None
        except RefereeFault as e:
            raise CommandError(
                gettext("the game's referee failed (not a player's fault): %(why)s") % {"why": e}
            ) from None
        except SandboxError as e:
            raise CommandError(gettext("the sandbox failed: %(why)s") % {"why": e}) from None
        if options["replay"]:
            Path(options["replay"]).write_text(json.dumps(record.replay, indent=1))
        outcome = record.outcome
        summary = {
            "game": game.info.name,
            "conditions": conditions,
            "params": params,
            "seats": [
                {
                    "program": options["programs"][i],
                    "points": outcome.points[i],
                    "score": outcome.scores[i],
                    "status": outcome.statuses[i],
                    "reason": outcome.reason if outcome.statuses[i] not in ("win", "draw") else "",
                    "moves": record.seats[i].moves,
                    "cpu_s": round(record.seats[i].cpu_s, 3),
                    "wall_s": round(record.seats[i].wall_s, 3),  # what a clock of wall time counts
                    "warnings": record.seats[i].warnings,
                }
                for i in range(len(players))
            ],
            "moves": len(record.replay["moves"]),
            **_batch_summary(record.replay),
            "reason": outcome.reason,
            "replay": options["replay"],
        }
        if options["json"]:
            self.stdout.write(json.dumps(summary, indent=1))
        else:
            self.stdout.write("\n".join(readable(summary, clock, _stderr_of(record.replay, len(players)))))
