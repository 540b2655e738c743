import pytest
from django.contrib.auth.models import Group

from contests import roles
from contests.services import (
    ORGANISER_PERMISSIONS,
    ensure_organisers_group,
    is_judge,
    is_organiser,
    visible_contests,
)
from contests.tests.factories import make_contest, make_user, name_to

pytestmark = pytest.mark.django_db


def test_migrate_makes_the_organisers_group_and_no_global_judges_group():
    group = Group.objects.get(name="Organisers")
    have = {(p.content_type.app_label, p.codename) for p in group.permissions.all()}
    assert have == set(ORGANISER_PERMISSIONS)
    group.permissions.clear()
    ensure_organisers_group()
    assert group.permissions.count() == len(ORGANISER_PERMISSIONS)
    assert not Group.objects.filter(name="judges").exists()  # judges are each contest's own


def test_a_judge_judges_the_contests_named_and_no_other():
    mine, theirs = make_contest(), make_contest()
    judge = name_to(mine, make_user())
    assert is_judge(judge) and not is_organiser(judge)
    assert roles.may(judge, mine, roles.Power.JUDGE) and not roles.may(judge, theirs, roles.Power.JUDGE)
    assert not roles.may(judge, mine, roles.Power.ORGANISE) and not roles.may(judge, mine, roles.Power.NAME)
    assert not judge.has_perm("auth.change_user") and not judge.has_perm("contests.delete_contest")


def test_hidden_contests_are_for_their_own_people_only():
    shown, hidden, elsewhere = make_contest(), make_contest(is_public=False), make_contest(is_public=False)
    contestant, judge, organiser = make_user(), name_to(hidden, make_user()), make_user()
    organiser.groups.add(ensure_organisers_group())
    assert list(visible_contests(contestant)) == [shown]
    assert set(visible_contests(judge)) == {shown, hidden}
    assert set(visible_contests(organiser)) == {shown}  # opening contests shows nobody else's
    admin = make_user(is_superuser=True)
    assert set(visible_contests(admin)) == {shown, hidden, elsewhere}
    assert not is_judge(contestant) and is_judge(admin)


def test_an_organiser_opens_contests_and_a_judge_does_not():
    organiser, judge = make_user(), name_to(make_contest(), make_user())
    organiser.groups.add(ensure_organisers_group())
    assert is_organiser(organiser) and not is_organiser(judge) and not is_organiser(make_user())
    assert not is_judge(organiser)  # until they open a contest (then its owner: every right on it)


def test_an_inactive_user_keeps_no_right():
    contest = make_contest(is_public=False)
    owner = name_to(contest, make_user(), role="owner")
    owner.is_active = False
    assert roles.role_of(owner, contest) is None and contest not in visible_contests(owner)


def test_roles_are_read_once_per_user_object(django_assert_num_queries):
    contests = [make_contest() for _ in range(5)]
    judge = name_to(contests[0], make_user())
    with django_assert_num_queries(1):
        assert [roles.may(judge, c, roles.Power.JUDGE) for c in contests] == [True, False, False, False, False]
