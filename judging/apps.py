from django.apps import AppConfig


class JudgingConfig(AppConfig):
    name = "judging"

    def ready(self) -> None:
        # late: an app's modules load once every app's models have (Django's registry), and
        # these are imported for what they register: the worker's heartbeat (signals), the
        # output-only, race and uploaded games' referees (referee.REFEREES), the stage formats
        # (formats.FORMATS), the tasks by name (dispatch.TASKS), and the receivers connected
        # below.
        from django.db.models.signals import post_save

        from contests.models import Contest
        from contests.signals import contest_changed, entry_judged, role_changed, submission_received
        from judging import (
            signals,  # noqa: F401
            tasks,  # noqa: F401
        )
        from judging.dispatch import queue_received_submission
        from judging.news.notifications import contest_changed as tell_contest_changed
        from judging.news.notifications import entry_judged as tell_entry_judged
        from judging.news.notifications import role_changed as tell_role_changed
        from judging.play import batch, race  # noqa: F401
        from judging.schedule import system_test, tournaments  # noqa: F401
        from judging.services import entry_judged as games_of_entry_judged
        from judging.uploaded import program_referee  # noqa: F401
        from judging.uploaded.hosting import contest_saved

        submission_received.connect(queue_received_submission, dispatch_uid="judging.build_received")
        post_save.connect(contest_saved, sender=Contest, dispatch_uid="judging.hosted_references")
        entry_judged.connect(tell_entry_judged, dispatch_uid="judging.tell_entry_judged")
        entry_judged.connect(games_of_entry_judged, dispatch_uid="judging.games_of_entry_judged")
        role_changed.connect(tell_role_changed, dispatch_uid="judging.tell_role_changed")
        contest_changed.connect(tell_contest_changed, dispatch_uid="judging.tell_contest_changed")
