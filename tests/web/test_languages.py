"""Each language in a real browser: chosen from the browser's own language or with the switch, every page and
table drawn in it at a phone's width without overflow, and a refused action explained in it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from tests.server.conftest import Server, create
from tests.web.test_browser import SHOTS, api_act, wait_past

pytestmark = pytest.mark.one_server  # each test makes its own games and acts only on those

# Words each language's table shows (the supply's heading, the log's heading), and the browser locale it comes from.
WORDS = {
    "sl": ("sl-SI", "Zaloga", "Kaj se je zgodilo"),
    "ko": ("ko-KR", "공급처", "진행 기록"),
    "zh": ("zh-CN", "供应区", "对局记录"),
    "en": ("en-GB", "Supply", "What happened"),
}
SHOT_OF = {("classic", "sl"), ("pokemon", "ko"), ("kids", "zh")}


def page_in(browser: Browser, locale: str, width: int) -> Page:
    context = browser.new_context(locale=locale, viewport={"width": width, "height": 900})
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
    return page


def overflow(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


@pytest.mark.parametrize("language", ["sl", "ko", "zh"])
def test_each_language_draws_the_lobby_and_every_table_at_375_px(
    server: Server,
    browser: Browser,
    language: str,
) -> None:
    locale, supply, log = WORDS[language]
    page = page_in(browser, locale, 375)
    page.goto(server.base + "/")
    page.wait_for_selector("[data-seat-kind]")
    assert page.evaluate("document.documentElement.lang") == language
    assert page.locator("#language").input_value() == language
    assert page.inner_text("#new-game-title") != "New game"
    assert overflow(page) <= 1, f"the lobby in {language} is {overflow(page)}px too wide"
    with server.client() as c:
        games = {
            game: create(c, game, [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "greedy"}], seed=3)
            for game in ("classic", "pokemon", "kids")
        }
    for game, g in games.items():
        page.goto(g["seats"][0]["link"])
        page.wait_for_function("document.body.dataset.actions !== undefined")
        if game == "kids":
            page.wait_for_selector("#board svg")
        text = page.inner_text("main")
        assert supply in text and log in text, f"{game} in {language}"
        assert "Your turn" not in text and "How to play" not in text
        assert overflow(page) <= 1, f"{game} in {language} is {overflow(page)}px too wide"
        if (game, language) in SHOT_OF:
            page.screenshot(path=str(SHOTS / f"{game}-phone-{language}.png"), full_page=True, animations="disabled")
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_switch_changes_the_language_and_this_browser_keeps_it(server: Server, browser: Browser) -> None:
    page = page_in(browser, "en-GB", 1100)
    page.goto(server.base + "/")
    page.wait_for_selector("[data-seat-kind]")
    assert page.inner_text("#create") == "Create the game"
    with page.expect_navigation():  # the choice is kept, and the page drawn again
        page.select_option("#language", "ko")
    page.wait_for_selector("[data-seat-kind]")
    assert page.evaluate("document.documentElement.lang") == "ko"
    assert page.inner_text("#create") == "게임 만들기"
    page.click("#create")  # a person against a bot: straight to the seat
    page.wait_for_url("**/play/**")
    page.wait_for_function("document.body.dataset.actions !== undefined")
    assert "공급처" in page.inner_text("#supply")
    page.fill("#command-text", "take w w w")  # the refusal comes in the switch's language,
    page.press("#command-text", "Enter")  # not the browser's (English here)
    page.wait_for_function("document.getElementById('command-error').textContent.length > 0")
    assert (
        page.inner_text("#command-error")
        == "허용되지 않음: 서로 다른 색의 토큰을 3개까지 가져오거나, 같은 색 2개를 가져오세요"
    )
    assert page.input_value("#command-text") == "take w w w"  # kept, to be mended and sent again
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_refused_typed_action_and_the_log_are_in_the_players_language(server: Server, browser: Browser) -> None:
    with server.client() as c:
        g = create(c, "classic", [{"kind": "human", "name": "ana"}, {"kind": "bot", "bot": "greedy"}], seed=3)
    page = page_in(browser, "sl-SI", 1100)
    page.goto(g["seats"][0]["link"])
    page.wait_for_function("document.body.dataset.actions !== undefined")
    page.fill("#command-text", "take w w w")
    page.press("#command-text", "Enter")
    page.wait_for_function("document.getElementById('command-error').textContent.length > 0")
    assert page.inner_text("#command-error") == "Ni dovoljeno: vzemi največ 3 žetone različnih barv ali 2 iste barve"
    page.fill("#command-text", "take w b g")
    page.press("#command-text", "Enter")
    wait_past(page, 1)
    page.wait_for_function("document.querySelectorAll('#log li').length >= 2")
    entries = page.locator("#log li").all_inner_texts()
    assert "1 ana (ti) vzame: bela, modra in zelena." in entries  # after the seat's emblem, 1
    assert page.errors == []  # type: ignore[attr-defined]


def test_slovenian_names_a_card_as_a_name_and_as_an_object_in_their_own_cases(server: Server, browser: Browser) -> None:
    """One message served a card's name (its title, what a screen reader hears) and the object of a move, and
    Slovenian takes the accusative for the one and the nominative for the other: a card was called "karto" alone."""
    with server.client() as c:
        g = create(c, "classic", [{"kind": "human", "name": "ana"}, {"kind": "human", "name": "bor"}], seed=3)
        api_act(c, g, 0, "reserve 3.1")
    page = page_in(browser, "sl-SI", 1100)
    page.goto(g["seats"][1]["link"])
    page.wait_for_function("document.body.dataset.actions === '1'")
    label = page.get_attribute("#market [data-key='slot:market:3.2'] button.card", "aria-label") or ""
    assert label.startswith("karta stopnje 3 ("), label
    assert "rezervira karto stopnje 3 (" in page.inner_text("#log")


def test_a_refused_seat_is_told_why_whole_in_a_language_longer_than_a_close_frame(
    server: Server, browser: Browser
) -> None:
    """A WebSocket's close frame carries 123 bytes: the Korean reason for an old link of a kept seat (158 bytes)
    reached the table as "…더 이상 작동하지 않습니다. 그 계", without the sign-in it asks for."""
    owner = page_in(browser, "en-GB", 1100)
    owner.goto(f"{server.base}/")
    owner.fill("#account-name", "kay")
    owner.fill("#account-password", "correct horse battery")
    owner.click("#sign-up")
    owner.wait_for_selector("#sign-out")
    seats = [{"kind": "human", "mine": True}, {"kind": "human", "name": "bob"}]
    made = owner.request.post(f"{server.base}/api/games", data={"game": "classic", "seats": seats}).json()
    guest = page_in(browser, "ko-KR", 1100)  # not signed in, with a secret that no longer opens the seat
    guest.goto(f"{server.base}/play/{made['id']}?seat=0&token={made['seats'][1]['token']}")
    guest.wait_for_selector("#watch-instead")
    said = guest.inner_text("#status")
    whole = "그 계정으로 로그인해서 두세요"
    assert whole in said and len(said.split("\n")[0].encode()) > 123, said
    # in English the reason fits its frame: nothing else is asked, so no failed request shows in the console (the
    # reason over HTTP and the chat's lines had each been one)
    english = page_in(browser, "en-GB", 1100)
    failed: list[str] = []
    english.on("console", lambda m: failed.append(m.text) if m.type == "error" else None)
    english.goto(f"{server.base}/play/{made['id']}?seat=0&token={made['seats'][1]['token']}")
    english.wait_for_selector("#watch-instead")
    english.wait_for_timeout(300)
    assert "sign in" in english.inner_text("#status").lower() and failed == [], failed


def test_korean_breaks_lines_between_words_and_chinese_parts_a_moves_phrases_its_own_way(
    server: Server, browser: Browser
) -> None:
    """A newcomer's finds: Korean broke the log, the seats and the nobles' names inside words ("빨/간색", "반/납"),
    and Chinese parted a move's phrases with an ASCII "; " and said "pays nothing" as "支付了无"."""
    with server.client() as c:
        g = create(c, "classic", [{"kind": "human", "name": "ana"}, {"kind": "bot", "bot": "greedy"}], seed=3)
    page = page_in(browser, "ko-KR", 1100)
    page.goto(g["seats"][0]["link"])
    page.wait_for_function("document.body.dataset.actions !== undefined")
    breaks = page.evaluate(
        "['#log', '.seat', '#nobles'].map((s) => getComputedStyle(document.querySelector(s)).wordBreak)"
    )
    assert breaks == ["keep-all"] * 3, breaks
    page = page_in(browser, "zh-CN", 1100)
    page.goto(g["seats"][0]["link"])
    page.wait_for_function("document.body.dataset.actions !== undefined")
    said = page.evaluate(
        """import('/static/words.js').then((words) => [words.describe('classic', 'reserve deck 2',
          { received: { gold: 1 } }, () => 'ana', 0), words.describe('classic', 'buy 1.1', { card: { tier: 1,
          points: 0, bonus: 'red', bonus_count: 1, cost: { white: 1 } }, paid: {} }, () => 'ana', 0)])"""
    )
    assert "；" in said[0] and "; " not in said[0], said
    assert said[1].endswith("无需支付") and "支付了无" not in said[1], said  # "pays nothing", a phrase of its own
    verdict = page.evaluate(
        "import('/static/i18n.js')"
        ".then((i) => i.t('{player} wins!', { player: i.t('{name} (you)', { name: '玩家 1' }) }))"
    )
    assert verdict == "玩家 1（你）获胜！", verdict  # no space beside a full-width mark (it read "（你） 获胜！")
    noble = page.locator("#nobles .noble .sr-only").first.inner_text()  # what a screen reader says of a noble
    assert "，所需奖励：" in noble and ", " not in noble and "： " not in noble, noble  # "3 个白色, 3 个蓝色" had
