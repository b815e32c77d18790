"""The players' languages: every message translated in every language, refusals and the terminal in each, and
the catalogs the web reads (the server and browser parts are in tests/server and tests/web)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

import splendor
from splendor.core.errors import IllegalAction
from splendor.games.classic.cards import NOBLES
from splendor.games.classic.game import noble_name
from splendor.games.palettes import TOKENS, token_words
from splendor.games.pokemon.cards import CARDS as POKEMON_CARDS
from splendor.games.pokemon.names import POKEMON_NAMES
from splendor.i18n import (
    LANGUAGES,
    Listing,
    Message,
    _,
    _n,
    catalog,
    catalogs,
    plural_categories,
    translate,
    web_catalog,
)
from splendor.i18n.extract import gather, html_text, problems
from tests.test_cli import SPLENDOR, _random_record, run

OTHER_LANGUAGES = [code for code in LANGUAGES if code != "en"]


def test_every_message_of_the_code_and_the_pages_reads_in_every_language() -> None:
    """The test that fails when any message lacks a translation, a translation loses or invents a {placeholder},
    or a catalog is not current with the sources (python -m splendor.i18n.extract)."""
    assert problems() == []


def test_the_check_finds_a_message_without_translation() -> None:
    template = gather()
    template.add("a message nobody translated")
    found = problems(template)
    assert {f"{code}: no translation of 'a message nobody translated'" for code in OTHER_LANGUAGES} <= set(found)


def test_the_messages_are_gathered_from_python_javascript_and_html() -> None:
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in gather() if m.id}
    assert "the game is over" in ids  # the engine's refusals
    assert "{player} buys {card}" in ids  # the web's log (words.js)
    assert "Last round!" in ids  # inside a JavaScript template string
    assert "Create the game" in ids and "profile name" in ids  # an HTML page's text and attributes
    assert "Game over." in ids  # the terminal


def test_html_text_reads_marked_elements_and_attributes() -> None:
    page = '<p><span data-t>Hello\n   there</span> <input placeholder="a name" data-t-attr="placeholder"></p>'
    assert [text for _, text in html_text(page)] == ["Hello there", "a name"]


def test_the_pokemon_names_are_exactly_the_cards_names() -> None:
    assert set(POKEMON_NAMES) == {c.name for c in POKEMON_CARDS} and len(POKEMON_NAMES) == 55


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_noble_and_pokemon_has_its_own_name_in_each_language(language: str) -> None:
    nobles = {translate(_(noble_name(n)), language) for n in range(len(NOBLES))}
    assert len(nobles) == len(NOBLES)
    if language in ("ko", "zh"):
        assert translate(_("Pikachu"), language) == "Pikachu"  # not a card: shown as it is
        assert translate(_("Bulbasaur"), language) == {"ko": "이상해씨", "zh": "妙蛙种子"}[language]


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_each_languages_plural_rule_agrees_with_the_browsers(language: str) -> None:
    categories = plural_categories(language)
    forms = catalog(language)
    assert set(categories.values()) == set(range(len(set(categories.values()))))
    assert max(forms.plural_index(n) for n in range(200)) + 1 == len(set(categories.values()))


def test_slovenian_counts_take_its_four_plural_forms() -> None:
    said = [translate(_n("{n} card", "{n} cards", n), "sl") for n in (1, 2, 3, 5, 101, 102)]
    assert said == ["1 karta", "2 karti", "3 karte", "5 kart", "101 karta", "102 karti"]
    assert translate(_n("{n} card", "{n} cards", 7), "ko") == "카드 7장"


def test_lists_are_joined_by_each_languages_own_rule() -> None:
    colours = Listing([_("red"), _("blue"), _("green")])
    assert str(colours) == "red, blue and green"
    assert translate(colours, "sl") == "rdeča, modra in zelena"
    assert translate(colours, "zh") == "红色、蓝色和绿色"


@pytest.mark.parametrize(
    ("game", "action", "english", "words"),
    [
        (
            "classic",
            "take w w w",
            "take either up to 3 tokens",
            {"sl": "različnih barv", "ko": "서로 다른 색", "zh": "不同颜色"},
        ),
        (
            "pokemon",
            "reserve rare",
            "rare and legendary cards cannot be reserved",
            {"sl": "legendarnih", "ko": "전설", "zh": "传说"},
        ),
        ("kids", "take y k", "a gold coin is taken alone", {"sl": "zlatnik", "ko": "금화", "zh": "金币"}),
        ("kids", "take y y", "a gold coin is taken one at a time", {"sl": "zlatnike", "ko": "금화", "zh": "金币"}),
    ],
)
def test_a_refused_action_is_explained_in_each_language(
    game: str, action: str, english: str, words: dict[str, str]
) -> None:
    g = splendor.new_game(game, players=2, seed=1)
    with pytest.raises(IllegalAction) as refused:
        g.apply(action)
    assert english in str(refused.value)
    for language, word in words.items():
        assert word in refused.value.explain(language)


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_a_rule_explanation_fills_in_translated_words(language: str) -> None:
    g = splendor.new_game("classic", players=2, seed=1)
    reason = g.why_illegal(g.parse("buy 3.1"))
    assert reason is not None
    said = translate(reason, language)
    english = {"white", "blue", "green", "black", "token", "tokens", "costs", "afford", "bonuses"}
    assert not english & set(re.findall(r"[a-z]+", said)), f"English left in {said!r}"


def test_the_web_catalog_has_every_translation_and_the_plural_categories() -> None:
    sl = web_catalog("sl")
    assert sl["messages"]["the game is over"] == "igre je konec"
    assert sl["messages"]["{n} card"] == ["{n} karta", "{n} karti", "{n} karte", "{n} kart"]
    assert sl["plurals"] == {"one": 0, "two": 1, "few": 2, "other": 3}
    assert web_catalog("ko")["plurals"] == {"other": 0}


def test_an_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="the languages are en, sl, ko, zh"):
        catalog("de")


def test_a_missing_catalog_is_an_error_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An install without its catalogs fails saying so, rather than speaking English in their place."""
    monkeypatch.setattr(catalogs, "LOCALE", tmp_path)
    catalog.cache_clear()
    try:
        with pytest.raises(FileNotFoundError, match=r"the sl catalog is missing: .*sl/LC_MESSAGES/splendor\.po"):
            catalog("sl")
    finally:
        catalog.cache_clear()  # the next reader reads the real one


def test_the_page_is_given_each_games_tokens_from_the_games_table() -> None:
    for language in LANGUAGES:
        tokens = token_words(language)
        assert set(tokens) == set(TOKENS)
        for game, table in TOKENS.items():
            assert tokens[game]["letters"] == dict(zip(table.letters, table.names))
            assert tokens[game]["words"] == {
                n: translate(Message(w), language) for n, w in zip(table.names, table.words)
            }
    assert token_words("sl")["pokemon"]["words"]["pink"] == translate(Message("Heal Ball"), "sl")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("sl", ["Zaloga:", "Ni dovoljeno:", "Konec igre."]),
        ("ko", ["공급처:", "허용되지 않음:", "게임 종료."]),
        ("zh", ["供应区：", "不允许：", "游戏结束。"]),
    ],
)
def test_the_terminal_game_speaks_the_language_asked_for(language: str, words: list[str]) -> None:
    script = ["take w w w", *_random_record(seed=5).actions]
    out = run(
        "play", "--seats", "ann:human,bob:human", "--seed", "5", "--lang", language, stdin="\n".join(script) + "\n\n"
    )
    assert out.returncode == 0, out.stderr
    for word in words:
        assert word in out.stdout


def test_the_terminal_takes_its_language_from_the_locale_and_refuses_an_unknown_one() -> None:
    out = run("play", "--seats", "human,greedy", "--seed", "3", "--lang", "xx", stdin="quit\n")
    assert out.returncode != 0 and "the languages are en, sl, ko, zh" in out.stdout + out.stderr
    out = subprocess.run(
        [SPLENDOR, "play", "--seats", "human,greedy", "--seed", "3"],
        input="quit\ny\n\n",
        capture_output=True,
        text=True,
        timeout=120,
        env={"COLUMNS": "120", "PATH": "/usr/bin:/bin", "TERM": "dumb", "LANG": "sl_SI.UTF-8"},
    )
    assert "Vpiši dejanje" in out.stdout


def test_every_shipped_board_names_its_port_and_palace_as_the_catalogs_do() -> None:
    from splendor.games.kids.board import PALACE_NAME, PORT_NAME, shipped_sides

    names = {side: {s.get("kind"): s["name"] for s in data.get("spaces", [])} for side, data in shipped_sides().items()}
    assert len(names) == 6
    assert {n.get("port") for n in names.values()} - {None} == {PORT_NAME}
    assert {n.get("palace") for n in names.values()} - {None} == {PALACE_NAME}
    assert translate(_(PALACE_NAME), "zh") == "璀璨宫殿"


def test_every_shipped_place_and_side_is_named_in_every_language() -> None:
    """The shipped sides' places and titles are marked for translation (board.PLACE_NAMES, SIDE_TITLES) and each
    is said in every language, as the board's picture and the pages say them (issue 32: in Chinese the places
    stayed English while the Port and the Palace were translated)."""
    from splendor.games.kids.board import PALACE_NAME, PLACE_NAMES, PORT_NAME, SIDE_TITLES, shipped_sides

    sides = shipped_sides().values()
    assert {s["name"] for d in sides for s in d["spaces"]} == set(PLACE_NAMES) | {PORT_NAME, PALACE_NAME}
    assert {d["title"] for d in sides} == set(SIDE_TITLES)
    for language in OTHER_LANGUAGES:
        for name in PLACE_NAMES + SIDE_TITLES:
            said = translate(_(name), language)
            assert said and said != name, (language, name)
    assert translate(_("Duck Pond"), "zh") == "鸭子池塘"
