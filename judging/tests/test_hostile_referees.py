"""Whatever an uploaded referee writes, the platform ends the game one of two ways: a result in
the platform's vocabulary, one value per seat, with a frame for every position of the replay;
or RefereeFault, the platform's fault, in words. Never another exception, never a hang.

Hypothesis writes the referee: any sequence of protocol lines, well-formed or not, then it
exits (a referee that runs out of lines ends before its result, unless it wrote one)."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import SEAT_STATUSES
from games.clocks import Clock
from judging.play.referee import Player, play
from judging.tests.conftest import PROGRAMS, build
from judging.uploaded import hosting
from judging.uploaded.program_referee import RefereeFault

pytestmark = [pytest.mark.once, pytest.mark.slow]

SEATS = st.sampled_from(["0", "1", "2", "-1", "x", ""])
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=20)
WORDS = st.sampled_from(["win", "loss", "draw", "illegal", "timeout", "crash", "exit", "valid", "win:X", "loss:a b"])
LINE = st.one_of(
    st.sampled_from(["send 0 5", "send 1 5", "ask 0", "ask 1", "result 2 0", "result 1 1 | draw draw:TIED"]),
    st.builds(lambda s, t: f"send {s} {t}", SEATS, TEXT),
    st.builds(lambda s: f"ask {s}", SEATS),
    st.builds(lambda d: f"frame {json.dumps(d)}", st.dictionaries(st.sampled_from(["grid", "text", "x"]), TEXT)),
    st.builds(lambda t: f"frame {t}", TEXT),
    st.builds(lambda t: f"reason {t}", TEXT),
    st.builds(
        lambda points, words: "result " + " ".join(points) + (" | " + " ".join(words) if words else ""),
        st.lists(st.sampled_from(["0", "1", "2.5", "-1", "nan", "inf", "1e300", "x"]), max_size=3),
        st.lists(WORDS, max_size=3),
    ),
    TEXT,
)


def referee_of(lines: list[str]) -> dict[str, bytes]:
    """The files of a game whose referee reads the header, then writes ``lines`` and exits."""
    files = hosting.read_folder(PROGRAMS / "nim")
    script = "\n".join(
        [
            "import sys",
            "for line in sys.stdin:",
            "    if line.strip() == 'begin':",
            "        break",
            f"for line in {lines!r}:",
            "    print(line, flush=True)",
            "    if line.startswith('ask '):",
            "        sys.stdin.readline()",
        ]
    )
    return {**files, "referee.py": script.encode() + b"\n"}


@pytest.fixture(scope="module")
def players():
    return [Player(name, build(PROGRAMS / "nim" / name)) for name in ("taker.py", "one.py")]


@settings(
    max_examples=int(os.environ.get("ARBITER_EXAMPLES", 25)),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(lines=st.lists(LINE, max_size=12))
def test_any_referee_ends_in_a_result_or_the_platforms_fault(players, lines):
    game = hosting.manifest_of(referee_of(lines))
    clock = Clock.from_json(game.default_clock)
    try:
        record = play(game, {"stones": 5, "fault": "0"}, 1, players, clock)
    except RefereeFault as e:
        assert str(e).startswith("the referee ")
        return
    outcome = record.outcome
    assert len(outcome.points) == len(outcome.statuses) == 2
    assert all(status in SEAT_STATUSES for status in outcome.statuses)
    assert len(record.replay["frames"]) == len(record.replay["moves"]) + 1
    assert any(line.startswith("result ") for line in lines)
