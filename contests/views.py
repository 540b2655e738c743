from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from contests import services


@require_GET
def contest_detail(request, slug: str):
    contest = services.visible_contests(request.user).filter(slug=slug).first()
    if contest is None:
        raise Http404("No such contest.")
    stages = contest.stages.all()
    entries = contest.entries.filter(status="active").order_by("name")
    return render(request, "contests/detail.html", {"contest": contest, "stages": stages, "entries": entries})
