"""Finding a game in the lobby (issue 33, item 1): two accounts in two browsers press "Play now" and land at the same
table, talk both ways in its chat, and play it to its end; a game created with an open seat waits for players, is
listed in the lobby, and a guest joins it with one click."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from tests.server.conftest import Server, create
from tests.web.test_accounts import sign_up
from tests.web.test_browser import new_page, open_lobby

PASSWORD = "correct horse"


def game_of(page: Page) -> str:
    return page.url.split("/play/")[1].split("?")[0]


def test_two_accounts_press_quick_play_and_play_one_game_to_its_end(server: Server, browser: Browser) -> None:
    ann, bob = open_lobby(browser, server), open_lobby(browser, server)  # two browser contexts
    sign_up(ann, "ann", PASSWORD)
    sign_up(bob, "bob", PASSWORD)
    for page in (ann, bob):
        page.wait_for_selector("#guest-name-label", state="hidden")  # an account plays under its own name
        assert not page.is_checked("#quick-rated") and page.is_enabled("#quick-rated")  # so accounts meet guests
        assert "no hints" in page.inner_text("#quick-rated-why")  # said beside it, not in a title a phone hides
        page.select_option("#quick-game", "classic")
        page.select_option("#quick-players", "2")
    options = "[...document.getElementById('%s').options].map((o) => [o.value, o.textContent])"
    offered = ann.evaluate(options % "quick-clock")
    assert offered == ann.evaluate(options % "clock")  # the clocks a new game offers, in one list
    assert [value for value, _ in offered] == ["", "3+2", "5+10", "10+5", "15+10", "1d", "2d", "3d"]
    ann.click("#quick-go")
    ann.wait_for_selector("#quick-waiting:not([hidden])")
    ann.wait_for_function("document.getElementById('quick-status').textContent.includes('ratings')")
    said = ann.inner_text("#quick-status")  # the window around a newcomer's 1500, widening with the wait
    assert "Waiting for players" in said and "ratings 1" in said and " to 16" in said
    bob.click("#quick-go")
    for page in (ann, bob):
        page.wait_for_url("**/play/**", timeout=20000)
        page.wait_for_function("document.body.dataset.actions !== undefined")
    assert game_of(ann) == game_of(bob)
    assert "ann (you)" in ann.inner_text("body") and "bob (you)" in bob.inner_text("body")
    # they talk both ways at the table: a typed line one way, a canned phrase the other
    ann.locator("#chat summary").click()
    bob.locator("#chat summary").click()
    ann.locator("#chat-text").fill("hello bob, good luck")
    ann.locator("#chat-text").press("Enter")
    bob.wait_for_function(
        "[...document.querySelectorAll('#chat .chat-words')].some(w => w.textContent.includes('hello bob'))"
    )
    bob.locator("#chat .chat-phrase[data-phrase='hello']").click()
    ann.wait_for_function("[...document.querySelectorAll('#chat .chat-words')].some(w => w.textContent === 'Hello!')")
    # the one to move plays a move with the session alone (the seat is the account's), then the other resigns
    payload = ann.request.get(f"{server.base}/api/games/{game_of(ann)}").json()
    first = payload["view"]["current_player"]
    seats = {s["name"]: s["seat"] for s in payload["seats"]}
    mover = ann if seats["ann"] == first else bob
    other = bob if mover is ann else ann
    view = mover.request.get(f"{server.base}/api/games/{game_of(mover)}?seat={first}").json()["view"]
    r = mover.request.post(
        f"{server.base}/api/games/{game_of(mover)}/actions",
        data={"seat": first, "action": view["legal_actions"][0], "expect": 0},
    )
    assert r.ok, r.text()
    other.wait_for_function("Number(document.body.dataset.actions) >= 1")
    other.locator("#resign").click()
    other.locator("#leave-confirm").click()
    for page in (ann, bob):
        page.wait_for_function("document.body.dataset.over === 'true'")
        assert "resigned" in page.locator("#ending").inner_text()
    bob.locator("#chat .chat-phrase[data-phrase='good_game']").click()  # said after the end, still heard
    ann.wait_for_function(
        "[...document.querySelectorAll('#chat .chat-words')].some(w => w.textContent.startsWith('Good game'))"
    )
    assert ann.errors == [] and bob.errors == []  # type: ignore[attr-defined]
    ann.close()
    bob.close()


def test_an_open_seat_is_listed_in_the_lobby_and_a_guest_joins_it(server: Server, browser: Browser) -> None:
    ann = open_lobby(browser, server)
    assert ann.is_hidden("#rated-label")  # a guest's games are never rated
    ann.select_option("[data-seat-kind='1']", "open")
    ann.fill("[data-seat-name='0']", "ann")
    ann.click("#create")
    ann.wait_for_url("**/play/**")
    ann.wait_for_function("document.getElementById('status').textContent.includes('Waiting for players')")
    invite = ann.get_attribute("#invite-link", "value")  # a link to send: never the creator's own seat's address
    game = game_of(ann)
    assert invite == f"{server.base}/?open={game}" and ann.is_visible("#invite")
    assert ann.is_visible("#abort") and ann.is_hidden("#resign")  # nobody to lose to yet: only called off
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
    ann.click("#invite-copy")  # said on the button; the table stays as it was
    ann.wait_for_function("document.getElementById('invite-copy').textContent === 'Copied.'")
    assert ann.evaluate("navigator.clipboard.readText()") == invite
    assert "Waiting for players" in ann.inner_text("#status")
    table = ann.url
    ann.goto(f"{server.base}/")  # ann's own open game, in her lobby: her seat to open, not a Join refused
    ann.locator(f"[data-open-game='{game}'] [data-yours]").wait_for()
    assert ann.locator(f"[data-join='{game}']").count() == 0
    assert ann.get_attribute(f"[data-open-game='{game}'] [data-yours]", "href").startswith(f"/play/{game}?seat=0")
    ann.click(f"[data-open-game='{game}'] [data-yours]")
    ann.wait_for_url(table)
    ann.wait_for_function("document.body.dataset.actions !== undefined")
    guest = new_page(browser, 390)
    guest.goto(invite)
    row = guest.locator("[data-open-game].invited")  # the game invited to, marked, its Join in focus
    row.wait_for()
    assert "ann" in row.inner_text() and "1 of 2" in row.inner_text()
    assert "invited" in guest.inner_text("#invited")
    assert guest.is_disabled("#quick-rated") and not guest.is_checked("#quick-rated")  # a guest plays unrated
    assert guest.inner_text("#quick-rated-why") == "(sign in to play rated games)"  # said, not only on a hover
    # a guest's name is asked for beside the invitation, not in Quick play's form above it
    guest.wait_for_function("document.activeElement && document.activeElement.id === 'invite-name'")
    guest.click("[data-join]")  # no name yet: asked for one there, nothing taken
    assert "name" in guest.inner_text("#invite-error") and guest.inner_text("#quick-error") == ""
    guest.fill("#invite-name", "zoe")
    guest.press("#invite-name", "Enter")  # joins the game invited to, never Quick play's search
    guest.wait_for_url("**/play/**")
    guest.wait_for_function("document.body.dataset.actions !== undefined")
    assert "zoe (you)" in guest.inner_text("body")
    ann.wait_for_function("document.body.textContent.includes('zoe')")
    ann.wait_for_function("document.getElementById('log').textContent.includes('zoe joined from the lobby.')")
    ann.wait_for_function("!document.getElementById('status').textContent.includes('Waiting for players')")
    assert ann.is_hidden("#invite") and ann.is_visible("#resign")  # the game has begun
    guest.goto(f"{server.base}/?open={game}")  # the link again, once the game has begun
    guest.wait_for_function("document.getElementById('invited').textContent.includes('no longer open')")
    assert guest.is_hidden("#invite-join")  # nothing to join
    guest.goto(f"{server.base}/play/{game}?seat=0")  # a seat's address without its secret: watch it instead
    guest.wait_for_selector("#watch-instead")
    kept = guest.evaluate("JSON.parse(localStorage.getItem('splendor-my-games') || '[]')")
    assert [(g["id"], g["seat"]) for g in kept] == [(game, 1)]  # a refused address is never kept as a game of hers
    guest.wait_for_selector("#watch-instead")
    # the server's reason as a sentence, the seat named as the table names it, then the ways on
    assert guest.inner_text("#status").startswith("Wrong or missing secret for Player 1's seat.\n")
    assert guest.get_attribute("#watch-instead", "href") == f"/watch/{game}"
    assert guest.get_attribute("#sign-in-instead", "href") == "/"
    assert ann.errors == [] and guest.errors == []  # type: ignore[attr-defined]
    ann.close()
    guest.close()


def test_on_a_touch_screen_the_lobbys_forms_are_a_fingers_size_and_a_bot_joins_after_a_minute(
    server: Server, browser: Browser
) -> None:
    """A newcomer on a tablet met selects 22 px tall and a rated box of 13 px; and Quick play waited for people
    for ever unless told otherwise, on a server where nobody else may come."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("[data-seat-kind='1']")
    heights = page.evaluate(
        "[...document.querySelectorAll('main select')].map((s) => s.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 44, heights
    box = page.locator("#quick-rated").bounding_box()
    assert box and box["height"] >= 24
    assert page.input_value("#quick-bot") == "60"
    page.wait_for_selector("#games td.none")  # a new server's games list says it has none, not headings alone
    assert "No games yet on this server" in page.inner_text("#games")
    context.close()


def test_on_a_phone_quick_plays_rated_box_stands_beside_its_word(server: Server, browser: Browser) -> None:
    """On a phone the rated box stood alone on a line, its word and its reason on the next."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_function("document.getElementById('quick-rated-why').textContent.length > 0")
    box, word = page.locator("#quick-rated").bounding_box(), page.locator("#quick-rated + span").bounding_box()
    assert box and word and word["x"] > box["x"] + box["width"]
    assert box["height"] <= 30 and box["y"] < word["y"] + word["height"] / 2 < box["y"] + box["height"], (box, word)
    context.close()


def test_a_guest_waiting_in_quick_play_is_told_no_window_of_ratings(server: Server, browser: Browser) -> None:
    page = open_lobby(browser, server)
    page.fill("#guest-name", "zoe")
    page.select_option("#quick-bot", "")  # no bot: the seek stays waiting
    page.click("#quick-go")
    page.wait_for_function("document.getElementById('quick-status').textContent.includes('0:')")
    said = page.inner_text("#quick-status")
    assert said.startswith("Waiting for players… 0:0") and "rat" not in said and "1500" not in said, said
    page.click("#quick-cancel")
    page.wait_for_selector("#quick-waiting", state="hidden")
    page.close()


def test_the_lobbys_lists_fit_a_phones_width(server: Server, browser: Browser) -> None:
    """The games list's six columns were 418 px wide on a 390 px phone (470 in Slovenian): the page scrolled
    sideways and cut the watch and replay links. On a phone each game is a line of the list, as an open game is."""
    with server.client() as c:
        for seats in ([{"kind": "human", "name": "Annabelle"}, {"kind": "bot", "bot": "greedy"}],) * 2:
            r = c.post("/api/games", json={"game": "pokemon", "seats": seats})
            assert r.status_code == 201, r.text
    for language in ("en-GB", "sl-SI"):
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale=language, has_touch=True)
        page = context.new_page()
        page.goto(server.base + "/")
        page.wait_for_selector("#games tbody tr")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, language
        link = page.locator("#games tbody tr a").first.bounding_box()
        assert link and link["x"] + link["width"] <= 390
        context.close()


def test_on_a_phone_play_now_without_a_name_says_why_on_screen(server: Server, browser: Browser) -> None:
    """The name box took the focus, but the reason lay under the screen's edge, below the button tapped."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("[data-seat-kind='1']")
    page.fill("#guest-name", "")
    page.evaluate("document.getElementById('quick-go').scrollIntoView({ block: 'end' })")  # the button at the foot
    page.tap("#quick-go")
    page.wait_for_function("document.getElementById('quick-error').textContent.includes('name')")
    page.wait_for_timeout(300)
    box = page.locator("#quick-error").bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844 + 1, box
    context.close()


def test_the_lobbys_lists_and_the_table_name_a_kids_games_variant(server: Server, browser: Browser) -> None:
    """A newcomer found a Kids game in the lists with nothing to say it plays the Mysteries: whoever joins or
    watches it learned so only at the table."""
    with server.client() as c:
        seats = [{"kind": "human", "name": "ann"}, {"kind": "open"}]
        r = c.post("/api/games", json={"game": "kids", "seats": seats, "options": {"mysteries": True}, "clock": "1d"})
        assert r.status_code == 201, r.text
        game = r.json()["id"]
        called_off = create(c, "classic", [{"kind": "human", "name": "cy"}, {"kind": "bot", "bot": "greedy"}])
        r = c.post(
            f"/api/games/{called_off['id']}/seats/0/abort", headers={"x-seat-token": called_off["seats"][0]["token"]}
        )
        assert r.status_code == 200, r.text
    page = open_lobby(browser, server)
    page.wait_for_selector(f"[data-open-game='{game}']")
    row = page.inner_text(f"[data-open-game='{game}']")
    assert "Splendor Kids (Mysteries variant)" in row and "1 day a move" in row  # the clock as the lobby offers it
    page.wait_for_selector("#games tbody tr")
    assert "Splendor Kids (Mysteries variant)" in page.inner_text("#games tbody tr >> nth=1")
    aborted = page.locator("#games tbody tr >> nth=0")  # called off before a move: nothing to replay
    assert "aborted" in aborted.inner_text() and aborted.locator("a").count() == 0
    page.goto(f"{server.base}/watch/{game}")
    page.wait_for_function("document.getElementById('title').textContent.includes('Mysteries variant')")
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def test_the_lobby_is_panels_under_their_headings_two_columns_wide_one_on_a_phone(
    server: Server, browser: Browser
) -> None:
    """A newcomer found the lobby's headings inside some boxes and above others, and the leaderboards' link
    between two of them: every section is now a panel under its own heading; what to play on the left and who you
    are on the right, on a phone one column, the account first."""
    sections = ["#find-game", "#open-games-panel", "#new-game-panel", "#games-panel", "#account", "#learn"]
    for width in (1280, 768, 390):
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        page.goto(server.base + "/")
        page.wait_for_selector("[data-seat-kind='1']")
        headed = page.evaluate(
            "(ids) => ids.map((id) => document.querySelector(id).classList.contains('panel')"
            " && document.querySelector(id).firstElementChild.tagName === 'H2')",
            sections,
        )
        assert all(headed), dict(zip(sections, headed, strict=True))
        assert page.locator("main h1").count() == 1
        assert page.inner_text("main h1") == "The lobby"  # for a screen reader: the page's one heading of its kind
        assert page.is_visible("header #leaderboard-link")
        boxes = {s: page.locator(s).bounding_box() for s in sections}
        assert all(boxes.values())
        quick, account, games = boxes["#find-game"], boxes["#account"], boxes["#games-panel"]
        assert quick and account and games
        if width == 1280:  # side by side, tops aligned
            assert account["x"] >= quick["x"] + quick["width"] and abs(account["y"] - quick["y"]) < 2
        else:  # one column, every panel its width: the account, then quick play, the games further down
            assert abs(account["x"] - quick["x"]) < 2 and account["y"] < quick["y"] < games["y"]
            assert len({round(box["width"]) for box in boxes.values() if box}) == 1, boxes
            assert page.evaluate("document.documentElement.scrollWidth") <= width
        context.close()


def test_a_guest_on_a_phone_is_told_in_words_why_a_rated_games_join_is_greyed(server: Server, browser: Browser) -> None:
    """A social-play review's find: the reason was only a title, which a touch screen never shows."""
    host = browser.new_context(base_url=server.base)
    assert host.request.post("/api/accounts", data={"name": "rita", "password": "correct horse"}).status == 201
    seats = [{"kind": "human", "mine": True}, {"kind": "open"}]
    made = host.request.post("/api/games", data={"game": "classic", "seats": seats, "rated": True})
    assert made.status == 201, made.text()
    game = made.json()["id"]
    guest = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = guest.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector(f"[data-join='{game}']")
    assert page.is_disabled(f"[data-join='{game}']")
    row = page.locator("#open-games tr", has=page.locator(f"[data-join='{game}']"))
    assert "sign in to join a rated game" in row.inner_text()
    assert row.locator(".join-why").is_visible()
    host.close()
    guest.close()
