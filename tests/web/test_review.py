"""The expert's review in the browser (issue 33, item 6): the finished table offers it, the replay asks for it and
says the expert is reviewing while it runs, then draws each seat's win chance and the marked moves exactly as
``splendor review --json`` prints them for the game's record (the same small budget and seed 0); a marked move,
chosen by keyboard, steps the replay to the position before it and marks the move played and the expert's move
on the table. A review running in another server process is shown running, its progress polled, not as failed.
Screenshots at 1280x800 and 390x844 go to docs/screenshots."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from splendor.bots.review import percent
from tests.server.conftest import SPLENDOR, Server, create, wait_for
from tests.web.test_browser import SHOTS, serious_violations

ITERATIONS = 12


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("review")
    s = Server(
        f"sqlite:///{folder}/server.db", folder / "server.log", "--allow-chosen-seeds", "--review-iterations", "12"
    ).start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="module")
def finished(server: Server, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A game between two greedy bots, played to its end, and its review by ``splendor review --json``. The deal is
    seed 3's, but the bots' moves are not the same from run to run (the server seeds them from the game's id and
    its secret salt), so neither are the marked moves. The review of one record is the same on every run
    (`tests/test_review.py`)."""
    with server.client() as c:
        game = create(c, "classic", [{"kind": "bot", "bot": "greedy"}] * 2, seed=3)
        wait_for(lambda: c.get(f"/api/games/{game['id']}").json()["over"], seconds=60)
        record = tmp_path_factory.mktemp("record") / "game.record"
        record.write_text(c.get(f"/api/games/{game['id']}/record").text)
    out = subprocess.run(
        [SPLENDOR, "review", str(record), "--iterations", str(ITERATIONS), "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return {"id": game["id"], "expected": json.loads(out.stdout), "record": Path(record)}


def open_review(browser: Browser, url: str, width: int, height: int) -> Page:
    page = browser.new_page(viewport={"width": width, "height": height})
    page.errors = []  # type: ignore[attr-defined]  # the script errors met, kept on the page
    page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
    page.goto(url)
    return page


def test_the_finished_table_offers_the_review(server: Server, browser: Browser, finished: dict[str, Any]) -> None:
    page = open_review(browser, f"{server.base}/watch/{finished['id']}", 1280, 800)
    link = page.locator("#review-link")
    link.wait_for()
    assert link.get_attribute("href") == f"/replay/{finished['id']}?review"


def test_a_review_running_in_another_process_is_shown_running_and_polled(
    server: Server, browser: Browser, finished: dict[str, Any]
) -> None:
    database = sqlite3.connect(server.db_url.removeprefix("sqlite:///"))
    total = len(finished["expected"]["moves"])

    def write(sql: str, *args: Any) -> None:
        with database:
            database.execute(sql, args)

    write("DELETE FROM reviews WHERE game_id = ?", finished["id"])
    now = time.time()  # another process's claim, as the store writes it (SQLite: that process's clock)
    write(
        "INSERT INTO reviews (game_id, actions, body, created, status, owner, done, touched)"
        " VALUES (?, ?, '', ?, 'running', 'another process', 2, ?)",
        finished["id"],
        total,
        now,
        now,
    )
    try:
        page = open_review(browser, f"{server.base}/replay/{finished['id']}", 1280, 800)
        page.wait_for_function("document.body.dataset.review === 'running'", timeout=20000)
        assert f"2 of {total}" in page.locator("#review-progress").inner_text()
        write("UPDATE reviews SET done = 5, touched = ? WHERE game_id = ?", time.time(), finished["id"])
        page.wait_for_function(
            f"(document.getElementById('review-progress') || {{}}).textContent.includes('5 of {total}')",
            timeout=20000,
        )  # still polled: the other process's progress
        assert page.locator("#review-start").count() == 0 and page.locator("#review .error").count() == 0
        assert page.errors == []  # type: ignore[attr-defined]  # the script errors met, kept on the page
    finally:
        write("DELETE FROM reviews WHERE game_id = ? AND status = 'running'", finished["id"])
        database.close()


def test_the_review_draws_what_the_command_prints(server: Server, browser: Browser, finished: dict[str, Any]) -> None:
    expected = finished["expected"]
    page = open_review(browser, f"{server.base}/replay/{finished['id']}?review", 1280, 800)
    page.wait_for_function("document.body.dataset.review === 'running'", timeout=20000)  # asked: the expert works
    assert "reviewing" in page.locator("#review-progress").inner_text()
    page.wait_for_function("document.body.dataset.review === 'done'", timeout=120000)  # polled until it is kept
    points = json.loads(page.locator("#review-graph").get_attribute("data-points") or "[]")
    assert points == expected["graph"]
    assert page.locator("#review-graph polyline.seat-line").count() == expected["players"]
    marked = [(m["number"], m["mark"]) for m in expected["moves"] if m["mark"]]
    assert marked, "the seeded game has marked moves to show"
    on_graph = page.locator("#review-graph .mark-shape")
    assert [
        (int(on_graph.nth(i).get_attribute("data-number") or 0), on_graph.nth(i).get_attribute("data-mark"))
        for i in range(on_graph.count())
    ] == marked
    listed = page.locator("#review-marks button")
    assert [
        (int(listed.nth(i).get_attribute("data-number") or 0), listed.nth(i).get_attribute("data-mark"))
        for i in range(listed.count())
    ] == marked

    number, _mark = marked[-1]  # chosen by keyboard: the replay stands before it, the two moves marked
    move = next(m for m in expected["moves"] if m["number"] == number)
    listed.last.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.getElementById('step').textContent.startsWith('{number - 1} /')")
    page.locator("#review-chosen").wait_for()
    chosen = page.locator("#review-chosen").inner_text()
    assert f"{percent(move['chance_before'])}%" in chosen  # as the command prints it
    status = page.inner_text("#status")  # the status says the move chosen, not the action before it
    assert f"Review: before move {number} of " in status and "to play" in status, status
    from_table = [a for a in (move["played"], move["best"]) if a.split()[0] in ("buy", "reserve") and "." in a]
    assert from_table, "the seeded game's chosen move takes a card from the table"
    assert "the card at tier" not in chosen and "a tier" in chosen, chosen  # named, not only its place
    assert re.search(r"The expert prefers: (Take|Buy|Reserve) ", chosen), chosen  # advice, never "Greedy bot takes"
    assert "The expert: Greedy bot" not in page.inner_text("#review-marks")
    assert listed.last.get_attribute("aria-pressed") == "true"
    assert page.locator(".review-played").count() > 0
    # the move played comes into view: the review's panel had pushed the table under the screen's edge
    page.wait_for_function("""(() => { const played = document.querySelector('.review-played');
        if (!played) return false;  // the chosen move's position is drawn after the click: waited for, not read
        const r = played.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight; })()""")
    if move["best"] != move["played"]:
        assert page.locator(".hinted").count() > 0
    assert page.errors == []  # type: ignore[attr-defined]  # the script errors met, kept on the page
    page.evaluate("scrollTo(0, 0)")  # the docs' picture: the review's panel, its chosen move said
    page.screenshot(path=str(SHOTS / "review-desktop.png"), animations="disabled")


def test_a_cards_cost_reads_in_the_tables_order_whatever_order_it_came_in(
    server: Server, browser: Browser, finished: dict[str, Any]
) -> None:
    """A player's find: the review said "costs 3 black, 3 green and 6 red" of the card the log called "3 green, 6 red
    and 3 black" (the review's cards came with their colours sorted by name)."""
    page = open_review(browser, f"{server.base}/replay/{finished['id']}", 1280, 800)
    page.wait_for_function("document.body.dataset.actions !== undefined")
    said = page.evaluate("""import('/static/words.js').then((words) => words.cardWords('classic',
        { tier: 3, points: 4, bonus: 'red', bonus_count: 1, cost: { black: 3, green: 3, red: 6 } }))""")
    assert "costs 3 green, 6 red and 3 black" in said, said
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_review_on_a_phone(server: Server, browser: Browser, finished: dict[str, Any]) -> None:
    url = f"/api/games/{finished['id']}/review"
    with server.client() as c:  # asked for (unless a test before did) and kept
        assert c.post(url).status_code in (200, 202)
        wait_for(lambda: c.get(url).status_code == 200, seconds=120)
    page = open_review(browser, f"{server.base}/replay/{finished['id']}", 390, 844)
    page.wait_for_function("document.body.dataset.review === 'done'", timeout=60000)  # kept: shown at once
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "nothing wider than the phone"
    first = page.locator("#review-marks button").first
    assert first.bounding_box()["height"] >= 44  # type: ignore[index]  # a tap target
    page.screenshot(path=str(SHOTS / "review-phone.png"), full_page=False, animations="disabled")
    assert serious_violations(page) == []  # axe-core: the graph's text, the buttons' names, the contrast
    page.locator("#review-marks button").last.click()  # its move comes into sight above the fixed dock
    page.wait_for_function("""(() => { const played = document.querySelector('.review-played');
        if (!played) return false;  // drawn after the click, on a busy machine a moment later
        const r = played.getBoundingClientRect();
        const foot = document.getElementById('dock').getBoundingClientRect().top;
        return r.top >= 0 && r.bottom <= foot; })()""")
