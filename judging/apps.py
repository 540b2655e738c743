from django.apps import AppConfig


class JudgingConfig(AppConfig):
    name = "judging"

    def ready(self) -> None:
        from judging import (  # noqa: F401 - register their stage formats (formats.FORMATS)
            signals,
            system_test,
            tournaments,
        )
