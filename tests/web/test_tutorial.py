"""A first game that teaches: each game's tutorial, started from the lobby, followed as a newcomer follows it (doing
what the guide points at) to its end; anything else is refused kindly, with nothing sent."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, Page

from tests.server.conftest import Server
from tests.web.test_browser import TAKEABLE, actions, new_page

pytestmark = pytest.mark.one_server  # each test makes its own games and acts only on those

LOCALES = {"en": "en-GB", "sl": "sl-SI", "ko": "ko-KR", "zh": "zh-CN"}


def _take(page: Page, count: int) -> None:
    chips = page.locator(TAKEABLE)
    if count == 2:
        plenty = page.locator(TAKEABLE + ":is([data-left='4'], [data-left='5'], [data-left='6'], [data-left='7'])")
        plenty.first.click()
        plenty.first.click()
    else:
        for i in range(min(3, chips.count())):
            chips.nth(i).click()
    page.click("#supply button[data-key='take']")


def _follow(page: Page) -> None:
    """Do what the guide asks, once."""
    wants = page.evaluate("document.body.dataset.tutorialWants")
    if page.locator("#decision button").count():  # a token back, a City tile: always allowed
        page.locator("#decision button:enabled").first.click()  # an emptied colour's stays, greyed
    elif wants == "next":
        page.click("#guide-next")
    elif wants in ("isTake3", "fallback"):
        _take(page, 3)
    elif wants == "isTake2":
        _take(page, 2)
    elif wants == "isReserve":
        page.locator("#market button.card.guide-target").first.click()
        page.locator(".menu button.primary", has_text="Reserve").click()
    elif wants == "isBuy":
        page.locator("button.card.affordable").first.click()
        page.locator(".menu button.primary").first.click()
    elif wants == "isMove":
        page.locator("#roads button", has_text="move").first.click()
        page.locator("#payments button.primary").first.click()


def _my_action_turn(page: Page) -> bool:
    return bool(page.evaluate("document.getElementById('status').classList.contains('mine')"))


@pytest.mark.parametrize("game", ["classic", "pokemon", "kids"])
def test_each_tutorial_is_played_from_the_lobby_to_its_end(server: Server, browser: Browser, game: str) -> None:
    page = new_page(browser, 1280)
    page.goto(server.base + "/")
    page.wait_for_selector("[data-seat-kind]")  # the lobby is ready (its words are loaded)
    assert "click" not in page.inner_text("#learn").lower()  # words for a tap as much as a click
    page.click(f"[data-learn='{game}']")
    page.wait_for_url("**tutorial=1**")
    page.wait_for_function("document.body.dataset.tutorial !== undefined")
    assert "step 1 of" in page.inner_text("#guide")
    page.click("#guide-next")
    page.wait_for_function("document.body.dataset.tutorialWants === 'isTake3'")
    assert page.locator("#supply.guide-target").count() == 1  # the guide points at what to click
    deadline = time.monotonic() + 150
    while page.evaluate("document.body.dataset.tutorial") != "done":
        assert time.monotonic() < deadline, f"stuck at {page.inner_text('#guide')}"
        if page.evaluate("document.body.dataset.tutorialWants") != "next" and not _my_action_turn(page):
            time.sleep(0.1)
            continue
        before = actions(page)
        step = page.evaluate("document.body.dataset.tutorial")
        said = page.inner_text("#guide")
        assert "null" not in said  # an absent part is left out, not written as null
        assert "click" not in said.lower(), said  # a parent's find: "click" told a tablet's child what to tap
        _follow(page)
        page.wait_for_function(
            f"Number(document.body.dataset.actions) > {before} || document.body.dataset.tutorial !== '{step}'",
            timeout=20000,
        )
    assert "Tutorial done" in page.inner_text("#guide")
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_guide_refuses_another_action_kindly_and_sends_nothing(server: Server, browser: Browser) -> None:
    page = new_page(browser, 1280)
    page.goto(server.base + "/")
    page.wait_for_selector("[data-seat-kind]")  # the lobby is ready (its words are loaded)
    page.click("[data-learn='classic']")
    page.wait_for_url("**tutorial=1**")
    page.wait_for_function("document.body.dataset.tutorial !== undefined")
    page.click("#guide-next")
    page.wait_for_function("document.body.dataset.tutorialWants === 'isTake3'")
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/actions") else None)
    page.locator("#market button.card").first.click()
    page.locator(".menu button.primary", has_text="Reserve").click()
    page.wait_for_selector(".guide-refusal")
    assert "Not yet, please" in page.inner_text(".guide-refusal") and "three tokens" in page.inner_text("#guide")
    assert posts == [] and actions(page) == 0


@pytest.mark.parametrize("language", ["sl", "ko", "zh"])
def test_the_guide_speaks_the_players_language(server: Server, browser: Browser, language: str) -> None:
    context = browser.new_context(locale=LOCALES[language], viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("[data-seat-kind]")  # the lobby is ready (its words are loaded)
    page.click("[data-learn='kids']")
    page.wait_for_url("**tutorial=1**")
    page.wait_for_function("document.body.dataset.tutorial !== undefined")
    text = page.inner_text("#guide")
    assert "Welcome" not in text and "Palace" not in text, text
