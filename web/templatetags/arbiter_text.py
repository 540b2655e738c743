import re
from datetime import UTC

from django import template
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from web.text import render_markdown

register = template.Library()
SEAT = re.compile(r"\bseat (\d+)\b")


@register.filter(name="markdown")
def markdown_filter(text: str):
    """Judges' Markdown (a contest's rules) as sanitised HTML."""
    return render_markdown(text)


@register.filter(name="stage_kind")
def stage_kind(kind: str) -> str:
    """A kind of stage as judges and contestants read it (its format's label)."""
    from judging.record import formats

    return formats.label(kind)


@register.filter(name="stage_status")
def stage_status(stage) -> str:
    """A stage's status as people read it: a system test is "Running", then "Finished"."""
    from contests.models import Stage
    from judging.record import formats

    return Stage.Status(formats.shown_status(stage)).label


@register.filter(name="named_seats")
def named_seats(reason: str, seats) -> str:
    """A game's reason with each "seat N" given its entry's name ("seat 1 ate the poison
    cookie" -> "Random (C) ate the poison cookie")."""
    from judging.news.results import seat_name

    names = {seat.index: seat_name(seat, seats) for seat in seats}
    return SEAT.sub(lambda m: names.get(int(m.group(1)), m.group(0)), reason or "")


# How a page without scripts shows a moment (in UTC); static/js/time.js shows it in the
# visitor's own time zone in the same form.
WHEN_FORMATS = {"": "j M Y H:i", "seconds": "j M Y H:i:s", "date": "j M Y", "time": "H:i:s"}


@register.filter(name="param_value")
def param_value(value) -> str:
    """A game parameter's value as a manifest writes it: true/false, not Python's True."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


@register.filter(name="when")
def when(moment, style: str = ""):
    """A moment as a <time> element the visitor's browser shows in their own time zone:
    ``{{ at|when }}``, ``{{ at|when:"time" }}`` (time of day), ``"date"``, ``"seconds"``,
    ``"countdown"`` (the date and time, and how long is left). Empty for no moment."""
    if not moment:
        return ""
    countdown = style == "countdown"
    style = "" if countdown else style
    moment = timezone.localtime(moment, UTC) if timezone.is_aware(moment) else moment
    return format_html(
        '<time datetime="{}"{}{}>{} UTC</time>',
        moment.isoformat(),
        format_html(' data-format="{}"', style) if style else "",
        mark_safe(" data-countdown") if countdown else "",
        date_format(moment, WHEN_FORMATS.get(style, WHEN_FORMATS[""])),
    )


@register.simple_tag
def outcome(shown, game: str, side=None) -> str:
    """A match's result in one line from ``side``'s seat ("won against Bob", "lost to Bob:
    crashed (move 1)"): ``side`` an entry, an entry's id, or a user (their own seat, if they
    played); a bystander's line otherwise ("Bob won against Alice"). "" while unplayed or hidden."""
    from games import registry
    from judging.news.results import summary

    if shown is None or shown.hidden:
        return ""
    seats = shown.seats
    entry_id = getattr(side, "pk", side)
    if getattr(side, "is_authenticated", False):  # a user: the seat of one of their entries
        entry_id = next((seat.entry_id for seat in seats if seat.entry.user_id == side.pk), None)
    return summary(registry.get(game), seats, entry_id)


@register.simple_tag
def seat_result(seat, seats, game: str) -> str:
    """One seat's result in words ("lost: left no solution (move 23)", "2nd of 3: finished")."""
    from games import registry
    from judging.news.results import seat_words

    return seat_words(registry.get(game), seat, seats)


@register.filter(name="viewer_script")
def viewer_script(game: str) -> str:
    """The static script that draws a built-in game's frames; "" for an uploaded game, whose
    frames the generic renderer draws (games/static/games/frames.js)."""
    from games import registry

    return f"games/{game}.js" if game in registry.BUILT_IN else ""


@register.filter(name="own_viewer")
def own_viewer(game: str) -> str:
    """The page of an uploaded game's own viewer (its sandboxed frame), or "" if it has none."""
    from django.urls import reverse

    from games import registry
    from games.hosted import HostedGame

    found = registry.GAMES.get(game) if game not in registry.BUILT_IN else None
    if not isinstance(found, HostedGame) or not found.manifest.viewer:
        return ""
    return reverse("games:viewer-page", args=[game])
