"""What judging says to people comes out in their language: a notification in its reader's
(kept as text, so written in it when it is made), a command's message in the language active
when it runs, or the shell's when run from one."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from contests import services
from contests.tests.factories import make_contest, make_entry, make_user
from judging.management.language import shell_language
from judging.models import Notification
from judging.news import notifications

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def dutch_readers():
    """Every user reads Dutch, as accounts would say of one who chose it."""
    before = notifications._chosen_language  # accounts' reader of each person's choice
    notifications.read_languages_with(lambda user_id: "nl")
    yield
    notifications.read_languages_with(before)


@pytest.mark.django_db
def test_a_notification_is_written_in_its_readers_language(dutch_readers):
    judge = make_user(username="judge", password=None)
    entry = make_entry(make_contest(title="Chomp Open"), make_user(username="ada", password=None), name="Muncher")
    with translation.override("en"):  # the judge's own language is not the reader's
        services.disqualify(judge, entry, "Deelde zijn programma.")
    told = Notification.objects.get()
    assert told.subject == "Muncher is gediskwalificeerd"
    assert told.body == (
        "Een jurylid heeft Muncher gediskwalificeerd in Chomp Open: ze speelt geen partijen meer en verdwijnt uit "
        "de stand.\n\nDe notitie van het jurylid: Deelde zijn programma."
    )
    assert "Kies welke meldingen je per e-mail krijgt" in notifications.email_text(told)


@pytest.mark.django_db
def test_a_reader_who_chose_no_language_reads_the_sites():
    entry = make_entry(make_contest(title="Chomp Open"), make_user(username="ada", password=None), name="Muncher")
    with translation.override("nl"):  # a Dutch judge's request: the reader did not choose Dutch
        services.disqualify(make_user(username="judge", password=None), entry, "Shared its program.")
    assert Notification.objects.get().subject == "Muncher is disqualified"


def test_a_commands_refusal_is_in_the_active_language():
    with translation.override("nl"), pytest.raises(CommandError) as refused:
        call_command("play", "chomp", "mine.c", "--table", "nope")
    assert str(refused.value) == "--table nope: een van arbiter, codecup, potm"


def test_a_command_from_a_shell_speaks_the_shells_language():
    env = {**os.environ, "LANG": "nl_NL.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}
    run = subprocess.run(
        [sys.executable, "manage.py", "play", "chomp", "mine.c", "--table", "nope"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 1
    assert "--table nope: een van arbiter, codecup, potm" in run.stderr


def test_the_shells_language_is_one_the_site_has():
    assert shell_language({"LANG": "nl_BE.UTF-8"}) == "nl"
    assert shell_language({"LANGUAGE": "nl:en", "LANG": "en_GB.UTF-8"}) == "nl"
    assert shell_language({"LANG": "C.UTF-8"}) is None
    assert shell_language({}) is None
    assert shell_language({"LANG": "tlh_KX.UTF-8"}) is None
    assert settings.LANGUAGE_CODE.startswith("en")


def test_play_s_summary_reads_in_the_shell_s_language():
    from games.clocks import Clock
    from judging.management.commands.play import readable

    summary = {
        "game": "hearts", "params": {}, "conditions": {"from": "its original contest", "language_table": "arbiter"},
        "seats": [{"program": p, "status": s, "points": pts, "moves": 13, "cpu_s": 0.1, "wall_s": 0.2, "warnings": []}
                  for p, s, pts in (("a.py", "win", 26), ("b.py", "loss", 1), ("c.py", "loss", 0))],
        "reason": "", "replay": None,
    }  # fmt: skip
    with translation.override("nl"):
        lines = readable(summary, Clock.from_json({"cpu_per_move_s": 1}), [])
    assert lines[2] == "  klok: 1 s CPU per zet"
    assert lines[5].startswith("positie 1  b.py") and "     1 punt  2e van 3  13 zetten  CPU 0.100 s" in lines[5]
    assert (
        "uitslag: (geen reden gegeven)" in lines and lines[-1] == "replay: niet bewaard (--replay BESTAND bewaart haar)"
    )
