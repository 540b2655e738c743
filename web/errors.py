"""The API's one error body. A module of its own, without DRF, so that middleware (which is
loaded before DRF's settings can import ``web.api_support``) can answer in it too."""

from __future__ import annotations


def error_body(status_code: int, code: str, message: str, fields: dict | None = None) -> dict:
    body = {"error": {"status": status_code, "code": code, "message": message}}
    if fields:
        body["error"]["fields"] = fields
    return body
