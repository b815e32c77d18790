"""The table looks like the game: cards and nobles drawn as the project's own pictures, each seat's bought cards
stacked by colour, and what another seat took travelling across the table (not under reduced motion)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import splendor
from splendor.bots import decide, make_bot
from tests.server.conftest import Server
from tests.web.test_browser import _two_humans, api_act, open_page, wait_past

pytestmark = pytest.mark.one_server  # each test makes its own games and acts only on those

COUNT_TRAVELLERS = """window.travellers = [];
new MutationObserver((changes) => { for (const c of changes) for (const n of c.addedNodes)
  if (n.classList && n.classList.contains('traveller')) window.travellers.push(n.className); })
  .observe(document.body, { childList: true });"""


def _after_bob_takes_two_black(server: Server, g: dict[str, Any], page: Page) -> None:
    """Ann takes three colours, then Bob two black, while ``page`` counts what travels."""
    page.evaluate(COUNT_TRAVELLERS)
    with server.client() as c:
        api_act(c, g, 0, "take w b g")
        api_act(c, g, 1, "take k k")
    page.wait_for_function("Number(document.body.dataset.actions) === 2")


def _play_until_seat_buys(server: Server, g: dict[str, Any], seat: int, seed: int) -> splendor.Game:
    """Both seats play the greedy bot's moves (found on a local copy of the same deal) until ``seat`` has bought."""
    local = splendor.new_game("classic", players=2, seed=seed)
    bot = make_bot("greedy", seed=1)
    with server.client() as c:
        while not local.view(seat)["seats"][seat]["cards"]:
            action = decide(bot, local)
            api_act(c, g, local.current_player, action.text)
            local.apply(action)
    return local


def test_cards_and_nobles_are_pictures_with_their_words_beside_them(server: Server, browser: Browser) -> None:
    g = _two_humans(server)
    page = open_page(browser, g["seats"][0]["link"])
    cards = page.locator("#market .card")
    assert cards.count() == 12
    for i in range(12):
        card = cards.nth(i)
        assert card.locator("svg.picture[aria-hidden='true']").count() == 1
        assert "card (" in card.locator(".sr-only").inner_text()  # "a tier 2 card (2★, red bonus, ...)"
    assert page.locator("#nobles .noble svg.picture").count() == 3
    assert "Patron of" in page.inner_text("#nobles")


def test_bought_cards_stack_by_colour_and_a_bought_card_travels_to_its_buyer(server: Server, browser: Browser) -> None:
    g = _two_humans(server, seed=4)
    ann = open_page(browser, g["seats"][0]["link"])
    ann.evaluate(COUNT_TRAVELLERS)
    local = _play_until_seat_buys(server, g, 1, seed=4)
    wait_past(ann, len(local.history) - 1)
    ann.wait_for_function(f"Number(document.body.dataset.actions) === {len(local.history)}")
    bought = local.view(1)["seats"][1]["cards"]
    colours = {card["bonus"] for card in bought}
    for colour in colours:
        stack = ann.locator(f"[data-key='seat:1:stack:{colour}']")
        assert stack.count() == 1
        assert stack.inner_text().strip() == str(sum(1 for card in bought if card["bonus"] == colour))
    assert any("card" in t for t in ann.evaluate("window.travellers"))  # the card flew to bob's stack
    assert any("chip" in t for t in ann.evaluate("window.travellers"))  # and bob's tokens from the supply
    assert ann.errors == []  # type: ignore[attr-defined]


def _reduced_motion_page(browser: Browser, url: str) -> Page:
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("document.body.dataset.actions !== undefined")
    return page


def test_nothing_travels_for_a_reader_who_asked_for_reduced_motion(server: Server, browser: Browser) -> None:
    g = _two_humans(server)
    ann = _reduced_motion_page(browser, g["seats"][0]["link"])
    _after_bob_takes_two_black(server, g, ann)
    ann.wait_for_timeout(300)
    assert ann.evaluate("window.travellers") == []
    assert ann.locator("[data-key='seat:1:token:black'].changed").count() == 1  # still marked, without motion


def test_a_travelling_picture_never_takes_a_click(server: Server, browser: Browser) -> None:
    g = _two_humans(server)
    ann = open_page(browser, g["seats"][0]["link"])
    _after_bob_takes_two_black(server, g, ann)
    # read in the same moment the pictures are seen: on a busy machine they had landed between two calls
    pointer = ann.wait_for_function("""(() => { const flying = [...document.querySelectorAll('.traveller')];
        return flying.length ? flying.map((n) => getComputedStyle(n).pointerEvents) : null; })()""").json_value()
    assert pointer and set(pointer) == {"none"}
