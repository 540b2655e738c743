from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from arbiter import health as health_checks
from contests import services as contest_services


@require_GET
def home(request):
    contests = contest_services.visible_contests(request.user)
    return render(request, "home.html", {"contests": contests})


@never_cache
@require_GET
def health(request):
    report = health_checks.report()
    return JsonResponse(report, status=200 if report["status"] != "error" else 503)
