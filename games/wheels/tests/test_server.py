"""The server over real sockets: the page's dialogue, logins, reconnects, the delays measured,
and clients that misbehave."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import statistics
import sys
import time
from asyncio.subprocess import PIPE
from pathlib import Path

import pytest

from games.wheels import server as wheels_server
from games.wheels.cards import decks_from_seed, read_decks
from games.wheels.server import GREETING, MAX_LINE, Entrant, WheelsServer
from games.wheels.tests import dialogue

PLANNER = Path(__file__).resolve().parents[1] / "players" / "planner.py"
OPEN: list[Client] = []  # the clients of the test running, closed after it


class Client:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        OPEN.append(self)

    @classmethod
    async def connect(cls, port: int, login: str | None = "alice:pw") -> tuple[Client, str]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=MAX_LINE * 2)
        client = cls(reader, writer)
        assert await client.line() == GREETING
        if login is None:
            return client, ""
        await client.send(login)
        return client, await client.line()

    async def send(self, text: str) -> None:
        self.writer.write(text.encode() + b"\n")
        await self.writer.drain()

    async def line(self, timeout: float = 5.0) -> str:
        raw = await asyncio.wait_for(self.reader.readline(), timeout)
        return raw.decode().rstrip("\n")

    async def lines(self, count: int) -> list[str]:
        return [await self.line() for _ in range(count)]

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError):
            await self.writer.wait_closed()


def run(test, **kwargs):
    """Run ``test(server, port)`` against a fresh server on a free port."""

    async def main():
        server = WheelsServer(
            kwargs.pop("decks", decks_from_seed(2, 5)), kwargs.pop("passwd", {"alice": "pw", "bob": "pw2"}), **kwargs
        )
        port = await server.start_tcp("127.0.0.1", 0)
        flag = asyncio.create_task(server.green_flag())
        try:
            return await test(server, port)
        finally:
            flag.cancel()
            for client in OPEN:
                client.writer.close()
            OPEN.clear()
            await server.close()

    return asyncio.run(main())


async def _gone(entrant: Entrant) -> None:
    for _ in range(300):
        if not entrant.connected:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{entrant.name} still connected")


STATUS = re.compile(r"OK (.. .. .. ..) time \d+ round (\d+) move (\d+) (\d+) sets left in deck (\d+) of (\d+) decks")


def _relative(line: str, start: tuple[int, int, int]):
    """A status line with its round, move and deck counted from ``start``, its clock left out;
    any other line as it is."""
    m = STATUS.fullmatch(line)
    if m is None:
        return line
    return m[1], int(m[2]) - start[0], int(m[3]) - start[1], m[4], int(m[5]) - start[2], m[6]


def test_the_pages_dialogue_over_a_socket_on_a_deck_file_that_reproduces_it(tmp_path):
    """The deck file's first deck, played by the preamble, reaches the dialogue's cards; from
    there every line is the page's, but for the clock and the counters, which count from
    where the page's stood (round 77, move 1271, deck 4) and here stand at 2, 0, 1."""
    path = tmp_path / "decks.dat"
    path.write_text(dialogue.deck_file())
    decks = read_decks(path.read_text())

    async def test(server, port):
        client, _ = await Client.connect(port)
        await client.send(" ".join(dialogue.PREAMBLE))
        answers = await client.lines(len(dialogue.PREAMBLE))
        assert all(a.startswith("OK ") for a in answers), answers
        for sent, expected in dialogue.DIALOGUE:
            await client.send(sent)
            got = await client.lines(len(expected))
            page = [dialogue.DIFFERENCES.get(e, e) for e in expected]
            assert [_relative(g, (2, 0, 1)) for g in got] == [_relative(e, (77, 1271, 4)) for e in page], sent
        await client.send("close")
        assert await client.line() == ""  # the server closed the socket
        log = server.entrants["alice"].log.text()
        assert "< 21 10 32 10 3012 lay syncA" in log and "> ERR cannot move 21" in log

    run(test, decks=decks, delays=False)


def test_a_wrong_password_or_unknown_entrant_is_refused():
    async def test(server, port):
        _, answer = await Client.connect(port, "alice:wrong")
        assert answer == "ERR login incorrect"
        _, answer = await Client.connect(port, "mallory:pw")
        assert answer == "ERR login incorrect"
        _, answer = await Client.connect(port, "bob:pw2")
        assert answer.startswith("OK __ __ __ __ time 0 round 1 move 0 13 sets left in deck 1 of 2 decks")

    run(test, delays=False)


def test_a_second_socket_is_refused_and_a_reconnect_keeps_the_game():
    async def test(server, port):
        first, _ = await Client.connect(port)
        await first.send("lay lay")
        await first.lines(2)
        second, answer = await Client.connect(port)
        assert answer == "ERR alice is already connected: one socket at a time"
        assert await second.line() == ""
        await first.send("status")
        assert "11 sets left" in await first.line()
        await first.close()  # gone mid-deck
        await _gone(server.entrants["alice"])
        again, answer = await Client.connect(port)
        assert "11 sets left in deck 1" in answer
        assert server.entrants["alice"].connections == 2

    run(test, delays=False)


def test_a_ten_megabyte_line_closes_only_that_connection():
    async def test(server, port):
        flood, _ = await Client.connect(port)
        other, _ = await Client.connect(port, "bob:pw2")
        flood.writer.write(b"x" * (10 << 20) + b"\n")
        sending = asyncio.create_task(flood.writer.drain())
        assert await flood.line(timeout=10) == f"ERR line too long: at most {MAX_LINE} bytes"
        assert await flood.line(timeout=10) == ""  # and closed
        await asyncio.gather(sending, return_exceptions=True)
        await flood.close()
        await _gone(server.entrants["alice"])
        await other.send("status")
        assert (await other.line()).startswith("OK ")
        again, answer = await Client.connect(port)
        assert answer.startswith("OK ")  # the flooder may come back; its game is kept

    run(test, delays=False)


def test_a_flooder_may_log_in_again_at_once_while_its_old_socket_still_drains():
    """Its refused connection is over when the server says so, not when the rest of its line
    has been read away (the pace of a relay in between decided it: 'already connected')."""

    async def test(server, port):
        flood, _ = await Client.connect(port)
        flood.writer.write(b"x" * (2 * MAX_LINE) + b"\n")  # and keeps the socket open
        sending = asyncio.create_task(flood.writer.drain())
        assert (await flood.line(timeout=10)).startswith("ERR line too long")
        again, answer = await Client.connect(port)
        assert answer.startswith("OK "), answer
        await flood.close()
        await asyncio.gather(sending, return_exceptions=True)
        assert server.entrants["alice"].connected  # the old socket's end leaves the new one be
        await again.send("status")
        assert (await again.line()).startswith("OK ")

    run(test, delays=False)


def test_a_client_flooding_status_does_not_starve_another():
    async def test(server, port):
        flood, _ = await Client.connect(port)
        other, _ = await Client.connect(port, "bob:pw2")
        flood.writer.write(b"status\n" * 200_000)  # never reads its answers
        started = time.monotonic()
        for _ in range(20):
            await other.send("status")
            assert (await other.line()).startswith("OK ")
        assert time.monotonic() - started < 5
        assert server.entrants["alice"].table.instructions < 200_000  # held back by its own unread answers

    run(test, delays=False)


async def _flood(port: int, login: str, line: str) -> None:
    """A client sending ``line`` again and again, as fast as the server takes it, and reading
    its answers away as fast as they come."""
    client, _ = await Client.connect(port, login)

    async def read_away() -> None:
        while await client.reader.read(1 << 16):
            pass

    reading = asyncio.create_task(read_away())
    try:
        while True:
            await client.send(line)
    finally:
        reading.cancel()
        client.writer.transport.abort()  # gone at once, what the server still had to say dropped


def _longest(unit: str) -> str:
    """``unit`` repeated, as long as a line may be."""
    return " ".join([unit] * (MAX_LINE // (len(unit) + 1) - 1))


async def _round_trips(client: Client, count: int, server: WheelsServer, flooder: str) -> tuple[list[float], int]:
    """``count`` ``status`` round trips of ``client``, or as many as 30 s allow: the seconds
    of each, and the most lines the flooder's server log grew by during one (each of its
    commands writes one or two)."""
    latencies, most = [], 0
    deadline = time.perf_counter() + 30
    while len(latencies) < count and time.perf_counter() < deadline:
        log = server.entrants[flooder].log if flooder in server.entrants else wheels_server.ServerLog()
        before, lines = time.perf_counter(), log.lines
        await client.send("status")
        assert (await client.line()).startswith("OK ")
        latencies.append(time.perf_counter() - before)
        most = max(most, log.lines - lines)
    return latencies, most


@pytest.mark.parametrize("flood", [_longest("dump status"), "\n" * MAX_LINE], ids=["1 MiB lines", "blank lines"])
def test_a_flooder_delays_another_clients_answers_by_a_few_of_its_turns_only(flood):
    """Each command is a turn on the server's loop, and so is each line: beside a client
    sending lines of ``dump status`` as long as a line may be, or blank lines, as fast as it
    can, another's answer waits for a few of the flooder's commands, never for a whole line
    of them (docs/games.md, "Fairness": the bound, and what was measured)."""

    async def test(server, port):
        bob, _ = await Client.connect(port, "bob:pw2")
        alone, _ = await _round_trips(bob, 200, server, "alice")
        flooding = asyncio.create_task(_flood(port, "alice:pw", flood))
        while "alice" not in server.entrants:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.5)  # its first lines are in
        beside, most = await _round_trips(bob, 200, server, "alice")
        assert not flooding.done()  # and still flooding
        flooding.cancel()
        await asyncio.gather(flooding, return_exceptions=True)
        return alone, beside, most

    alone, beside, most = run(test, delays=False)
    assert len(beside) == 200, f"{len(beside)} answers in 30 s beside the flooder"
    assert most <= 100  # its commands while one answer waited: 9 log lines measured (a line's: 260,000)
    assert statistics.median(beside) <= 20 * statistics.median(alone) + 0.005  # measured: 1-3 times


async def _planner_race(port: int, within_s: float) -> float | None:
    """The planner (``players/planner.py``) playing as bob: the seconds from its start to its
    end, or None when it has not finished within ``within_s``."""
    env = {
        **os.environ,
        "SWP_SERVERNAME": "127.0.0.1",
        "SWP_SERVERPORT": str(port),
        "SWP_USERNAME": "bob",
        "SWP_PASSWORD": "pw2",
    }
    started = time.perf_counter()
    process = await asyncio.create_subprocess_exec(sys.executable, str(PLANNER), env=env, stderr=PIPE)
    try:
        _, err = await asyncio.wait_for(process.communicate(), within_s)
    except TimeoutError:
        process.kill()
        await process.wait()
        return None
    assert process.returncode == 0 and b"planner: finished" in err, err
    return time.perf_counter() - started


@pytest.mark.slow
@pytest.mark.alone
@pytest.mark.parametrize(("delays", "decks", "slower"), [(False, 10, 4.0), (True, 3, 1.3)], ids=["off", "on"])
def test_the_planners_race_beside_two_flooders_takes_about_as_long_as_alone(delays, decks, slower):
    """The planner's race alone, then beside a client sending 1 MiB lines of legal moves (the
    most delays let through: a line a second) and another sending 1 MiB lines of ``dump
    status``, both as fast as they can. It shares the server's turns with them, and never
    waits for a line of theirs (docs/games.md, "Fairness": the bound, and what was measured)."""
    passwd = {"alice": "pw", "bob": "pw2", "carol": "pw3"}
    moves = " ".join(["lay"] * 13 + ["0123"])  # legal for ever: the deck laid out, picked up, again

    async def alone(server, port):
        return await _planner_race(port, 60)

    async def beside(server, port):
        floods = [
            asyncio.create_task(_flood(port, "alice:pw", _longest(moves))),
            asyncio.create_task(_flood(port, "carol:pw3", _longest("dump status"))),
        ]
        await asyncio.sleep(0.5)  # their first lines are in
        try:
            return await _planner_race(port, 60)
        finally:
            for flood in floods:
                flood.cancel()
            await asyncio.gather(*floods, return_exceptions=True)

    kwargs = {"decks": decks_from_seed(decks, 7), "passwd": passwd, "delays": delays}
    alone_s, beside_s = run(alone, **kwargs), run(beside, **kwargs)
    assert alone_s is not None and beside_s is not None, (alone_s, beside_s)
    assert beside_s <= slower * alone_s + 1.0, (alone_s, beside_s)


def test_one_move_instruction_a_second_and_a_pit_stop_per_illegal_move():
    async def test(server, port):
        client, _ = await Client.connect(port)
        started = time.monotonic()
        for _ in range(3):
            await client.send("lay")
            await client.line()
        paced = time.monotonic() - started
        await client.send("status")  # not a move: no wait
        before = time.monotonic()
        await client.line()
        status_s = time.monotonic() - before
        await client.send("23 23 status")  # two illegal moves: two pit stops, in the next move second
        before = time.monotonic()
        answers = await client.lines(3)
        pits = time.monotonic() - before
        return paced, status_s, pits, answers

    paced, status_s, pits, answers = run(test, delays=True)
    assert 1.9 <= paced < 3.0  # three lines: at 0, 1 and 2 s
    assert status_s < 0.5
    assert answers[:2] == ["ERR cannot move 23"] * 2 and answers[2].startswith("OK ")
    assert 2.9 <= pits < 4.5  # its second's wait, then 1 s after each error


def test_with_delays_ten_other_commands_a_second_and_the_rest_wait_their_turn():
    """Commands that are no moves are limited too, in the page's way (a wait, not a refusal):
    of a line of 25, ten are answered at once, ten a second later and five a second after
    that; a move is not held up by them. Without delays, all 25 at once."""

    async def test(server, port):
        client, _ = await Client.connect(port)
        started = time.monotonic()
        await client.send(" ".join(["status", "dump", "syncA", "blat", "status"] * 5))
        times = []
        for _ in range(25):
            await client.line()
            times.append(time.monotonic() - started)
        before = time.monotonic()
        await client.send("lay")
        assert (await client.line()).startswith("OK ")
        return times, time.monotonic() - before

    times, lay_s = run(test, delays=True)
    assert [sum(t < s for t in times) for s in (0.5, 1.5)] == [10, 20]
    assert 1.9 <= times[-1] < 3.0 and lay_s < 0.5
    times, _ = run(test, delays=False)
    assert times[-1] < 0.5


def test_no_delays_when_the_judges_turn_them_off():
    async def test(server, port):
        client, _ = await Client.connect(port)
        started = time.monotonic()
        await client.send("23 23 23")
        await client.lines(3)
        for _ in range(5):
            await client.send("lay")
            await client.line()
        return time.monotonic() - started

    assert run(test, delays=False) < 0.5


def test_a_race_starts_when_everyone_is_in_and_clocks_start_together():
    async def test(server, port):
        alice = asyncio.create_task(Client.connect(port))
        await asyncio.sleep(0.3)
        assert not alice.done()  # waits for the green flag
        _, bob_first = await Client.connect(port, "bob:pw2")
        _, alice_first = await alice
        assert alice_first.startswith("OK __ __ __ __ time 0 ") and bob_first.startswith("OK __ __ __ __ time 0 ")
        _, stranger = await Client.connect(port, "carol:x")
        assert stranger == 'ERR "carol" is not in this race'
        assert server.entrants["alice"].started == server.entrants["bob"].started

    run(test, delays=False, expected=["alice", "bob"], start_timeout_s=10)


def test_a_race_starts_at_its_timeout_without_a_missing_entrant():
    async def test(server, port):
        started = time.monotonic()
        _, first = await Client.connect(port)
        assert first.startswith("OK ") and 0.4 < time.monotonic() - started < 3

    run(test, delays=False, expected=["alice", "bob"], start_timeout_s=0.5)


def test_the_finish_line_and_the_finish_order():
    decks = decks_from_seed(1, 3)
    finished = []

    async def test(server, port):
        server.entrants["alice"] = Entrant("alice", _won_table(decks))
        client, _ = await Client.connect(port)
        await client.send("win status lay")
        return await client.lines(3)

    lines = run(test, decks=decks, delays=False, on_finish=finished.append)
    assert re.fullmatch(r"OK FI NI SH ED time 0 round 1 move 0 0 sets left in deck 1 of 1 decks", lines[0])
    assert lines[1].startswith("OK FI NI SH ED") and lines[2] == "ERR the game is over: every deck is won"
    assert [e.name for e in finished] == ["alice"]


def _won_table(decks):
    from games.wheels.table import Table

    return Table(decks, hand=[], discarded=13)


def test_the_server_log_keeps_its_head_and_tail():
    log = wheels_server.ServerLog()
    for i in range(wheels_server.LOG_HEAD + wheels_server.LOG_TAIL + 5):
        log.add(i, f"line {i}")
    text = log.text()
    assert "line 0\n" in text and "… 5 lines left out …" in text and text.endswith(f"line {log.lines - 1}\n")
