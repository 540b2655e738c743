"""The standings' rows made in Python (``web/templatetags/standings_rows.py``) are the markup the
template loop made: checked against that loop, kept here as the reference, on a rated ladder
(ratings, tied groups, a provisional version) and a round robin (points and intervals)."""

import re
from decimal import Decimal

import pytest
from django.template import Context, Template
from django.template.defaultfilters import floatformat
from django.utils.formats import localize

from contests.models import Stage
from contests.tests.factories import make_contest, make_entry, make_stage
from judging.record import confidence, standings
from judging.tests.test_confidence import _field, _ready
from web.templatetags.standings_rows import Numbers, opponent_rows, standings_rows

pytestmark = pytest.mark.django_db

ROWS = Template(
    """{% for row in page.lines %}{% if row is None %}<tr class="gap"><td colspan="{% if table.rated %}{{ table.columns|length|add:5 }}{% else %}{{ table.columns|length|add:4 }}{% endif %}">…</td></tr>{% else %}"""
    """<tr{% if row.sure.tied or row.entry.pk in page.own %} class="{% if row.sure.tied %}tied tied-{{ row.sure.group|divisibleby:2|yesno:'even,odd' }}{% endif %}{% if row.entry.pk in page.own %} mine{% endif %}"{% if row.entry.pk in page.own %} aria-current="true"{% endif %}{% endif %}><td>{{ row.rank }}</td><td class="interval">{% if row.sure %}{% if row.sure.rank_low == row.sure.rank_high %}{{ row.sure.rank_low }}{% else %}{{ row.sure.rank_low }}–{{ row.sure.rank_high }}{% endif %}{% if row.sure.tied %} <span class="tie" title="Statistically tied with the {{ row.sure.group_size|add:-1 }} other row{{ row.sure.group_size|add:-1|pluralize }} marked so around it: the games do not order them">≈<span class="visually-hidden"> statistically tied, group {{ row.sure.group|add:1 }}</span></span>{% endif %}{% else %}<span class="progress" title="Not rated yet: a version newer than the last fit">…</span>{% endif %}</td><td><a href="{% url 'contests:entry' contest.slug row.entry.pk %}">{{ row.entry.name }}</a></td>{% if table.rated %}<td>{% if row.sure %}<span title="μ {{ row.sure.mu }} ± σ {{ row.sure.sigma }}">{{ row.sure.rating|floatformat:0 }}</span>{% if row.sure.provisional %} <small class="progress">provisional</small>{% endif %}{% else %}<small class="progress">provisional</small>{% endif %}</td>{% endif %}<td>{{ row.games }}</td>{% for value in row.cells %}<td>{{ value|floatformat:"-2" }}</td>{% endfor %}</tr>{% endif %}\n{% endfor %}"""
)
OPPONENTS = Template(
    """{% for o in opponents %}<tr><td>{{ o.row.rank }}</td><td><a href="{% url 'contests:entry' contest.slug o.row.entry.pk %}">{{ o.row.entry.name }}</a></td><td>{{ o.games }}</td><td>{{ o.points|floatformat:"-2" }}</td><td>{{ o.against|floatformat:"-2" }}</td></tr>\n{% endfor %}"""
)


def _same(made: str, reference: str) -> None:
    assert [line for line in made.split("\n") if line] == [line for line in reference.split("\n") if line]


@pytest.mark.parametrize("kind", ["ladder", "round_robin"])
def test_the_rows_are_the_markup_the_template_made(kind):
    contest = make_contest(slug="rows-1")
    stage = make_stage(contest, kind=kind, status=Stage.Status.RUNNING)
    subs = _field(contest, stage, {"Strong": 600, "Medium": 250, "Weak A": 0, "Weak <b>": 0, "Weak C": 0}, 12)
    confidence.rate(stage.pk)
    if kind == "ladder":
        _ready(make_entry(contest, name="New & shiny"))  # listed before its first game, not rated yet
    page = standings.page(contest, stage, number=2, size=2, own={subs["Weak <b>"].entry_id})
    assert None in page.lines and any(r and r.sure and r.sure.tied for r in page.lines)
    _same(standings_rows(contest, page), ROWS.render(Context({"page": page, "table": page.table, "contest": contest})))
    found = standings.standing(contest, stage, subs["Medium"].entry)
    assert found.opponents
    _same(
        opponent_rows(contest, found.opponents),
        OPPONENTS.render(Context({"opponents": found.opponents, "contest": contest})),
    )
    assert "Weak &lt;b&gt;" in standings_rows(contest, page) and "<b>" not in standings_rows(contest, page)


@pytest.mark.parametrize(
    "value",
    [0, 1, -3, 12345678, 0.0, -0.0, 2.5, 1523.4, 0.125, 2.675, 1e-05, 3e20, 12.0, -7.25, 1e15, 123456.789,
     Decimal("5"), Decimal("2.675"), True],
)  # fmt: skip
def test_a_number_is_written_as_djangos_filters_write_it(value):
    numbers = Numbers()
    assert numbers.plain
    assert numbers.number(value) == localize(value)
    assert numbers.cell(value) == floatformat(value, "-2")


def test_with_a_thousands_separator_the_numbers_are_djangos_own(settings):
    settings.USE_THOUSAND_SEPARATOR = True
    numbers = Numbers()
    assert not numbers.plain
    assert numbers.number(1234567) == localize(1234567) == "1,234,567"
    assert re.fullmatch(r"1,?234,?567", numbers.cell(1234567.0))
