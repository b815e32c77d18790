"""'Your turn', wherever the player is: the table's title (and notification) when the opponent's move makes it the
seat's turn, never a spectator's; the lobby's games where it is your turn first, with their clocks; the installable
app: a manifest whose icons exist, and a service worker that serves the pages' files from its cache while every
/api/ request goes to the network."""

from __future__ import annotations

import re
import struct
from typing import Any

import httpx
from playwright.sync_api import Browser

import splendor
from tests.server.conftest import Server, create
from tests.web.test_browser import SHOTS, api_act, wait_past

HIDDEN = "Object.defineProperty(document, 'hidden', { get: () => true });"


def test_the_title_says_your_turn_when_the_opponent_moves_and_a_hidden_tab_notifies(
    server: Server, browser: Browser
) -> None:
    with server.client() as c:
        g = create(c, "classic", [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}], seed=4)
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.grant_permissions(["notifications"], origin=server.base)
    context.add_init_script("localStorage.setItem('splendor-notify', 'on');" + HIDDEN)
    ann = context.new_page()
    ann.goto(g["seats"][0]["link"])
    ann.wait_for_function("document.body.dataset.actions !== undefined")
    watcher = context.new_page()
    watcher.goto(f"{server.base}/watch/{g['id']}")
    watcher.wait_for_function("document.body.dataset.actions !== undefined")
    assert ann.title() == "● Your turn — Splendor"  # already hers when the page opened: said, not notified
    ann.wait_for_function("navigator.serviceWorker.controller !== null")
    with server.client() as c:
        api_act(c, g, 0, "take w b g")
    wait_past(ann, 0)
    assert ann.title() == "splendor — Splendor"  # bob's turn: the title is the game's again
    assert ann.evaluate("document.getElementById('notify-on').checked")
    with server.client() as c:
        api_act(c, g, 1, "take k k")
    wait_past(ann, 1)
    assert ann.title() == "● Your turn — Splendor"
    shown = ann.wait_for_function(
        """async () => {
            const shown = await (await navigator.serviceWorker.ready).getNotifications();
            return shown.length ? shown.map((n) => [n.title, n.body, n.data.url]) : null;
        }"""
    ).json_value()
    assert shown == [["Your turn", "Your move in Splendor.", f"/play/{g['id']}?seat=0"]]  # never the secret
    wait_past(watcher, 1)
    assert "Your turn" not in watcher.title()  # never for a spectator
    assert watcher.locator("#notify-label").is_hidden() and watcher.locator("#sound-label").is_hidden()
    context.close()


def test_on_a_phone_the_headers_icon_toggles_say_what_a_tap_did(server: Server, browser: Browser) -> None:
    """On a phone the tone's and the notifications' toggles are ♪ and a bell alone, and a touch screen shows no
    title: a newcomer could not tell what they were. A tap now says what it turned on or off, under the header,
    and each box has a name for a screen reader."""
    with server.client() as c:
        g = create(c, "classic", [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "random"}], seed=4)
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(g["seats"][0]["link"])
    page.wait_for_function("document.body.dataset.actions !== undefined")
    assert page.locator("#sound-label .sound-words").is_hidden()  # the icon alone
    title, language = page.locator("#title").bounding_box(), page.locator("#language").bounding_box()
    assert title and title["width"] <= 1  # the table is its own title: room for the language, not "Englis"
    assert language and language["x"] + language["width"] <= 390 and language["width"] >= 90
    assert page.get_attribute("#sound-on", "aria-label") == "sound on my turn"
    assert page.get_attribute("#notify-on", "aria-label") == "notify me"
    page.tap("#sound-label")
    page.wait_for_selector("#toggle-said", state="visible")
    assert page.inner_text("#toggle-said") == "Sound on your turn: on."
    said = page.locator("#toggle-said").bounding_box()
    assert said and said["x"] >= 0 and said["x"] + said["width"] <= 390, said  # whole on the screen
    page.tap("#sound-label")
    page.wait_for_function("document.getElementById('toggle-said').textContent === 'Sound on your turn: off.'")
    page.wait_for_selector("#toggle-said", state="hidden", timeout=8000)  # a few seconds, then gone
    context.close()


def test_the_lobby_lists_the_games_where_it_is_your_turn_first_with_their_clocks(
    server: Server, browser: Browser
) -> None:
    context = browser.new_context(base_url=server.base)
    assert context.request.post("/api/accounts", data={"name": "ann", "password": "a good password"}).ok
    seats = [{"kind": "human", "mine": True}, {"kind": "human", "name": "bob"}]
    mine = context.request.post("/api/games", data={"game": "classic", "seats": seats, "clock": "1d"}).json()
    theirs = context.request.post("/api/games", data={"game": "classic", "seats": seats}).json()  # the newer
    view = context.request.get(f"/api/games/{theirs['id']}?seat=0").json()["view"]
    assert context.request.post(
        f"/api/games/{theirs['id']}/actions", data={"seat": 0, "action": view["legal_actions"][0]}
    ).ok  # now bob's turn there
    games = context.request.get("/api/me").json()["games"]
    assert [(x["id"], x["your_turn"], x["time_control"]) for x in games] == [
        (mine["id"], True, "1d"),
        (theirs["id"], False, None),
    ]
    assert 86000 < games[0]["seconds_left"] <= 86400 and games[1]["seconds_left"] is None
    page = context.new_page()
    page.goto("/")
    # this browser played the other game last: the page lists it first among its own, and still puts yours first
    entry = {"id": theirs["id"], "seat": 0, "link": f"/play/{theirs['id']}?seat=0"}
    page.evaluate("(entry) => localStorage.setItem('splendor-my-games', JSON.stringify([entry]))", entry)
    page.reload()
    rows = page.locator("#my-games tbody tr")
    rows.nth(1).wait_for()
    assert rows.nth(0).get_attribute("data-my-game") == mine["id"]
    first = rows.nth(0).inner_text()
    assert "Your turn" in first and re.search(r"\b23:59:\d\d\b", first), first
    clock = rows.nth(0).locator(".time-left")
    before = clock.inner_text()
    page.wait_for_function(f"document.querySelector('#my-games .time-left').textContent !== '{before}'")  # counts down
    assert "Your turn" not in rows.nth(1).inner_text()
    page.locator("#my-games").screenshot(path=str(SHOTS / "your-games.png"), animations="disabled")
    context.close()


def test_the_lobby_says_waiting_for_players_not_your_turn_while_a_seat_is_open(
    server: Server, browser: Browser
) -> None:
    context = browser.new_context(base_url=server.base)
    assert context.request.post("/api/accounts", data={"name": "ann", "password": "a good password"}).ok
    seats = [{"kind": "human", "mine": True}, {"kind": "open"}]
    game = context.request.post("/api/games", data={"game": "classic", "seats": seats, "rated": False}).json()
    view = context.request.get(f"/api/games/{game['id']}?seat=0").json()["view"]
    assert view["current_player"] == 0  # ann's seat moves first, once the game starts
    page = context.new_page()
    page.goto("/")
    row = page.locator(f"#my-games tr[data-my-game='{game['id']}']")
    row.wait_for()
    assert row.get_attribute("data-your-turn") is None  # a boolean attribute: absent when false
    assert "waiting for players" in row.inner_text() and "Your turn" not in row.inner_text()
    with server.client() as c:
        assert c.post(f"/api/games/{game['id']}/seats/1/take", json={"name": "bob"}).status_code == 200
    page.reload()
    row.wait_for()
    assert row.get_attribute("data-your-turn") is not None and "Your turn" in row.inner_text()
    context.close()


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_is_valid_json_whose_icons_exist_and_every_page_links_it(server: Server) -> None:
    with server.client() as c:
        r = c.get("/manifest.webmanifest")
        assert r.headers["content-type"].startswith("application/manifest+json")
        manifest: dict[str, Any] = r.json()
        assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
        assert manifest["name"] and manifest["short_name"] and manifest["theme_color"] == "#3c2f1e"
        sizes = set()
        for icon in manifest["icons"]:
            got = c.get(icon["src"])
            assert got.status_code == 200 and got.headers["content-type"].startswith(icon["type"]), icon
            if icon["type"] == "image/png":
                w, h = _png_size(got.content)
                assert icon["sizes"] == f"{w}x{h}"
                sizes.add(w)
        assert {192, 512} <= sizes
        for page in ("/", "/leaderboard", "/pokedex/ash", "/watch/x"):
            html = c.get(page).text
            assert '<link rel="manifest" href="/manifest.webmanifest">' in html and "/static/install.js" in html


def test_the_service_worker_serves_the_pages_files_from_its_cache_and_never_the_game(
    server: Server, browser: Browser
) -> None:
    with server.client() as c:
        worker = c.get("/sw.js")
        assert worker.headers["cache-control"] == "no-cache" and "javascript" in worker.headers["content-type"]
        g = create(c, "classic", [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "greedy"}], seed=4)
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.base}/")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    from_worker: dict[str, bool] = {}
    page.on("response", lambda r: from_worker.__setitem__(httpx.URL(r.url).path, r.from_service_worker))
    page.reload()
    page.wait_for_function("document.querySelector('#games tbody tr') !== null")
    assert "ann and Greedy bot" in page.inner_text("#games tbody tr")  # the list names who plays
    assert from_worker["/static/lobby.js"] and from_worker["/static/app.css"]
    assert from_worker["/api/games"] is False  # the network's answer, untouched
    kept = page.evaluate(
        """async () => {
            const names = await caches.keys();
            const paths = [];
            for (const name of names) {
                for (const r of await (await caches.open(name)).keys()) paths.push(new URL(r.url).pathname);
            }
            return { names, paths };
        }"""
    )
    assert len(kept["names"]) == 1 and kept["names"][0].startswith(f"splendor-{splendor.__version__}-")
    assert "/static/table.js" in kept["paths"] and "/static/icons/icon-512.png" in kept["paths"]
    assert not [p for p in kept["paths"] if p.startswith("/api/")]
    server.stop()  # the network is gone: the table's page still opens from the cache, and says it cannot connect
    page.goto(f"{server.base}/play/{g['id']}?seat=0")
    page.wait_for_selector("#tabletop")
    assert page.evaluate("fetch('/api/health').then(() => 'answered', () => 'failed')") == "failed"
    context.close()


def test_a_push_while_the_games_page_is_on_screen_still_shows_a_quiet_notification(
    server: Server, browser: Browser
) -> None:
    with server.client() as c:
        g = create(c, "classic", [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}], seed=4)
    context = browser.new_context()
    context.grant_permissions(["notifications"], origin=server.base)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    registrations: list[str] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(r["registrationId"] for r in e["registrations"] if not r["isDeleted"]),
    )
    cdp.send("ServiceWorker.enable")
    page.goto(g["seats"][0]["link"])
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    assert page.evaluate("document.visibilityState") == "visible"
    url = f"/play/{g['id']}?seat=0"
    push = f'{{"type": "turn", "id": "{g["id"]}", "game": "Splendor", "url": "{url}"}}'
    cdp.send(
        "ServiceWorker.deliverPushMessage", {"origin": server.base, "registrationId": registrations[-1], "data": push}
    )
    shown = None
    for _ in range(50):
        shown = page.evaluate(
            """async () => (await (await navigator.serviceWorker.ready).getNotifications())
                .map((n) => [n.title, n.data.url, n.silent])"""
        )
        if shown:
            break
        page.wait_for_timeout(100)
    assert shown == [["Your turn", url, True]]  # shown (a push must be), but quiet: the page says the turn itself
    context.close()
