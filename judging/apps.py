from django.apps import AppConfig


class JudgingConfig(AppConfig):
    name = "judging"

    def ready(self) -> None:
        # Imported for what they register: the worker's heartbeat (signals), the output-only
        # and race referees (referee.REFEREES), the stage formats (formats.FORMATS).
        from judging import batch, race, signals, system_test, tournaments  # noqa: F401
