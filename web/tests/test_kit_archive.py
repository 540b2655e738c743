"""The site's own code as an archive (web/kit.py): what a contestant fetches to play at home
when the installation names no SOURCE_URL. Never the installation's own files."""

from __future__ import annotations

import tarfile

from web import kit


def _tree(root):
    for name, text in {
        "Makefile": "kit:\n", "arbiter/cli.py": "", ".env": "SECRET_KEY=mine\n", ".env.example": "SOURCE_URL=\n",
        "var/arbiter.sqlite3": "db", "var/media/up.zip": "x", ".venv/bin/python": "", "web/__pycache__/a.pyc": "",
        "games/x.pyc": "", "examples/var/readme": "", "arbiter.egg-info/PKG-INFO": "",
    }.items():  # fmt: skip
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_a_folder_that_is_no_checkout_is_packed_without_the_installation_s_own_files(tmp_path, settings):
    root = tmp_path / "code"
    _tree(root)
    settings.VAR_DIR = root / "state"  # ARBITER_VAR_DIR inside the folder, named otherwise
    (root / "state/arbiter.sqlite3").parent.mkdir()
    (root / "state/secret_key").write_text("mine")
    assert sorted(kit.files(root)) == [".env.example", "Makefile", "arbiter/cli.py", "examples/var/readme"]
    path = kit.archive(root)
    with tarfile.open(path) as tar:
        assert sorted(tar.getnames()) == [
            "arbiter/.env.example", "arbiter/Makefile", "arbiter/arbiter/cli.py", "arbiter/examples/var/readme",
        ]  # fmt: skip
        assert {m.uname for m in tar.getmembers()} == {""}  # not the server's user names
    assert kit.archive(root) == path  # made once


def test_a_checkout_is_packed_as_git_tracks_it(tmp_path, settings):
    import subprocess

    settings.VAR_DIR = tmp_path / "state"
    root = tmp_path / "code"
    _tree(root)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "Makefile", "arbiter/cli.py"], check=True)
    (root / "untracked.txt").write_text("mine")
    assert kit.files(root) == ["Makefile", "arbiter/cli.py"]
