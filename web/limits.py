"""How often, and how much, a client may ask: limits that hold whichever process or host answers.

- ``hit``: one request counted against a client's budget, ``(requests, seconds)`` (the API's
  ``API_RATE_LIMIT``, the heavy answers' ``HEAVY_RATE_LIMIT``), in the cache every web host
  shares (``CACHE_URL``: a Redis on many machines; a folder on one, ``arbiter.cache``). Each
  window of ``seconds`` is one counter, made with ``add`` and counted with ``incr``, both
  atomic. A request passes while this window's count plus the previous window's, weighted by the
  share of that window still less than ``seconds`` ago, stays within the budget: a burst astride
  two windows does not get the budget twice. A refused request is not counted. A cache that is
  away (Redis down) limits nothing, and says so in the log, rather than fail every request.
- ``anonymous_limit``: a page's heavy answers (the charts' data, replays, bundles, zips) limited
  per address for visitors who are not signed in; over it, a 429 with ``Retry-After``. The API's
  heavy endpoints count against the same budget (``web.api_support.AnonymousHeavyThrottle``).
- ``BodySizeMiddleware``: a body that is not a multipart upload (JSON, a form) is refused by its
  ``Content-Length`` over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (``BODY_MAX_BYTES``) before any of it is
  read or parsed; uploads keep their own cap, ``UPLOAD_MAX_BYTES`` (``web.uploads``).

No DRF here: middleware is loaded before DRF's settings may be (see ``web.errors``).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.formats import number_format
from django.utils.translation import gettext

from accounts.addresses import client_address
from web.errors import error_body

log = logging.getLogger(__name__)
Rate = tuple[int, int]  # (requests, seconds)


def hit(name: str, rate: Rate, now: float | None = None) -> int | None:
    """Count one request of the client ``name`` (e.g. ``api:token-7``) against ``rate``: None if it
    may go ahead, else the seconds until it may (see the module's docstring)."""
    allowed, seconds = rate
    now = time.time() if now is None else now
    window = int(now // seconds)
    into = (now - window * seconds) / seconds  # the share of this window gone by
    key = f"limit:{name}:{window}"
    try:
        current = _count(key, seconds)
        previous = cache.get(f"limit:{name}:{window - 1}", 0)
    except Exception as e:  # the cache is away: a limit is not worth failing the request for
        log.error("rate limits are off while the cache is away: %s", e)
        return None
    if previous * (1 - into) + current <= allowed + 1e-9:  # (float's rounding)
        return None
    with contextlib.suppress(Exception):  # gone meanwhile (or the cache with it): nothing to take back
        cache.decr(key)  # refused: not counted
    return _wait(allowed, seconds, into, previous, current - 1)


def _count(key: str, seconds: int) -> int:
    for _ in range(3):
        cache.add(key, 0, timeout=2 * seconds + 60)  # kept through the next window, which weighs it
        try:
            return cache.incr(key)
        except ValueError:  # dropped between the two (expired, evicted): make it again
            continue
    return 1


def _wait(allowed: int, seconds: int, into: float, previous: int, counted: int) -> int:
    """Seconds until one more request fits, no other request coming meanwhile."""
    if counted + 1 <= allowed:  # this window has room once enough of the previous one has passed
        share = 1 - (allowed - counted - 1) / previous if previous else 0.0
        wait = (share - into) * seconds
    else:  # the next window, where this one's count weighs as the previous
        wait = (1 - into) * seconds + max(0.0, 1 - (allowed - 1) / counted) * seconds
    return max(1, math.ceil(wait - 1e-9))


def rate_words(rate: Rate) -> str:
    allowed, seconds = rate
    per = {1: gettext("a second"), 60: gettext("a minute"), 3600: gettext("an hour"), 86400: gettext("a day")}
    every = per.get(seconds) or gettext("every %(seconds)s seconds") % {"seconds": seconds}
    return f"{number_format(allowed, force_grouping=True)} {every}"


def refusal(request, status: int, title: str, message: str, code: str, retry_after: int | None = None) -> HttpResponse:
    """A refusal in the API's error shape for the API and JSON answers, else a page with the
    sentence."""
    if request.path_info.startswith("/api/") or request.path_info.endswith(".json"):
        response = JsonResponse(error_body(status, code, message), status=status)
    else:
        page = render_to_string("refused.html", {"status": status, "title": title, "message": message})
        response = HttpResponse(page, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    # The client learns where the answer ends while it may still be sending the body.
    response["Content-Length"] = str(len(response.content))
    return response


def heavy_client(request) -> str | None:
    """Whose budget a heavy answer counts against: a visitor's address, if not signed in."""
    if request.user.is_authenticated:
        return None
    return f"heavy:address-{client_address(request)}"


def heavy_refusal_message(wait: int) -> str:
    return gettext(
        "Too many requests for charts, replays and downloads came from your address: at most "
        "%(rate)s without signing in. Try again in %(wait)s s, or sign in."
    ) % {"rate": rate_words(settings.HEAVY_RATE_LIMIT), "wait": wait}


def anonymous_limit(view: Callable) -> Callable:
    """A page view of a heavy answer: visitors not signed in get ``HEAVY_RATE_LIMIT`` a client."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        client = heavy_client(request)
        if client is not None:
            wait = hit(client, settings.HEAVY_RATE_LIMIT)
            if wait is not None:
                return refusal(
                    request, 429, gettext("Too many requests"), heavy_refusal_message(wait), "throttled", wait
                )
        return view(request, *args, **kwargs)

    return wrapper


def request_too_big_message() -> str:
    return gettext(
        "The request body is larger than %(bytes)s bytes, the most read into "
        "memory; send a program this large as a file (multipart/form-data)."
    ) % {"bytes": number_format(settings.DATA_UPLOAD_MAX_MEMORY_SIZE, force_grouping=True)}


class BodySizeMiddleware:
    """Refuses a body that is not a multipart upload over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` by its
    ``Content-Length``, before reading it: a 413 (the API's error shape under /api/)."""

    def __init__(self, get_response: Callable) -> None:
        self.get_response = get_response

    def __call__(self, request):
        length = request.META.get("CONTENT_LENGTH") or ""
        cap = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        upload = request.META.get("CONTENT_TYPE", "").lower().startswith("multipart/")
        if cap is not None and not upload and length.isdigit() and int(length) > cap:
            # before the visitor's language is chosen (LocaleMiddleware): the refusal is said in it
            with translation.override(translation.get_language_from_request(request)):
                return refusal(request, 413, gettext("Request too large"), request_too_big_message(), "too_large")
        return self.get_response(request)
