"""Matches, seats, attempts and verifications moved from contests to judging (contests 0011,
judging 0005): a state-only move. An installation migrated across it keeps every row, and
whoever had a permission on those models (``rerun_match``, ``verify_output``) keeps it."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("contests", "0010_queued_at"), ("judging", "0004_latency")]
AFTER = [("contests", "0011_matches_move_to_judging"), ("judging", "0005_matches_from_contests")]


def migrate(targets):
    """Migrate contests and judging to ``targets`` (every other app to its latest); the models
    as they were then."""
    executor = MigrationExecutor(connection)
    moved = {app for app, _ in targets}
    others = [node for node in executor.loader.graph.leaf_nodes() if node[0] not in moved]
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets + others).apps


@pytest.mark.django_db(transaction=True)
def test_matches_and_their_permissions_survive_the_move_both_ways():
    old = migrate(BEFORE)
    User = old.get_model("auth", "User")
    Permission = old.get_model("auth", "Permission")
    ContentType = old.get_model("contenttypes", "ContentType")
    Contest, Entry = old.get_model("contests", "Contest"), old.get_model("contests", "Entry")
    Submission, Match = old.get_model("contests", "Submission"), old.get_model("contests", "Match")
    MatchSeat = old.get_model("contests", "MatchSeat")
    # What a live installation has before the move: the models' content types under contests.
    for model in ("match", "matchattempt", "matchseat", "verification"):
        ContentType.objects.filter(app_label="judging", model=model).delete()
    match_type, _ = ContentType.objects.get_or_create(app_label="contests", model="match")
    rerun, _ = Permission.objects.get_or_create(
        content_type=match_type, codename="rerun_match", defaults={"name": "Can run or re-run matches and stages"}
    )
    judge = User.objects.create(username="a-judge")
    judge.user_permissions.add(rerun)
    contest = Contest.objects.create(slug="moved", title="Moved", game="chomp")
    entry = Entry.objects.create(contest=contest, user=judge, name="e")
    submission = Submission.objects.create(
        entry=entry, number=1, language="c", source="x.c", filename="x.c", sha256="0" * 64, size=1
    )
    match = Match.objects.create(contest=contest, seed=7, status="finished", reason="kept")
    MatchSeat.objects.create(match=match, index=0, entry=entry, submission=submission, points=2.0)

    new = migrate(AFTER)
    moved = new.get_model("judging", "Match").objects.get(pk=match.pk)
    assert (moved.reason, moved.seed) == ("kept", 7)
    assert new.get_model("judging", "MatchSeat").objects.get(match_id=match.pk).points == 2.0
    ContentTypeNow = new.get_model("contenttypes", "ContentType")
    assert ContentTypeNow.objects.get(pk=match_type.pk).app_label == "judging"
    PermissionNow = new.get_model("auth", "Permission")
    assert PermissionNow.objects.get(pk=rerun.pk, user__username="a-judge").content_type_id == match_type.pk

    back = migrate(BEFORE)
    assert back.get_model("contests", "Match").objects.get(pk=match.pk).reason == "kept"
    assert back.get_model("contenttypes", "ContentType").objects.get(pk=match_type.pk).app_label == "contests"
    MigrationExecutor(connection).migrate(
        MigrationExecutor(connection).loader.graph.leaf_nodes()
    )  # as the others expect
