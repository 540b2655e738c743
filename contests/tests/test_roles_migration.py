"""Contests 0017: each contest of an installation gets its people from what was global
before (the first organiser in its log owns it, else the first administrator; the other
organisers in its log co-organise it; the old `judges` group judges every contest), and the
global group, which no longer gives any right, is removed."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("contests", "0016_contest_roles")]
AFTER = [("contests", "0017_roles_from_the_log")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    others = [node for node in executor.loader.graph.leaf_nodes() if node[0] != "contests"]
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets + others).apps


@pytest.mark.django_db(transaction=True)
def test_each_contest_gets_an_owner_co_organisers_and_judges_from_its_log():
    old = migrate(BEFORE)
    User, Group = old.get_model("auth", "User"), old.get_model("auth", "Group")
    Contest, JudgeAction = old.get_model("contests", "Contest"), old.get_model("contests", "JudgeAction")
    judges, organisers = (
        Group.objects.get_or_create(name="judges")[0],
        Group.objects.get_or_create(name="Organisers")[0],
    )
    admin = User.objects.create(username="root", is_superuser=True)
    User.objects.create(username="later-root", is_superuser=True)
    first, second, jo = (User.objects.create(username=name) for name in ("ola", "oscar", "jo"))
    first.groups.add(organisers)
    second.groups.add(organisers)
    jo.groups.add(judges)
    logged, quiet, judged = (
        Contest.objects.create(slug=s, title=s, game="chomp") for s in ("logged", "quiet", "judged")
    )
    now = timezone.now()
    for at, user, action in ((1, jo, "stage.run"), (2, second, "contest.create"), (3, first, "contest.edit")):
        JudgeAction.objects.create(
            contest=logged, judge=user, action=action, target="x", at=now + timedelta(seconds=at)
        )
    JudgeAction.objects.create(contest=judged, judge=jo, action="contest.edit", target="x", at=now)

    new = migrate(AFTER)
    ContestRole = new.get_model("contests", "ContestRole")
    people = {
        slug: sorted(ContestRole.objects.filter(contest__slug=slug).values_list("user__username", "role"))
        for slug in ("logged", "quiet", "judged")
    }
    assert people == {
        "logged": [("jo", "judge"), ("ola", "organiser"), ("oscar", "owner")],
        "quiet": [("jo", "judge"), ("root", "owner")],
        "judged": [("jo", "judge"), ("root", "owner")],  # a judge's line in the log makes no owner
    }
    assert not new.get_model("auth", "Group").objects.filter(name="judges").exists()
    assert admin.pk == ContestRole.objects.get(contest__slug="quiet", role="owner").user_id
    MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
