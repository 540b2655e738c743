"""Who may do what to a contest: its own people, not global groups.

A contest has one owner (who opened it), co-organisers and judges (``ContestRole``), named by
its owner or a site administrator. Each role brings powers on that contest only:

============  ====  =====  ========  ====
role          view  judge  organise  name
============  ====  =====  ========  ====
administrator  yes   yes    yes       yes   (every contest: ``is_superuser``)
owner          yes   yes    yes       yes
co-organiser   yes   yes    yes       no
judge          yes   yes    no        no
anyone else    a public contest only
============  ====  =====  ========  ====

``view`` is seeing a hidden contest; ``judge`` every judge's action (run, re-run and cancel,
verify, disqualify, freeze, publish, read any entry's source and stderr, the live standings of
a frozen contest, the judges' log); ``organise`` editing the contest's settings; ``name``
giving and taking its roles. Opening a new contest and uploading a game are the site's
``Organisers`` (``is_organiser``), who then own what they open.

A user's roles are read once per user object (one query, kept on it), so a page asking about
many entries or matches asks the database once.
"""

from __future__ import annotations

import enum
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from contests import locks, signals
from contests.models import Contest, ContestRole

Role = ContestRole.Role
ADMIN = "admin"  # a site administrator: every power on every contest, without a row


class Power(enum.StrEnum):
    VIEW = "view"
    JUDGE = "judge"
    ORGANISE = "organise"
    NAME = "name"


POWERS: dict[str, frozenset[Power]] = {
    ADMIN: frozenset(Power),
    Role.OWNER: frozenset(Power),
    Role.ORGANISER: frozenset({Power.VIEW, Power.JUDGE, Power.ORGANISE}),
    Role.JUDGE: frozenset({Power.VIEW, Power.JUDGE}),
}

ROLE_NAMES = {ADMIN: "administrator", Role.OWNER: "owner", Role.ORGANISER: "co-organiser", Role.JUDGE: "judge"}

# What an owner may name others (the owner is who opened the contest; never named).
NAMED = (Role.ORGANISER, Role.JUDGE)

_KEPT = "_arbiter_contest_roles"


def _known(user) -> bool:
    return user is not None and user.is_authenticated and user.is_active


def _roles(user) -> dict[int, str]:
    """The user's role in each contest where they have one, read once per user object."""
    kept = getattr(user, _KEPT, None)
    if kept is None:
        kept = dict(ContestRole.objects.filter(user_id=user.pk).values_list("contest_id", "role"))
        setattr(user, _KEPT, kept)
    return kept


def forget(user) -> None:
    """Read the user's roles again on their next use (after a grant or a revocation)."""
    if user is not None and hasattr(user, _KEPT):
        delattr(user, _KEPT)


def role_of(user, contest: Contest | int) -> str | None:
    """``admin``, ``owner``, ``organiser``, ``judge`` or None."""
    if not _known(user):
        return None
    if user.is_superuser:
        return ADMIN
    return _roles(user).get(contest if isinstance(contest, int) else contest.pk)


def may(user, contest: Contest | int, power: Power) -> bool:
    role = role_of(user, contest)
    return role is not None and power in POWERS[role]


def with_power(user, power: Power) -> QuerySet[Contest]:
    """The contests where the user has ``power``."""
    if not _known(user):
        return Contest.objects.none()
    if user.is_superuser:
        return Contest.objects.all()
    roles = [role for role, powers in POWERS.items() if role != ADMIN and power in powers]
    return Contest.objects.filter(pk__in=[pk for pk, role in _roles(user).items() if role in roles])


def judged_ids(user) -> set[int] | None:
    """The ids of the contests the user judges; None for an administrator (every one)."""
    if _known(user) and user.is_superuser:
        return None
    if not _known(user):
        return set()
    return {pk for pk, role in _roles(user).items() if Power.JUDGE in POWERS[role]}


def judges_any(user) -> bool:
    """Whether the user judges some contest (or every one: an administrator)."""
    if not _known(user):
        return False
    return user.is_superuser or any(Power.JUDGE in POWERS[role] for role in _roles(user).values())


def visible_contests(user) -> QuerySet[Contest]:
    """The public contests, and the hidden ones where the user has a role (every one for an
    administrator)."""
    contests = Contest.objects.all()
    if not _known(user):
        return contests.filter(is_public=True)
    if user.is_superuser:
        return contests
    return contests.filter(Q(is_public=True) | Q(pk__in=list(_roles(user))))


def owner_of(contest: Contest):
    """The contest's owner (a user), or None (opened from a shell, or the owner's account gone)."""
    row = ContestRole.objects.filter(contest=contest, role=Role.OWNER).select_related("user").first()
    return row.user if row else None


def people(contest: Contest) -> list[ContestRole]:
    """The contest's roles, the owner first, then co-organisers and judges by name."""
    order = {Role.OWNER: 0, Role.ORGANISER: 1, Role.JUDGE: 2}
    rows = list(ContestRole.objects.filter(contest=contest).select_related("user", "granted_by"))
    return sorted(rows, key=lambda row: (order[row.role], row.user.username.lower()))


# --- Naming and removing ------------------------------------------------------------------------


class RoleError(Exception):
    """A grant or revocation refused; the message is for the person who asked, as it is."""

    status = 400


class NotAllowed(RoleError):
    status = 403


class NoSuchUser(RoleError):
    status = 404


def _log(actor, contest: Contest, action: str, target: str, reason: str, **data: Any) -> None:
    from contests.services import log_action

    log_action(actor, contest.pk, action, target, reason, **data)


def make_owner(contest: Contest, user, actor=None) -> ContestRole:
    """The contest's owner: who opened it (called by the service that saves a new contest)."""
    with locks.writing():
        ContestRole.objects.filter(contest=contest, user=user).delete()
        row = ContestRole.objects.create(contest=contest, user=user, role=Role.OWNER, granted_by=actor or user)
    forget(user)
    return row


def grant(actor, contest: Contest, username: str, role: str, reason: str = "") -> ContestRole:
    """Name a user co-organiser or judge of the contest (the owner or an administrator only);
    a user named again gets the new role. A line of the judges' log, and the user is told."""
    if not may(actor, contest, Power.NAME):
        raise NotAllowed(
            gettext("Only the owner of %(contest)s or a site administrator names its organisers and judges.")
            % {"contest": contest.title}
        )
    if role not in NAMED:
        raise RoleError(
            gettext("A role is one of: %(named)s (a contest's owner is who opened it).") % {"named": ", ".join(NAMED)}
        )
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise NoSuchUser(gettext("There is no user called %(username)s.") % {"username": repr(username)})
    with locks.writing():
        locks.lock_one("contest", Contest.objects.filter(pk=contest.pk))  # one change to its people at a time
        was = ContestRole.objects.filter(contest=contest, user=user).first()
        if was is not None and was.role == Role.OWNER:
            raise RoleError(
                gettext("%(username)s owns %(contest)s; the owner keeps every right.")
                % {"username": username, "contest": contest.title}
            )
        if was is not None and was.role == role:
            return was
        row, _ = ContestRole.objects.update_or_create(
            contest=contest, user=user, defaults={"role": role, "granted_by": actor, "granted_at": timezone.now()}
        )
        changed = {"user": username, "role": role, **({"was": was.role} if was else {})}
        _log(actor, contest, "role.grant", f"{role} {username}", reason, **changed)
        signals.role_changed.send(sender=ContestRole, contest=contest, user=user, role=role, actor=actor)
    forget(user)
    return row


def revoke(actor, contest: Contest, username: str, reason: str = "") -> str:
    """Take a co-organiser's or judge's role away (the owner or an administrator only; the
    owner's cannot be). Returns the role taken."""
    if not may(actor, contest, Power.NAME):
        raise NotAllowed(
            gettext("Only the owner of %(contest)s or a site administrator names its organisers and judges.")
            % {"contest": contest.title}
        )
    with locks.writing():
        locks.lock_one("contest", Contest.objects.filter(pk=contest.pk))
        row = ContestRole.objects.filter(contest=contest, user__username=username).select_related("user").first()
        if row is None:
            raise NoSuchUser(
                gettext("%(username)s has no role in %(contest)s.") % {"username": username, "contest": contest.title}
            )
        if row.role == Role.OWNER:
            raise RoleError(
                gettext("%(username)s owns %(contest)s: the owner's rights cannot be taken away.")
                % {"username": username, "contest": contest.title}
            )
        row.delete()
        _log(actor, contest, "role.revoke", f"{row.role} {username}", reason, user=username, role=row.role)
        signals.role_changed.send(sender=ContestRole, contest=contest, user=row.user, role=None, actor=actor)
    forget(row.user)
    return row.role
