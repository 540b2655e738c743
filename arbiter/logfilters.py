"""Logging filters of the site."""

from __future__ import annotations

import logging

from accounts.addresses import client_address


class ClientErrorsInOneLine(logging.Filter):
    """A 4xx is the client's doing: Django logs "Forbidden: /path" with the exception's
    traceback, which an operator would chase for nothing. Keep the line, drop the traceback;
    a 5xx keeps it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", 500) < 500:
            record.exc_info = None
            record.exc_text = None
        return True


class ClientAddress(logging.Filter):
    """A request's line ends with the client's address (``accounts.addresses``: behind trusted
    proxies, the client's, not the proxy's), as the lockouts and rate limits count it."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        meta = getattr(request, "META", None)
        if isinstance(meta, dict) and isinstance(record.args, tuple) and not getattr(record, "client", None):
            record.client = client_address(request)
            record.msg = f"{record.msg} (from %s)"
            record.args = (*record.args, record.client)
        return True
