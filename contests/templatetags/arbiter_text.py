import re

from django import template

from contests.text import render_markdown

register = template.Library()
SEAT = re.compile(r"\bseat (\d+)\b")


@register.filter(name="markdown")
def markdown_filter(text: str):
    """Judges' Markdown (a contest's rules) as sanitised HTML."""
    return render_markdown(text)


@register.filter(name="named_seats")
def named_seats(reason: str, seats) -> str:
    """A game's reason with each "seat N" given its entry's name ("seat 1 ate the poison
    cookie" -> "Random (C) ate the poison cookie")."""
    names = {seat.index: seat.entry.name for seat in seats}
    return SEAT.sub(lambda m: names.get(int(m.group(1)), m.group(0)), reason or "")
