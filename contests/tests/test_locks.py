"""One lock order for every writer (contests/locks.py): a lock taken after one that comes later
in the order is a bug, caught when it happens; and no row is locked any other way."""

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from contests import locks
from contests.models import Contest, Stage
from contests.tests.factories import make_contest, make_stage, make_user

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_locks_taken_against_the_order_are_refused():
    contest = make_contest()
    stage = make_stage(contest)
    user = make_user()
    with locks.writing():
        locks.lock("contest", Contest.objects.filter(pk=contest.pk))
        locks.lock("stage", Stage.objects.filter(pk=stage.pk))
        locks.lock("stage", Stage.objects.filter(pk=stage.pk))  # a row held already: again is fine
        with pytest.raises(locks.LockOrderError, match="contestant locked after stage"):
            locks.lock("contestant", User.objects.filter(pk=user.pk))
    with locks.writing():  # a new writer starts afresh
        locks.lock("contestant", User.objects.filter(pk=user.pk))
        locks.lock("contestant", User.objects.filter(pk=make_user().pk))  # another of the same kind
        locks.lock("stage", Stage.objects.filter(pk=stage.pk))
        with locks.writing(), pytest.raises(locks.LockOrderError):  # a writer inside another shares its locks
            locks.lock("contest", Contest.objects.filter(pk=contest.pk))
    with pytest.raises(locks.LockOrderError, match="outside a writer"):
        locks.lock("stage", Stage.objects.filter(pk=stage.pk))


def test_no_row_is_locked_but_through_the_one_order():
    """select_for_update appears only in contests/locks.py: every other writer asks it."""
    found = []
    for path in ROOT.glob("*/**/*.py"):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith((".venv/", "var/")) or "/tests/" in relative or "/migrations/" in relative:
            continue
        if re.search(r"\.select_for_update\(", path.read_text(errors="replace")) and relative != "contests/locks.py":
            found.append(relative)
    assert found == []
