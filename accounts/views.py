from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import NotificationEmailForm, SignUpForm
from accounts.models import ApiToken
from contests.models import Submission
from judging.models import Notification
from judging.news import notifications


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, gettext("Welcome, %(name)s. You are signed in.") % {"name": user.username})
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    """The user's API tokens: create one (its key is shown once), list them, revoke one."""
    new_key = None
    if request.method == "POST":
        name = request.POST.get("name", "").strip()[:100] or "token"
        _, new_key = ApiToken.issue(request.user, name)
    tokens = request.user.api_tokens.all()
    submissions = (
        Submission.objects.filter(entry__user=request.user).select_related("entry__contest").order_by("-created_at")
    )
    page = Paginator(submissions, 50).get_page(request.GET.get("page"))
    context = {"tokens": tokens, "new_key": new_key, "submissions": page}
    return render(request, "registration/profile.html", context)


@login_required
@require_POST
def revoke_token(request, pk: int):
    token = get_object_or_404(ApiToken, pk=pk, user=request.user)
    token.revoke()
    messages.success(request, gettext("Revoked %(name)s.") % {"name": token.name})
    return redirect("profile")


@login_required
@require_http_methods(["GET", "POST"])
def notification_list(request):
    """The user's notifications, newest first, the unread ones marked (and read once shown);
    a POST marks them all read."""
    if request.method == "POST":
        notifications.mark_read(request.user)
        return redirect("notifications")
    mine = Notification.objects.filter(user=request.user).select_related("contest")
    page = Paginator(mine, 50).get_page(request.GET.get("page"))
    notifications.mark_read(request.user, [n.pk for n in page if n.read_at is None])
    return render(request, "accounts/notifications.html", {"page": page})


@login_required
@require_http_methods(["GET", "POST"])
def notification_settings(request):
    """Which kinds of notification the user gets by e-mail."""
    form = NotificationEmailForm(
        request.POST or None, initial={"email": sorted(notifications.email_kinds(request.user))}, user=request.user
    )
    if request.method == "POST" and form.is_valid():
        notifications.set_email_kinds(request.user, form.cleaned_data["email"])
        messages.success(request, gettext("Saved: your e-mails follow these choices from now on."))
        return redirect("notification-settings")
    context = {"form": form, "every": settings.FAULT_DIGEST_MINUTES}
    return render(request, "accounts/notification_settings.html", context)


def locked_out(request, credentials=None, *args, **kwargs):
    """django-axes' answer to a log-in from an address that gave too many wrong passwords."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    response = render(request, "accounts/locked_out.html", {"minutes": minutes}, status=429)
    response["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return response
