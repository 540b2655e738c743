"""The organisers' pages: the contests to organise, a new contest, an edited one, and the
preview of a contest's rules. The form is the admin's (``web.contest_form``), with its checks;
each view translates HTTP to ``contests.services.save_contest``, which saves and writes the
judges' log."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from contests import services
from contests.models import Contest
from games import registry
from web.contest_form import PARAMS_HELP, ContestPageForm, game_defaults
from web.text import render_markdown


def _organiser(request) -> None:
    if not services.is_organiser(request.user):
        raise PermissionDenied("Only organisers may open or edit contests.")


@login_required
@require_GET
def contest_list(request):
    _organiser(request)
    contests = Contest.objects.order_by("-created_at", "title")
    return render(request, "contests/organise_list.html", {"contests": contests})


@login_required
@require_http_methods(["GET", "POST"])
def contest_new(request):
    _organiser(request)
    return _contest_form(request, None)


@login_required
@require_http_methods(["GET", "POST"])
def contest_edit(request, slug: str):
    _organiser(request)
    return _contest_form(request, get_object_or_404(Contest, slug=slug))


def _contest_form(request, contest: Contest | None):
    """The form, re-shown with its errors or with the rules' preview (the Preview button,
    without JavaScript), or saved and logged."""
    # The form writes what was sent into its instance, valid or not: the page's heading and
    # links keep to the contest as it is saved.
    instance = Contest.objects.get(pk=contest.pk) if contest else Contest()
    preview = None
    if request.method == "POST":
        form = ContestPageForm(request.POST, request.FILES, instance=instance)
        if "preview" in request.POST:
            preview = render_markdown(request.POST.get("rules", ""))
        elif form.is_valid():
            try:
                changed = services.save_contest(request.user, form.save(commit=False), form.cleaned_data["reason"])
            except services.Refused as e:
                form.add_error("slug", str(e))
            else:
                saved = form.instance
                if contest is None:
                    messages.success(request, f"{saved.title} is created; add its stages below.")
                elif changed:
                    messages.success(request, f"Saved: {', '.join(changed)}.")
                else:
                    messages.info(request, "Nothing changed.")
                return redirect("contests:organise-edit", slug=saved.slug)
    else:
        game = request.GET.get("game") if contest is None else None  # a new contest's game, chosen first
        form = ContestPageForm(instance=instance, initial={"game": game} if game in registry.GAMES else None)
    context = {
        "form": form,
        "contest": contest,
        "preview": preview,
        "defaults": {name: game_defaults(name) for name in registry.GAMES},
        "params_help": PARAMS_HELP,
    }
    if contest is not None:
        context["stages"] = contest.stages.order_by("order")
    return render(request, "contests/organise_form.html", context)


@login_required
@require_POST
def rules_preview(request):
    """The rules as the contest's page will show them: Markdown, sanitised (a fragment of HTML
    for the page's script)."""
    _organiser(request)
    return HttpResponse(render_markdown(request.POST.get("rules", "")), content_type="text/html; charset=utf-8")
