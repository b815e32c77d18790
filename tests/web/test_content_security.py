"""The pages under their own Content-Security-Policy (`splendor.server.guards.PAGE_POLICY`): scripts only from this
server, no framing. The other browser tests open pages with the policy bypassed, since Playwright evaluates their
string predicates with ``eval``; this one plays them as a visitor's browser does, with the policy on, and waits only
on selectors."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.server.conftest import Server, create
from tests.web.test_browser import TAKEABLE

ANN = {"kind": "human", "name": "ann"}
GREEDY = {"kind": "bot", "bot": "greedy"}


def test_every_page_runs_and_plays_under_its_content_security_policy(server: Server, browser: Browser) -> None:
    context = browser.new_context(bypass_csp=False, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: refused.append(str(e)))
    page.goto(server.base + "/")
    page.wait_for_selector("[data-seat-kind='1']")  # the lobby's scripts ran
    with server.client() as c:
        classic = create(c, "classic", [ANN, GREEDY], seed=3)
        kids = create(c, "kids", [ANN, GREEDY], seed=3)
    page.goto(classic["seats"][0]["link"])
    page.wait_for_selector("#market button.card")
    for i in range(3):
        page.locator(TAKEABLE).nth(i).click()
    page.locator("#supply button.primary:not([disabled])").click()  # a move, by clicks
    page.wait_for_selector("body[data-actions='2']")  # played, and greedy's answer drawn
    page.goto(kids["seats"][0]["link"])
    page.wait_for_selector("#board svg")  # the board, fetched and drawn
    page.goto(server.base + "/leaderboard")
    page.wait_for_selector("#leaderboard")
    page.goto(server.base + "/pokedex/nobody")
    page.wait_for_selector("#unknown:not([hidden])")  # its script asked the server, and said so
    assert refused == []
    injected = page.evaluate(  # a script slipped into the page as text, as an injection would be, does not run
        """() => { const s = document.createElement('script'); s.textContent = 'window.injected = true';
                   document.head.append(s); return window.injected === true; }"""
    )
    assert injected is False and any("Content Security Policy" in line for line in refused)
    context.close()
