"""axe-core, run in the page a browser test has open: the serious and critical violations, one
line each. The script is the one the pinned axe-playwright-python package ships
(requirements-dev.txt), so the check needs no network."""

from __future__ import annotations

from axe_playwright_python.base import AXE_SCRIPT

# axe's own grades are minor, moderate, serious and critical: the last two are what a person
# using a screen reader or a keyboard cannot get past, or only with great effort.
BLOCKING = ("serious", "critical")


def violations(page, where: str = "") -> list[str]:
    """``rule-id on page: target`` for each element of each serious or critical violation of
    the page as it is now (``where`` names it in the lines; the URL's path by default)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    # after two frames: what a page's scripts do before the next paint (static/js/scrollers.js
    # marks what scrolls) is done
    found = page.evaluate(
        """async () => {
            await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
            return await axe.run(document, {resultTypes: ["violations"]});
        }"""
    )
    where = where or page.evaluate("location.pathname + location.search")
    return [
        f"{rule['id']} ({rule['impact']}) on {where}: {' '.join(map(str, node['target']))} · {node['failureSummary'].splitlines()[-1].strip()}"
        for rule in found["violations"]
        if rule["impact"] in BLOCKING
        for node in rule["nodes"]
    ]


def assert_accessible(page) -> None:
    """Fails naming each serious or critical violation of the page as it is now."""
    found = violations(page)
    assert not found, "\n".join(found)
