"""Text that judges and organisers write (a contest's rules, an uploaded game's) shown as HTML:
Markdown, then sanitised, so that backticks are code and a link is a link, and nothing pasted
can run in a visitor's browser. An image from another site is left out (its alt text stays)
unless the site allows them (`RULES_REMOTE_IMAGES`): every visitor's browser would fetch it,
telling its server who reads the rules, from where and when."""

from __future__ import annotations

from urllib.parse import urlsplit

import markdown
import nh3
from django.conf import settings
from django.utils.safestring import SafeString, mark_safe

TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em", "h1", "h2", "h3", "h4",
    "h5", "h6", "hr", "i", "img", "kbd", "li", "ol", "p", "pre", "span", "strong", "sub", "sup", "table", "tbody",
    "td", "th", "thead", "tr", "ul",
}  # fmt: skip
ATTRIBUTES = {"a": {"href", "title"}, "img": {"src", "alt", "title"}, "th": {"align"}, "td": {"align"}}

# What a browser drops from a URL before reading it (WHATWG URL): tabs and line breaks anywhere,
# controls and spaces at its ends. It reads a backslash as a slash.
_TABS_AND_BREAKS = str.maketrans("", "", "\t\n\r")
_ENDS = "".join(map(chr, range(0x21)))


def is_local(url: str) -> bool:
    """Whether a browser would fetch ``url`` from this site (a path), not from another host."""
    url = url.translate(_TABS_AND_BREAKS).strip(_ENDS)
    if "\\" in url or url.startswith("//"):
        return False
    parts = urlsplit(url)
    return not parts.scheme and not parts.netloc


def _no_remote_images(tag: str, attribute: str, value: str) -> str | None:
    if tag == "img" and attribute == "src" and not settings.RULES_REMOTE_IMAGES and not is_local(value):
        return None
    return value


def render_markdown(text: str) -> SafeString:
    html = markdown.markdown(text or "", extensions=["extra", "sane_lists"], output_format="html")
    clean = nh3.clean(
        html,
        tags=TAGS,
        attributes=ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        attribute_filter=_no_remote_images,
        link_rel="noopener noreferrer",
    )
    return mark_safe(clean)
