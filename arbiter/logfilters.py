"""Logging filters of the site."""

from __future__ import annotations

import logging


class ClientErrorsInOneLine(logging.Filter):
    """A 4xx is the client's doing: Django logs "Forbidden: /path" with the exception's
    traceback, which an operator would chase for nothing. Keep the line, drop the traceback;
    a 5xx keeps it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", 500) < 500:
            record.exc_info = None
            record.exc_text = None
        return True
