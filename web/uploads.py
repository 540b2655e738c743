"""Large request bodies are refused before they are stored.

Two guards, so that no upload is spooled to disk in full before it is refused:

- ``UploadSizeMiddleware``: a request whose ``Content-Length`` is over ``UPLOAD_MAX_BYTES``
  (one site-wide cap) is answered 413 before any of its body is read; one that sends its body
  chunked, without a ``Content-Length``, 411 (Django reads no chunked body: it would see none).
- ``limit_uploads``: on the submission endpoints, an upload handler that stops reading as soon
  as a file is larger than the contest's ``max_source_bytes``; the rest of the body (at most
  the site's cap) is read and thrown away, so that the client still gets the answer.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_protect

from web.errors import error_body


def _refuse(request, status: int, title: str, message: str) -> HttpResponse:
    if request.path_info.startswith("/api/"):
        code = "too_large" if status == 413 else "length_required"
        response = JsonResponse(error_body(status, code, message), status=status)
    else:
        page = render_to_string("refused.html", {"status": status, "title": title, "message": message})
        response = HttpResponse(page, status=status)
    # The client learns where the answer ends while it may still be sending the body.
    response["Content-Length"] = str(len(response.content))
    return response


class UploadSizeMiddleware:
    """Refuses a body over ``UPLOAD_MAX_BYTES`` by its ``Content-Length``, before reading it."""

    def __init__(self, get_response: Callable) -> None:
        self.get_response = get_response

    def __call__(self, request):
        # first of the middlewares, before the visitor's language is chosen: a refusal is said in it
        with translation.override(translation.get_language_from_request(request)):
            refused = self._refusal(request)
        return refused or self.get_response(request)

    def _refusal(self, request):
        length = request.META.get("CONTENT_LENGTH") or ""
        cap = settings.UPLOAD_MAX_BYTES
        if length.isdigit() and int(length) > cap:
            return _refuse(
                request, 413, gettext("Request too large"),
                gettext("The request is %(bytes)s bytes; this site accepts at most %(cap)s bytes in one request.")
                % {"bytes": number_format(int(length), force_grouping=True),
                   "cap": number_format(cap, force_grouping=True)},
            )  # fmt: skip
        if not length and request.META.get("HTTP_TRANSFER_ENCODING"):
            return _refuse(
                request, 411, gettext("Length required"),
                gettext("Send the body with a Content-Length header: this site does not read chunked request bodies."),
            )  # fmt: skip
        return None


class LimitedUploadHandler(FileUploadHandler):
    """Stops the upload when a file passes ``limit`` bytes, before the handlers after it (memory,
    temp folder) see the chunk that passes it; ``refusal`` then says why."""

    def __init__(self, request, limit: int, message: str) -> None:
        super().__init__(request)
        self.limit = limit
        self.message = message
        self.refusal: str | None = None

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        if start + len(raw_data) > self.limit:
            self.refusal = self.message
            raise StopUpload(connection_reset=False)  # read the rest of the body, keep none of it
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None  # the next handler makes the file


def limit_uploads(limit_for: Callable[..., tuple[int, str]]):
    """A view decorator: ``limit_for(request, **url_kwargs)`` gives the largest file accepted and
    the refusal's message; a larger file is stopped while it arrives (see ``upload_refusal``).

    It must be the outermost decorator, so that the handler is in place before anything reads
    the body (Django's CSRF check and DRF's authentication both do): a page view gets its CSRF
    check inside it, after the handler is set."""

    def decorator(view):
        inner = view if getattr(view, "csrf_exempt", False) else csrf_protect(view)

        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method == "POST":
                limit, message = limit_for(request, *args, **kwargs)
                request.upload_handlers.insert(0, LimitedUploadHandler(request, limit, message))
            return inner(request, *args, **kwargs)

        wrapper.csrf_exempt = True  # checked inside, once the handler is set
        return wrapper

    return decorator


def upload_refusal(request) -> str | None:
    """Why a file of this request was stopped, or None; parses the body if nothing has yet."""
    request.FILES  # noqa: B018 - parsing is what stops a file
    for handler in request.upload_handlers:
        if isinstance(handler, LimitedUploadHandler) and handler.refusal:
            return handler.refusal
    return None
