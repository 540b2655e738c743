"""``arbiter standings`` with a paged API: it asks for what it shows, every page of the table
or the one named, here through the real API in the same process (no live server)."""

import json

import pytest
from rest_framework.test import APIClient

from arbiter import cli
from judging.record import standings
from web.tests.test_standings_pages import _table

pytestmark = pytest.mark.django_db


class InProcess(cli.Client):
    """The command's client, its requests answered by the API in this process."""

    def __init__(self, user=None) -> None:
        self.url, self.api, self.asked = "http://testserver", APIClient(), []
        if user is not None:
            self.api.force_authenticate(user)

    def get(self, path: str, **params):
        params = {k: v for k, v in params.items() if v is not None}
        self.asked.append(params)
        response = self.api.get("/api" + path, params)
        if response.status_code >= 400:
            raise cli.CliError(response.json()["error"]["message"], response.status_code)
        return response.json()


def _name(line: str) -> str:
    return line[14:38].strip()  # the rank (3), its interval (9), then the name (24)


def _run(client, capsys, *options: str) -> list[str]:
    parser = cli.parser()
    args = parser.parse_args(["standings", "paged-7", *options])
    assert cli.cmd_standings(client, args) == 0
    return capsys.readouterr().out.splitlines()


def test_the_command_shows_every_row_of_a_table_of_many_pages(capsys):
    contest, stage, _ = _table()
    whole = standings.compute(contest, stage).rows
    client = InProcess()
    lines = _run(client, capsys, "--limit", "3")
    names = [_name(line) for line in lines[2:-1]]
    assert names == [row.entry.name for row in whole]  # every row, in order, each once
    assert [line.split()[0] for line in lines[2:-1]] == [str(row.rank) for row in whole]
    assert [asked.get("page", 1) for asked in client.asked[1:]] == [1, 2, 3]  # the contest, then three pages
    assert all(asked["limit"] == 3 for asked in client.asked[1:])
    assert "page" not in lines[-1] and lines[-1].startswith("rank: each row's 95% interval")
    data = json.loads("\n".join(_run(InProcess(), capsys, "--json")))
    assert [row["entry"] for row in data["rows"]] == [row.entry.pk for row in whole] and data["pages"] == 1


def test_one_page_shows_that_page_and_the_contestants_own_row(capsys):
    contest, stage, _ = _table()
    whole = standings.compute(contest, stage).rows
    mine = whole[-1].entry
    client = InProcess(mine.user)
    lines = _run(client, capsys, "--page", "2", "--limit", "2")
    assert [_name(line) for line in lines[2:4]] == [row.entry.name for row in whole[2:4]]
    assert _name(lines[4]) == mine.name and lines[4].endswith("(yours)")
    assert lines[5] == "page 2 of 4 (7 rows); --page N for another"
    assert client.asked[1:] == [{"page": 2, "limit": 2}]  # only what it shows


def test_a_page_that_is_not_there_is_said_so():
    _table()
    args = cli.parser().parse_args(["standings", "paged-7", "--page", "9"])
    with pytest.raises(cli.CliError, match="There is no page 9: the table's 7 rows make 1 page of 100."):
        cli.cmd_standings(InProcess(), args)
