"""Logs that say which contest, stage, match and attempt (or submission) a line is about.

    with logs.about(contest=3, stage=7, match=412, attempt=2):
        log.info("playing")   # ... INFO judging.play.matches: playing [contest=3 stage=7 match=412 attempt=2]

The ids are kept in a context variable for the code running inside ``about`` (a thread of its
own starts without them). ``LOG_FORMAT=json`` writes each line as one JSON object, the ids as
fields of it, for a log collector; the default is a line of text with the ids at its end.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterator
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

_ABOUT: ContextVar[dict[str, Any]] = ContextVar("arbiter_log_about", default={})  # noqa: B039 - never mutated


@contextlib.contextmanager
def about(**ids: Any) -> Iterator[None]:
    """Add these ids (None ones left out) to every log line written inside."""
    token = _ABOUT.set({**_ABOUT.get(), **{k: v for k, v in ids.items() if v is not None}})
    try:
        yield
    finally:
        _ABOUT.reset(token)


def current() -> dict[str, Any]:
    return dict(_ABOUT.get())


class AboutFilter(logging.Filter):
    """Puts the ids on each record: ``record.about`` (a dict) and ``record.ids`` (text)."""

    def filter(self, record: logging.LogRecord) -> bool:
        found = _ABOUT.get()
        record.about = found
        record.ids = (" [" + " ".join(f"{k}={v}" for k, v in found.items()) + "]") if found else ""
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, the ids, and the
    exception's traceback if there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **getattr(record, "about", {}),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)
