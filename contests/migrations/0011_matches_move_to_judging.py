from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('contests', '0010_queued_at'),
    ]

    # Matches, seats, attempts and verifications are judging's models now: they leave this
    # app's state only. Their tables stay as they are (judging.models names them), so no row
    # moves; judging's 0005 takes them into its state and renames their content types.
    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='verification',
                    name='match',
                ),
                migrations.RemoveField(
                    model_name='matchseat',
                    name='match',
                ),
                migrations.RemoveField(
                    model_name='matchattempt',
                    name='match',
                ),
                migrations.RemoveField(
                    model_name='verification',
                    name='attempt',
                ),
                migrations.RemoveField(
                    model_name='matchseat',
                    name='entry',
                ),
                migrations.RemoveField(
                    model_name='matchseat',
                    name='submission',
                ),
                migrations.RemoveField(
                    model_name='verification',
                    name='judge',
                ),
                migrations.DeleteModel(
                    name='Match',
                ),
                migrations.DeleteModel(
                    name='MatchAttempt',
                ),
                migrations.DeleteModel(
                    name='MatchSeat',
                ),
                migrations.DeleteModel(
                    name='Verification',
                ),
            ],
            database_operations=[],
        ),
    ]
