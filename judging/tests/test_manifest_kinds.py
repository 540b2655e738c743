"""A manifest for people (issue 37): parameters of any scalar kind, a bare value its default,
players as paths; each refused in words when it cannot be; and a string parameter reaches the
referee whole, spaces and all."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from games.base import ParamError
from games.hosted import ManifestError
from judging.record import formats
from judging.tests.conftest import PROGRAMS
from judging.uploaded import hosting

NIM = PROGRAMS / "nim"


def nim(**manifest) -> dict[str, bytes]:
    files = hosting.read_folder(NIM)
    data = {**json.loads(files["game.json"]), **manifest}
    return {**files, "game.json": json.dumps(data).encode()}


def params_of(params: dict):
    base = json.loads(hosting.read_folder(NIM)["game.json"])["params"]
    return {p.name: p for p in hosting.manifest_of(nim(params={**base, **params})).info.params}


def test_parameters_of_every_kind_and_bare_defaults():
    found = params_of({
        "heaps": "3 4 5", "fast": True, "ratio": {"default": 0.5, "min": 0, "max": 1},
        "board": {"default": "hex", "choices": ["hex", "go"], "help": "which board"}, "size": 7,
    })  # fmt: skip
    assert [(found[n].kind, found[n].default) for n in ("heaps", "fast", "ratio", "board", "size")] == [
        ("string", "3 4 5"), ("boolean", True), ("number", 0.5), ("string", "hex"), ("integer", 7),
    ]  # fmt: skip
    assert found["board"].check("go") == "go" and found["fast"].check(False) is False
    for name, value, said in (
        ("board", "chess", "board must be one of hex, go, not 'chess'"),
        ("fast", 1, "fast must be true or false, not 1"),
        ("ratio", 2.5, "ratio must be between 0 and 1, not 2.5"),
        ("heaps", "a\nb", "heaps must be one line of text"),
        ("size", 1.5, "size must be a whole number, not 1.5"),
    ):
        with pytest.raises(ParamError, match=said):
            found[name].check(value)


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ({"default": [1, 2]}, "its default must be a whole number, a number, a string, true or false"),
        ({"default": "x", "min": 1}, "min and max are for numbers, and its default is a string"),
        ({"default": "x", "choices": ["y", "z"]}, "its default 'x' is not one of its choices"),
        ({"default": 1, "choices": [1, "two"]}, "its choice 'two' is not of its kind \\(integer\\)"),
        ({"default": 5, "colour": "red"}, "its keys are default, min, max, choices and help"),
    ],
)
def test_a_parameter_that_cannot_be_is_refused_naming_it(spec, said):
    with pytest.raises(ManifestError, match=said):
        params_of({"odd": spec})


def test_players_given_as_paths_are_named_by_their_files_and_the_first_is_the_opponent():
    game = hosting.manifest_of(nim(players=["taker.py", "one.py"]))
    assert [p.name for p in game.manifest.players] == ["taker", "one"]
    assert game.opponent.name == "taker" and game.opponent.program.filename == "taker.py"


def test_a_stage_and_a_contest_take_a_string_parameter_as_the_manifest_says():
    game = hosting.manifest_of(
        nim(params={"stones": 15, "fault": 0, "label": {"default": "a b", "choices": ["a b", "c"]}})
    )
    assert formats.clean_params("round_robin", game, {"label": "c"}) == {"label": "c"}
    with pytest.raises(formats.ParamsError) as refused:
        formats.clean_params("round_robin", game, {"label": "d"})
    assert refused.value.fields["label"] == "label must be one of a b, c, not 'd'"


def test_a_string_reaches_the_referee_whole(tmp_path):
    """The referee reads ``param NAME VALUE``: a value with spaces is the rest of its line."""
    files = hosting.read_folder(NIM)
    referee = (
        files["referee.py"]
        .decode()
        .replace(
            "        name, value = rest.split()\n        header[name] = int(value)",
            '        name, _, value = rest.partition(" ")\n        header[name] = value if name == "label" else int(value)',
        )
    )
    referee = referee.replace(
        'say("frame " + json.dumps({"text": [f"{stones} stones"]',
        'say("frame " + json.dumps({"text": [header["label"]]',
    )
    for name, data in {**files, "referee.py": referee.encode()}.items():
        (tmp_path / name).write_bytes(data)
    manifest = {**json.loads(files["game.json"]), "params": {"stones": 5, "fault": 0, "label": "three heaps: 3 4 5"}}
    (tmp_path / "game.json").write_text(json.dumps(manifest))
    replay = tmp_path / "replay.json"
    out = io.StringIO()
    call_command(
        "play", str(tmp_path), str(NIM / "taker.py"), str(NIM / "one.py"), "--param", "label=two  spaces here",
        "--replay", str(replay), stdout=out,
    )  # fmt: skip
    assert json.loads(replay.read_text())["frames"][0]["text"] == ["two  spaces here"]


def test_the_referees_folder_is_read_only_under_play(tmp_path):
    """A referee made files in its folder (the folder was its jail's); its files could not be
    changed, but a new one could be made beside them. Now it writes in /tmp only."""
    files = hosting.read_folder(NIM)
    probe = (
        'stones, fault = header["stones"], header["fault"]\n'
        "import os\n"
        "tried = []\n"
        'for path in ("mine.txt", "main.py", "/tmp/mine.txt"):\n'
        "    try:\n"
        '        with open(path, "a") as f:\n'
        '            f.write("x")\n'
        '        tried.append(f"{path} written")\n'
        "    except OSError as e:\n"
        '        tried.append(f"{path} refused ({e.errno})")\n'
    )
    referee = files["referee.py"].decode().replace('stones, fault = header["stones"], header["fault"]\n', probe)
    referee = referee.replace('{"text": [f"{stones} stones"]', '{"text": tried')
    for name, data in {**files, "referee.py": referee.encode()}.items():
        (tmp_path / name).write_bytes(data)
    replay = tmp_path / "replay.json"
    call_command("play", str(tmp_path), str(NIM / "taker.py"), str(NIM / "one.py"), "--replay", str(replay),
                 stdout=io.StringIO())  # fmt: skip
    assert json.loads(replay.read_text())["frames"][0]["text"] == [
        "mine.txt refused (13)", "main.py refused (13)", "/tmp/mine.txt written",
    ]  # fmt: skip


@pytest.mark.django_db
def test_the_kit_plays_each_parameter_at_its_bounds_and_names_them():
    """A referee that crashed at pits=8 seeds=8 passed the kit, which played the defaults only:
    here one that fails with all 1,000 stones (its maximum) is refused, the bound named."""
    from contests.models import GameVersion

    files = hosting.read_folder(NIM)
    referee = files["referee.py"].decode().replace(
        "if fault == 1:\n", "if fault == 1 or stones == 1000:\n", 1
    )  # fmt: skip
    version = hosting.check(hosting.upload({**files, "referee.py": referee.encode()}))
    assert version.status == GameVersion.Status.REFUSED
    assert any("stones=1000" in p and "ended before its result" in p for p in version.report["problems"])
    assert not any("stones=1)" in p for p in version.report["problems"])  # its minimum plays well


def test_the_kit_plays_every_number_at_its_bounds_together_too():
    """Each parameter alone at its bounds never reaches the board of the most rows and the most
    columns (or the fewest of both), where a referee's bug of size lives."""
    from pathlib import Path

    from judging.uploaded.conformance import MAX_VARIANTS, variants

    example = Path(__file__).resolve().parents[2] / "examples/games/connect-four"
    game = hosting.manifest_of(hosting.read_folder(example))
    found = variants(game)
    assert found[:2] == [{"rows": 4, "columns": 4}, {"rows": 12, "columns": 12}]
    assert {"rows": 4, "columns": 7} in found and {"rows": 6, "columns": 12} in found
    assert len(found) == 6 <= MAX_VARIANTS
