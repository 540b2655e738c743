from django.apps import AppConfig


class JudgingConfig(AppConfig):
    name = "judging"

    def ready(self) -> None:
        from judging import signals  # noqa: F401 - connects the worker's heartbeat
