"""A program's bytes and names as text the platform can keep and show.

A program may write any bytes and name its files with any but NUL and ``/``: invalid UTF-8,
NULs, newlines, terminal escapes. What a reason, a replay or a log keeps of them is text that
UTF-8, JSON, a PostgreSQL text column and a terminal all take as it is: a byte that is not
UTF-8 is written ``\\xff``, a character that does not print as Python writes it (``\\x00``,
``\\x1b``, ``\\u202e``); nothing is dropped.
"""

from __future__ import annotations

LINE_BREAKS = "\n\r\t"  # kept in text of many lines (what a program printed): they print


def printable(data: bytes | str, *, lines: bool = False) -> str:
    """``data`` (a program's bytes, or a name as ``os`` gives it: undecodable bytes as lone
    surrogates) as safe text; with ``lines``, newlines, carriage returns and tabs are kept."""
    if isinstance(data, str):
        try:
            data = data.encode("utf-8", "surrogateescape")  # a name's own bytes back
        except UnicodeEncodeError:  # a lone surrogate that stands for no byte
            data = data.encode("utf-8", "backslashreplace")
    text = data.decode("utf-8", "backslashreplace")
    kept = LINE_BREAKS if lines else ""
    if text.translate(dict.fromkeys(map(ord, kept))).isprintable():
        return text  # the usual text: nothing to escape
    return "".join(c if c.isprintable() or c in kept else c.encode("unicode_escape").decode("ascii") for c in text)
