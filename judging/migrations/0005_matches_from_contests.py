import django.core.validators
import django.db.models.deletion
import django.utils.timezone
import judging.models
from django.conf import settings
from django.db import migrations, models


MOVED = ["match", "matchattempt", "matchseat", "verification"]


def _move(apps, source: str, target: str) -> None:
    """The moved models' content types follow them, so their permissions (``rerun_match``,
    ``verify_output``, ...) keep their ids and whoever was given them keeps them."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        ContentType.objects.filter(app_label=target, model=model).delete()  # made by an earlier run, if any
        ContentType.objects.filter(app_label=source, model=model).update(app_label=target)


def move_content_types(apps, schema_editor) -> None:
    _move(apps, "contests", "judging")


def move_content_types_back(apps, schema_editor) -> None:
    _move(apps, "judging", "contests")


class Migration(migrations.Migration):

    dependencies = [
        ('contests', '0011_matches_move_to_judging'),
        ('judging', '0004_latency'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Match',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('round', models.PositiveIntegerField(default=0)),
                        ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('finished', 'Finished'), ('failed', 'Failed (platform fault)'), ('cancelled', 'Cancelled')], default='queued', max_length=10)),
                        ('seed', models.BigIntegerField(validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(9223372036854775807)])),
                        ('params', models.JSONField(blank=True, default=dict, help_text='Game parameters of this match.')),
                        ('priority', models.PositiveSmallIntegerField(choices=[(0, 'Put back after a platform fault'), (1, "Someone is waiting: a system test, a test game, a judge's re-run"), (2, "A tournament's match")], default=2)),
                        ('reason', models.TextField(blank=True, help_text='How the game ended, in words.')),
                        ('error', models.TextField(blank=True, help_text='Platform fault, when the match failed.')),
                        ('faults', models.PositiveSmallIntegerField(default=0, help_text='Attempts the platform failed (not the programs) since it was last queued.')),
                        ('replay', models.FileField(blank=True, max_length=300, upload_to=judging.models.replay_upload_to)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('queued_at', models.DateTimeField(default=django.utils.timezone.now, help_text='When it was last queued (made, re-run, or put back after a fault).')),
                        ('started_at', models.DateTimeField(blank=True, null=True)),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('contest', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='matches', to='contests.contest')),
                        ('stage', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='matches', to='contests.stage')),
                    ],
                    options={
                        'verbose_name_plural': 'matches',
                        'db_table': 'contests_match',
                        'ordering': ['-created_at'],
                        'permissions': [('rerun_match', 'Can run or re-run matches and stages')],
                    },
                ),
                migrations.CreateModel(
                    name='MatchAttempt',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveSmallIntegerField(help_text='1 for the first try, then 2, 3...')),
                        ('worker', models.CharField(blank=True, help_text='The Celery worker (or command) that played it.', max_length=255)),
                        ('host', models.CharField(blank=True, max_length=255)),
                        ('pid', models.PositiveIntegerField(default=0)),
                        ('started_at', models.DateTimeField()),
                        ('last_seen', models.DateTimeField(help_text="Its player's latest sign of life.")),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('outcome', models.CharField(choices=[('running', 'Being played'), ('finished', 'Finished'), ('lost', 'Lost: its worker stopped (killed, paused, cut off)'), ('infra', 'Infrastructure fault (sandbox, host)'), ('stalled', 'The platform stalled during the game'), ('error', 'Platform error'), ('superseded', 'Called off: a judge re-ran or cancelled the match')], default='running', max_length=12)),
                        ('error', models.TextField(blank=True)),
                        ('result', models.JSONField(blank=True, help_text='The result it recorded: reason and seats.', null=True)),
                        ('progress', models.JSONField(blank=True, help_text="A race's latest moment while it runs: each entrant's deck, round, moves.", null=True)),
                        ('replay', models.FileField(blank=True, max_length=300, upload_to=judging.models._attempt_replay_to)),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='attempts', to='judging.match')),
                    ],
                    options={
                        'db_table': 'contests_matchattempt',
                        'ordering': ['match', 'number'],
                    },
                ),
                migrations.AddField(
                    model_name='match',
                    name='result_attempt',
                    field=models.ForeignKey(blank=True, help_text='The attempt whose result the seats hold (the newest finished one).', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='judging.matchattempt'),
                ),
                migrations.CreateModel(
                    name='MatchSeat',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('index', models.PositiveSmallIntegerField(help_text='0 for the seat that moves first.')),
                        ('points', models.FloatField(blank=True, help_text='What the standings count: e.g. 2/1/0 or a win.', null=True)),
                        ('score', models.FloatField(blank=True, help_text="The game's own measure: cookies eaten, rounds.", null=True)),
                        ('status', models.CharField(blank=True, help_text="The seat's result: win, loss, draw, illegal, timeout, crash or exit.", max_length=32)),
                        ('detail', models.CharField(blank=True, help_text='The result as the game names it, if otherwise.', max_length=64)),
                        ('reason', models.TextField(blank=True)),
                        ('moves', models.PositiveIntegerField(default=0)),
                        ('cpu_seconds', models.FloatField(default=0)),
                        ('wall_seconds', models.FloatField(default=0)),
                        ('entry', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='contests.entry')),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='judging.match')),
                        ('submission', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='seats', to='contests.submission')),
                    ],
                    options={
                        'db_table': 'contests_matchseat',
                        'ordering': ['match', 'index'],
                    },
                ),
                migrations.CreateModel(
                    name='Verification',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('status', models.CharField(choices=[('pending', 'Waiting for a judge'), ('accepted', 'Verified by a judge'), ('rejected', 'Rejected by a judge'), ('credited', 'Credited with its claimed score, unverified')], default='pending', max_length=10)),
                        ('note', models.TextField(blank=True)),
                        ('decided_at', models.DateTimeField(blank=True, null=True)),
                        ('attempt', models.ForeignKey(blank=True, help_text='The result the judge decided on.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='judging.matchattempt')),
                        ('judge', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('match', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='verification', to='judging.match')),
                    ],
                    options={
                        'db_table': 'contests_verification',
                        'permissions': [('verify_output', 'Can verify, reject and credit the outputs of output-only contests')],
                    },
                ),
                migrations.AddIndex(
                    model_name='matchattempt',
                    index=models.Index(fields=['outcome', 'last_seen'], name='attempt_watch'),
                ),
                migrations.AddConstraint(
                    model_name='matchattempt',
                    constraint=models.UniqueConstraint(fields=('match', 'number'), name='attempt_number_unique'),
                ),
                migrations.AddIndex(
                    model_name='match',
                    index=models.Index(fields=['contest', 'status'], name='contests_ma_contest_4189cd_idx'),
                ),
                migrations.AddIndex(
                    model_name='match',
                    index=models.Index(fields=['stage', 'round'], name='contests_ma_stage_i_41f1cd_idx'),
                ),
                migrations.AddIndex(
                    model_name='match',
                    index=models.Index(fields=['status', 'priority', 'id'], name='match_queue'),
                ),
                migrations.AddConstraint(
                    model_name='matchseat',
                    constraint=models.UniqueConstraint(fields=('match', 'index'), name='seat_index_unique'),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
