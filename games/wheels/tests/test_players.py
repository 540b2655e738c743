"""The reference clients, as programs, against the server run by ``manage.py wheels_server``
(delays off): each logs in with the page's environment variables and wins every deck."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

PLAYERS = Path(__file__).resolve().parents[1] / "players"
ROOT = Path(__file__).resolve().parents[3]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def wheels_server(tmp_path):
    """``manage.py wheels_server`` on a free port, with a passwd file; (port, passwd path)."""
    port = _free_port()
    passwd = tmp_path / "passwd"
    passwd.write_text("pace:secret\nplanner:other\n")
    process = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "wheels_server",
            "--port",
            str(port),
            "--count",
            "3",
            "--seed",
            "9",
            "--passwd",
            str(passwd),
            "--no-delays",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    yield port
    process.terminate()
    out, _ = process.communicate(timeout=10)
    assert f"Wheels server on 127.0.0.1:{port}: 3 decks, delays off" in out


def _client(command: list[str], port: int, user: str, password: str) -> subprocess.Popen:
    env = {
        **os.environ,
        "SWP_SERVERNAME": "127.0.0.1",
        "SWP_SERVERPORT": str(port),
        "SWP_PASSWORD": password,
        "SWP_USERNAME": user,
    }
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_the_pace_car_and_the_planner_win_every_deck_side_by_side(wheels_server):
    pace = _client(["perl", str(PLAYERS / "pacecar.pl")], wheels_server, "pace", "secret")
    planner = _client([sys.executable, str(PLAYERS / "planner.py")], wheels_server, "planner", "other")
    pace_out = pace.communicate(timeout=120)
    planner_out = planner.communicate(timeout=120)
    assert pace.returncode == 0, pace_out
    assert planner.returncode == 0, planner_out
    assert "pace car: finished 3 decks in round" in pace_out[1]
    assert "planner: finished in round" in planner_out[1] and "refused" not in planner_out[1]


def test_a_wrong_password_stops_the_client_with_the_servers_answer(wheels_server):
    pace = _client(["perl", str(PLAYERS / "pacecar.pl")], wheels_server, "pace", "wrong")
    _, err = pace.communicate(timeout=30)
    assert pace.returncode != 0 and "login refused: ERR login incorrect" in err


def test_the_command_refuses_a_bad_deck_file(tmp_path):
    bad = tmp_path / "decks.dat"
    bad.write_text("Ah 2h\n")
    done = subprocess.run(
        [sys.executable, "manage.py", "wheels_server", "--decks", str(bad)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "line 1: 2 cards, not 52" in done.stderr
