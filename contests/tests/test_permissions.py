import pytest
from django.contrib.auth.models import Group

from contests.services import (
    JUDGE_PERMISSIONS,
    ORGANISER_PERMISSIONS,
    ensure_judges_group,
    ensure_organisers_group,
    is_judge,
    is_organiser,
    visible_contests,
)
from contests.tests.factories import make_contest, make_user

pytestmark = pytest.mark.django_db


def test_migrate_creates_the_judges_group_with_its_permissions():
    group = Group.objects.get(name="judges")
    have = {(p.content_type.app_label, p.codename) for p in group.permissions.all()}
    assert have == set(JUDGE_PERMISSIONS)


def test_ensure_judges_group_restores_a_removed_permission():
    group = Group.objects.get(name="judges")
    group.permissions.clear()
    ensure_judges_group()
    assert group.permissions.count() == len(JUDGE_PERMISSIONS)


def test_a_judge_may_rerun_and_disqualify_but_not_manage_users():
    judge = make_user()
    judge.groups.add(Group.objects.get(name="judges"))
    assert is_judge(judge)
    assert judge.has_perm("judging.rerun_match")
    assert judge.has_perm("contests.disqualify_entry")
    assert judge.has_perm("contests.view_any_source")
    assert not judge.has_perm("auth.change_user")
    assert not judge.has_perm("contests.delete_contest")


def test_hidden_contests_are_for_judges_only():
    shown, hidden = make_contest(), make_contest(is_public=False)
    contestant, judge = make_user(), make_user()
    judge.groups.add(Group.objects.get(name="judges"))
    assert list(visible_contests(contestant)) == [shown]
    assert set(visible_contests(judge)) == {shown, hidden}
    assert not is_judge(contestant)


def test_migrate_creates_the_organisers_group_and_ensure_restores_it():
    group = Group.objects.get(name="Organisers")
    have = {(p.content_type.app_label, p.codename) for p in group.permissions.all()}
    assert have == set(ORGANISER_PERMISSIONS)
    group.permissions.clear()
    ensure_organisers_group()
    assert group.permissions.count() == len(ORGANISER_PERMISSIONS)


def test_an_organiser_opens_contests_and_a_judge_does_not():
    organiser, judge, both = make_user(), make_user(), make_user()
    organiser.groups.add(ensure_organisers_group())
    judge.groups.add(ensure_judges_group())
    both.groups.add(ensure_organisers_group(), ensure_judges_group())
    assert is_organiser(organiser) and is_organiser(both) and not is_organiser(judge)
    assert not is_organiser(make_user()) and not is_judge(organiser)
    assert not organiser.has_perm("judging.rerun_match")  # the judges run what organisers set up
    assert not organiser.has_perm("contests.delete_contest")


def test_hidden_contests_are_seen_by_organisers_too():
    shown, hidden = make_contest(), make_contest(is_public=False)
    organiser = make_user()
    organiser.groups.add(ensure_organisers_group())
    assert set(visible_contests(organiser)) == {shown, hidden}
