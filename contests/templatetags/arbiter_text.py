from django import template

from contests.text import render_markdown

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text: str):
    """Judges' Markdown (a contest's rules) as sanitised HTML."""
    return render_markdown(text)
