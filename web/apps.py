from django.apps import AppConfig


class WebConfig(AppConfig):
    """The site: pages, the REST API, the admin and the demo, over the layers below."""

    name = "web"

    def ready(self) -> None:
        from web import converters  # noqa: F401 - registers <id:...> before any URL is resolved
