import django.db.models.deletion
from django.db import migrations, models


def forget_pairs(apps, schema_editor):
    apps.get_model("judging", "PairTally").objects.all().delete()


def count_pairs(apps, schema_editor):
    """The pairs of the results already counted (and of a freeze's snapshot), now by the
    opponent's version too, with wins and draws."""
    from judging.record.tallies import build_pairs

    seat, frozen_seat = apps.get_model("judging", "MatchSeat"), apps.get_model("judging", "FrozenSeat")
    pair = apps.get_model("judging", "PairTally")
    counted = seat.objects.filter(match__stage__isnull=False, match__result_attempt__isnull=False)
    for seats, frozen in ((counted, False), (frozen_seat.objects.all(), True)):
        pair.objects.bulk_create(build_pairs(seats, frozen, pair), batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("contests", "0013_game_versions"),
        ("judging", "0016_seats_by_entry"),
    ]

    operations = [
        migrations.RunPython(forget_pairs, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="pairtally", name="pair_tally_unique"),
        migrations.AddField(
            model_name="pairtally",
            name="opponent_submission",
            field=models.ForeignKey(
                null=True, on_delete=django.db.models.deletion.CASCADE, related_name="+", to="contests.submission"
            ),
        ),
        migrations.AddField(model_name="pairtally", name="wins", field=models.IntegerField(default=0)),
        migrations.AddField(model_name="pairtally", name="draws", field=models.IntegerField(default=0)),
        migrations.AlterField(
            model_name="pairtally",
            name="opponent_submission",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="contests.submission"
            ),
        ),
        migrations.AddConstraint(
            model_name="pairtally",
            constraint=models.UniqueConstraint(
                fields=("stage", "frozen", "entry", "submission", "opponent", "opponent_submission"),
                name="pair_tally_unique",
            ),
        ),
        migrations.RunPython(count_pairs, migrations.RunPython.noop),
    ]
