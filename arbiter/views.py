from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from arbiter import health as health_checks
from contests import services as contest_services
from web.api_support import error_body
from web.limits import request_too_big_message


@require_GET
def favicon(request):
    """The site's icon (static/favicon.svg) for a browser that asks the old place."""
    from django.templatetags.static import static

    return HttpResponsePermanentRedirect(static("favicon.svg"))


@require_GET
def home(request):
    """The contests: open (with their deadlines), upcoming (with their openings), past."""
    now = timezone.now()
    groups: dict[str, list] = {"open": [], "upcoming": [], "past": []}
    for contest in contest_services.visible_contests(request.user):
        if contest.is_open(now):
            groups["open"].append(contest)
        elif not contest.is_hosted or (contest.opens_at and contest.opens_at > now):
            groups["upcoming"].append(contest)
        else:
            groups["past"].append(contest)
    return render(request, "home.html", {"groups": groups, "any": any(groups.values())})


@never_cache
@require_GET
def health(request):
    report = health_checks.report()
    return JsonResponse(report, status=200 if report["status"] != "error" else 503)


@never_cache
@require_GET
def metrics(request):
    """The platform's figures for Prometheus (judging/metrics.py). With METRICS_TOKEN set, a
    scraper sends it as a bearer token; a judge signed in may always look."""
    import hmac

    from judging.metrics import exposition

    token = settings.METRICS_TOKEN
    if token:
        scheme, _, sent = request.headers.get("Authorization", "").partition(" ")
        scraper = scheme.lower() == "bearer" and hmac.compare_digest(sent.strip().encode(), token.encode())
        if not scraper and not _is_judge(request):  # the token first: it needs no database
            refused = HttpResponse("metrics need the scraper's token\n", status=401, content_type="text/plain")
            refused["WWW-Authenticate"] = 'Bearer realm="metrics"'
            return refused
    return HttpResponse(exposition(), content_type="text/plain; version=0.0.4; charset=utf-8")


def _is_judge(request) -> bool:
    from judging.metrics import DB_ERRORS

    try:
        return contest_services.is_judge(request.user)
    except DB_ERRORS:  # the database is away: nobody is known
        return False


# --- Django's own error answers: the API's error body under /api/, the HTML pages elsewhere ---


def is_api(request) -> bool:
    return request.path_info.startswith("/api/")


def _api_error(status_code: int, code: str, message: str) -> JsonResponse:
    return JsonResponse(error_body(status_code, code, message), status=status_code)


def bad_request(request, exception):
    if not is_api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        return _api_error(413, "too_large", request_too_big_message())
    return _api_error(400, "bad_request", "The request is malformed.")


def permission_denied(request, exception):
    if not is_api(request):
        return defaults.permission_denied(request, exception)
    return _api_error(403, "permission_denied", str(exception) or "You are not allowed to do this.")


def page_not_found(request, exception):
    if not is_api(request):
        return defaults.page_not_found(request, exception)
    return _api_error(404, "not_found", "There is no such address in the API.")


def server_error(request):
    if not is_api(request):
        return defaults.server_error(request)
    return _api_error(500, "server_error", "The server failed to answer; the error is logged. Try again later.")
