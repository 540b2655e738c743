"""The race referee: every program of a stage at once, each a client of the game's own server.

As the Solitaire 500 ran: "all of the entries in this contest will be timesharing the single
CPU of the 'arena' machine and communicating with the server via TCP/IP streams". The race
takes every sandbox slot of the host's installation (nothing else of it runs beside the race)
and one arena slot per entrant (a uid, a cgroup that records its CPU). The server runs in a
thread of the referee's own, on a Unix socket; each jail's only network is that socket, shown
inside as 127.0.0.1:port. Each program logs in under its entry's login name, which is also
what ``whoami`` says in its jail. Plain Python over the sandbox and the games: no Django.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
import secrets
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from games.base import CRASH, TIMEOUT, GameResult, Race, RaceGame
from judging.play.referee import Referee, referee_for
from sandbox.errors import PlatformStall, SandboxError
from sandbox.jail import Endpoint, reserve_arena_slots
from sandbox.limits import Limits
from sandbox.programs import judge_language
from sandbox.result import RunResult, Verdict
from sandbox.text import printable

SAMPLE_S = 1.0  # how often the race's progress is taken (frames of the replay, the live page)
GRACE_S = 5.0  # after the limit: the programs are stopped by the referee, not by the sandbox
FINISHED_EXIT_S = 5.0  # at the end, how long a program that finished may take to end by itself
STDERR_KEPT = 8192
MAX_FRAMES = 600  # the replay keeps at most this many moments, evenly spaced


def login_names(names: list[str]) -> list[str]:
    """A login name per entry, from its name: lower case, a-z 0-9 and '-', a letter first, at
    most 24 characters, unique in the race (a number added where two would be the same)."""
    logins: list[str] = []
    for name in names:
        base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:24].strip("-") or "entrant"
        if not base[0].isalpha():
            base = ("e-" + base)[:24]
        login, n = base, 1
        while login in logins:
            n += 1
            login = f"{base[: 24 - len(str(n)) - 1]}-{n}"
        logins.append(login)
    return logins


class _ServerThread:
    """The game's asyncio server, run in a thread of its own for the length of the race."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="race-server", daemon=True)
        self.thread.start()

    def call(self, coroutine: Any, timeout: float = 10.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def snapshot(self) -> list[dict[str, Any]]:
        async def take() -> list[dict[str, Any]]:
            return self.server.snapshot()

        return self.call(take())

    def logs(self) -> dict[str, str]:
        """Each entrant's server log, read in the server's own thread."""

        async def take() -> dict[str, str]:
            return self.server.logs()

        return self.call(take())

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.call(self.server.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        if not self.thread.is_alive():
            self.loop.close()


@referee_for(Race)
class RaceReferee(Referee):
    """Every seat's program at once against the game's server, for the clock's ``seconds``."""

    game: RaceGame

    def __init__(self, game, *args, **kwargs) -> None:
        if not isinstance(game, RaceGame):
            raise ValueError(f"{game.info.name} is not a race")
        super().__init__(game, *args, **kwargs)
        self.extra: dict[str, Any] = {}

    def run(self, stack: contextlib.ExitStack) -> GameResult:
        game, players, params = self.game, self.players, self.params
        assert isinstance(game.interaction, Race)
        port = game.interaction.port
        self.check_stop("the race")
        seconds = max(1, math.ceil(self.clock.seconds or 900))
        limits = Limits(cpu_s=seconds + GRACE_S, wall_s=seconds + GRACE_S, memory_mb=self.clock.memory_mb)
        logins = login_names([p.name for p in players])
        passwords = {login: secrets.token_hex(8) for login in logins}
        finished = threading.Event()  # someone finished: the race may be over, look at once
        server = game.server(
            params, self.seed, passwords, float(params.get("start_wait", 30)), on_finish=lambda name: finished.set()
        )
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="arbiter-race-")))
        folder.chmod(0o711)
        socket_path = folder / "server.sock"
        thread = _ServerThread(server)
        stack.callback(thread.close)
        thread.call(server.start_unix(socket_path))
        slots = stack.enter_context(reserve_arena_slots(len(players)))
        jails = [
            self.timed_jail(stack, p.program, limits, endpoint=Endpoint(port, socket_path), user=login, slot=slot)
            for p, login, slot in zip(players, logins, slots, strict=False)
        ]
        results: list[RunResult | None] = [None] * len(players)
        errors: list[BaseException | None] = [None] * len(players)

        def drive(i: int) -> None:
            try:
                env = {**dict(players[i].program.env), **game.client_env(logins[i], passwords[logins[i]], port)}
                results[i] = jails[i].run(players[i].program.argv(limits), env=env, limits=limits)
            except BaseException as e:
                errors[i] = e

        flag = asyncio.run_coroutine_threadsafe(server.green_flag(), thread.loop)
        drivers = [threading.Thread(target=drive, args=(i,), name=f"race-seat-{i}") for i in range(len(players))]
        for d in drivers:
            d.start()
        started = time.monotonic()
        stopped = [False] * len(players)
        snapshot = thread.snapshot()
        try:
            while True:
                if finished.wait(SAMPLE_S):
                    finished.clear()
                for i, d in enumerate(drivers):
                    if not d.is_alive():
                        thread.loop.call_soon_threadsafe(server.withdraw, logins[i])
                snapshot = thread.snapshot()
                self._progress(snapshot, time.monotonic() - started, flag.done())
                if game.over(params, snapshot) or not any(d.is_alive() for d in drivers):
                    break
                if time.monotonic() - started > seconds:
                    break
                self.check_stop("the end of the race")
        finally:
            # The race ends as the server answers a finisher's last move: the finisher still
            # has its last words to write (to stderr) and its own exit. The others are stopped.
            done = {seat["name"] for seat in snapshot if seat.get("finished_s") is not None}
            until = time.monotonic() + FINISHED_EXIT_S
            for i, d in enumerate(drivers):
                if logins[i] in done:
                    d.join(max(0.0, until - time.monotonic()))
            for i, d in enumerate(drivers):
                if d.is_alive():
                    stopped[i] = True
                    with contextlib.suppress(SandboxError, OSError):
                        jails[i].kill_programs()
            for d in drivers:
                d.join(30)
        flag.cancel()
        snapshot = thread.snapshot()
        self._progress(snapshot, time.monotonic() - started, True)
        for error in errors:
            if isinstance(error, PlatformStall):
                raise PlatformStall(f"the race: {error}") from None
            if error is not None:
                raise error
        logs = thread.logs()
        seats = []
        for i, (player, login) in enumerate(zip(players, logins, strict=True)):
            result = results[i]
            assert result is not None
            result = judge_language(player.program, result, limits)
            progress = next(s for s in snapshot if s["name"] == login)
            totals = self.totals[i]
            totals.cpu_s, totals.replies = result.cpu_s, progress["instructions"]
            totals.moves = progress["moves"]
            totals.wall_s = progress["finished_s"] if progress["finished_s"] is not None else progress["time_s"]
            fault = None if stopped[i] or progress["finished_s"] is not None else _fault(result, seconds)
            seats.append({**progress, "entry": player.name, "stopped": stopped[i], "fault": fault})
            self.extra.setdefault("entrants", []).append(
                {
                    "login": login,
                    "server_log": printable(logs.get(login, ""), lines=True),  # what it sent, quoted
                    "stderr": _tail(result.stderr),
                    "cpu_s": round(result.cpu_s, 3),
                    "exit": _how_it_ended(result, stopped[i]),
                }
            )
        # The viewer steps through the race's moments as it steps through moves.
        self.moves[:] = [{"n": n, "t": f["t"], "move": f"{f['t']:g} s"} for n, f in enumerate(self.frames[1:], 1)]
        return game.race_outcome(params, seats)

    def _progress(self, snapshot: list[dict[str, Any]], elapsed: float, started: bool) -> None:
        frame = {"t": round(elapsed, 1), "started": started, **self.game.frame(snapshot)}
        self.frames.append(frame)
        if len(self.frames) > MAX_FRAMES:
            del self.frames[1::2]  # half as many, evenly spaced, the first and last kept
        if self.on_progress is not None:
            with contextlib.suppress(Exception):  # the live page is a convenience: never the race's end
                self.on_progress(frame)

    def seat_replay(self, index: int) -> dict[str, Any]:
        entrants = self.extra.get("entrants") or []
        return entrants[index] if index < len(entrants) else {}

    def replay_extra(self) -> dict[str, Any]:
        return {"race": {"frames_every_s": SAMPLE_S}}


def _tail(data: bytes) -> str:
    text = printable(data[-STDERR_KEPT:], lines=True)
    return ("…" + text) if len(data) > STDERR_KEPT else text


def _fault(result: RunResult, seconds: int) -> tuple[str, str] | None:
    """(status, reason) of a program that ended on its own before it finished the race."""
    if result.verdict is Verdict.MEMORY_LIMIT:
        return CRASH, "over its memory limit"
    if result.verdict in (Verdict.TIME_LIMIT, Verdict.WALL_LIMIT):
        return TIMEOUT, f"still running after the {seconds} s limit"
    if result.signal:
        return CRASH, f"killed by signal {result.signal}"
    if result.exit_code not in (None, 0):
        return CRASH, f"exited with code {result.exit_code}"
    return None  # exited cleanly: the game says where it left the race


def _how_it_ended(result: RunResult, stopped: bool) -> str:
    if stopped:
        return "stopped at the end of the race"
    if result.signal:
        return f"killed by signal {result.signal}"
    return f"exited with code {result.exit_code}" if result.exit_code is not None else result.note
