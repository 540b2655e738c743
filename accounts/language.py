"""A logged-in person's language follows them from browser to browser (issue 38).

Django's LocaleMiddleware chooses a page's language from the language cookie, else the
browser's Accept-Language. A person's own choice (the header's switcher, the profile) is kept
in ``Preference`` too: it is put in their session when they log in, and the middleware here
makes it the language of each of their pages; their notifications and e-mails are written in
it (``judging.news.notifications.read_languages_with``, installed by ``AccountsConfig``).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.signals import user_logged_in
from django.db import DatabaseError
from django.dispatch import receiver
from django.http import HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts.models import Preference

SESSION_KEY = "arbiter_language"  # the person's own choice, copied at log-in and at each change


def chosen(user_id: int) -> str | None:
    """The language a person chose, or None for their browser's (the notifications' reader)."""
    language = Preference.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    return language or None


def _known(code: str) -> bool:
    return code in dict(settings.LANGUAGES)


def _keep(request, code: str) -> None:
    Preference.objects.update_or_create(user=request.user, defaults={"language": code})
    if code:
        request.session[SESSION_KEY] = code
    else:
        request.session.pop(SESSION_KEY, None)


@receiver(user_logged_in)
def _bring_the_choice(sender, request, user, **kwargs) -> None:
    if request is None or not hasattr(request, "session"):
        return
    language = chosen(user.pk)
    if language:
        request.session[SESSION_KEY] = language


class PersonLanguageMiddleware:
    """After LocaleMiddleware and AuthenticationMiddleware: a logged-in person's own choice wins
    over the cookie and the browser's header (a log-in on another computer keeps it)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            session = getattr(request, "session", None)
            language = session.get(SESSION_KEY) if session is not None else None
            mine = bool(language) and _known(language) and request.user.is_authenticated
        except DatabaseError:  # the database away: the page says so itself (the console), in the browser's
            language, mine = None, False
        if mine:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)  # LocaleMiddleware says its Content-Language


@require_POST
def set_language(request):
    """The header's switcher: Django's own view (the cookie, the redirect back), and for a
    logged-in person their kept choice too."""
    response = django_set_language(request)
    code = request.POST.get("language", "")
    if request.user.is_authenticated and _known(code):
        _keep(request, code)
    return response


@login_required
@require_POST
def choose_language(request):
    """The profile's choice: a language, or "" for the browser's own (the cookie is cleared)."""
    code = request.POST.get("language", "")
    if code and not _known(code):
        messages.error(request, gettext("The site does not speak that language."))
        return redirect("profile")
    _keep(request, code)
    target = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        target = ""
    response = HttpResponseRedirect(target or reverse("profile"))
    if code:
        translation.activate(code)
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            code,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    else:
        response.delete_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
        translation.activate(translation.get_language_from_request(request))
    messages.success(request, gettext("Language saved: %(language)s.") % {"language": _name(code)})
    return response


def _name(code: str) -> str:
    if not code:
        return gettext("your browser's language")
    return translation.get_language_info(code)["name_local"]
