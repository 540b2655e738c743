"""Whatever a program leaves in its folder or writes on its streams, its game ends in a verdict
for it (or a normal result), never a platform fault (docs/security.md: "a verdict, never an
exception"). Plans for the hostile program (sandbox/tests/hostile.py: names of any bytes,
folders of any depth, links to anywhere, FIFOs, sockets, hard links, sparse files, locked
folders, a child that goes on changing files, any bytes on stdout and stderr) are played in
the real jail by the real referees of four games, and after each:

- the game ended with a verdict for the hostile seat, with a reason, or a normal result; its
  opponent's result stands (a win when the hostile seat forfeits);
- the result saves (``matches.write_result``), the replay with it: its reasons and warnings
  print, what the referee quotes of the program prints (lines kept), all of it valid UTF-8;
- nothing is left on the host: no process, cgroup, mount or work folder, and the folder the
  plans' links point at is untouched.

Each test plays MAX_EXAMPLES plans: the four take about 25 s on two cores.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contests.tests.factories import make_contest, make_entry, make_match, make_submission
from games import registry
from games.base import FAULTS
from games.clocks import Clock
from judging.play import matches
from judging.play.referee import Player, play
from judging.tests.conftest import build
from sandbox.cgroups import Cgroup
from sandbox.conf import get_settings
from sandbox.jail import cgroup_layout
from sandbox.tests.hostile import SOURCE, canary, canary_untouched, plans, prints

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

MAX_EXAMPLES = 30


@pytest.fixture(scope="module", autouse=True)
def _canary():
    with canary():
        yield


@functools.cache
def _hostile_build():
    return build(SOURCE)


def hostile(plan: str):
    return dataclasses.replace(_hostile_build(), env=(("HOSTILE", plan),))


def played(game_name: str, players: list[Player], clock: Clock | None = None, params=None):
    """The game, played by the real referee (an exception here is what must never happen)."""
    game = registry.get(game_name)
    return play(game, params or {}, 0, players, clock or Clock.from_json(game.default_clock))


def saved(game_name: str, record, params=None):
    """The record written as a worker writes it; the match as saved."""
    contest = make_contest(game=game_name, game_params=params or {})
    owner = User.objects.create(username=f"owner-of-{contest.slug}")  # no password to hash: quick
    seats = record.replay["seats"]
    submissions = [make_submission(make_entry(contest, owner, name=f"Seat {s['index']}")) for s in seats]
    match = make_match(contest, submissions, params=params or {})
    attempt = matches.claim("hostile", match_id=match.pk)
    assert matches.write_result(attempt.pk, record)
    match.refresh_from_db()
    attempt.refresh_from_db()
    assert match.status == "finished" and match.result_attempt == attempt
    assert match.load_replay() == json.loads(json.dumps(record.replay))
    return match


def check_text(match, quoted: list[str]) -> None:
    """What was saved is text that prints; what the referee quoted of the program too, and
    the whole replay is valid UTF-8 (no lone surrogate from a name)."""
    json.dumps(match.load_replay(), ensure_ascii=False).encode("utf-8")
    assert prints(match.reason, lines=False), match.reason
    for seat in match.seats.all():
        assert prints(seat.reason, lines=False), seat.reason
    for warning in (w for s in match.result_attempt.result["seats"] for w in s["warnings"]):
        assert prints(warning, lines=False), warning
    for text in quoted:
        assert prints(text), text


def check_seats(match, hostile_seat: int) -> None:
    """A verdict for the hostile seat with a reason, or a normal result; the other's stands."""
    seats = list(match.seats.order_by("index"))
    theirs = seats[hostile_seat]
    if theirs.status in FAULTS:
        assert theirs.reason.strip(), theirs.status
    expected = ("win",) if theirs.status in FAULTS else ("win", "loss", "draw")
    assert all(seat.status in expected for seat in seats if seat is not theirs), (theirs.reason, expected)


def check_host() -> None:
    """Nothing of the jails is left on the host, and the canary is as it was."""
    s = get_settings()
    work = s.root / "work"
    assert not work.is_dir() or not list(work.iterdir())
    assert not [line for line in Path("/proc/mounts").read_text().splitlines() if str(s.root) in line]
    assert not list(Cgroup.leftovers(cgroup_layout(s.cgroup_parent), "", open_files=False))
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cgroups, status = Path(f"/proc/{pid}/cgroup").read_text(), Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue  # ended meanwhile
        zombie = "\nState:\tZ" in status  # ended, not yet reaped: it holds nothing
        assert zombie or f"/{s.cgroup_parent}/" not in cgroups, f"process {pid} of a jail is still there"
    assert canary_untouched()


def quoted_by_moves(record) -> list[str]:
    return [m.get(key, "") for m in record.replay["moves"] for key in ("stderr", "output")]


SETTINGS = settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(plan=plans(play="c"), seat=st.integers(0, 1))
def test_a_chomp_player_ends_in_a_verdict_whatever_it_leaves(program, plan, seat):
    """Process per move, a fresh folder every move, every file an illegal reply (tidy)."""
    params = {"rows": 2, "cols": 3}
    players = [Player("Last", program("chomp_last.c"))]
    players.insert(seat, Player("Hostile", hostile(plan)))
    record = played("chomp", players, params=params)
    match = saved("chomp", record, params)
    check_seats(match, seat)
    check_text(match, quoted_by_moves(record))
    check_host()


@SETTINGS
@given(plan=plans(first=b"support", play="w"), seat=st.integers(0, 1))
def test_a_hearts_and_flowers_player_ends_in_a_verdict_whatever_it_keeps(plan, seat):
    """Process per move, its folder ``support/`` kept between moves, the rest made afresh."""
    params = {"n": 3}
    players = [Player("W1", hostile("w - - 0"))]
    players.insert(seat, Player("Hostile", hostile(plan)))
    record = played("hearts_flowers", players, params=params)
    match = saved("hearts_flowers", record, params)
    check_seats(match, seat)
    check_text(match, quoted_by_moves(record))
    check_host()


@SETTINGS
@given(plan=plans(first=b"output.txt"))
def test_an_output_only_run_ends_in_a_verdict_whatever_stands_as_its_output(plan):
    """Crossed Words: output.txt a folder, a link, a FIFO, a socket, huge, locked, garbage."""
    clock = Clock.from_json({**registry.get("crossed_words").default_clock, "seconds": 5})
    record = played("crossed_words", [Player("Hostile", hostile(plan))], clock)
    match = saved("crossed_words", record)
    check_seats(match, 0)
    check_text(match, [record.replay[key] for key in ("output", "printed", "stderr")])
    check_host()


@SETTINGS
@given(plan=plans(), seat=st.integers(0, 1))
def test_a_line_protocol_player_ends_in_a_verdict_whatever_it_writes(program, plan, seat):
    """CodeCup Sudoku: one process for the game; its line is any bytes, or none."""
    players = [Player("Claimer", program("sudoku/players/claimer.cpp"))]
    players.insert(seat, Player("Hostile", hostile(plan)))
    record = played("sudoku", players, Clock(time_limit=2, measure="wall"))
    match = saved("sudoku", record)
    check_seats(match, seat)
    check_text(match, quoted_by_moves(record))
    check_host()
