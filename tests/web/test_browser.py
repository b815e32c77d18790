"""The browser client in a real browser: Playwright driving Debian's Chromium (installed by scripts/chromium.sh)
against a real server process. (tests/web/test_table.py saves each game's table, desktop and phone, into
docs/screenshots.)"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route

import splendor
from splendor.bots import decide, make_bot
from tests.server.conftest import ROOT, Server, create

pytestmark = pytest.mark.one_server  # each test makes its own games ("Your games" lists a browser's own)

SHOTS = ROOT / "docs" / "screenshots"


def new_page(browser: Browser, width: int = 1100) -> Page:
    """A page that keeps the script errors it meets in ``page.errors``."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
    return page


def open_page(browser: Browser, url: str, width: int = 1100) -> Page:
    page = new_page(browser, width)
    page.goto(url)
    page.wait_for_function("document.body.dataset.actions !== undefined")
    return page


def actions(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.actions"))


def wait_past(page: Page, n: int, timeout: float = 20) -> None:
    try:
        page.wait_for_function(f"Number(document.body.dataset.actions) > {n}", timeout=timeout * 1000)
    except Exception:
        page.screenshot(path="/tmp/stuck.png", full_page=True)
        raise


def api_act(c: httpx.Client, g: dict[str, Any], seat: int, action: str) -> None:
    r = c.post(
        f"/api/games/{g['id']}/actions",
        json={"seat": seat, "action": action},
        headers={"x-seat-token": g["seats"][seat]["token"]},
    )
    assert r.status_code == 200, r.text


def my_turn(page: Page) -> bool:
    return bool(page.evaluate("document.getElementById('status').classList.contains('mine')"))


TAKEABLE = (
    "#supply button.chip:not([aria-disabled='true']):not([data-left='0'])"
    ":not([data-colour='gold']):not([data-colour='master'])"
)


def take_by_clicks(page: Page) -> None:
    """Pick up to three colours on the supply, then Take: a click on a token never sends by itself."""
    before = actions(page)
    for i in range(min(3, page.locator(TAKEABLE).count())):
        page.locator(TAKEABLE).nth(i).click()
    take = "#supply button.primary:not([disabled])"
    page.wait_for_function(
        f"document.querySelector(\"{take}\") || document.querySelector('#supply-note').textContent.length > 0"
    )
    if page.locator(take).count():
        page.locator(take).click()
        wait_past(page, before)


def test_lobby_creates_a_classic_game_against_a_bot_played_by_clicks_to_its_end(
    server: Server, browser: Browser
) -> None:
    page = open_lobby(browser, server)
    page.click("#create")  # one person, one bot: straight to the seat
    page.wait_for_url("**/play/**")
    page.wait_for_function("document.body.dataset.actions !== undefined")
    assert "Greedy bot" in page.inner_text("[data-seat='1']")
    assert "first to 15★ · round 1" in page.inner_text("#status")
    deadline = time.monotonic() + 240
    while page.evaluate("document.body.dataset.over") != "true":
        assert time.monotonic() < deadline, "the game did not end"
        if not my_turn(page):
            time.sleep(0.05)
            continue
        before = actions(page)
        if page.locator("#decision button").count():  # an emptied colour's button stays, greyed, in its place
            page.locator("#decision button:enabled").first.click()
        elif page.locator("#market button.card.affordable, [data-where='reserved'].affordable").count():
            card = page.locator("#market button.card.affordable, [data-where='reserved'].affordable").first
            assert card.get_attribute("title") == "✓ you can buy it now"  # its ✓ in words (a newcomer guessed)
            card.click()
            page.locator(".menu button.primary").first.click()
        else:
            take_by_clicks(page)
            if actions(page) == before and not page.locator(TAKEABLE).count():
                page.locator("#command-text").fill("pass")
                page.locator("#command button").click()
        wait_past(page, before)
    assert page.locator("#game-over").is_visible()
    assert "Download the record" in page.locator("#game-over").inner_text()
    assert "cards" in page.inner_text("#game-over thead")  # the tie-break's count beside the points
    assert page.evaluate("document.getElementById('game-over').getBoundingClientRect().top") < 200  # on top
    first = page.url
    page.click("#rematch")  # the same seats, a new game, straight to the seat
    page.wait_for_url(lambda url: "/play/" in url and url != first)
    page.wait_for_function("document.body.dataset.actions !== undefined")  # (the bot starts it, and may have)
    assert "round 1" in page.inner_text("#status")
    page.goto(server.base + "/")
    page.wait_for_selector("#my-games tr[data-my-game]")
    rows = page.locator("#my-games tr[data-my-game]")
    assert rows.count() == 2
    assert "won by" in rows.nth(1).inner_text() or "no winner" in rows.nth(1).inner_text()
    assert "rejoin" in rows.nth(0).inner_text() and "Greedy bot" in rows.nth(0).inner_text()
    ended_id = first.split("/play/")[1].split("?")[0]  # the games list says who won it, not only "won"
    listed = page.locator("#games tbody tr", has=page.locator(f"a[href='/replay/{ended_id}']"))
    listed.wait_for()  # the games list is fetched apart from "Your games"
    said = listed.inner_text()
    assert re.search(r"(minutes? ago|now)", listed.locator("time").inner_text())  # when it started
    assert re.search(r"(won|shared) by \S", said) or "turn limit reached" in said or "stalled" in said, said
    assert page.errors == []  # type: ignore[attr-defined]


def open_lobby(browser: Browser, server: Server) -> Page:
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("[data-seat-kind='1']")
    return page


@pytest.mark.warm_bots
def test_the_lobby_seats_the_expert_bot_and_it_answers_a_move(server: Server, browser: Browser) -> None:
    page = open_lobby(browser, server)
    assert "Expert bot" in page.inner_text("[data-seat-kind='1']")
    page.select_option("[data-seat-kind='1']", "ismcts:expert")
    page.click("#create")
    page.wait_for_url("**/play/**")
    page.wait_for_function("document.body.dataset.actions !== undefined")
    assert "Expert bot" in page.inner_text("[data-seat='1']")
    take_by_clicks(page)
    wait_past(page, 1, timeout=60)  # the expert's reply
    assert "Expert bot" in page.inner_text("#log") and my_turn(page)
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_pokemon_evolution_is_offered_and_made_by_a_click(server: Server, browser: Browser) -> None:
    game = splendor.new_game("pokemon", players=2, seed=0)
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    while not (game.view(None)["decision"] == "evolve" and game.current_player == 0):
        game.apply(decide(bots[game.current_player], game))  # type: ignore[index]
    with server.client() as c:
        g = create(c, "pokemon", [{"kind": "human", "name": "ash"}, {"kind": "human"}], seed=0)
        for n, text in enumerate(a.text for a in game.history):
            seat = splendor.replay(game.record, upto=n).current_player
            api_act(c, g, seat, text)  # type: ignore[arg-type]
    page = open_page(browser, g["seats"][0]["link"])
    assert "evolve" in page.locator("#decision").inner_text().lower()
    first = page.locator("#decision button[data-action^='evolve ']:not([data-action='evolve none'])").first
    words = first.inner_text()  # "Evolve Bulbasaur into Ivysaur": names, not numbers
    assert words.startswith("Evolve ") and " into " in words and "#" not in words
    into = words.split(" into ")[1]
    assert page.locator(".card.evolve-target").count() >= 1  # the target card is marked
    assert into in page.locator(".card.evolve-target").first.inner_text()
    before = actions(page)
    page.locator("#decision button[data-action^='evolve ']:not([data-action='evolve none'])").first.click()
    wait_past(page, before)
    assert page.locator("[data-seat='0']").inner_text().count("trainer tile: —") == 0
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_kids_move_along_a_road_and_a_return_over_the_purse_limit(server: Server, browser: Browser) -> None:
    with server.client() as c:
        g = create(
            c, "kids", [{"kind": "human"}] * 3, seed=2, options={"short": True, "board": ["A1-front", "A3-front"]}
        )
        for seat, text in (
            (0, "take k r g"),
            (1, "take h b k"),
            (2, "take h b r"),
            (0, "take k r g"),
            (1, "take g h b"),
            (2, "take y"),
        ):
            api_act(c, g, seat, text)
        page = open_page(browser, g["seats"][0]["link"])
        assert "Roads from here" in page.inner_text("#roads")
        before = actions(page)
        take_by_clicks(page)  # 6 + 3 = 9 tokens: over the purse's 8
        wait_past(page, before)
        assert "Your purse holds 9 tokens, 8 at most: return 1" in page.locator("#decision").inner_text()
        assert page.locator("#decision button .chip").count() == page.locator("#decision button").count()
        before = actions(page)
        page.locator("#decision button").first.click()
        wait_past(page, before)
        assert c.get(f"/api/games/{g['id']}").json()["view"]["seats"][0]["purse_total"] == 8
        api_act(c, g, 1, "take y")
        api_act(c, g, 2, "take y")
        page.wait_for_function("document.getElementById('status').classList.contains('mine')")
        page.locator("#roads button:has-text('move')").first.click()
        before = actions(page)
        page.locator("#payments button.primary").first.click()
        wait_past(page, before)
        here = c.get(f"/api/games/{g['id']}").json()["view"]["seats"][0]["space"]
        assert here != "A1.port"
        assert page.errors == []  # type: ignore[attr-defined]


def test_two_browsers_as_two_seats_see_each_others_moves_live(server: Server, browser: Browser) -> None:
    with server.client() as c:
        g = create(c, "classic", [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}], seed=4)
    ann = open_page(browser, g["seats"][0]["link"])
    bob = open_page(browser, g["seats"][1]["link"])
    take_by_clicks(ann)
    wait_past(bob, 0)
    assert "ann takes" in bob.inner_text("#log")
    assert my_turn(bob) and not my_turn(ann)
    take_by_clicks(bob)
    wait_past(ann, 1)
    assert "bob takes" in ann.inner_text("#log")


@pytest.mark.warm_bots
def test_a_hint_names_the_expert_bots_move_and_its_win_chance_on_your_turn_only(
    server: Server, browser: Browser
) -> None:
    g = _two_humans(server)
    ann, bob = open_page(browser, g["seats"][0]["link"]), open_page(browser, g["seats"][1]["link"])
    assert ann.is_visible("#hint") and not bob.is_visible("#hint")
    ann.click("#hint")
    ann.wait_for_function("document.getElementById('hint-text').textContent.startsWith('Hint: ')")
    text = ann.inner_text("#hint-text")
    # said to the one who asked, as advice: "Hint: Take red, blue and green (...)", never "ann (you) takes"
    assert re.match(r"Hint: (Take|Reserve|Buy) ", text) and "(you)" not in text, text
    assert "Estimated chance of winning" in text, text
    take_by_clicks(ann)
    assert ann.inner_text("#hint-text") == "" and not ann.is_visible("#hint")
    assert ann.errors == [] and bob.errors == []  # type: ignore[attr-defined]


def test_a_reload_mid_game_rejoins_the_seat_where_it_was(server: Server, browser: Browser) -> None:
    with server.client() as c:
        g = create(c, "classic", [{"kind": "human"}, {"kind": "human"}], seed=6)
        api_act(c, g, 0, "reserve deck 1")
        api_act(c, g, 1, "take w b g")
    page = open_page(browser, g["seats"][0]["link"])
    page.reload()
    page.wait_for_function("Number(document.body.dataset.actions) === 2")
    assert my_turn(page) and "face-down" not in page.inner_text("[data-seat='0']")
    assert "reserved" in page.inner_text("[data-seat='0']")


@pytest.mark.parametrize("game", ["classic", "pokemon", "kids"])
def test_the_table_fits_a_phone_width_screen(server: Server, browser: Browser, game: str) -> None:
    with server.client() as c:
        g = create(c, game, [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "greedy"}], seed=3)
    for width in (1100, 375):
        page = open_page(browser, g["seats"][0]["link"], width=width)
        if game == "kids":
            page.wait_for_selector("#board svg", state="attached")
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"{game} at {width}px is {overflow}px too wide"
        assert page.errors == []  # type: ignore[attr-defined]


def test_replay_and_pokedex_pages(server: Server, browser: Browser) -> None:
    with server.client() as c:
        g = create(
            c,
            "classic",
            [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}],
            seed=8,
            options={"max_turns": 6},
        )
        deadline = time.monotonic() + 60
        while not c.get(f"/api/games/{g['id']}").json()["view"]["is_over"]:
            assert time.monotonic() < deadline
            time.sleep(0.1)
    page = new_page(browser)
    page.goto(f"{server.base}/replay/{g['id']}")
    page.wait_for_function("document.getElementById('step').textContent.startsWith('0 /')")
    page.click("#next")
    page.wait_for_function("document.getElementById('step').textContent.startsWith('1 /')")
    assert "action 1 of 6" in page.inner_text("#status")
    page.goto(f"{server.base}/pokedex/nobody-plays-as-me")  # a name nobody has (a typo): said, not a blank Pokédex
    page.wait_for_function("document.getElementById('heading').textContent.includes('/55')")
    assert page.locator("#unknown").is_visible() and "check its spelling" in page.inner_text("#unknown")
    with server.client() as c:
        assert c.post("/api/profiles", json={"name": "zoe-page-test"}).status_code == 201
        assert (
            c.get("/api/pokedex/zoe-page-test").json()["known"] and not c.get("/api/pokedex/zoë-typo").json()["known"]
        )
    page.goto(f"{server.base}/pokedex/zoe-page-test")  # a profile that has caught nothing yet: its Pokédex, empty
    page.wait_for_function("document.getElementById('heading').textContent.includes('/55')")
    assert not page.locator("#unknown").is_visible()
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_replay_of_a_game_still_going_says_so_and_offers_to_watch_it(server: Server, browser: Browser) -> None:
    """A game owner's find: the replay page of an unfinished or unknown game kept saying "Connecting…"."""
    with server.client() as c:
        g = create(c, "classic", [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}])
    page = new_page(browser)
    page.goto(f"{server.base}/replay/{g['id']}")
    page.wait_for_selector("#watch-instead")
    assert "Replays are of finished games" in page.inner_text("#status") and page.is_disabled("#next")
    page.goto(f"{server.base}/replay/{'0' * 32}")
    page.wait_for_function("!document.getElementById('status').textContent.includes('Connecting')")
    assert "0" * 32 in page.inner_text("#status") and page.locator("#watch-instead").count() == 0
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_name_typed_to_claim_survives_the_account_answering_late(server: Server, browser: Browser) -> None:
    """The lobby draws the claim form at once and again when ``/api/session`` answers: what was typed stays."""
    page = new_page(browser)
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/api/session", hold)
    page.goto(server.base + "/")
    page.fill("#claim-name", "dawn")
    for _ in range(500):  # the lobby asks within 10 s, or the test fails
        if held:
            break
        page.wait_for_timeout(20)
    assert held, "the lobby never asked /api/session"
    held[0].continue_()
    page.wait_for_selector("#account-form")  # the account answered: not signed in
    assert page.input_value("#claim-name") == "dawn"
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_guests_pages_show_no_failed_request_in_the_console(server: Server, browser: Browser) -> None:
    """The pages asked ``/api/me`` who was signed in, and a guest's answer, a 401, showed as a failed request in the
    browser's console of the lobby and of every table: they ask ``/api/session``, which answers a guest with null.
    A replay asked for the game's review, a 404 where nobody had asked for one: a 204 now."""
    with server.client() as c:
        g = create(c, "classic", [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "greedy"}])
    context = browser.new_context()
    page = context.new_page()
    said: list[str] = []
    page.on("console", lambda m: said.append(m.text) if m.type == "error" else None)
    page.goto(server.base + "/")
    page.wait_for_selector("#account-form")  # the lobby has learnt that the reader is a guest
    page.goto(g["seats"][0]["link"])
    page.wait_for_function("document.body.dataset.actions !== undefined")
    page.wait_for_timeout(500)  # the table asks who is signed in after its first drawing
    page.goto(server.base + "/leaderboard")
    page.wait_for_load_state("networkidle")
    with server.client() as c:  # and a finished game's replay, which asks for a review nobody asked for (a 404)
        r = c.post(f"/api/games/{g['id']}/seats/0/resign", headers={"x-seat-token": g["seats"][0]["token"]}, json={})
        assert r.status_code == 200, r.text
    page.goto(f"{server.base}/replay/{g['id']}")
    page.wait_for_selector("#review-start")  # no review yet: a button to ask for one
    assert said == []
    assert page.request.get(server.base + "/api/session").json() == {"account": None}
    context.close()


def test_a_browser_claims_a_profile_and_keeps_its_pokemon_games_in_that_pokedex(
    server: Server, browser: Browser
) -> None:
    page = open_lobby(browser, server)
    page.fill("#claim-name", "dawn")
    page.click("#claim")
    page.wait_for_selector("#me-name")
    assert page.inner_text("#me-name") == "dawn"
    page.select_option("#game", "pokemon")
    assert page.locator("#mark-me").is_checked()
    page.click("#create")
    page.wait_for_url("**/play/**")
    page.wait_for_function("document.body.dataset.actions !== undefined")
    assert "Pokédex of dawn" in page.inner_text("#keep")
    with server.client() as c:  # the profile is taken now: another browser cannot claim it
        assert c.post("/api/profiles", json={"name": "dawn"}).status_code == 409
        # a game whose seat the browser links later, with the button
        g = create(c, "pokemon", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    page.goto(g["seats"][0]["link"])
    page.wait_for_selector("#keep-in-pokedex")
    page.click("#keep-in-pokedex")
    page.wait_for_function("document.getElementById('keep').textContent.includes('Pokédex of dawn')")
    with server.client() as c:
        assert c.get(f"/api/games/{g['id']}").json()["seats"][0]["profile"] == "dawn"
    assert page.errors == []  # type: ignore[attr-defined]


def _two_humans(server: Server, game: str = "classic", seed: int = 4) -> dict[str, Any]:
    with server.client() as c:
        return create(c, game, [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}], seed=seed)


def test_a_double_click_on_an_action_sends_it_once(server: Server, browser: Browser) -> None:
    """Reserve (from a card's menu) double-clicked: one request, no "the game has moved on" error."""
    g = _two_humans(server)
    page = open_page(browser, g["seats"][0]["link"])
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/actions") else None)
    page.locator("#market button.card").first.click()
    page.locator(".menu button.primary", has_text="Reserve").dblclick()
    wait_past(page, 0)
    page.wait_for_timeout(300)
    assert len(posts) == 1 and actions(page) == 1
    assert page.inner_text("#error") == ""
    assert "reserves a tier 3 card (" in page.inner_text("#log")  # the log names the card
    page.click("#how-to-play summary")
    assert "When someone reaches 15★" in page.inner_text("#how-to-play")
    assert page.errors == []  # type: ignore[attr-defined]


def test_an_update_under_the_pointer_keeps_the_element_and_the_focus(server: Server, browser: Browser) -> None:
    """Bob's move arrives while Ann hovers a card and has the focus on a token: both stay the same elements
    (changed in place), so the click lands and the keyboard goes on where it was."""
    g = _two_humans(server)
    ann = open_page(browser, g["seats"][0]["link"])
    with server.client() as c:
        api_act(c, g, 0, "take w b g")
    wait_past(ann, 0)
    card = ann.locator("#market button.card").first
    assert card.get_attribute("aria-disabled") == "true"  # not Ann's turn: the card waits, a button already
    card.hover()
    ann.evaluate("document.querySelector('#market button.card').marked = 'yes'")  # a property of the element
    ann.locator("[data-key='supply:red']").focus()
    ann.evaluate("document.querySelector(\"[data-key='supply:red']\").marked = 'yes'")
    with server.client() as c:
        api_act(c, g, 1, "take k k")
    wait_past(ann, 1)
    assert ann.locator("[data-key='supply:black'].changed").count() == 1  # what Bob did is marked
    assert ann.locator("[data-key='seat:1:token:black'].changed").count() == 1
    assert ann.locator("[data-key='supply:white'].changed").count() == 0
    assert ann.title().startswith("● Your turn")
    assert ann.inner_text("#announce") == "bob takes two black tokens."  # what a screen reader hears
    assert ann.evaluate("document.querySelector('#market button.card').marked") == "yes"
    assert ann.evaluate("document.activeElement.dataset.key") == "supply:red"
    assert ann.evaluate("document.activeElement.marked") == "yes"
    ann.keyboard.press("Enter")  # the focused red token is picked
    assert ann.locator("[data-key='supply:red'].selected").count() == 1
    card.click()  # the hovered card opens its menu, focus moves in
    assert ann.evaluate("document.activeElement.closest('.menu') !== null")
    ann.keyboard.press("Escape")
    assert ann.locator(".menu").count() == 0
    assert ann.evaluate("document.activeElement.classList.contains('card')")
    assert ann.errors == []  # type: ignore[attr-defined]


def test_a_card_menu_at_phone_width_is_covered_by_nothing(server: Server, browser: Browser) -> None:
    g = _two_humans(server)
    page = open_page(browser, g["seats"][0]["link"], width=375)
    cards = page.locator("#market button.card")
    for i in (0, 1, 2, 3):  # a card at each place of a row
        cards.nth(i).click()
        menu = page.locator(".menu").bounding_box()
        assert menu and menu["width"] >= 200 and menu["x"] >= 0 and menu["x"] + menu["width"] <= 375, menu  # words
        for button in page.locator(".menu button").all():
            box = button.bounding_box()
            assert box is not None and box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 375
            hit = page.evaluate(
                "([x, y]) => document.elementFromPoint(x, y).closest('.menu') !== null",
                [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
            )
            assert hit, "something covers the menu"
        page.locator(".menu button", has_text="Cancel").click()
        assert page.locator(".menu").count() == 0
    assert page.errors == []  # type: ignore[attr-defined]


def serious_violations(page: Page) -> list[str]:
    """What axe-core (the accessibility engine browsers' dev tools use) finds serious or critical on the page."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("game", ["classic", "pokemon", "kids"])
def test_axe_finds_nothing_serious_on_the_lobby_the_tables_and_the_end(
    server: Server, browser: Browser, game: str
) -> None:
    with server.client() as c:
        g = create(c, game, [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "greedy"}], seed=3)
        ended = create(
            c,
            game,
            [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "greedy"}],
            seed=3,
            options={"max_turns": 1},
        )
        first = c.get(
            f"/api/games/{ended['id']}", params={"seat": 0}, headers={"x-seat-token": ended["seats"][0]["token"]}
        ).json()["view"]["legal_actions"][0]
        api_act(c, ended, 0, first)  # one turn each, then the turn cap ends it
    pages = [
        open_lobby(browser, server),
        open_page(browser, g["seats"][0]["link"]),
        open_page(browser, ended["seats"][0]["link"]),
    ]
    if game == "kids":
        pages[1].wait_for_selector("#board svg")
    pages[2].wait_for_selector("#game-over")
    for page in pages:
        assert serious_violations(page) == [], page.url
    page.evaluate("document.body.append(Object.assign(document.createElement('button'), {id: 'unnamed'}))")
    assert any("button-name" in v for v in serious_violations(page))  # axe does look
