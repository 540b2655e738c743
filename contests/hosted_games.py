"""The uploaded games' versions as the registry sees them (games.registry.Source): an
accepted ``GameVersion`` is a game named ``name@version``; a bare name is its newest version.

A version is made once and never changes once accepted, so each is read from its archive once
per process; the registry asks here only for names it has not built in.
"""

from __future__ import annotations

import io
import threading
import zipfile

from django.db import DatabaseError

from games.hosted import KEY, NAME, HostedGame, read_manifest


def unpack(data: bytes) -> dict[str, bytes]:
    """The files of a version's archive (one the platform made: see judging.uploaded.hosting)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist() if not info.is_dir()}


def load(version) -> HostedGame:
    with version.archive.open("rb") as f:
        files = unpack(f.read())
    return HostedGame(read_manifest(version.manifest, files), version.version)


class UploadedGames:
    def __init__(self) -> None:
        self._games: dict[str, HostedGame] = {}
        self._lock = threading.Lock()

    def find(self, name: str) -> HostedGame | None:
        from contests.models import GameVersion

        game = self._games.get(name)
        if game is not None:
            return game
        match = KEY.match(name)
        accepted = GameVersion.objects.filter(status=GameVersion.Status.ACCEPTED)
        try:
            if match:
                version = accepted.filter(name=match[1], version=int(match[2])).first()
            elif NAME.match(name):
                version = accepted.filter(name=name).order_by("-version").first()
            else:
                return None
        except DatabaseError:  # no database here (a contestant's `play` at home), or not migrated
            return None
        if version is None:
            return None
        with self._lock:
            game = self._games.get(version.key)
            if game is None:
                game = self._games[version.key] = load(version)
        return game

    def names(self) -> list[str]:
        from contests.models import GameVersion

        try:
            return [
                f"{name}@{number}"
                for name, number in GameVersion.objects.filter(status=GameVersion.Status.ACCEPTED).values_list(
                    "name", "version"
                )
            ]
        except DatabaseError:
            return []

    def forget(self) -> None:
        """Read every version again (a test's database is not the last one's)."""
        with self._lock:
            self._games.clear()


SOURCE = UploadedGames()
