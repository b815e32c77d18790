"""Accounts in a real browser: sign up in the lobby, play a rated game against a bot, see the rating change at
the end of the game, in the lobby and on the leaderboard; the account's seat plays from another browser."""

from __future__ import annotations

import random
import time

from playwright.sync_api import Browser, Page

from tests.server.conftest import Server
from tests.web.test_browser import browser, new_page, open_lobby, take_by_clicks, wait_past  # noqa: F401


def sign_up(page: Page, name: str, password: str) -> None:
    page.fill("#account-name", name)
    page.fill("#account-password", password)
    page.click("#sign-up")
    page.wait_for_selector("#sign-out")


def finish_by_requests(page: Page, game_id: str, seat: int) -> None:
    """Play the rest of the game for the seat with the browser's own session (no secret), random legal actions."""
    rng = random.Random(3)
    deadline = time.monotonic() + 180
    while True:
        assert time.monotonic() < deadline, "the game did not end"
        payload = page.request.get(f"/api/games/{game_id}?seat={seat}").json()
        view = payload["view"]
        if view["is_over"]:
            return
        if view["current_player"] != seat:
            time.sleep(0.05)
            continue
        page.request.post(f"/api/games/{game_id}/actions", data={
            "seat": seat, "action": rng.choice(view["legal_actions"]), "expect": payload["actions"]})


def test_sign_up_play_a_rated_game_against_a_bot_and_see_the_rating_change_and_the_leaderboard(
        server: Server, browser: Browser) -> None:  # noqa: F811
    context = browser.new_context(base_url=server.base, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto("/")
    page.wait_for_selector("[data-seat-kind='1']")
    page.fill("#account-name", "ann")
    page.fill("#account-password", "short")
    page.click("#sign-up")
    assert "8 to 200 characters" in page.inner_text("#account-error")
    sign_up(page, "ann", "correct horse battery")
    assert "Signed in as ann" in page.inner_text("#account")
    assert "No rated games yet" in page.inner_text("#my-ratings")
    assert page.get_attribute("#account-pokedex", "href") == "/pokedex/ann"      # the account's own Pokédex
    page.wait_for_selector("[data-seat-kind='1']")
    page.click("#create")                                   # seat 0 is the account's, against the greedy bot
    page.wait_for_url("**/play/**")
    page.wait_for_function("document.body.dataset.actions !== undefined")
    game_id = page.url.split("/play/")[1].split("?")[0]
    page.wait_for_selector("#kept-in-account")
    page.wait_for_function("document.getElementById('status').classList.contains('mine')")
    assert page.is_disabled("#hint") and "A rated game gives no hints" in page.inner_text("#hint-text")
    before = int(page.evaluate("document.body.dataset.actions"))
    take_by_clicks(page)                                    # the first move by clicks
    wait_past(page, before)
    finish_by_requests(page, game_id, 0)
    page.wait_for_selector("#rating-changes [data-rating-seat='0']", timeout=20000)
    change = page.inner_text("#rating-changes")
    assert "Ratings" in change and "0 →" in change
    finished = page.url
    page.click("#rematch")                                  # the rematch's seat is kept in the account too
    page.wait_for_url(lambda url: "/play/" in url and url != finished)
    page.wait_for_selector("#kept-in-account")
    page.go_back()
    page.wait_for_selector("#rating-changes a")
    page.click("#rating-changes a")                         # to the leaderboard of this game
    page.wait_for_selector("#leaderboard tr[data-player='ann']")
    row = page.inner_text("#leaderboard tr[data-player='ann']")
    assert row.split()[0] == "1" and row.split()[-1] == "1"    # rank 1, one rated game
    page.goto("/")
    page.wait_for_selector("#my-ratings li[data-rating-game='classic']")
    assert "rated games: 1" in page.inner_text("#my-ratings")
    page.wait_for_selector(f"#my-games tr[data-my-game='{game_id}']")
    # another browser, signed in as ann, finds the game and opens its seat without the secret link
    other = browser.new_context(base_url=server.base)
    elsewhere = other.new_page()
    elsewhere.goto("/")
    elsewhere.fill("#account-name", "ann")
    elsewhere.fill("#account-password", "correct horse battery")
    elsewhere.click("#sign-in")
    elsewhere.wait_for_selector(f"#my-games tr[data-my-game='{game_id}'] a")
    elsewhere.click(f"#my-games tr[data-my-game='{game_id}'] a")
    elsewhere.wait_for_selector("#game-over")
    assert "Ratings" in elsewhere.inner_text("#game-over")
    assert errors == []
    other.close()
    context.close()


def test_a_password_is_changed_and_a_wrong_one_refused_in_the_lobby(server: Server, browser: Browser) -> None:  # noqa: F811
    page = open_lobby(browser, server)
    sign_up(page, "bea", "correct horse battery")
    page.click("#password-form >> xpath=.. >> summary")          # change it, then sign in with the new one
    page.fill("#old-password", "correct horse battery")
    page.fill("#new-password", "staple battery horse")
    page.click("#change-password")
    page.wait_for_function("document.getElementById('password-said').textContent.includes('changed')")
    page.click("#sign-out")
    page.wait_for_selector("#sign-in")
    page.fill("#account-name", "bea")
    page.fill("#account-password", "wrong password")
    page.click("#sign-in")
    page.wait_for_function("document.getElementById('account-error').textContent.length > 0")
    assert "wrong name or password" in page.inner_text("#account-error")
    page.fill("#account-password", "staple battery horse")
    page.click("#sign-in")
    page.wait_for_selector("#sign-out")
    assert page.errors == []  # type: ignore[attr-defined]
