"""Building a submission: claim it, build it in the sandbox, record what came out."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from contests.models import Submission
from judging import events, system_test

log = logging.getLogger(__name__)


def _tree_size(path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def build_submission(submission_id: int) -> Submission.Status | None:
    """Build one submission; safe to run twice (a redelivered task rebuilds from the cache).

    A build that fails is the contestant's result, recorded with its log. A platform fault
    (no jail, no toolchain) raises, leaving the submission ``building`` for a retry.
    """
    from sandbox.programs import build_program

    claimed = Submission.objects.filter(
        pk=submission_id, status__in=[Submission.Status.QUEUED, Submission.Status.BUILDING]
    ).update(status=Submission.Status.BUILDING)
    if not claimed:
        return None  # already built, or gone
    submission = Submission.objects.select_related("entry__contest").get(pk=submission_id)
    with submission.source.open("rb") as f:
        source = f.read()
    result = build_program(source, submission.filename, language=submission.language)
    status = Submission.Status.READY if result.ok else Submission.Status.BUILD_FAILED
    build_log = result.log
    limit = submission.entry.contest.max_executable_bytes
    if result.ok and limit is not None and result.program is not None:
        size = _tree_size(result.program.files)
        if size > limit:
            status = Submission.Status.BUILD_FAILED
            build_log = (
                f"{build_log}\nthe built program is {size:,} bytes; this contest accepts at most {limit:,}".strip()
            )
    with transaction.atomic():
        updated = Submission.objects.filter(pk=submission_id, status=Submission.Status.BUILDING).update(
            status=status, toolchain=result.toolchain[:200], build_log=build_log, built_at=timezone.now()
        )
        if updated and status == Submission.Status.READY:
            submission.refresh_from_db()
            if system_test.start(submission):
                status = Submission.Status.TESTING
        if updated:
            events.submission_changed(submission)
    log.info("submission %s built: %s", submission_id, status)
    return status
