"""The arbiter client asks the site for the shell's language, so that the site's refusals
reach its user in it."""

from arbiter import cli


def test_the_client_asks_for_the_shells_language(monkeypatch):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    assert cli.Client("http://example.org", None).http.headers["Accept-Language"] == "nl-NL"
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert "Accept-Language" not in cli.Client("http://example.org", None).http.headers


def _shell(monkeypatch, lang: str) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", lang)


def test_the_client_s_own_words_are_in_the_shells_language(monkeypatch, capsys):
    """Its refusals, its lines and its help, from the site's catalogues, with no Django set up."""
    _shell(monkeypatch, "nl_NL.UTF-8")
    assert cli.main(["replay"]) == 1
    assert capsys.readouterr().err == "arbiter: replay: geef het nummer van een match, of --check BUNDEL\n"
    assert "Dien programma's in bij een Arbiter-site en volg ze." in cli.parser().format_help()
    _shell(monkeypatch, "C.UTF-8")
    assert cli.main(["replay"]) == 1
    assert capsys.readouterr().err == "arbiter: replay: give a match's number, or --check BUNDLE\n"
    _shell(monkeypatch, "fr_FR.UTF-8")  # a language the site has not: English
    assert "Submit programs to an Arbiter site and follow them." in cli.parser().format_help()


def test_the_standings_lines_read_in_dutch(monkeypatch, capsys):
    _shell(monkeypatch, "nl_BE.UTF-8")
    table = {"matches_played": 3, "matches_total": 10, "columns": [], "rows": [], "ratings": {}}
    monkeypatch.setattr(cli, "_contest", lambda client, slug: {})
    monkeypatch.setattr(cli, "_standings", lambda client, args: table)
    args = cli.parser().parse_args(["standings", "chomp"])
    assert cli.cmd_standings(None, args) == 0
    assert capsys.readouterr().out.splitlines()[0] == "3 van 10 matches gespeeld"
