"""The Content-Security-Policy of the site's own pages, for what they frame.

The one frame the site makes holds an organiser's code: a game's own viewer on a match page
(web/game_views.py, sandboxed). A frame may always navigate itself, whatever its sandbox; only
the policy of the page holding it can stop that, and this one does: a frame of a site page may
hold a page of this site only, and a navigation of it anywhere else (a link, a form, a meta
refresh, a redirect) is refused by the browser, so the replay it was given goes nowhere. Plugins
and `<base>` are off for the same reason. A response that sets a policy of its own keeps it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

SITE_POLICY = "frame-src 'self'; object-src 'none'; base-uri 'self'"


class PagePolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", SITE_POLICY)
        return response
