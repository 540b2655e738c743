"""The Solitaire 500 as the platform runs it: a race of every program of a stage at once, each
a TCP client of the contest's own game server (``server.py``), which plays each entrant's
game by the rules (``table.py``).

A stage's parameters: ``decks`` (the page's 50 trial laps or 500 for the race), ``delays``
(the race's one move-containing instruction a second and one-second pit stops, and ten other
commands a second; off for the trial laps, tests and the demo as the judges choose) and
``first_wins`` (the race: it ends at "the first to issue a legal win instruction on the last
deck"; without it every entrant plays every deck, or until the stage's time limit, as the
trial laps measure each one).

The result of a seat: points by place (N for the first of N, down to 1); score, the rounds
played (the trial laps' measure: "The 24 entries with the lowest round count qualify"); moves,
the server's move counter; the time to the last ``win``. Places: the finishers first, in the
order they finished (trial laps: fewest rounds first, then time), then the others by how far
they got (decks won, then sets discarded of the deck in play, then who got there first).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from games.base import (
    EXIT,
    LOSS,
    TIMEOUT,
    WIN,
    Column,
    GameInfo,
    GameResult,
    LiveColumn,
    Param,
    Race,
    RaceGame,
    RaceProgress,
    Total,
    total_points,
)
from games.wheels.cards import decks_from_seed
from games.wheels.server import WheelsServer

PORT = 5200  # the pace car's default, inside every jail
KIT_README = """The Solitaire 500 at home: the contest's game server and two clients.

Start the server in this folder (Python 3.11 or newer, nothing else needed), without delays and
with 8 decks:

    python3 -m games.wheels --no-delays --count 8 --seed 1

Options: --port (5200), --decks FILE (one deck a line: 52 cards such as Ah Td 3c, top card
first, separated by single spaces), --count N --seed S, --passwd FILE (name:password lines;
without one, ./passwd if present, else anyone may log in), --no-delays (no one-second move
limit, no pit stops, no limit of ten other commands a second).

Then, in another terminal, a client:

    perl pacecar.pl
    python3 planner.py

Both read SWP_SERVERNAME (localhost), SWP_SERVERPORT (5200) and SWP_PASSWORD, and log in as
whoami says (or SWP_USERNAME). On the contest's machine your entry logs in under its login
name with the password it is given in SWP_PASSWORD.
"""


class Wheels(RaceGame):
    install_script = "INSTALL"  # "If you include an INSTALL script ... it will be run."
    info = GameInfo(
        name="wheels",
        title="The Solitaire 500 (Wheels)",
        version=1,
        seats=0,
        params=(
            Param("decks", 50, 1, 1000, "Decks in the puzzle: 50 for the trial laps, 500 for the race."),
            Param(
                "delays", 0, 0, 1, "1: a move-containing instruction and ten other commands a second; 1 s pit stops."
            ),
            Param("first_wins", 0, 0, 1, "1: the race ends at the first legal win on the last deck."),
            Param("start_wait", 30, 1, 600, "Seconds the server waits for every entrant to log in before the start."),
        ),
    )
    interaction = Race(port=PORT)
    # The stage's time limit in real time ("seconds"); every program's memory.
    default_clock: Mapping[str, float] = {"seconds": 900, "memory_mb": 256}
    standings = (
        Column("points", "Points", total_points, help="By place: N for the first of N entrants, down to 1."),
        Column(
            "rounds", "Rounds", Total("score"), higher_is_better=False, help="Rounds played (the trial laps' measure)."
        ),
        Column(
            "moves", "Moves", Total("moves"), higher_is_better=False, help="Cards moved (the server's move counter)."
        ),
        Column("time", "Time (s)", Total("wall_seconds"), higher_is_better=False, help="To the last win, or raced."),
    )

    def decks(self, params: Mapping[str, int], seed: int) -> list[tuple[str, ...]]:
        return decks_from_seed(params["decks"], seed)

    def server(
        self,
        params: Mapping[str, int],
        seed: int,
        logins: Mapping[str, str],
        start_timeout_s: float,
        on_finish: Callable[[str], None] | None = None,
    ) -> Any:
        return WheelsServer(
            self.decks(params, seed),
            dict(logins),
            delays=bool(params["delays"]),
            expected=list(logins),
            start_timeout_s=start_timeout_s,
            on_finish=None if on_finish is None else (lambda entrant: on_finish(entrant.name)),
        )

    def over(self, params: Mapping[str, int], snapshot: Sequence[RaceProgress]) -> bool:
        """Whether the race is over by its rules (the referee also ends it at its time limit,
        or when no program is left running)."""
        finished = [s for s in snapshot if s["finished_s"] is not None]
        return bool(finished) and (bool(params["first_wins"]) or len(finished) == len(snapshot))

    def live_columns(self, params: Mapping[str, int]) -> list[LiveColumn]:
        """Each entrant's deck (of the race's), sets discarded on it (of 13), round, moves and
        illegal moves: what the page's own scoreboard showed."""
        return [
            LiveColumn("Deck", "deck", params["decks"]),
            LiveColumn("Sets", "discarded", 13),
            LiveColumn("Round", "round"),
            LiveColumn("Moves", "moves"),
            LiveColumn("Illegal", "illegal"),
        ]

    def client_env(self, login: str, password: str, port: int) -> dict[str, str]:
        return {
            "SWP_SERVERNAME": "127.0.0.1",
            "SWP_SERVERPORT": str(port),
            "SWP_PASSWORD": password,
            "SWP_USERNAME": login,
        }

    def race_outcome(self, params: Mapping[str, int], seats: Sequence[dict[str, Any]]) -> GameResult:
        first_wins = bool(params["first_wins"])

        def place_key(i: int) -> tuple:
            s = seats[i]
            if s["finished_s"] is not None:
                return (0, s["finished_s"]) if first_wins else (0, s["round"], s["finished_s"])
            return (1, -s["decks_won"], -s["discarded"], s["progressed_s"], s["round"])

        order = sorted(range(len(seats)), key=place_key)
        place = {seat: n for n, seat in enumerate(order, 1)}
        statuses, details = [], []
        first = order[0]
        for i, s in enumerate(seats):
            if s["finished_s"] is not None and (i == first or not first_wins):
                statuses.append(WIN)
                details.append("finished")
                continue
            if s["finished_s"] is not None:  # in the moment the race took to stop
                statuses.append(LOSS)
                details.append(f"finished {s['finished_s'] - seats[first]['finished_s']:.3f} s after the winner")
                continue
            where = f"deck {s['deck']} of {params['decks']}, {s['discarded']} sets discarded"
            fault = s.get("fault")
            if fault:
                statuses.append(fault[0])
                details.append(f"{fault[1]} ({where})")
            elif first_wins and s.get("stopped"):
                statuses.append(LOSS)
                details.append(where)
            elif s.get("stopped"):
                statuses.append(TIMEOUT)
                details.append(f"not finished within the time limit ({where})")
            else:
                statuses.append(EXIT)
                details.append(f"left the race before it finished ({where})")
        winners = [seats[i].get("entry") or seats[i]["name"] for i in order if seats[i]["finished_s"] is not None]
        reason = (
            f"{winners[0]} won the last deck first"
            if first_wins and winners
            else f"{len(winners)} of {len(seats)} finished"
        )
        return GameResult(
            points=tuple(float(len(seats) - place[i] + 1) for i in range(len(seats))),
            scores=tuple(float(s["round"]) for s in seats),
            statuses=tuple(statuses),
            reason=reason,
            details=tuple(details),
        )

    def kit(self) -> dict[str, bytes]:
        """The server, runnable without the platform (``python3 -m games.wheels``), the pace
        car and the planner: "the contest page offers the server and the pace car"."""
        here = Path(__file__).parent
        files = {"games/__init__.py": b"", "README.txt": KIT_README.encode()}
        for name in ("__init__.py", "__main__.py", "cli.py", "cards.py", "table.py", "server.py"):
            files[f"games/wheels/{name}"] = (here / name).read_bytes()
        for name in ("pacecar.pl", "planner.py"):
            files[name] = (here / "players" / name).read_bytes()
        return files

    def frame(self, state: Any) -> dict[str, Any]:
        """A moment of the race: each entrant's progress (the server's snapshot)."""
        return {"entrants": state}

    def reproduced(self, replay: Mapping[str, Any]) -> dict[str, Any]:
        """A race played again: each entrant's dialogue with the server (its commands and the
        replies, without their times) and its status and rounds. Who crossed the line first
        between two that finished, and so their points, is a matter of milliseconds: not
        compared."""
        result = replay.get("result") or {}
        return {
            "dialogues": [_dialogue(seat.get("server_log")) for seat in replay.get("seats", [])],
            "statuses": result.get("statuses"),
            "scores": result.get("scores"),
        }


def _dialogue(log: str | None) -> list[str] | None:
    """A server log's commands and replies until the entrant finished (what it says after, the
    race ends when it will) or, of a long log, its first part (LOG_HEAD lines), their times
    taken out; None: not in this replay, another entrant's that its viewer may not read."""
    if log is None:
        return None
    said = []
    for line in log.splitlines():
        if line.startswith("… ") and line.endswith(" lines left out …"):
            break  # a long race's log keeps its last lines too, which shift with what came after the finish
        text = line.strip().split(" ", 1)[-1]
        if text[:2] in ("< ", "> "):
            said.append(_TIME.sub("time _", text))
            if text.startswith("> OK FI NI SH ED"):
                break
    return said


_TIME = re.compile(r"\btime \d+(\.\d+)?")
