"""Building a submission: claim it, build it in the sandbox, record what came out."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from contests.locks import lock, lock_one, writing
from contests.models import Stage, Submission
from games import registry
from judging import dispatch
from judging.news import events, notifications
from judging.record import formats
from judging.schedule import system_test
from sandbox.programs import build_program, program_size

log = logging.getLogger(__name__)

MAX_BUILD_FAULTS = 5  # platform faults before a build is left for a judge


def _tree_size(path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def build_submission(submission_id: int) -> Submission.Status | None:
    """Build one submission; safe to run twice (a redelivered task rebuilds from the cache).

    A build that fails is the contestant's result, recorded with its log. A platform fault
    (no jail, no toolchain) raises, leaving the submission ``building`` for a retry. A
    submission whose supplied runme did not run in its system test (``rebuilt_from_sources``,
    see ``system_test.conclude``) is made again from its src/Makefile, and its build log goes on
    from the first build's.
    """

    claimed = Submission.objects.filter(
        pk=submission_id, status__in=[Submission.Status.QUEUED, Submission.Status.BUILDING]
    ).update(status=Submission.Status.BUILDING, build_started_at=timezone.now())
    if not claimed:
        return None  # already built, or gone
    submission = Submission.objects.select_related("entry__contest").get(pk=submission_id)
    with submission.source.open("rb") as f:
        source = f.read()
    rebuilt = submission.rebuilt_from_sources
    result = build_program(
        source,
        submission.filename,
        language=submission.language,
        table_name=submission.entry.contest.language_table,
        from_sources=rebuilt,
        install=install_script(submission.entry.contest),
    )
    status = Submission.Status.READY if result.ok else Submission.Status.BUILD_FAILED
    build_log = result.log
    if rebuilt:
        header = gettext("rebuilt from src/ with make:") if result.ok else gettext("rebuilding from src/ failed:")
        build_log = f"{submission.build_log}\n{header}\n{result.log}".strip()
    limit = submission.entry.contest.max_executable_bytes
    size = program_size(result.program) if result.ok and result.program is not None else None
    too_large = False
    if size is not None and limit is not None:
        built = _tree_size(result.program.files)  # the limit is the build's, not the interpreter's
        if built > limit:
            status, too_large = Submission.Status.BUILD_FAILED, True
            too_big = gettext("the built program is %(size)s bytes; this contest accepts at most %(most)s") % {
                "size": f"{built:,}",
                "most": f"{limit:,}",
            }
            build_log = f"{build_log}\n{too_big}".strip()
    with writing():
        # A version ready to play may be scheduled at once in the contest's continuous stages:
        # their rows come before the submission's in the one lock order (contests.locks).
        stages = Stage.objects.filter(
            contest_id=submission.entry.contest_id, kind__in=formats.continuous_kinds(), status=Stage.Status.RUNNING
        )
        lock("stage", stages)
        updated = Submission.objects.filter(pk=submission_id, status=Submission.Status.BUILDING).update(
            status=status,
            toolchain=result.toolchain[:200],
            build_log=build_log,
            built_at=timezone.now(),
            build_faults=0,
            program_bytes=size,
        )
        if updated and status == Submission.Status.READY:
            submission.refresh_from_db()
            if system_test.start(submission):
                status = Submission.Status.TESTING
        if updated:
            events.submission_changed(submission)
        if updated and status == Submission.Status.BUILD_FAILED:
            notifications.build_failed(submission, too_large=too_large)
    log.info("submission %s built: %s", submission_id, status)
    return status


def build_fault(submission_id: int, error: str) -> bool:
    """A platform fault while building (no jail, no toolchain, a worker lost): count it; after
    MAX_BUILD_FAULTS the submission ends ``platform_fault`` for a judge to build again. True
    when it has ended so, False when it is to be retried."""
    with writing():
        submission = lock_one("submission", Submission.objects.filter(pk=submission_id))
        if submission.status not in (Submission.Status.QUEUED, Submission.Status.BUILDING):
            return True
        submission.build_faults += 1
        if submission.build_faults < MAX_BUILD_FAULTS:
            submission.save(update_fields=["build_faults"])
            return False
        submission.status = Submission.Status.PLATFORM_FAULT
        submission.build_log = gettext(
            "not built: the platform failed %(faults)s times (not your program's fault); "
            "the judges have been told. Last error: %(error)s"
        ) % {"faults": submission.build_faults, "error": error[-1000:]}
        submission.save(update_fields=["build_faults", "status", "build_log"])
        events.submission_changed(submission)
    log.error("submission %s: not built after %s platform faults: %s", submission_id, MAX_BUILD_FAULTS, error)
    return True


@transaction.atomic
def rebuild(submission: Submission) -> bool:
    """A judge's retry of a build the platform failed (or that a worker lost): queue it again."""
    updated = Submission.objects.filter(
        pk=submission.pk, status__in=[Submission.Status.PLATFORM_FAULT, Submission.Status.BUILDING]
    ).update(status=Submission.Status.QUEUED, build_faults=0, build_started_at=None, queued_at=timezone.now())
    if updated:
        dispatch.queue_build(submission.pk)
    return bool(updated)


def install_script(contest) -> str:
    """The install script an archive entry of the contest's game may hold ("" if none)."""
    try:
        return registry.get(contest.game).install_script
    except registry.UnknownGame:  # a contest the platform does not host
        return ""
