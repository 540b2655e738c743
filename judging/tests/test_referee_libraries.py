"""A Python referee's own libraries (issue 37): its manifest's ``requirements`` are installed
once, from wheels only, into a read-only folder its jail shows on its path; requirements pip
cannot install refuse the version in pip's words; and only a Python referee may name any.

These install from the package index this host's pip uses (PyPI): tabulate, a small wheel the
jail's system Python does not have."""

from __future__ import annotations

import json
import stat

import pytest
from django.test import override_settings

from contests.models import GameVersion
from games.clocks import Clock
from games.hosted import ManifestError
from judging.play.referee import Player, play
from judging.tests.conftest import PROGRAMS, build
from judging.uploaded import hosting, libraries

NIM = PROGRAMS / "nim"
TABULATE = "tabulate==0.9.0\n"


def nim_with_library(requirements: str = TABULATE, **manifest) -> dict[str, bytes]:
    """Nim whose referee draws its first frame with tabulate (its import fails without it)."""
    files = hosting.read_folder(NIM)
    referee = (
        files["referee.py"]
        .decode()
        .replace("import json\n", "import json\n\nfrom tabulate import tabulate\n\nDRAWN = tabulate([[1]])\n", 1)
    )
    data = {**json.loads(files["game.json"]), "requirements": "requirements.txt", **manifest}
    return {
        **files, "referee.py": referee.encode(), "requirements.txt": requirements.encode(),
        "game.json": json.dumps(data).encode(),
    }  # fmt: skip


@pytest.mark.django_db
def test_a_referee_plays_with_its_library_installed_once_read_only(settings, tmp_path):
    settings.REFEREE_LIBRARIES_DIR = tmp_path / "libraries"
    version = hosting.check(hosting.upload(nim_with_library()))
    assert version.status == GameVersion.Status.ACCEPTED, version.report
    installed = libraries.folder(TABULATE)
    assert (installed / "tabulate").is_dir() and (installed / libraries.DONE).exists()
    assert not any(p.stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) for p in installed.rglob("*"))
    before = installed.stat().st_mtime_ns
    game = hosting.manifest_of(nim_with_library())
    players = [Player(name, build(NIM / name)) for name in ("taker.py", "one.py")]
    record = play(game, {"stones": 9, "fault": "0"}, 1, players, Clock.from_json(game.default_clock))
    assert record.outcome.statuses == ("win", "loss")
    assert installed.stat().st_mtime_ns == before  # installed once, for every game after


@pytest.mark.django_db
def test_requirements_pip_cannot_install_refuse_the_version_in_pips_words(settings, tmp_path):
    settings.REFEREE_LIBRARIES_DIR = tmp_path / "libraries"
    version = hosting.check(hosting.upload(nim_with_library("arbiter-no-such-package-xq==1.0\n")))
    assert version.status == GameVersion.Status.REFUSED
    said = " ".join(version.report["problems"])
    assert "the referee's libraries: pip could not install the requirements" in said
    assert "arbiter-no-such-package-xq" in said
    assert not any((tmp_path / "libraries").iterdir())  # nothing half installed is kept


@pytest.mark.django_db
def test_libraries_over_the_sites_size_are_refused(settings, tmp_path):
    settings.REFEREE_LIBRARIES_DIR = tmp_path / "libraries"
    with override_settings(REFEREE_LIBRARIES_MAX_MB=0):
        version = hosting.check(hosting.upload(nim_with_library()))
    assert version.status == GameVersion.Status.REFUSED
    assert "over this site's 0 MiB (REFEREE_LIBRARIES_MAX_MB)" in " ".join(version.report["problems"])


def test_only_a_python_referee_names_requirements():
    files = nim_with_library()
    files["referee.sh"] = b"#!/bin/sh\necho result 0 0\n"
    data = {**json.loads(files["game.json"]), "referee": "referee.sh"}
    with pytest.raises(ManifestError, match="'requirements': libraries are installed for a Python referee"):
        hosting.manifest_of({**files, "game.json": json.dumps(data).encode()})
    data = {**json.loads(files["game.json"]), "requirements": "missing.txt"}
    with pytest.raises(ManifestError, match="'requirements': 'missing.txt' is not a file of the archive"):
        hosting.manifest_of({**files, "game.json": json.dumps(data).encode()})


def test_arbiter_play_says_it_installs_the_libraries_the_first_time_only(settings, tmp_path):
    """OpenSpiel's first game at home was minutes of silence while pip installed some 230 MB
    (walked on a fresh clone); ``play`` says so before, and not again once they are here."""
    import io

    from django.core.management import call_command

    settings.REFEREE_LIBRARIES_DIR = tmp_path / "libraries"
    game = tmp_path / "nim"
    game.mkdir()
    for name, data in nim_with_library().items():
        (game / name).parent.mkdir(parents=True, exist_ok=True)
        (game / name).write_bytes(data)
    said = []
    for _ in range(2):
        err = io.StringIO()
        call_command(
            "play", str(game), str(NIM / "taker.py"), str(NIM / "one.py"), "--json", stdout=io.StringIO(), stderr=err
        )
        said.append(err.getvalue())
    assert "installing the referee's libraries (tabulate==0.9.0)" in said[0] and "once" in said[0]
    assert said[1] == ""
