"""What every API view shares: token authentication, the error body, rate limits and
Idempotency-Key. The views themselves live in each app's api.py."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, parsers, status
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import exception_handler

from accounts.addresses import client_address
from accounts.models import ApiToken, IdempotentRequest
from web import limits
from web.errors import error_body
from web.limits import request_too_big_message


class TokenRateThrottle(BaseThrottle):
    """``API_RATE_LIMIT`` requests per token (or per signed-in user, or per address), counted on
    every web host at once (``web.limits.hit``)."""

    def client(self, request) -> str | None:
        if isinstance(request.auth, ApiToken):
            return f"api:token-{request.auth.pk}"
        if request.user and request.user.is_authenticated:
            return f"api:user-{request.user.pk}"
        return f"api:address-{client_address(request)}"

    def rate(self) -> limits.Rate:
        return settings.API_RATE_LIMIT

    def allow_request(self, request, view) -> bool:
        client = self.client(request)
        self.retry_after = None if client is None else limits.hit(client, self.rate())
        return self.retry_after is None

    def wait(self) -> int | None:
        return self.retry_after


class AnonymousHeavyThrottle(TokenRateThrottle):
    """The heavy answers (standings, replays, bundles): ``HEAVY_RATE_LIMIT`` per address for a
    visitor with neither a token nor a session, the same budget as the pages' (``web.limits``)."""

    def client(self, request) -> str | None:
        return limits.heavy_client(request)

    def rate(self) -> limits.Rate:
        return settings.HEAVY_RATE_LIMIT


HEAVY_THROTTLES = [TokenRateThrottle, AnonymousHeavyThrottle]  # a heavy API view's throttle_classes


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, with a body nested too deeply for Python's parser (a 100,000-deep
    array) refused as malformed, not a RecursionError and a 500."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError(gettext("The JSON is nested too deeply.")) from None


def body_object(request) -> Mapping[str, Any]:
    """The request's body as fields by name (a JSON object or a form), else a 400."""
    data = request.data
    if not isinstance(data, Mapping):
        kind = "null" if data is None else type(data).__name__
        message = gettext("Send a JSON object (or a form), not %(kind)s.") % {"kind": kind}
        raise exceptions.ValidationError({"non_field_errors": [message]})
    return data


def handle_exception(exc, context):
    """Every error answers {"error": {"status", "code", "message", "fields"?}}."""
    if isinstance(exc, RequestDataTooBig):  # a JSON body over DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response(error_body(413, "too_large", request_too_big_message()), status=413)
    if isinstance(exc, SuspiciousOperation):  # too many fields or files, and the like
        return Response(error_body(400, "bad_request", gettext("The request is malformed.")), status=400)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or gettext("Not found."))
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = exception_handler(exc, context)
    if response is None:
        return None
    detail = response.data
    fields = None
    if isinstance(exc, exceptions.ValidationError):
        fields = detail if isinstance(detail, dict) else {"non_field_errors": detail}
        first = next(iter(fields.values()), [gettext("Invalid input.")])
        message = str(first[0] if isinstance(first, list) and first else first)
        code = "invalid"
    else:
        message = str(detail.get("detail", detail)) if isinstance(detail, dict) else str(detail)
        code = getattr(exc, "default_code", "error")
        if isinstance(detail, dict) and hasattr(detail.get("detail"), "code"):
            code = detail["detail"].code
    response.data = error_body(response.status_code, code, message, fields)
    return response


@csrf_exempt
def not_found(request, *args, **kwargs):
    from django.http import JsonResponse

    return JsonResponse(error_body(404, "not_found", gettext("There is no such address in the API.")), status=404)


def refused(message: str, status_code: int = status.HTTP_400_BAD_REQUEST, code: str = "refused") -> Response:
    """A request the platform's policy refuses (the same message the pages show)."""
    return Response(error_body(status_code, code, message), status=status_code)


def idempotent(view):
    """For POST views: a retried request with the same ``Idempotency-Key`` gets the first
    answer again instead of doing the work twice; the same key with another body is a 422.

    The key is claimed first, in a transaction of its own (a row, unique per user and key):
    a second request with it while the first is still being answered gets a 409 to retry, never
    a race. The view's work and the stored answer commit together, and only within the
    request's time limit (``REQUEST_TIME_LIMIT`` seconds from the claim): so a claim older than
    that is free again (its request died with its process, or its work will be dropped), and a
    retry does the work. A 5xx, an exception or a request over its limit keeps none of its work
    and drops the claim, so a retry does the work."""

    def wrapper(request, *args, **kwargs):
        key = request.headers.get("Idempotency-Key", "").strip()
        if not key or not request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if len(key) > 200:
            return Response(
                error_body(400, "invalid", gettext("Idempotency-Key is longer than 200 characters.")), status=400
            )
        fingerprint = hashlib.sha256(
            request.method.encode() + request.get_full_path().encode() + _body_bytes(request)
        ).hexdigest()
        limit = timedelta(seconds=settings.REQUEST_TIME_LIMIT)
        IdempotentRequest.objects.filter(
            user=request.user, key=key, status=0, created_at__lt=timezone.now() - limit
        ).delete()
        try:
            with transaction.atomic():
                claim = IdempotentRequest.objects.create(
                    user=request.user, key=key, fingerprint=fingerprint, status=0, body={}
                )
        except IntegrityError:
            return _replay(request.user, key, fingerprint)
        try:
            with transaction.atomic():
                response = view(request, *args, **kwargs)
                if response.status_code >= 500:
                    transaction.set_rollback(True)
                elif not IdempotentRequest.objects.filter(
                    pk=claim.pk, status=0, created_at__gte=timezone.now() - limit
                ).update(status=response.status_code, body=json.loads(json.dumps(response.data, default=str))):
                    # Over its limit: a retry may hold the key already, and does the work itself.
                    transaction.set_rollback(True)
                    response = _over_the_limit()
        except BaseException:
            IdempotentRequest.objects.filter(pk=claim.pk, status=0).delete()
            raise
        if response.status_code >= 500:
            IdempotentRequest.objects.filter(pk=claim.pk, status=0).delete()
        return response

    wrapper.__name__ = view.__name__
    wrapper.__doc__ = view.__doc__
    return wrapper


def _over_the_limit() -> Response:
    seconds = settings.REQUEST_TIME_LIMIT
    message = gettext(
        "The request took longer than its limit (%(seconds)s s): nothing of it was kept; send it again."
    ) % {"seconds": seconds}
    response = Response(error_body(503, "over_time_limit", message), status=503)
    response["Retry-After"] = "1"
    return response


def _replay(user, key: str, fingerprint: str) -> Response:
    """The answer to a request whose key another request holds: its stored answer, 409 while it
    is still being answered, 422 if it was another request."""
    previous = IdempotentRequest.objects.filter(user=user, key=key).first()
    if previous is not None and previous.fingerprint != fingerprint:
        return Response(
            error_body(422, "idempotency_key_reused", gettext("This Idempotency-Key was used for another request.")),
            status=422,
        )
    if previous is None or previous.status == 0:
        response = Response(
            error_body(
                409, "in_progress", gettext("A request with this Idempotency-Key is being answered; retry in a moment.")
            ),
            status=409,
        )
        response["Retry-After"] = "1"
        return response
    return Response(previous.body, status=previous.status, headers={"Idempotent-Replayed": "true"})


def _body_bytes(request) -> bytes:
    """The request's content, files by their hash, in a stable order."""
    items = []
    data = request.data
    for name in sorted(data.keys()) if hasattr(data, "keys") else []:
        values = data.getlist(name) if hasattr(data, "getlist") else [data[name]]
        for value in values:
            if isinstance(value, UploadedFile):
                value.seek(0)
                items.append((name, hashlib.sha256(value.read()).hexdigest()))
                value.seek(0)
            else:
                items.append((name, json.dumps(value, sort_keys=True, default=str)))
    return json.dumps(items).encode()


ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["status", "code", "message"],
            "properties": {
                "status": {"type": "integer"},
                "code": {"type": "string"},
                "message": {"type": "string"},
                "fields": {"type": "object", "additionalProperties": True},
            },
        }
    },
}
ERROR_STATUSES = {
    "400": "The request is malformed or refused by the contest's policy",
    "401": "No valid credentials",
    "403": "Not allowed to you",
    "404": "No such object, or not visible to you",
    "405": "Method not allowed",
    "406": "No acceptable representation",
    "409": "Conflicts with the object's state",
    "411": "A request body without a Content-Length (chunked)",
    "413": "The request or its file is larger than the limit the message names",
    "415": "Unsupported media type",
    "422": "Idempotency-Key reused for another request",
    "429": "Rate limit reached",
    "500": "The server failed",
    "507": "The site's disk is full: the request was not kept",
}


def add_error_responses(result, generator, request, public):
    """drf-spectacular post-processing hook: every operation may answer with the one error body."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    for path in result.get("paths", {}).values():
        for operation in path.values():
            responses = operation.setdefault("responses", {})
            for code, description in ERROR_STATUSES.items():
                responses.setdefault(
                    code,
                    {
                        "description": description,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                    },
                )
    return result
