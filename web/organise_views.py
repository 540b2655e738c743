"""The organisers' pages: the contests to organise, a new contest, an edited one, and the
preview of a contest's rules. The form is the admin's (``web.contest_form``), with its checks;
each view translates HTTP to ``contests.services.save_contest``, which saves and writes the
judges' log."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from contests import roles, services
from contests.models import Contest
from games import registry
from web.contest_form import PARAMS_HELP, ContestPageForm, game_defaults
from web.text import render_markdown
from web.views import _contest


def _organiser(request) -> None:
    if not services.is_organiser(request.user):
        raise PermissionDenied(gettext("Only the site's organisers open contests."))


def _organised(request, slug: str) -> Contest:
    """A contest for its owner, a co-organiser or an administrator: 404 to whoever may not see
    it, 403 to whoever sees it but does not organise it."""
    contest = _contest(request, slug)
    if not roles.may(request.user, contest, roles.Power.ORGANISE):
        raise PermissionDenied(
            gettext("Only the owner and co-organisers of %(contest)s may change it.") % {"contest": contest.title}
        )
    return contest


@login_required
@require_GET
def contest_list(request):
    """The contests the user organises (every one for an administrator), and the button to open
    one for the site's organisers. A co-organiser who may not open contests sees theirs too."""
    contests = list(roles.with_power(request.user, roles.Power.ORGANISE).order_by("-created_at", "title"))
    if not services.is_organiser(request.user) and not contests:
        raise PermissionDenied(gettext("Only the site's organisers open contests."))
    for contest in contests:
        contest.my_role = ROLE_TITLES[roles.role_of(request.user, contest)]
    return render(
        request, "contests/organise_list.html", {"contests": contests, "may_open": services.is_organiser(request.user)}
    )


@login_required
@require_http_methods(["GET", "POST"])
def contest_new(request):
    _organiser(request)
    return _contest_form(request, None)


@login_required
@require_http_methods(["GET", "POST"])
def contest_edit(request, slug: str):
    return _contest_form(request, _organised(request, slug))


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
                    messages.success(
                        request, gettext("%(contest)s is created; add its stages below.") % {"contest": saved.title}
                    )
                elif changed:
                    messages.success(request, gettext("Saved: %(changed)s.") % {"changed": ", ".join(changed)})
                else:
                    messages.info(request, gettext("Nothing changed."))
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
        context["people"] = roles.people(contest)
        context["may_name"] = roles.may(request.user, contest, roles.Power.NAME)
        context["named_roles"] = [(role, roles.Role(role).label) for role in roles.NAMED]
    return render(request, "contests/organise_form.html", context)


@login_required
@require_POST
def contest_roles(request, slug: str):
    """The owner names a co-organiser or a judge, or takes a role away (``remove``)."""
    contest = _contest(request, slug)
    reason = request.POST.get("reason", "")
    try:
        if request.POST.get("remove"):
            role = roles.revoke(request.user, contest, request.POST["remove"], reason)
            said = {
                "organiser": gettext("%(user)s is no longer a co-organiser of %(contest)s."),
                "judge": gettext("%(user)s is no longer a judge of %(contest)s."),
            }[role]
            messages.success(request, said % {"user": request.POST["remove"], "contest": contest.title})
        else:
            username, role = request.POST.get("user", "").strip(), request.POST.get("role", "")
            roles.grant(request.user, contest, username, role, reason)
            said = {
                "organiser": gettext("%(user)s is a co-organiser of %(contest)s; they have been told."),
                "judge": gettext("%(user)s is a judge of %(contest)s; they have been told."),
            }[role]
            messages.success(request, said % {"user": username, "contest": contest.title})
    except roles.NotAllowed as e:
        raise PermissionDenied(str(e)) from None
    except roles.RoleError as e:
        messages.error(request, str(e))
    return redirect(reverse("contests:organise-edit", args=[contest.slug]) + "#people")


# Each role as the organise page names it, in the reader's language.
ROLE_TITLES = {
    roles.ADMIN: gettext_lazy("administrator"),
    roles.Role.OWNER: gettext_lazy("owner"),
    roles.Role.ORGANISER: gettext_lazy("co-organiser"),
    roles.Role.JUDGE: gettext_lazy("judge"),
}


@login_required
@require_POST
def rules_preview(request):
    """The rules as the contest's page will show them: Markdown, sanitised (a fragment of HTML
    for the page's script)."""
    if not services.is_organiser(request.user) and not roles.with_power(request.user, roles.Power.ORGANISE).exists():
        raise PermissionDenied(gettext("Only organisers preview contests' rules."))
    return HttpResponse(render_markdown(request.POST.get("rules", "")), content_type="text/html; charset=utf-8")
