from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        from accounts import language, schema  # noqa: F401 - the token for drf-spectacular; log-in's language
        from judging.news import notifications

        notifications.read_languages_with(language.chosen)  # each person's notifications in their language
