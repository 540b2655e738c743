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
