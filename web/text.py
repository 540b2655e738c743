"""Text that judges write (a contest's rules) shown as HTML: Markdown, then sanitised, so that
backticks are code and a link is a link, and nothing a judge pastes can run in a visitor's
browser."""

from __future__ import annotations

import markdown
import nh3
from django.utils.safestring import SafeString, mark_safe

TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em", "h1", "h2", "h3", "h4",
    "h5", "h6", "hr", "i", "img", "kbd", "li", "ol", "p", "pre", "span", "strong", "sub", "sup", "table", "tbody",
    "td", "th", "thead", "tr", "ul",
}  # fmt: skip
ATTRIBUTES = {"a": {"href", "title"}, "img": {"src", "alt", "title"}, "th": {"align"}, "td": {"align"}}


def render_markdown(text: str) -> SafeString:
    html = markdown.markdown(text or "", extensions=["extra", "sane_lists"], output_format="html")
    clean = nh3.clean(
        html,
        tags=TAGS,
        attributes=ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer",
    )
    return mark_safe(clean)
