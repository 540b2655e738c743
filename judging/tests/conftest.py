from pathlib import Path

import pytest

from sandbox.programs import build_program

PROGRAMS = Path(__file__).parent / "programs"
PLAYERS = Path(__file__).resolve().parents[2] / "games"


def build(path: Path):
    result = build_program(path.read_bytes(), path.name)
    assert result.ok, result.log
    return result.program


@pytest.fixture(scope="session")
def program():
    """Build a test program (by file name in judging/tests/programs or a path under games/)."""
    cache = {}

    def get(name: str):
        if name not in cache:
            path = PROGRAMS / name if (PROGRAMS / name).exists() else PLAYERS / name
            cache[name] = build(path)
        return cache[name]

    return get
