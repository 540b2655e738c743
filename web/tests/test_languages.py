"""Each contest's languages and limits, as its original page stated them: the language table,
code counted without comments (the POTM), memory and source size (CodeCup), on its page."""

import pytest
from django.urls import reverse

from contests.services import Refused, submit
from contests.tests.factories import make_contest, make_entry
from web.demo import DEMO_CONTESTS

pytestmark = pytest.mark.django_db

COMMENTED_C = b"/* " + b"a long header comment " * 2_000 + b"*/\nint main(void) { return 0; } // done\n"


def test_comments_do_not_count_against_a_potm_entry(queued):
    entry = make_entry(make_contest(max_source_bytes=25_000, source_counts="code", language_table="potm"))
    assert len(COMMENTED_C) > 25_000
    assert submit(entry, filename="chomp.c", data=COMMENTED_C).language == "c"
    with pytest.raises(Refused, match="25,001 bytes of code"):
        submit(entry, filename="chomp.c", data=b"int x;" + b" " * (25_001 - 7) + b"\n")


def test_every_byte_counts_where_the_contest_says_nothing_of_comments(queued):
    entry = make_entry(make_contest(max_source_bytes=25_000))
    with pytest.raises(Refused, match="accepts at most 25,000"):
        submit(entry, filename="chomp.c", data=COMMENTED_C)


def test_an_awk_script_is_entered_by_its_script_line(queued):
    entry = make_entry(make_contest(language_table="potm"))
    script = b"#!/usr/bin/awk -f\nBEGIN { print 1 }\n"
    assert submit(entry, filename="chomp", data=script).language == "awk"


def test_a_cpp_source_for_codecup_is_cpp20(queued):
    entry = make_entry(make_contest(game="sudoku", game_params={}, language_table="codecup"))
    assert submit(entry, filename="player.cpp", data=b"int main() {}\n").language == "cpp20"


def test_the_page_shows_the_contests_commands_and_memory(client):
    contest = make_contest(language_table="potm", clock={"memory_mb": 512})
    page = client.get(reverse("contests:detail", args=[contest.slug])).content.decode()
    assert "512 MB of memory" in page
    assert "<code>gcc -o prog main.c -lm</code>" in page  # "WITHOUT ANY OPTIMIZATION"
    assert "gcc 1" in page  # the toolchain's version


def test_demo_contests_take_their_limits_from_their_pages():
    specs = {spec.slug: spec for spec in DEMO_CONTESTS}
    sudoku, chomp = specs["codecup-sudoku"], specs["chomp"]
    assert sudoku.max_source_bytes == 1_474_560 and sudoku.language_table == "codecup"
    assert sudoku.clock["memory_mb"] >= 1536  # bots with 512 MiB to 1 GiB tables run
    assert chomp.language_table == "potm" and chomp.source_counts == "code"
    assert specs["hearts-and-flowers"].clock["memory_mb"] == 256  # "with 256 MB of memory"
