"""The chat on the table (issue 33, item 4), two browsers (each its own context): the seats talk both ways, live;
the closed panel counts what is unread; a canned phrase shows in each reader's own language; markup shows as text;
a muted player's lines are hidden; the replay shows each line at its move."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page

import splendor
from splendor.bots import decide, make_bot
from tests.server.conftest import Server, create
from tests.web.test_browser import _two_humans, api_act, open_page, wait_past

pytestmark = pytest.mark.one_server  # each test makes its own games and acts only on those


def _said(page: Page) -> list[str]:
    return [x.strip() for x in page.locator("#chat .chat-line:visible .chat-words").all_inner_texts()]


def _open(page: Page) -> None:
    page.locator("#chat summary").click()


def test_two_seats_chat_both_ways_with_a_phrase_and_a_mute(server: Server, browser: Browser) -> None:
    g = _two_humans(server)
    ann = open_page(browser, g["seats"][0]["link"])
    bob = open_page(browser, g["seats"][1]["link"])
    bob.evaluate("localStorage.setItem('splendor-language', 'sl')")
    bob.reload()
    bob.wait_for_function("document.body.dataset.actions !== undefined")
    _open(ann)
    ann.locator("#chat-text").fill("<b>hi</b> bob")
    ann.locator("#chat-text").press("Enter")
    bob.wait_for_function("document.querySelector('#chat .chat-unread').textContent === '1'")  # closed: counted
    # and heard: a closed panel's own lines are silent, so a live region beside it says the line, and the panel's
    # name the count (a screen reader had heard nothing, then "Chat 1")
    bob.wait_for_function(
        "document.querySelector(\"#chat > p.sr-only[aria-live='polite']\").textContent === 'Klepet: ann: <b>hi</b> bob'"
    )
    assert bob.get_attribute("#chat summary", "aria-label") == "Klepet: 1 neprebrano sporočilo"
    _open(bob)
    assert _said(bob) == ["<b>hi</b> bob"]  # as text, never markup
    assert bob.locator("#chat .chat-words b").count() == 0
    bob.locator("#chat .chat-phrase[data-phrase='good_luck']").click()
    ann.wait_for_function("document.querySelectorAll('#chat .chat-line').length === 2")
    assert _said(ann) == ["<b>hi</b> bob", "Good luck!"]  # each in the reader's own language
    bob.wait_for_function("document.querySelectorAll('#chat .chat-line').length === 2")
    assert _said(bob)[1] == "Srečno!"

    ann.locator("#chat .chat-mute", has_text="bob").click()  # muted: bob's lines are hidden, kept across a reload
    assert _said(ann) == ["<b>hi</b> bob"]
    bob.locator("#chat-text").fill("still there?")
    bob.locator("#chat-text").press("Enter")
    bob.wait_for_function("document.querySelectorAll('#chat .chat-line').length === 3")
    ann.wait_for_function("document.querySelectorAll('#chat .chat-line').length === 3")
    assert _said(ann) == ["<b>hi</b> bob"]
    ann.reload()
    ann.wait_for_function("document.querySelectorAll('#chat .chat-line').length === 3")
    _open(ann)
    assert _said(ann) == ["<b>hi</b> bob"]
    assert ann.locator("#chat .chat-unread").is_hidden()  # a muted player's lines count for nothing

    watcher = open_page(browser, f"{server.base}/watch/{g['id']}")  # a spectator: only the spectators' room
    _open(watcher)
    assert watcher.locator("#chat .chat-tab").count() == 0 and _said(watcher) == []
    assert ann.errors == [] and bob.errors == [] and watcher.errors == []  # type: ignore[attr-defined]
    for p in (ann, bob, watcher):
        p.close()


def test_the_replay_shows_each_line_at_its_move(server: Server, browser: Browser) -> None:
    g = _two_humans(server)
    ann = open_page(browser, g["seats"][0]["link"])
    _open(ann)
    ann.locator("#chat .chat-phrase[data-phrase='hello']").click()
    ann.wait_for_function("document.querySelectorAll('#chat .chat-line').length === 1")
    with server.client() as c:
        api_act(c, g, 0, "take w b g")
        wait_past(ann, 0)
        ann.locator("#chat-text").fill("your move")
        ann.locator("#chat-text").press("Enter")
        ann.wait_for_function("document.querySelectorAll('#chat .chat-line').length === 2")
        r = c.post(f"/api/games/{g['id']}/seats/1/resign", headers={"x-seat-token": g["seats"][1]["token"]})
        assert r.status_code == 200, r.text
    ann.goto(f"{server.base}/replay/{g['id']}")  # the browser that played seat 0 reads the players' room again
    ann.wait_for_function("document.querySelectorAll('#chat .chat-line').length === 1")
    assert _said(ann) == ["Hello!"] and ann.locator("#chat .at-move").count() == 1
    ann.locator("#next").click()
    ann.wait_for_function("document.querySelectorAll('#chat .chat-line').length === 2")
    assert ann.locator("#chat .at-move .chat-words").inner_text() == "your move"
    # the arrows step the replay, but not while typing in a box (a text box the page may show: its ← moved the
    # caret and stepped the replay back too)
    ann.evaluate("() => { const box = document.createElement('input'); box.id = 'typing'; document.body.append(box); }")
    steps: list[str] = []
    ann.on("request", lambda r: steps.append(r.url) if "/replay?upto=" in r.url else None)
    ann.locator("#typing").fill("gg")
    ann.locator("#typing").press("ArrowLeft")
    ann.locator("#typing").press("ArrowRight")
    ann.locator("#typing").evaluate("(n) => n.blur()")
    ann.keyboard.press("ArrowLeft")  # a step, asked after the box's arrows: when it is shown, theirs were asked
    ann.wait_for_function("document.getElementById('status').textContent.includes('Replay: the start')")
    assert [url.rpartition("=")[2] for url in steps] == ["0"], steps
    # nor while moving between the chat's rooms with the arrows (their tab list's keys)
    ann.locator("#chat .chat-tab[aria-selected='true']").focus()
    ann.keyboard.press("ArrowRight")
    ann.wait_for_function("document.activeElement.textContent.startsWith('Spectators')")
    ann.keyboard.press("ArrowLeft")
    ann.wait_for_function("document.activeElement.textContent.startsWith('Players')")
    ann.locator("#chat .chat-tab[aria-selected='true']").evaluate("(n) => n.blur()")
    ann.keyboard.press("ArrowRight")  # a step, asked after the tabs' arrows
    ann.wait_for_function("!document.getElementById('status').textContent.includes('Replay: the start')")
    assert [url.rpartition("=")[2] for url in steps] == ["0", "1"], steps
    assert ann.errors == []  # type: ignore[attr-defined]
    ann.close()


def test_a_seat_that_resigned_still_talks_in_the_players_room_while_watching(server: Server, browser: Browser) -> None:
    with server.client() as c:
        seats = [{"kind": "human", "name": n} for n in ("ann", "bob", "cat")]
        g = create(c, "classic", seats, seed=4)
    bob = open_page(browser, g["seats"][1]["link"])  # keeps the seat's link in this browser
    with server.client() as c:
        r = c.post(f"/api/games/{g['id']}/seats/1/resign", headers={"x-seat-token": g["seats"][1]["token"]}, json={})
        assert r.status_code == 200 and r.json()["seats"][1]["forfeited"]
    bob.goto(f"{server.base}/watch/{g['id']}")  # where the page goes after resigning in a game of three
    bob.wait_for_function("document.body.dataset.actions !== undefined")
    _open(bob)
    bob.wait_for_selector("#chat .chat-tab[aria-selected='true']")
    # the goodbye goes to the players: the tab a seat that resigned opens on (it went to the spectators)
    assert bob.inner_text("#chat .chat-tab[aria-selected='true']") == "Players"
    bob.locator("#chat .chat-phrase[data-phrase='good_game']").click()
    bob.wait_for_function("document.querySelectorAll('#chat .chat-line').length === 1")
    assert _said(bob) == ["Good game!"]
    with server.client() as c:
        r = c.get(f"/api/games/{g['id']}/chat", params={"seat": 0}, headers={"x-seat-token": g["seats"][0]["token"]})
        assert [(x["room"], x["seat"], x["phrase"]) for x in r.json()["lines"]] == [("seats", 1, "good_game")]


def test_an_account_reads_its_players_room_in_the_replay_in_any_browser(server: Server, browser: Browser) -> None:
    """The seat's link is kept in the browser that played it; an account keeps the seat everywhere, so a replay
    opened in another browser, signed in, shows the players' room too."""
    playing = browser.new_context(base_url=server.base)
    r = playing.request.post("/api/accounts", data={"name": "ann", "password": "correct horse"})
    assert r.status == 201, r.text()
    seats = [{"kind": "human", "mine": True}, {"kind": "human", "name": "bob"}]
    g = playing.request.post("/api/games", data={"game": "classic", "seats": seats, "rated": False}).json()
    assert playing.request.post(f"/api/games/{g['id']}/chat", data={"seat": 0, "text": "good luck bob"}).status == 201
    assert playing.request.post(f"/api/games/{g['id']}/seats/0/resign", data={}).status == 200
    playing.close()
    elsewhere = browser.new_context(base_url=server.base)
    assert elsewhere.request.post("/api/session", data={"name": "ann", "password": "correct horse"}).status == 200
    page = elsewhere.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"/replay/{g['id']}")
    page.wait_for_function("document.body.dataset.actions !== undefined")
    page.wait_for_function("document.querySelectorAll('#chat .chat-line').length === 1")
    assert _said(page) == ["good luck bob"]
    assert page.locator("#chat .chat-tab", has_text="Players").count() == 1
    # the rooms are a tab list (an accessibility review's find): one Tab stop, the arrows move between the rooms and
    # show each, and in a replay they no longer step it as well
    step = page.inner_text("#step")
    tabs = page.locator("#chat .chat-tab")
    assert [tabs.nth(i).get_attribute("tabindex") for i in range(2)] == ["0", "-1"]
    tabs.nth(0).focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.activeElement.textContent.startsWith('Spectators')")
    assert page.inner_text("#chat .chat-tab[aria-selected='true']").startswith("Spectators") and _said(page) == []
    assert [tabs.nth(i).get_attribute("tabindex") for i in range(2)] == ["-1", "0"]
    page.keyboard.press("ArrowRight")  # round to the first
    page.wait_for_function("document.activeElement.textContent.startsWith('Players')")
    assert _said(page) == ["good luck bob"] and page.inner_text("#step") == step
    stranger = open_page(browser, f"{server.base}/replay/{g['id']}")  # signed out: the spectators' room only
    _open(stranger)
    assert stranger.locator("#chat .chat-tab").count() == 0 and _said(stranger) == []
    assert errors == [] and stranger.errors == []  # type: ignore[attr-defined]
    elsewhere.close()
    stranger.close()


def test_what_was_read_stays_read_across_a_reload_and_a_long_line_is_refused_not_cut(
    server: Server, browser: Browser
) -> None:
    """A newcomer reloaded and found "Chat 5" for lines read long before; a line of 301 characters was sent cut
    to 300 without a word; a line of spaces did nothing; a refusal stayed under the box all game; muting left the
    list blank."""
    g = _two_humans(server)
    ann = open_page(browser, g["seats"][0]["link"])
    bob = open_page(browser, g["seats"][1]["link"])
    _open(ann)
    _open(bob)
    bob.locator("#chat .chat-phrase[data-phrase='hello']").click()
    ann.wait_for_function("document.querySelectorAll('#chat .chat-line').length === 1")  # read, the panel open
    ann.reload()
    ann.wait_for_function("document.querySelectorAll('#chat .chat-line').length === 1")
    assert ann.locator("#chat .chat-unread").is_hidden()  # read before the reload: not counted again
    bob.locator("#chat .chat-phrase[data-phrase='thinking']").click()
    ann.wait_for_function("document.querySelector('#chat .chat-unread').textContent === '1'")  # only the new one
    _open(ann)
    long = "é" * 301  # characters, as the server counts them
    ann.locator("#chat-text").fill(long)
    ann.locator("#chat-text").press("Enter")
    ann.wait_for_function("document.querySelector('#chat .chat-error').textContent !== ''")
    assert ann.inner_text("#chat .chat-error") == "A message is at most 300 characters; this one has 301."
    assert ann.input_value("#chat-text") == long  # kept, to shorten
    ann.locator("#chat-text").press("Backspace")  # typing again clears the refusal
    ann.wait_for_function("document.querySelector('#chat .chat-error').textContent === ''")
    ann.locator("#chat-text").fill("   ")
    ann.locator("#chat-text").press("Enter")
    assert ann.inner_text("#chat .chat-error") == "Write something to send."
    ann.locator("#chat .chat-mute", has_text="bob").click()
    assert _said(ann) == []
    assert ann.inner_text("#chat .chat-empty") == "2 messages hidden: you muted who said them."
    assert ann.errors == [] and bob.errors == []  # type: ignore[attr-defined]
    ann.close()
    bob.close()


def _say(page: Page, text: str, lines: int) -> None:
    """Say ``text`` and wait until it is the page's ``lines``-th line: the module's tests share one server and one
    address, whose lines the chat bounds (15 in 10 s), so a refusal for speed is waited out and said again."""
    for _ in range(4):  # a wait asked for is at most 10 s; the page holds a line sent before it is over
        page.locator("#chat-text").fill(text)
        page.locator("#chat-text").press("Enter")
        page.wait_for_function(
            f"document.querySelectorAll('#chat .chat-line').length === {lines}"
            " || document.querySelector('#chat .chat-error').textContent !== ''"
        )
        if page.locator("#chat .chat-line").count() == lines:
            return
        page.wait_for_timeout(4000)
    raise AssertionError(f"the chat refused {text!r}: {page.inner_text('#chat .chat-error')}")


def test_two_tabs_of_one_seat_follow_each_others_reading_and_muting(server: Server, browser: Browser) -> None:
    """A newcomer read the players' room in one tab; the other still said 5 unread until it was reloaded, and
    counted a line of someone muted in the first."""
    g = _two_humans(server)
    bob = open_page(browser, g["seats"][1]["link"])
    _open(bob)
    _say(bob, "hello", 1)
    _say(bob, "are you there?", 2)
    context = browser.new_context(viewport={"width": 1100, "height": 800})  # one browser: one localStorage
    errors: list[str] = []
    first, second = context.new_page(), context.new_page()
    for page in (first, second):
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(g["seats"][0]["link"])
        page.wait_for_function("document.body.dataset.actions !== undefined")
    second.wait_for_function("document.querySelector('#chat .chat-unread').textContent === '2'")
    _open(first)  # read in the first tab: the second follows without a reload
    second.wait_for_selector("#chat .chat-unread", state="hidden")
    first.locator("#chat .chat-mute", has_text="bob").click()
    _say(bob, "hello?", 3)
    first.wait_for_function("document.querySelectorAll('#chat .chat-line').length === 3")
    second.wait_for_function("document.querySelectorAll('#chat .chat-line').length === 3")
    assert second.locator("#chat .chat-unread").is_hidden()  # muted in the first tab: nothing counted here
    assert errors == [] and bob.errors == []  # type: ignore[attr-defined]
    context.close()
    bob.close()


def test_after_a_wait_for_sending_too_fast_a_line_is_held_on_the_page_not_sent_to_be_refused_again(
    server: Server, browser: Browser
) -> None:
    """The newcomer's console: after "wait 8 seconds" the page still sent every line typed, each refused again."""
    g = _two_humans(server)
    local = splendor.new_game("classic", players=2, seed=4)  # as _two_humans deals it
    with server.client() as c:  # a long log above the chat, as late in a game
        while len(local.history) < 40:
            action = decide(make_bot("greedy", seed=len(local.history)), local)
            api_act(c, g, local.current_player, action.text)
            local.apply(action)
    ann = open_page(browser, g["seats"][0]["link"])
    ann.set_viewport_size({"width": 1920, "height": 960})  # the chat at the dock's foot, as the player found it
    _open(ann)
    posts: list[str] = []
    ann.on("request", lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/chat") else None)
    for n in range(16):  # five lines a speaker in 10 s, fifteen an address: the first refusal comes by the 16th
        ann.locator("#chat-text").fill(f"line {n}")
        ann.locator("#chat-text").press("Enter")
        ann.wait_for_function(
            f"document.querySelectorAll('#chat .chat-line').length === {n + 1}"
            " || document.querySelector('#chat .chat-error').textContent !== ''"
        )
        if ann.inner_text("#chat .chat-error"):
            break
    assert "wait" in ann.inner_text("#chat .chat-error"), ann.inner_text("#chat .chat-error")
    sent = len(posts)
    ann.locator("#chat-text").fill("one more")
    ann.locator("#chat-text").press("Enter")
    ann.wait_for_timeout(300)
    said = ann.inner_text("#chat .chat-error")
    assert re.fullmatch(r"You are sending messages too fast: wait \d+ seconds?", said), said
    assert len(posts) == sent  # held here: not sent to be refused again
    box = ann.locator("#chat .chat-error").bounding_box()
    assert box and box["y"] + box["height"] <= 960  # in sight: it was half off the screen
    assert ann.input_value("#chat-text") == "one more"  # kept, to send when the wait is over
    ann.close()
