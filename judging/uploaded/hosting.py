"""Uploading a game: an organiser's archive (or folder) read safely, its manifest checked, its
version recorded, the conformance kit run (judging/uploaded/conformance.py) and the version accepted
only if it passes; and a contest on an uploaded game given its reference players.

    version = upload(archive_bytes, user)     # ManifestError / UnsafeArchive: refused in words
    check(version)                            # accepted or refused, with the kit's report
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import tempfile
import uuid
from pathlib import Path

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from contests import bounds
from contests.hosted_games import SOURCE, unpack
from contests.models import Contest, Entry, GameOwner, GameVersion, Submission
from contests.services import log_action
from games import registry
from games.hosted import MANIFEST, HostedGame, ManifestError, pack, read_manifest
from judging import disks, dispatch
from judging.news import notifications
from judging.uploaded.conformance import run_kit
from sandbox.archive import ArchiveLimits, extract
from sandbox.errors import UnsafeArchive
from sandbox.languages import TABLES, language_for
from sandbox.workdir import WorkDir

log = logging.getLogger(__name__)

LIMITS = ArchiveLimits(max_files=500, max_bytes=32 << 20)
SKIPPED = (".git", "__pycache__", ".DS_Store")


class NoSpace(Exception):
    """The site's disk is full: the upload was not kept (HTTP 507)."""


def _top_folder(files: dict[str, bytes]) -> dict[str, bytes]:
    """An archive of a folder (``connect-four/game.json``…) read as the folder's contents."""
    if MANIFEST in files or not files:
        return files
    tops = {name.split("/", 1)[0] for name in files}
    if len(tops) == 1 and all("/" in name for name in files):
        top = tops.pop() + "/"
        return {name[len(top) :]: data for name, data in files.items()}
    return files


def read_archive(data: bytes) -> dict[str, bytes]:
    """The files of an uploaded .zip or .tar.gz, unpacked by the rules an entry's archive is
    (no links out, no devices, bounded size and ratio); UnsafeArchive says why not."""
    with tempfile.TemporaryDirectory(prefix="arbiter-game-") as tmp:
        root = Path(tmp) / "files"
        root.mkdir()
        extract(data, WorkDir(root, os.getuid(), LIMITS.max_bytes >> 20), LIMITS)
        return _top_folder(_read_tree(root))


def read_folder(path: Path) -> dict[str, bytes]:
    """The files of a folder on the organiser's own disk (``manage.py add_game FOLDER``):
    links are followed (an example's players may be links to the platform's own)."""
    if not path.is_dir():
        raise UnsafeArchive(gettext("%(path)s is not a folder") % {"path": path})
    return _read_tree(path)


def _read_tree(root: Path) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    total = 0
    for folder, dirs, names in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED)
        for name in sorted(names):
            if name in SKIPPED:
                continue
            path = Path(folder) / name
            if not path.is_file():  # a link to nothing, a device, a FIFO
                raise UnsafeArchive(gettext("%(path)s is not a regular file") % {"path": path.relative_to(root)})
            data = path.read_bytes()
            total += len(data)
            if len(files) >= LIMITS.max_files or total > LIMITS.max_bytes:
                raise UnsafeArchive(
                    gettext("more than %(files)s files or %(mib)s MiB")
                    % {"files": LIMITS.max_files, "mib": LIMITS.max_bytes >> 20}
                )
            files[str(path.relative_to(root))] = data
    return files


def archive_of(game: HostedGame) -> bytes:
    """An uploaded game's files as one zip (what its version page offers and a bundle holds)."""
    name, _, number = game.info.name.partition("@")
    version = GameVersion.objects.get(name=name, version=int(number))
    with version.archive.open("rb") as f:
        return f.read()


def manifest_of(files: dict[str, bytes]) -> HostedGame:
    """The game the files make, as its version 1 would be: ManifestError says what is wrong."""
    return game_of(files, 1)


def game_of(files: dict[str, bytes], version: int) -> HostedGame:
    """The game the files make as this version: ManifestError says what is wrong."""
    if MANIFEST not in files:
        raise ManifestError(
            gettext("no %(manifest)s at the top of the archive (found: %(found)s)")
            % {"manifest": MANIFEST, "found": ", ".join(sorted(files)[:10])}
        )
    try:
        data = json.loads(files[MANIFEST].decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise ManifestError(gettext("%(manifest)s is not JSON: %(why)s") % {"manifest": MANIFEST, "why": e}) from None
    except RecursionError:  # as the API's JSONParser: a 100,000-deep array is malformed, not a crash
        raise ManifestError(gettext("%(manifest)s is nested too deeply") % {"manifest": MANIFEST}) from None
    manifest = read_manifest(data, files)
    if not manifest.players:
        raise ManifestError(gettext("the conformance kit needs at least one reference player ('players')"))
    return HostedGame(manifest, version)


def _within_bounds(manifest) -> None:
    """The game's clock and its programs' memory within the site's bounds, as a contest's are
    (contests.bounds): a contest on the game plays with them when it sets none."""
    said = {"time_limit": gettext("the clock's seconds"), "move_limit_s": gettext("the clock's seconds")}
    for name, value in {**manifest.clock, "referee_memory_mb": manifest.referee.memory_mb}.items():
        bound = bounds.MEMORY if name == "referee_memory_mb" else bounds.CLOCK.get(name)
        problem = bound.refusal(said.get(name, name), value) if bound is not None else None
        if problem:
            raise ManifestError(gettext("%(manifest)s: %(problem)s") % {"manifest": MANIFEST, "problem": problem})


def upload(files: dict[str, bytes], user=None) -> GameVersion:
    """Record the files as the next version of their game, to be checked: ManifestError if
    their manifest is refused before anything runs."""
    game = manifest_of(files)
    _within_bounds(game.manifest)
    _may_upload(game.manifest.name, user)
    archive = pack(files)
    digest = hashlib.sha256(archive).hexdigest()
    name = game.manifest.name
    try:
        return _numbered(name, game, archive, digest, user)
    except OSError as e:
        if not disks.is_full(e):
            raise
        raise NoSpace(gettext("the site's disk is full: nothing was kept; upload the game again later")) from None


def _numbered(name: str, game: HostedGame, archive: bytes, digest: str, user) -> GameVersion:
    for _ in range(3):  # two uploads of one name at once: one takes the number, the other the next
        number = (GameVersion.objects.filter(name=name).aggregate(n=Max("version"))["n"] or 0) + 1
        try:
            with transaction.atomic():
                version = GameVersion(
                    name=name,
                    version=number,
                    title=game.manifest.title,
                    manifest=game.manifest.raw,
                    sha256=digest,
                    uploaded_by=user if getattr(user, "is_authenticated", False) else None,
                )
                # A name of its own (two uploads racing for one number never share a file), so
                # that what a failure leaves is this upload's and is removed.
                filename = f"{name}-{number}-{uuid.uuid4().hex[:12]}.zip"
                storage = version.archive.storage
                target = version.archive.field.generate_filename(version, filename)
                try:
                    version.archive.save(filename, ContentFile(archive), save=False)
                    version.save()
                except BaseException:
                    with contextlib.suppress(OSError):  # nothing half-written, nothing no row names
                        storage.delete(target)
                    raise
                return version
        except IntegrityError:
            continue
    raise RuntimeError(f"could not number a new version of {name}")


def first_uploader(name: str):
    """Who uploaded a game's first version: its owner (None if uploaded from a shell)."""
    first = GameVersion.objects.filter(name=name).order_by("version").select_related("uploaded_by").first()
    return first.uploaded_by if first is not None else None


def owns_game(user, name: str) -> bool:
    """Whether the user uploads the game's next versions and reads its kit's reports: its first
    uploader, the co-owners they named, an administrator."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if user.is_superuser:
        return True
    owner = first_uploader(name)
    return (owner is not None and owner.pk == user.pk) or GameOwner.objects.filter(name=name, user=user).exists()


def owned_names(user) -> set[str] | None:
    """The names of the games the user owns or co-owns; None for an administrator (every one)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return set()
    if user.is_superuser:
        return None
    firsts = GameVersion.objects.filter(version=1, uploaded_by=user).values_list("name", flat=True)
    return set(firsts) | set(GameOwner.objects.filter(user=user).values_list("name", flat=True))


def _may_upload(name: str, user) -> None:
    """A built-in game's name is the platform's; an uploaded game's is its first uploader's
    (their next versions are theirs to upload, and the co-owners' they name; an
    administrator's too)."""

    taken = {built.replace("_", "-") for built in registry.BUILT_IN}
    if name in taken:  # crossed-words would pass for crossed_words in every list
        raise ManifestError(
            gettext("%(name)s is the name of a game built into the platform: choose another name")
            % {"name": repr(name)}
        )
    owner = first_uploader(name)
    if not GameVersion.objects.filter(name=name).exists() or not getattr(user, "is_authenticated", False):
        return  # a new name; or uploaded from the server's shell
    if owner is None and not user.is_superuser:
        raise ManifestError(
            gettext("the game %(name)s was uploaded by the site: only an administrator uploads its next version")
            % {"name": repr(name)}
        )
    if not owns_game(user, name):
        raise ManifestError(
            gettext(
                "the game %(name)s is %(username)s's: only they and the co-owners they name upload its next "
                "version; choose another name for a game of your own"
            )
            % {"name": repr(name), "username": owner.username}
        )


class OwnerError(Exception):
    """Naming a game's co-owner refused; the message is for the person who asked."""

    status = 400


def game_owners(name: str) -> list[dict]:
    """The game's owner (its first uploader) and co-owners, as ``{"user", "role"}``."""
    owner = first_uploader(name)
    found = [{"user": owner.username, "role": "owner"}] if owner is not None else []
    rows = GameOwner.objects.filter(name=name).select_related("user").order_by("user__username")
    return found + [{"user": row.user.username, "role": "co-owner"} for row in rows]


def _check_names_owners(actor, name: str) -> None:
    if not GameVersion.objects.filter(name=name).exists():
        error = OwnerError(gettext("There is no uploaded game called %(name)s.") % {"name": repr(name)})
        error.status = 404
        raise error
    owner = first_uploader(name)
    if not (actor.is_superuser or (owner is not None and owner.pk == actor.pk)):
        error = OwnerError(
            gettext("Only the owner of %(name)s (its first uploader) or an administrator names its co-owners.")
            % {"name": name}
        )
        error.status = 403
        raise error


def name_game_owner(actor, name: str, username: str) -> None:
    """The owner names a co-owner, who may then upload the game's next versions."""
    from django.contrib.auth import get_user_model

    _check_names_owners(actor, name)
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        error = OwnerError(gettext("There is no user called %(username)s.") % {"username": repr(username)})
        error.status = 404
        raise error
    owner = first_uploader(name)
    if owner is not None and owner.pk == user.pk:
        raise OwnerError(gettext("%(username)s owns %(name)s already.") % {"username": username, "name": name})
    GameOwner.objects.get_or_create(name=name, user=user, defaults={"granted_by": actor})


def remove_game_owner(actor, name: str, username: str) -> None:
    _check_names_owners(actor, name)
    if not GameOwner.objects.filter(name=name, user__username=username).delete()[0]:
        error = OwnerError(
            gettext("%(username)s is not a co-owner of %(name)s.") % {"username": username, "name": name}
        )
        error.status = 404
        raise error


def receive(data: bytes, user) -> GameVersion:
    """An archive uploaded on the site or through the API: recorded as the next version of its
    game, its kit queued for a worker (ManifestError or UnsafeArchive: refused, in words)."""

    with transaction.atomic():
        version = upload(read_archive(data), user)
        dispatch.queue_game_check(version.pk)
    return version


def check_queued(version_id: int) -> GameVersion | None:
    """A worker's check of a version still being checked (a task delivered twice checks once)."""
    version = GameVersion.objects.filter(pk=version_id, status=GameVersion.Status.CHECKING).first()
    return check(version) if version is not None else None


def check(version: GameVersion) -> GameVersion:
    """Run the conformance kit on a version being checked; accept or refuse it by its report.
    A version whose check cannot start (its manifest no longer reads, a name no language table
    has) is refused with the reason, never left being checked."""

    try:
        with version.archive.open("rb") as f:
            files = unpack(f.read())
        game = HostedGame(read_manifest(version.manifest, files), version.version)
        most = game.seat_range[1] + 1  # its players and its referee, all at once
        if most > settings.SANDBOX_SLOTS:
            raise ValueError(
                gettext(
                    "a game of %(players)s players runs %(most)s programs at once (its referee too), but this host "
                    "runs at most %(slots)s (SANDBOX_SLOTS): raise it on the hosts that play it"
                )
                % {"players": most - 1, "most": most, "slots": settings.SANDBOX_SLOTS}
            )
        report = run_kit(game)
    except (ManifestError, LookupError, ValueError) as e:
        report = unchecked(f"{type(e).__name__}: {e}" if isinstance(e, LookupError) else str(e))
    return _conclude(version, report)


def unchecked(reason: str) -> dict:
    """The report of a check that could not start."""
    return {
        "passed": False,
        "games": [],
        "problems": [gettext("its check could not start: %(reason)s") % {"reason": reason}],
        "seconds": 0,
    }


def refuse_unchecked(version_id: int, reason: str) -> GameVersion | None:
    """A version still being checked whose check failed before it could judge: refused with the
    reason, its uploader told (a worker's task, for a failure that is not the host's)."""
    version = GameVersion.objects.filter(pk=version_id, status=GameVersion.Status.CHECKING).first()
    return _conclude(version, unchecked(reason)) if version is not None else None


def _conclude(version: GameVersion, report: dict) -> GameVersion:

    status = GameVersion.Status.ACCEPTED if report["passed"] else GameVersion.Status.REFUSED
    concluded = GameVersion.objects.filter(pk=version.pk, status=GameVersion.Status.CHECKING).update(
        report=report, status=status, checked_at=timezone.now()
    )
    version.refresh_from_db()
    if concluded:  # a check delivered twice concludes and tells once
        SOURCE.forget()
        notifications.game_checked(version)
        log.info("game %s: %s", version.key, version.status)
    return version


REFERENCES_USER = "arbiter-references"  # who enters a game's reference players when its uploader is unknown


def contest_saved(sender, instance: Contest, **kwargs) -> None:
    """A contest saved on an uploaded game (created, or moved to another version) gets that
    version's reference players, however it was saved: the organisers' pages, the API, the
    admin."""

    try:
        game = registry.get(instance.game)
    except registry.UnknownGame:
        return
    if isinstance(game, HostedGame):
        add_references(instance)


def _references_user(contest: Contest):
    from django.contrib.auth import get_user_model

    name, _, number = contest.game.partition("@")
    version = GameVersion.objects.filter(name=name, version=int(number)).select_related("uploaded_by").first()
    if version is not None and version.uploaded_by is not None:
        return version.uploaded_by
    user, created = get_user_model().objects.get_or_create(username=REFERENCES_USER, defaults={"is_active": False})
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


@transaction.atomic
def add_references(contest: Contest, user=None) -> list[Entry]:
    """The uploaded game's reference players as the contest's reference entries (one of them
    the system test's opponent), built as entries are; those it has already are kept, and one
    whose program changed in a newer version of the game gets it as its next version."""

    game = registry.get(contest.game)
    if not isinstance(game, HostedGame):
        return []
    user = user or _references_user(contest)
    made = []
    opponent = game.opponent
    # The opponent first: the system test plays the contest's first reference entry.
    for player in sorted(game.manifest.players, key=lambda p: p is not opponent):
        entry = contest.entries.filter(is_reference=True, name=player.name).first()
        created = entry is None
        if created:
            entry = Entry.objects.create(contest=contest, user=user, name=player.name, is_reference=True)
        if not created and entry.submissions.filter(sha256=_sha(player.program.source)).exists():
            continue
        source = player.program
        submission = Submission(
            entry=entry,
            number=entry.submissions.count() + 1,
            language=source.language
            or language_for(source.filename, source.source, TABLES[contest.language_table].commands).name,
            filename=source.filename,
            sha256=_sha(source.source),
            size=len(source.source),
        )
        submission.source.save(player.program.filename, ContentFile(player.program.source), save=False)
        submission.save()
        transaction.on_commit(lambda pk=submission.pk: dispatch.queue_build(pk))
        made.append(entry)
    if made:
        log_action(user, contest.pk, "game.references", contest.game, players=[e.name for e in made])
    return made


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
