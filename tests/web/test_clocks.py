"""Clocks on the table (issue 33, item 2), in a real browser against a server that allows short clocks: the lobby
offers the time controls and the table shows each seat's clock and the control; a real-time game lost on time,
shown rated so; a correspondence game continued after a server restart with its clock intact; a game of three
where one seat runs out of time and a bot plays it on."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from splendor.server.moves import RATED_AFTER_MOVES
from tests.server.conftest import Server, create
from tests.web.test_accounts import sign_up
from tests.web.test_browser import SHOTS, api_act, new_page, open_page, wait_past

HUMAN = {"kind": "human", "name": "bob"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(
        f"sqlite:///{tmp_path}/server.db", tmp_path / "server.log", "--allow-short-clocks", "--allow-chosen-seeds"
    ).start()
    try:
        yield s
    finally:
        s.stop()


def clock_text(page: Page, seat: int) -> str:
    return page.locator(f'.seat-clock[data-clock-seat="{seat}"]').inner_text()


def running(page: Page, seat: int) -> None:
    page.wait_for_selector(f'.seat-clock.running[data-clock-seat="{seat}"]')


def test_a_real_time_game_lost_on_time_is_shown_rated_so(server: Server, browser: Browser) -> None:
    page = new_page(browser)
    page.goto(server.base)
    sign_up(page, "ann", "correct horse battery")
    labels = page.locator("#clock option").all_inner_texts()
    assert labels[0] == "no clock" and "5 min + 10 s a move" in labels and "2 days a move" in labels
    page.select_option("#clock", "5+10")  # the lobby's game: seat 0 the account's, against the greedy bot
    page.click("#create")
    page.wait_for_function("document.body.dataset.actions !== undefined")
    assert page.locator("#time-control").inner_text() == "5 min + 10 s a move"
    running(page, 0)
    assert re.fullmatch(r"[45]:\d\d", clock_text(page, 0))
    assert page.locator('.seat-clock[data-clock-seat="1"]').count() == 0  # a bot's time is not counted
    page.screenshot(path=str(SHOTS / "clock-desktop.png"), animations="disabled")

    # a short clock (the server allows one for tests): the account's seat runs out and loses
    made: dict[str, Any] = page.evaluate(
        """async () => (await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" },
             body: JSON.stringify({ game: "classic", seats: [{ kind: "human", mine: true },
               { kind: "bot", bot: "greedy" }], clock: "8s+0" }) })).json()"""
    )
    page.goto(made["seats"][0]["link"])
    page.wait_for_function("document.body.dataset.actions !== undefined")
    moved = page.evaluate(  # five moves (a game left sooner changes no rating), then the time runs out
        """async ([id, moves]) => {
             for (let move = 0; move < moves; move++) {
               let v;
               do {
                 v = await (await fetch(`/api/games/${id}?seat=0`)).json();
                 if (v.view.current_player !== 0) await new Promise((done) => setTimeout(done, 50));
               } while (v.view.current_player !== 0);
               const r = await fetch(`/api/games/${id}/actions`, { method: "POST",
                 headers: { "content-type": "application/json" },
                 body: JSON.stringify({ seat: 0, action: v.view.legal_actions[0] }) });
               if (r.status !== 200) return -r.status;
             }
             for (;;) {  // the bot's reply: then ann's clock runs
               const v = await (await fetch(`/api/games/${id}?seat=0`)).json();
               if (v.view.current_player === 0) return v.actions;
               await new Promise((done) => setTimeout(done, 50));
             } }""",
        [made["id"], RATED_AFTER_MOVES],
    )
    assert moved > RATED_AFTER_MOVES, moved
    page.wait_for_function(f"Number(document.body.dataset.actions) >= {moved}")
    running(page, 0)
    page.wait_for_selector(".seat-clock.low")  # under 30 s from the start
    page.wait_for_function("document.body.dataset.over === 'true'", timeout=20000)
    assert page.locator("#ending").inner_text() == "ann (you) ran out of time: Greedy bot wins."
    change = page.locator('[data-rating-seat="0"]')
    change.wait_for()
    assert re.search(r"1500 → 1\d\d\d \(-\d+\)", change.inner_text())
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def test_a_correspondence_game_goes_on_after_a_restart_with_its_clock_intact(server: Server, browser: Browser) -> None:
    with server.client() as c:
        g = create(c, "classic", [{"kind": "human", "name": "ann"}, HUMAN], seed=4, clock="2d")
    page = open_page(browser, g["seats"][1]["link"])
    running(page, 0)
    assert page.locator("#time-control").inner_text() == "2 days a move"
    assert clock_text(page, 0) == "1 d 23 h" and page.locator('.seat-clock[data-clock-seat="1"]').count() == 0
    with server.client() as c:
        api_act(c, g, 0, "take w b g")
    wait_past(page, 0)
    running(page, 1)
    server.stop()
    server.start()  # the same store, the same port: the page reconnects by itself
    page.reload()
    page.wait_for_function("document.body.dataset.actions === '1'")
    running(page, 1)
    assert clock_text(page, 1) == "1 d 23 h"  # bob's move began before the restart and still has its two days
    page.locator("#command-text").fill("take r k g")
    page.locator("#command button[type=submit]").click()
    wait_past(page, 1)
    running(page, 0)
    page.wait_for_function("document.getElementById('command-text').value === ''")  # sent: the box is emptied
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def test_in_a_game_of_three_a_seat_that_runs_out_is_played_on_by_a_bot(server: Server, browser: Browser) -> None:
    with server.client() as c:
        g = create(
            c,
            "classic",
            [{"kind": "human", "name": "ann"}, HUMAN, {"kind": "bot", "bot": "greedy"}],
            seed=4,
            clock="3s+2",
        )
    page = open_page(browser, g["seats"][1]["link"])
    page.wait_for_selector('.seat-clock.out[data-clock-seat="0"]', timeout=15000)  # ann ran out
    assert clock_text(page, 0) == "out of time"
    wait_past(page, 0)  # the bot moved for ann's seat
    running(page, 1)  # bob's turn, on his clock
    assert page.locator("body").get_attribute("data-over") == "false"
    with server.client() as c:
        view = c.get(f"/api/games/{g['id']}", params={"seat": 1}, headers={"x-seat-token": g["seats"][1]["token"]})
    page.locator("#command-text").fill(view.json()["view"]["legal_actions"][0])
    page.locator("#command button[type=submit]").click()
    wait_past(page, 1)
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def test_on_a_phone_your_clock_stays_in_your_strip(server: Server, browser: Browser) -> None:
    """A player on a phone, reading the log or the chat, had their own running clock off the screen: it was only in
    the seats' panels."""
    with server.client() as c:
        g = create(c, "classic", [{"kind": "human", "name": "ann"}, HUMAN], seed=4, clock="5+10")
    page = open_page(browser, g["seats"][0]["link"], width=375)
    clock = page.locator('#me-strip .strip-clock[data-clock-seat="0"]')
    clock.wait_for()
    page.wait_for_function("document.querySelector('#me-strip .strip-clock').classList.contains('running')")
    first = clock.inner_text()
    assert re.fullmatch(r"[45]:[0-9]{2}", first), first
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # down to the log and the chat
    page.wait_for_timeout(1300)
    box = clock.bounding_box()
    height = page.viewport_size["height"] if page.viewport_size else 0
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height  # in sight, the strip's
    assert clock.inner_text() != first  # counting down, as the heading's
    wide = open_page(browser, g["seats"][0]["link"], width=1280)
    assert wide.locator(".strip-clock").count() == 0  # elsewhere the seat's heading says it, once
    assert page.errors == [] and wide.errors == []  # type: ignore[attr-defined]
