"""Contest services: the one place pages, API, admin and tasks go through."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, Permission
from django.db.models import QuerySet

from contests.models import Contest

JUDGES_GROUP = "judges"

# What a judge may do, as (app_label, codename). Judges run contests; they do not manage
# accounts or the site itself.
JUDGE_PERMISSIONS = [
    ("contests", "view_contest"),
    ("contests", "change_contest"),
    ("contests", "view_stage"),
    ("contests", "add_stage"),
    ("contests", "change_stage"),
    ("contests", "view_entry"),
    ("contests", "change_entry"),
    ("contests", "disqualify_entry"),
    ("contests", "view_submission"),
    ("contests", "view_any_source"),
    ("contests", "view_match"),
    ("contests", "add_match"),
    ("contests", "change_match"),
    ("contests", "rerun_match"),
    ("contests", "view_matchseat"),
]


def ensure_judges_group(using: str = "default") -> Group:
    """Create the ``judges`` group, or bring its permissions back to the list above."""
    group, _ = Group.objects.using(using).get_or_create(name=JUDGES_GROUP)
    wanted = []
    for app_label, codename in JUDGE_PERMISSIONS:
        perm = Permission.objects.using(using).filter(content_type__app_label=app_label, codename=codename).first()
        if perm is not None:  # absent only before the first migrate has created it
            wanted.append(perm)
    if set(group.permissions.all()) != set(wanted):
        group.permissions.set(wanted)
    return group


def is_judge(user: AbstractBaseUser | AnonymousUser) -> bool:
    return user.is_authenticated and (user.is_superuser or user.groups.filter(name=JUDGES_GROUP).exists())


def visible_contests(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Contest]:
    contests = Contest.objects.all()
    if not is_judge(user):
        contests = contests.filter(is_public=True)
    return contests.order_by("title")
