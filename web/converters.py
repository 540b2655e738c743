"""URL converters. ``<id:pk>`` matches a database id: at most 18 digits, so that no id in a
URL can overflow a 64-bit integer column (SQLite raises, PostgreSQL too)."""

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")


def parse_id(value: str) -> int | None:
    """A query parameter as an id, or None when it cannot be one."""
    if not (value.isascii() and value.isdigit()) or len(value) > 18:  # "²".isdigit(), but int() refuses it
        return None
    return int(value)
