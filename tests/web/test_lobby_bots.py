"""The lobby offers for each seat only the bots that play the chosen game: the learned bot plays classic alone,
and a seat that held it falls back to the greedy bot when another game is chosen."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.server.conftest import Server
from tests.web.test_browser import open_lobby


def test_the_lobby_offers_the_learned_bot_only_for_classic(server: Server, browser: Browser) -> None:
    page = open_lobby(browser, server)
    page.wait_for_selector("[data-seat-kind='1'] option[value='learned']", state="attached")
    learned = "[data-seat-kind='1'] option[value='learned']"
    page.select_option("#game", "classic")
    page.select_option("[data-seat-kind='1']", "learned")
    assert not page.eval_on_selector(learned, "o => o.disabled")
    for game in ("pokemon", "kids"):
        page.select_option("#game", game)
        assert page.eval_on_selector(learned, "o => o.disabled && o.hidden")
        assert page.eval_on_selector("[data-seat-kind='1']", "s => s.value") == "greedy"
    page.select_option("#game", "classic")
    assert not page.eval_on_selector(learned, "o => o.disabled")


def test_ticking_the_mysteries_says_the_short_game_it_unticks(server: Server, browser: Browser) -> None:
    page = open_lobby(browser, server)
    page.select_option("#game", "kids")
    page.check("#short")
    page.check("#mysteries")  # all three sections of the board: not the short game's two
    assert not page.is_checked("#short")
    assert page.inner_text("#kids-options-note") == "The Mysteries use the whole board: the short game is off."
    page.check("#short")
    assert not page.is_checked("#mysteries") and "the Mysteries are off" in page.inner_text("#kids-options-note")
    page.uncheck("#short")
    assert page.inner_text("#kids-options-note") == ""
