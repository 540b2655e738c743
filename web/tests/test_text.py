"""A contest's rules as judges write them: Markdown on the page, and nothing that can run."""

import pytest

from contests.tests.factories import make_contest
from web.text import render_markdown


def test_markdown_becomes_html():
    html = render_markdown(
        "Read `SWP_PASSWORD`.\n\n- one\n- two\n\nThus:\n\n    code block\n\n[page](https://example.org/r)"
    )
    assert "<code>SWP_PASSWORD</code>" in html
    assert "<ul>" in html and "<li>one</li>" in html
    assert "<pre><code>code block" in html
    assert '<a href="https://example.org/r" rel="noopener noreferrer">page</a>' in html


@pytest.mark.parametrize(
    "hostile",
    [
        "<script>alert(1)</script>",
        '<img src="x" onerror="alert(1)">',
        "[click](javascript:alert(1))",
        '<a href="#" onclick="alert(1)">x</a>',
        "<iframe src='https://evil.example'></iframe>",
        "<style>body{display:none}</style>",
        '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
        '<base href="https://evil.example/">',
        '<form action="https://evil.example/"><button>Go</button></form>',
    ],
)
def test_nothing_a_judge_pastes_can_run(hostile):
    html = render_markdown(hostile).lower()
    for bad in ("<script", "onerror", "javascript:", "onclick", "<iframe", "<style", "<meta", "<base", "<form"):
        assert bad not in html, html


@pytest.mark.django_db
def test_the_contest_page_shows_the_rules_as_markdown(client):
    contest = make_contest(rules="Use `lay` to deal.\n\n<script>alert(1)</script>")
    page = client.get(f"/contests/{contest.slug}/").content.decode()
    assert "<code>lay</code>" in page and "`lay`" not in page
    assert "<script>alert(1)" not in page


@pytest.mark.parametrize(
    "image",
    [
        "![tracker](https://evil.example/pixel.png)",
        "![tracker](http://evil.example/pixel.png)",
        '<img src="//evil.example/pixel.png" alt="tracker">',
        '<img src="&#47;&#47;evil.example/pixel.png" alt="tracker">',
        '<img src="/\\evil.example/pixel.png" alt="tracker">',
        '<img src="/&#9;/evil.example/pixel.png" alt="tracker">',
        '<img src=" https://evil.example/pixel.png" alt="tracker">',
        '<img src="HTTPS://evil.example/pixel.png" alt="tracker">',
    ],
)
def test_an_image_from_another_site_is_left_out_unless_the_site_allows_it(image, settings):
    html = render_markdown(image)
    assert "evil.example" not in html and 'alt="tracker"' in html, html  # its words stay
    settings.RULES_REMOTE_IMAGES = True
    assert "evil.example/pixel.png" in render_markdown(image)


def test_an_image_of_the_site_itself_is_shown():
    html = render_markdown("![board](/static/favicon.svg) ![board](pictures/board.png)")
    assert 'src="/static/favicon.svg"' in html and 'src="pictures/board.png"' in html
