"""The Solitaire 500 game server: the Stateful Wheels Protocol over TCP (or a Unix socket),
every entrant's game held at once in one asyncio loop.

A connection is greeted with a login request and answers ``username:password``; a wrong
password or a second socket for an entrant already connected gets an ``ERR`` line and is
closed. Then every line is an instruction of one or more commands, executed in order and
each answered on one line (``table.py`` plays them). Each command is a turn on the loop: a
client's long lines never hold up another's answers by more than one of its commands (or the
reading of one of its lines). A game is kept per entrant across reconnects.

Delays (``delays=True``, the race's): at most one move-containing instruction per second per
entrant (a later one waits for its second), a one-second pit stop after each illegal move,
and at most ten other commands in any second (the eleventh waits for its turn). In a race
(``expected`` names the entrants) nobody's login is answered until every expected entrant
has logged in or ``start_timeout_s`` has passed: then every game's clock starts at once
("Gentlemen, start your sockets!"); alone, an entrant's clock starts at its first login.

Lines longer than ``MAX_LINE`` bytes are refused and the connection closed: an instruction
holding a whole deck's solution is a few kilobytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from games.wheels.table import MOVE_WORDS, Table, is_move

log = logging.getLogger(__name__)

GREETING = "Solitaire 500 server (Stateful Wheels Protocol): login with username:password"
MAX_LINE = 1 << 20
LOGIN_TIMEOUT_S = 30.0
MOVE_INTERVAL_S = 1.0  # one move-containing instruction per second
OTHERS_PER_S = 10  # and ten other commands (status, dump, sync..., close, unknown words)
PIT_STOP_S = 1.0  # for each illegal move
LOG_HEAD = 1000  # lines of an entrant's server log kept from the start
LOG_TAIL = 3000  # ... and from the end (24 entrants' logs in a race's replay: a few MB)


def read_passwd(path: Path) -> dict[str, str]:
    """The ``passwd`` file: ``name:password`` lines (blank lines and ``#`` comments skipped)."""
    entries = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        name, sep, password = line.partition(":")
        if not sep or not name:
            raise ValueError(f"{path}:{number}: not name:password")
        entries[name] = password
    return entries


class ServerLog:
    """An entrant's server log: its first ``LOG_HEAD`` lines and its last ``LOG_TAIL``."""

    def __init__(self) -> None:
        self.head: list[str] = []
        self.tail: deque[str] = deque(maxlen=LOG_TAIL)
        self.lines = 0

    def add(self, seconds: float, text: str) -> None:
        line = f"{seconds:9.3f} {text}"
        self.lines += 1
        (self.head if len(self.head) < LOG_HEAD else self.tail).append(line)

    def text(self) -> str:
        left_out = self.lines - len(self.head) - len(self.tail)
        gap = [f"… {left_out} lines left out …"] if left_out > 0 else []
        return "\n".join([*self.head, *gap, *self.tail]) + ("\n" if self.lines else "")


@dataclass
class Entrant:
    name: str
    table: Table
    log: ServerLog = field(default_factory=ServerLog)
    connected: bool = False
    connections: int = 0
    withdrawn: bool = False  # its program has ended: the race does not wait for its login
    started: float | None = None  # the loop's time when its game's clock started
    finished_s: float | None = None  # seconds from its start to its last win
    progressed_s: float = 0.0  # seconds from its start to its latest discard or win
    last_move_line: float = float("-inf")
    others: deque[float] = field(default_factory=lambda: deque(maxlen=OTHERS_PER_S))  # when its latest ran
    errors: int = 0  # ERR lines sent (illegal moves and unknown words)

    def seconds(self, now: float) -> float:
        return 0.0 if self.started is None else now - self.started

    def snapshot(self, now: float) -> dict[str, object]:
        t = self.table
        won, discarded = t.progress()
        return {
            "name": self.name,
            "deck": min(t.deck + 1, len(t.decks)),
            "decks_won": won,
            "discarded": discarded,
            "round": t.round,
            "moves": t.moves,
            "instructions": t.instructions,
            "illegal": t.illegal,
            "errors": self.errors,
            "finished_s": None if self.finished_s is None else round(self.finished_s, 3),
            "progressed_s": round(self.progressed_s, 3),
            "connected": self.connected,
            "connections": self.connections,
            "time_s": round(self.seconds(now), 3),
        }


class WheelsServer:
    def __init__(
        self,
        decks: Sequence[Sequence[str]],
        passwd: dict[str, str] | None = None,
        *,
        delays: bool = True,
        expected: Sequence[str] = (),
        start_timeout_s: float = 60.0,
        on_finish: Callable[[Entrant], None] | None = None,
        echo: Callable[[str], None] | None = None,
    ) -> None:
        self.decks = [tuple(d) for d in decks]
        self.passwd = passwd
        self.delays = delays
        self.expected = list(expected)
        self.start_timeout_s = start_timeout_s
        self.on_finish = on_finish
        # The standalone server's own log (its standard output): logins, disconnections, every
        # `dump` ("print the game state ... into the server log, for client debugging") and
        # each finish, as NAME SECONDS WHAT. A race's logs go into its replay instead.
        self.echo = echo
        self.entrants: dict[str, Entrant] = {name: self._entrant(name) for name in self.expected}
        self.finish_order: list[str] = []
        self.started: float | None = None  # the race's green flag (loop time)
        self._go: asyncio.Event | None = None
        self._servers: list[asyncio.base_events.Server] = []
        self._tasks: set[asyncio.Task] = set()

    def _entrant(self, name: str) -> Entrant:
        return Entrant(name, Table(self.decks))

    @property
    def race(self) -> bool:
        return bool(self.expected)

    # Serving.
    async def start_tcp(self, host: str, port: int) -> int:
        server = await asyncio.start_server(self._serve, host, port, limit=MAX_LINE)
        self._servers.append(server)
        return server.sockets[0].getsockname()[1]

    async def start_unix(self, path: Path) -> None:
        self._servers.append(await asyncio.start_unix_server(self._serve, str(path), limit=MAX_LINE))

    async def green_flag(self) -> None:
        """Start the race when every expected entrant has logged in, or at the timeout."""
        self._go = self._go or asyncio.Event()
        if self.race:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._all_in(), self.start_timeout_s)
        now = asyncio.get_running_loop().time()
        self.started = now
        for entrant in self.entrants.values():
            entrant.started = now
        self._go.set()

    async def _all_in(self) -> None:
        while not all(e.connections or e.withdrawn for e in self.entrants.values()):
            await asyncio.sleep(0.02)

    def withdraw(self, name: str) -> None:
        """The referee saw ``name``'s program end: the start waits for it no longer."""
        if name in self.entrants:
            self.entrants[name].withdrawn = True

    async def close(self) -> None:
        for server in self._servers:
            server.close()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for server in self._servers:
            with contextlib.suppress(Exception):
                await server.wait_closed()

    def snapshot(self) -> list[dict[str, object]]:
        now = asyncio.get_running_loop().time()
        return [e.snapshot(now) for e in self.entrants.values()]

    def logs(self) -> dict[str, str]:
        """Each entrant's dialogue with the server, by login name."""
        return {e.name: e.log.text() for e in self.entrants.values()}

    # One connection.
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        entrant, mine = None, 0
        try:
            entrant = await self._login(reader, writer)
            if entrant is not None:
                mine = entrant.connections
                await self._play(entrant, reader, writer, mine)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            pass  # the server is closing: end quietly (asyncio logs a handler that ends cancelled)
        finally:
            self._tasks.discard(task)
            if entrant is not None:
                self._release(entrant, mine)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    def _release(self, entrant: Entrant, connection: int) -> None:
        """The entrant's ``connection`` (its number) is over: it may log in again (once only,
        and not when a later connection has taken its place)."""
        if entrant.connected and entrant.connections == connection:
            entrant.connected = False
            self._note(entrant, "disconnected")

    def _seconds(self, entrant: Entrant) -> float:
        return entrant.seconds(asyncio.get_running_loop().time())

    async def _send(self, writer: asyncio.StreamWriter, line: str) -> None:
        writer.write(line.encode() + b"\n")
        await writer.drain()

    async def _login(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> Entrant | None:
        await self._send(writer, GREETING)
        try:
            raw = await asyncio.wait_for(reader.readuntil(b"\n"), LOGIN_TIMEOUT_S)
        except (TimeoutError, asyncio.LimitOverrunError, asyncio.IncompleteReadError):
            await self._send(writer, "ERR no login")
            return None
        name, _, password = raw.decode("utf-8", errors="replace").strip().partition(":")
        if self.race and name not in self.entrants:
            await self._send(writer, f'ERR "{name}" is not in this race')
            return None
        if self.passwd is not None and self.passwd.get(name) != password:
            await self._send(writer, "ERR login incorrect")
            return None
        if not name:
            await self._send(writer, "ERR login with username:password")
            return None
        entrant = self.entrants.get(name)
        if entrant is None:
            entrant = self.entrants[name] = self._entrant(name)
        if entrant.connected:
            await self._send(writer, f"ERR {name} is already connected: one socket at a time")
            return None
        entrant.connected = True
        entrant.connections += 1
        if self._go is None:
            self._go = asyncio.Event()
            if not self.race:
                self._go.set()
        await self._go.wait()
        if entrant.started is None:
            entrant.started = asyncio.get_running_loop().time()
        self._note(entrant, f"logged in (connection {entrant.connections})")
        await self._send(writer, entrant.table.status(int(self._seconds(entrant))))
        return entrant

    async def _play(
        self, entrant: Entrant, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, connection: int
    ) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                raw = await reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as e:
                if not e.partial.strip():
                    return
                raw = e.partial  # a last instruction without its newline
            except asyncio.LimitOverrunError:
                entrant.log.add(self._seconds(entrant), "a line over the limit: connection closed")
                await self._send(writer, f"ERR line too long: at most {MAX_LINE} bytes")
                self._release(entrant, connection)  # it is over now: a new socket may log in at once
                await _drain_input(reader, writer)
                return
            words = raw.decode("utf-8", errors="replace").split()
            if not words:
                await asyncio.sleep(0)  # a blank line is a turn too
                continue
            entrant.table.instructions += 1
            if self.delays and not MOVE_WORDS.isdisjoint(words):
                wait = entrant.last_move_line + MOVE_INTERVAL_S - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                entrant.last_move_line = loop.time()
            entrant.log.add(self._seconds(entrant), "< " + " ".join(words[:500])[:500])
            for word in words:
                if self.delays and not is_move(word):
                    await _pace(entrant.others)
                if await self._command(entrant, word, writer):
                    return
                await writer.drain()  # its answers wait in the socket, not in the server
                await asyncio.sleep(0)  # each command is a turn: every entrant's, however long its lines

    def _note(self, entrant: Entrant, text: str) -> None:
        """A line of the entrant's server log that the standalone server also prints."""
        seconds = self._seconds(entrant)
        entrant.log.add(seconds, text)
        if self.echo is not None:
            self.echo(f"{entrant.name} {seconds:.3f} {text}")

    async def _command(self, entrant: Entrant, word: str, writer: asyncio.StreamWriter) -> bool:
        """Execute one command and answer it; True when the connection is to close."""
        table = entrant.table
        was = table.progress()
        answer = table.execute(word, int(self._seconds(entrant)))
        if answer.close:
            entrant.log.add(self._seconds(entrant), "close")
            return True
        seconds = self._seconds(entrant)
        if answer.dump:
            self._note(entrant, "dump: " + table.dump())
        entrant.log.add(seconds, "> " + answer.line)
        writer.write(answer.line.encode() + b"\n")
        if answer.line.startswith("ERR"):
            entrant.errors += 1
        if table.progress() != was:
            entrant.progressed_s = seconds
        if table.finished and entrant.finished_s is None:
            entrant.finished_s = seconds
            self.finish_order.append(entrant.name)
            if self.echo is not None:
                self.echo(f"{entrant.name} {seconds:.3f} finished every deck in {table.round} rounds")
            if self.on_finish is not None:
                self.on_finish(entrant)
        if answer.illegal and self.delays:
            await writer.drain()
            await asyncio.sleep(PIT_STOP_S)
        return False


async def _pace(latest: deque[float]) -> None:
    """Wait until one more command may run of at most ``latest.maxlen`` in any second, and
    note when it runs (``latest``: when the latest of them ran)."""
    loop = asyncio.get_running_loop()
    if len(latest) == latest.maxlen:
        wait = latest[0] + 1.0 - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
    latest.append(loop.time())


async def _drain_input(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, within_s: float = 2.0) -> None:
    """Half-close and read what the client is still sending, a little while: closing a socket
    with unread input resets it, and the client would lose the line that said why."""
    with contextlib.suppress(OSError):
        writer.write_eof()
    deadline = asyncio.get_running_loop().time() + within_s
    with contextlib.suppress(TimeoutError, ConnectionError):
        while await asyncio.wait_for(reader.read(1 << 16), max(0.0, deadline - asyncio.get_running_loop().time())):
            pass


def serve_forever(server: WheelsServer, host: str, port: int, announce: Callable[[str], None]) -> None:
    """Run ``server`` on host:port until interrupted (``manage.py wheels_server``)."""

    async def main() -> None:
        bound = await server.start_tcp(host, port)
        announce(
            f"Wheels server on {host}:{bound}: {len(server.decks)} decks, delays {'on' if server.delays else 'off'}"
        )
        await server.green_flag()
        try:
            await asyncio.Event().wait()
        finally:
            await server.close()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
