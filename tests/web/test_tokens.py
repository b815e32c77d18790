"""The page names every game's tokens from the games' own table (splendor/games/palettes.py, served with the
catalog), in each language: no copy of a palette in the page to fall out of step."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from splendor.games.palettes import TOKENS
from splendor.i18n import Message, translate
from tests.server.conftest import Server
from tests.web.test_languages import WORDS, page_in

pytestmark = pytest.mark.one_server  # each test makes its own games and acts only on those


@pytest.mark.parametrize("language", ["en", "sl"])
def test_every_token_is_named_by_letter_and_by_colour_in_the_readers_language(
    server: Server, browser: Browser, language: str
) -> None:
    page = page_in(browser, WORDS[language][0], 800)
    page.goto(server.base + "/")
    page.wait_for_selector("[data-seat-kind]")
    said = page.evaluate(
        """(games) => import('/static/words.js').then((w) => Object.fromEntries(Object.entries(games).map(
             ([game, t]) => [game, [t.names.map((c) => w.tokenName(game, c)),
                                    t.letters.map((l) => w.colourName(game, l))]])))""",
        {game: {"names": list(t.names), "letters": list(t.letters)} for game, t in TOKENS.items()},
    )
    for game, tokens in TOKENS.items():
        words = [translate(Message(word), language) for word in tokens.words]
        assert said[game] == [words, words], (game, language)
    assert page.evaluate("import('/static/words.js').then((w) => w.colourName('classic', 'q'))") == "q"
    assert not page.errors  # type: ignore[attr-defined]
