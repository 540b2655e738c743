"""The rows of a standings page and of an entry's opponents, made here rather than in a
template loop: a page of 100 rows took 19 ms of the template's lookups and filters (about
190 µs a row), more than ranking the whole table of 1,000. The markup is the one the template
had; the numbers are written as Django's ``localize`` and ``floatformat`` write them (each a few
µs, and a page writes a thousand: where the site's format is the plain one, a whole number and
a float are written directly). Its words are in the reader's language, looked up once a table
(a tie's once for each size of group)."""

from __future__ import annotations

from django import template
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils.formats import localize
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

register = template.Library()

SENTINEL = 987654321987654321  # an id no entry has: 18 digits, as the URL's converter takes


class Numbers:
    """How a number is written: ``localize`` and ``floatformat(value, "-2")``, by Django, or
    directly where that is what they would write (no thousands separator, a decimal point)."""

    def __init__(self) -> None:
        self.plain = localize(-1234567) == "-1234567" and localize(1234567.5) == "1234567.5"

    def number(self, value: int | float) -> str:
        if self.plain and type(value) is int:
            return str(value)
        if self.plain and type(value) is float and "e" not in (text := repr(value)):
            return text
        return localize(value)  # a float far from 1, a Decimal, or the site's own format

    def cell(self, value: int | float) -> str:
        """``floatformat(value, "-2")``: a whole number without decimals, any other with two."""
        if self.plain and type(value) in (int, float) and float(value).is_integer() and abs(value) < 1e15:
            return str(int(value))
        return floatformat(value, "-2")


class Words:
    """The rows' words in the language of the request: ``not_rated`` and ``provisional`` as
    markup, and the mark of a tie for a group of each size."""

    def __init__(self, numbers: Numbers) -> None:
        self.numbers = numbers
        self.not_rated = format_html(
            '<span class="progress" title="{}">…</span>', gettext("Not rated yet: a version newer than the last fit")
        )
        self.provisional = format_html('<small class="progress">{}</small>', gettext("provisional"))
        self.ties: dict[tuple[int, int], str] = {}

    def tie(self, others: int, group: int) -> str:
        """The ≈ of a row tied with ``others`` rows around it, in tied group ``group`` (from 1)."""
        if (others, group) not in self.ties:
            said = ngettext(
                "Statistically tied with the %(others)s other row marked so around it: the games do not order them",
                "Statistically tied with the %(others)s other rows marked so around it: the games do not order them",
                others,
            ) % {"others": self.numbers.number(others)}
            hidden = gettext("statistically tied, group %(group)s") % {"group": self.numbers.number(group)}
            self.ties[others, group] = format_html(
                ' <span class="tie" title="{}">≈<span class="visually-hidden"> {}</span></span>', said, hidden
            )
        return self.ties[others, group]


@register.simple_tag
def standings_rows(contest, page) -> SafeString:
    """The ``<tr>`` of each of the page's lines (``judging.record.standings.Page.lines``): a row, or a
    gap where rows are left out; the viewer's own rows marked ``mine``."""
    table = page.table
    width = len(table.columns) + (5 if table.rated else 4)
    numbers, address, own = Numbers(), _address(contest), page.own
    words = Words(numbers)
    return mark_safe(
        "\n".join(
            _gap(width) if row is None else _row(row, table.rated, row.entry.pk in own, words, address)
            for row in page.lines
        )
    )


@register.simple_tag
def opponent_rows(contest, opponents: list[dict]) -> SafeString:
    """The ``<tr>`` of each opponent an entry met (``judging.record.standings.head_to_head``): its
    place, name, games, and the points each scored against the other."""
    numbers, (before, after) = Numbers(), _address(contest)
    return mark_safe(
        "\n".join(
            format_html(
                '<tr><td>{}</td><td><a href="{}">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>',
                numbers.number(o["row"].rank),
                f"{before}{o['row'].entry.pk}{after}",
                o["row"].entry.name,
                numbers.number(o["games"]),
                numbers.cell(o["points"]),
                numbers.cell(o["against"]),
            )  # fmt: skip
            for o in opponents
        )
    )


def _address(contest) -> tuple[str, str]:
    """An entry's address before and after its id: reversed once for a sentinel id (a reverse
    a row took a tenth of the row)."""
    before, _, after = reverse("contests:entry", args=[contest.slug, SENTINEL]).rpartition(str(SENTINEL))
    return before, after


def _gap(width: int) -> str:
    return f'<tr class="gap"><td colspan="{width}">…</td></tr>'


def _row(row, rated: bool, mine: bool, words: Words, address: tuple[str, str]) -> str:
    numbers, sure = words.numbers, row.sure
    tied = sure is not None and sure.tied
    classes = [f"tied tied-{'even' if sure.group % 2 == 0 else 'odd'}"] if tied else []
    classes += ["mine"] if mine else []
    # the viewer's own row is marked for a screen reader too, not by its background alone
    current = ' aria-current="true"' if mine else ""
    opening = format_html('<tr class="{}"{}>', " ".join(classes), mark_safe(current)) if classes else "<tr>"
    if sure is None:
        interval = words.not_rated
    else:
        low, high = numbers.number(sure.rank_low), numbers.number(sure.rank_high)
        interval = low if sure.rank_low == sure.rank_high else f"{low}–{high}"
        if tied:
            interval += words.tie(sure.group_size - 1, sure.group + 1)
    cells = [
        f"<td>{numbers.number(row.rank)}</td>",
        f'<td class="interval">{interval}</td>',
        format_html('<td><a href="{}">{}</a></td>', f"{address[0]}{row.entry.pk}{address[1]}", row.entry.name),
    ]
    if rated:
        if sure is None:
            cells.append(f"<td>{words.provisional}</td>")
        else:
            shown = format_html(
                '<span title="μ {} ± σ {}">{}</span>',
                numbers.number(sure.mu),
                numbers.number(sure.sigma),
                floatformat(sure.rating, 0),
            )
            cells.append(f"<td>{shown}{' ' + words.provisional if sure.provisional else ''}</td>")
    cells.append(f"<td>{numbers.number(row.games)}</td>")
    cells += [f"<td>{numbers.cell(value)}</td>" for value in row.cells]
    return opening + "".join(cells) + "</tr>"
