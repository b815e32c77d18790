"""Resign and abort on the table (issue 33, item 3): Abort while the seat has not moved, Resign at any time, each
asked again in a dialog first (Escape or Cancel sends nothing), by keyboard; the finished table says who resigned;
neither button for a spectator or in a finished game; 44 px tap targets on a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, Route

from splendor.server.moves import RATED_AFTER_MOVES
from tests.server.conftest import Server, create, play_turns, wait_for
from tests.web.test_accounts import sign_up
from tests.web.test_browser import _two_humans, actions, api_act, new_page, open_page, wait_past

pytestmark = pytest.mark.one_server  # each test makes its own games and acts only on those


def _posts(page: Page, what: str) -> list[str]:
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" and r.url.endswith(what) else None)
    return sent


def test_resign_with_the_confirmation_and_the_finished_table_says_it(server: Server, browser: Browser) -> None:
    g = _two_humans(server)
    page = open_page(browser, g["seats"][0]["link"])
    watcher = open_page(browser, f"{server.base}/watch/{g['id']}")
    resigns, aborts = _posts(page, "/resign"), _posts(page, "/abort")
    assert page.locator("#resign").is_visible() and page.locator("#abort").is_visible()  # seat 0 has not moved
    assert not watcher.locator("#resign").is_visible() and not watcher.locator("#abort").is_visible()

    page.locator("#abort").click()  # asked first; Cancel has the focus, and Escape closes it
    assert page.locator("#leave-dialog").is_visible()
    assert page.evaluate("document.activeElement.id") == "leave-cancel"
    page.keyboard.press("Escape")
    assert not page.locator("#leave-dialog").is_visible() and aborts == [] and actions(page) == 0

    with server.client() as c:
        api_act(c, g, 0, "take w b g")  # seat 0 has moved: no abort any more
    wait_past(page, 0)
    page.wait_for_function("document.getElementById('abort').hidden")
    page.locator("#resign").focus()  # by keyboard: Enter opens the dialog, Tab goes to Resign, Enter confirms
    page.keyboard.press("Enter")
    assert page.locator("#leave-dialog").is_visible()
    assert "lose" in page.locator("#leave-words").inner_text()
    page.keyboard.press("Enter")  # on Cancel: nothing sent
    assert not page.locator("#leave-dialog").is_visible() and resigns == []
    page.locator("#resign").click()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "leave-confirm"
    page.keyboard.press("Enter")
    page.wait_for_function("document.body.dataset.over === 'true'")
    assert len(resigns) == 1 and aborts == []
    assert page.locator("#ending").inner_text() == "ann (you) resigned: bob wins."
    assert "resigned" in page.locator("#status").inner_text()
    assert not page.locator("#resign").is_visible()  # a finished game: neither button
    watcher.wait_for_function("document.body.dataset.over === 'true'")
    assert watcher.locator("#ending").inner_text() == "ann resigned: bob wins."
    winner = open_page(browser, g["seats"][1]["link"])  # to the seat that won, in the second person
    winner.wait_for_function("document.body.dataset.over === 'true'")
    assert winner.locator("#ending").inner_text() == "ann resigned: you win."
    assert winner.locator("#status .status-text").inner_text() == "ann resigned: you win."
    assert winner.locator("#log li").first.inner_text().strip() == "ann resigned: you win."  # the log too
    winner.close()
    for p in (page, watcher):  # the log says it too, above the last move, unnumbered
        said = p.locator("#log li").all_inner_texts()
        assert said[0].strip() == ("ann (you)" if p is page else "ann") + " resigned: bob wins." and "takes" in said[1]
    assert page.errors == [] and watcher.errors == []  # type: ignore[attr-defined]

    replay = open_page(browser, f"{server.base}/replay/{g['id']}")
    replay.locator("#last").click()
    replay.wait_for_function("document.getElementById('step').textContent.startsWith('1 /')")
    assert replay.locator("#status").inner_text().endswith(". ann resigned: bob wins.")  # a sentence of its own
    assert "ann resigned: bob wins." in replay.locator("#log").inner_text()
    assert replay.is_disabled("#next") and replay.is_disabled("#last") and not replay.is_disabled("#prev")
    replay.locator("#first").click()  # before the resignation, the log does not tell it yet
    replay.wait_for_function("document.getElementById('step').textContent.startsWith('0 /')")
    assert "resigned" not in replay.locator("#log").inner_text()
    assert replay.is_disabled("#first") and not replay.is_disabled("#next")
    for p in (page, watcher, replay):
        p.close()


def test_a_resignation_confirmed_after_the_others_moved_is_made(server: Server, browser: Browser) -> None:
    """The dialog sent the number of actions seen when it opened: bots move every second or so, and a person who
    read it while they did was refused "the game has moved on: 4 actions, not 3", and played on. It is made on the
    game as it stands when confirmed."""
    g = _two_humans(server)
    page = open_page(browser, g["seats"][0]["link"])
    resigns = _posts(page, "/resign")
    with server.client() as c:
        api_act(c, g, 0, "take w b g")
    wait_past(page, 0)
    page.locator("#resign").click()
    with server.client() as c:
        api_act(c, g, 1, "take w b g")  # bob moves while ann reads the dialog
    wait_past(page, 1)
    page.locator("#leave-confirm").click()
    page.wait_for_function("document.body.dataset.over === 'true'")
    assert len(resigns) == 1 and page.locator("#ending").inner_text() == "ann (you) resigned: bob wins."
    assert page.locator("#error").inner_text() == ""
    page.close()


def test_a_resignation_that_meets_a_move_on_its_way_is_asked_again_and_made(server: Server, browser: Browser) -> None:
    """A move made between the click and the server refuses the resignation (409); the table asks once more on the
    game as it then stands. The move's push reaches the table before the refusal does: the position asked on is
    the one sent, not the table's newest (with which the table had taken the refusal for final)."""
    g = _two_humans(server)
    page = open_page(browser, g["seats"][0]["link"])
    with server.client() as c:
        api_act(c, g, 0, "take w b g")
    wait_past(page, 0)
    sent: list[int] = []

    def meet_a_move(route: Route) -> None:
        sent.append(route.request.post_data_json["expect"])
        if len(sent) == 1:
            with server.client() as c:
                api_act(c, g, 1, "take w b g")  # bob moves while the resignation is on its way
            refused = route.fetch()
            assert refused.status == 409
            page.wait_for_timeout(500)  # the move's push reaches the table first
            route.fulfill(response=refused)
        else:
            route.continue_()

    page.route("**/resign", meet_a_move)
    page.locator("#resign").click()
    page.locator("#leave-confirm").click()
    page.wait_for_function("document.body.dataset.over === 'true'")
    assert sent == [1, 2] and page.locator("#ending").inner_text() == "ann (you) resigned: bob wins."
    page.close()


def test_abort_on_a_phone_with_44_px_buttons(server: Server, browser: Browser) -> None:
    g = _two_humans(server, game="kids")
    page = open_page(browser, g["seats"][1]["link"], width=375)
    for button in ("#resign", "#abort"):
        box = page.locator(button).bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44
    page.locator("#abort").click()
    dialog = page.locator("#leave-dialog").bounding_box()
    assert dialog is not None and abs(dialog["x"] - (375 - dialog["width"]) / 2) <= 2  # centred, not pinned left
    box = page.locator("#leave-confirm").bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 375
    with page.expect_response(lambda r: r.url.endswith("/ratings")):  # read once the end is drawn
        page.locator("#leave-confirm").click()
        page.wait_for_function("document.body.dataset.over === 'true'")
    page.wait_for_timeout(300)  # drawn with the ratings' answer
    assert "aborted the game: no winner, not rated." in page.locator("#ending").inner_text()
    assert page.locator("#rating-changes").count() == 0  # "not rated" said once, not again under it
    assert page.locator("#review-link").count() == 0  # no move to review or replay
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def test_a_kids_replays_board_shows_the_pawns_where_they_stood(server: Server, browser: Browser) -> None:
    """The map follows the replay's step: at the start both pawns are at the Port, at the end where they went."""
    with server.client() as c:
        g = create(c, "kids", [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}])
        for _ in range(10):  # moving where it can, else taking
            seat = c.get(f"/api/games/{g['id']}").json()["view"]["current_player"]
            token = g["seats"][seat]["token"]
            view = c.get(f"/api/games/{g['id']}", params={"seat": seat}, headers={"x-seat-token": token}).json()
            legal = view["view"]["legal_actions"]
            api_act(c, g, seat, next((a for a in legal if a.startswith("move ")), legal[0]))
        assert c.post(
            f"/api/games/{g['id']}/seats/0/resign", headers={"x-seat-token": g["seats"][0]["token"]}
        ).is_success
    replay = open_page(browser, f"{server.base}/replay/{g['id']}")
    pawns = "[...document.querySelectorAll('#board .pawn circle')].map((p) => p.getAttribute('cx')).join()"
    replay.wait_for_selector("#board .pawn", state="attached")
    start = replay.evaluate(pawns)
    replay.locator("#last").click()
    replay.wait_for_function(f"{pawns} !== {start!r}")  # drawn again as it stood at the last action
    replay.locator("#first").click()
    replay.wait_for_function(f"{pawns} === {start!r}")
    assert replay.errors == []  # type: ignore[attr-defined]
    replay.close()


def test_a_seat_won_by_the_bot_that_played_on_is_no_ones_victory_on_the_table_or_in_the_lobby(
    server: Server, browser: Browser
) -> None:
    """All three people of a game of three resign after their first moves: bots play every seat on, and one of
    them wins it by the rules. The end panel said "ann wins!", and the lobby "won by ann", of a person who left."""
    with server.client() as c:
        g = create(c, "kids", [{"kind": "human", "name": n} for n in ("ann", "bob", "cy")], seed=4)
        for seat in range(3):
            api_act(c, g, seat, "take k r g")
        for seat in range(3):
            r = c.post(f"/api/games/{g['id']}/seats/{seat}/resign", headers={"x-seat-token": g["seats"][seat]["token"]})
            assert r.status_code == 200, r.text
        ended = wait_for(lambda: (p := c.get(f"/api/games/{g['id']}").json())["over"] and p, seconds=60)
    assert ended["winners"] == [] and ended["view"]["result"]["winners"]  # the rules: one seat or two share it
    page = open_page(browser, f"{server.base}/watch/{g['id']}")
    page.wait_for_selector("#end .status")
    assert page.inner_text("#end .status").startswith("The bot that played on for ")
    assert "★ the bot playing on" in page.inner_text("#end table") and "★ winner" not in page.inner_text("#end table")
    reached = page.evaluate(
        "[...document.querySelectorAll('#end tbody tr td:nth-child(2)')].map((td) => td.textContent)"
    )
    assert set(reached) <= {"✓", "—"} and "✓" in reached, reached  # Kids: in the Palace or not, not "1" and "0"
    page.wait_for_selector("#rating-changes")  # guests only: not "created unrated", which nobody chose
    assert page.inner_text("#rating-changes") == "Not rated: nobody in it played with an account."
    page.goto(f"{server.base}/")
    row = page.locator("#games tr", has=page.locator(f"a[href='/replay/{g['id']}']"))
    row.wait_for()
    assert "no winner" in row.inner_text() and "won by" not in row.inner_text()
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_end_panel_ranks_a_seat_whose_person_left_last_and_says_it_in_the_past(
    server: Server, browser: Browser
) -> None:
    """A newcomer read "Dee 6 … Random bot 1" in seat order under the resign dialog's "you rank last", with "Dee
    resigned; a bot plays their seat on." said of a game already over."""
    with server.client() as c:
        seats = [{"kind": "human", "name": "dee"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
        g = create(c, "classic", seats, seed=6)
        api_act(c, g, 0, "take w b g")
        r = c.post(f"/api/games/{g['id']}/seats/0/resign", headers={"x-seat-token": g["seats"][0]["token"]})
        assert r.status_code == 200, r.text
        wait_for(lambda: c.get(f"/api/games/{g['id']}").json()["over"], seconds=90)
    page = open_page(browser, f"{server.base}/watch/{g['id']}")
    page.wait_for_selector("#end table")
    rows = page.locator("#end tbody tr")
    assert rows.count() == 3 and rows.nth(2).get_attribute("data-seat") == "0"
    assert rows.nth(2).inner_text().endswith("left: ranks last")  # whatever the bot that played on made of it
    points = [int(rows.nth(i).locator("td").nth(1).inner_text()) for i in (0, 1)]
    assert points[0] >= points[1]  # the others by their points
    assert page.inner_text("#end [data-forfeit='0']") == "dee resigned; a bot played their seat on, and it ranks last."
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_rematch_seats_the_same_people_on_the_same_clock_unrated_as_it_was(server: Server, browser: Browser) -> None:
    """A hostile tester's rematch of a game of three on 5+10 that bob had resigned: bob's seat became a medium bot
    under his name, and the clock was gone. A newcomer's, of a game of two: each press dealt a game of its own, the
    other table heard nothing, and the first player's clock ran out in both while nobody was there. The first to
    ask now deals one rematch; the others' tables offer them their seats there (also bob's, who resigned and
    watches), and nothing runs until they take them."""
    with server.client() as c:
        people = [{"kind": "human", "name": n} for n in ("ann", "bob", "cy")]
        g = create(c, "classic", people, clock="5+10")
    bob = open_page(browser, g["seats"][1]["link"])  # his browser keeps his seat's link
    with server.client() as c:
        api_act(c, g, 0, "take w b g")
        r = c.post(f"/api/games/{g['id']}/seats/1/resign", headers={"x-seat-token": g["seats"][1]["token"]})
        assert r.status_code == 200, r.text
        wait_for(lambda: c.get(f"/api/games/{g['id']}").json()["actions"] >= 2)  # the bot played bob's turn on
        r = c.post(f"/api/games/{g['id']}/seats/2/abort", headers={"x-seat-token": g["seats"][2]["token"]})
        assert r.status_code == 200, r.text
    bob.goto(f"{server.base}/watch/{g['id']}")  # where a seat that resigned a game of three watches
    cy = open_page(browser, g["seats"][2]["link"])
    page = open_page(browser, g["seats"][0]["link"])
    page.wait_for_selector("#rematch")
    assert page.inner_text("[data-seat='1'] .played-on") == "a bot plays on"  # said on bob's panel, not only the log
    assert page.locator("[data-seat='2'] .played-on").count() == 0
    page.click("#rematch")
    page.wait_for_url(lambda url: "/play/" in url and g["id"] not in url)  # straight to ann's seat in it
    again = page.url.split("/play/")[1].split("?")[0]
    page.wait_for_function("document.getElementById('status').textContent.includes('accept the rematch')")
    assert page.is_hidden("#invite")  # the seats are kept for bob and cy: no link to send anyone
    with server.client() as c:
        made = c.get(f"/api/games/{again}").json()
    assert [(s["kind"], s["name"]) for s in made["seats"]] == [("human", "ann"), ("open", "bob"), ("open", "cy")]
    assert "bob (invited)" in page.inner_text("#others")  # kept for him, not open to anyone
    cut = page.evaluate(  # "bob (invited to th…" had been cut at 1280x800 (a newcomer)
        "[...document.querySelectorAll('#others .seat .who')]"
        ".filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.textContent)"
    )
    assert cut == [], cut
    assert made["clock"]["control"] == "5+10" and made["clock"]["running"] is None and not made["rated"]
    for other, number in ((bob, 1), (cy, 2)):  # told on the table they are at, and seated with one click
        other.wait_for_selector("#rematch-asked")
        assert other.inner_text("#rematch-asked") == "ann asked for a rematch."
        other.click("#rematch")
        other.wait_for_url(lambda url: again in url)
        assert f"seat={number}" in other.url
    page.wait_for_function("!document.getElementById('status').textContent.includes('accept the rematch')")
    assert "bob accepted the rematch." in page.inner_text("#log")  # not "joined from the lobby"
    with server.client() as c:
        made = c.get(f"/api/games/{again}").json()
    assert [(s["kind"], s["name"]) for s in made["seats"]] == [("human", "ann"), ("human", "bob"), ("human", "cy")]
    assert made["clock"]["running"] == 1  # the game began when the last seat was taken: bob first, the start passed on
    token = page.url.split("token=")[1].split("&")[0]
    with server.client() as c:
        r = c.post(f"/api/games/{again}/seats/0/abort", headers={"x-seat-token": token})
        assert r.status_code == 200, r.text
    replay = open_page(browser, f"{server.base}/replay/{again}")  # its replay tells it as the table did
    replay.wait_for_function("document.getElementById('log').textContent.includes('accepted the rematch')")
    assert "joined from the lobby" not in replay.inner_text("#log")
    assert page.errors == [] and bob.errors == [] and cy.errors == []  # type: ignore[attr-defined]


def test_a_rematch_called_off_says_so_and_a_new_one_may_be_asked_for(server: Server, browser: Browser) -> None:
    """A rematch its asker called off had kept the other table offering a seat in a dead game, and every later
    ask refused."""
    with server.client() as c:
        g = create(c, "classic", [{"kind": "human", "name": n} for n in ("ann", "bob")])
        r = c.post(f"/api/games/{g['id']}/seats/1/resign", headers={"x-seat-token": g["seats"][1]["token"]})
        assert r.status_code == 200, r.text
    bob = open_page(browser, g["seats"][1]["link"])
    bob.wait_for_selector("#rematch")
    with server.client() as c:
        first = c.post(f"/api/games/{g['id']}/seats/0/rematch", headers={"x-seat-token": g["seats"][0]["token"]}).json()
        bob.wait_for_selector("#rematch-asked")  # told at once, on the table he is at
        r = c.post(f"/api/games/{first['id']}/seats/0/abort", headers={"x-seat-token": first["token"]})
        assert r.status_code == 200, r.text
    bob.reload()  # (the panel reads the rematch again every fifteen seconds, and at each refused press)
    bob.wait_for_selector("#rematch-gone")
    assert bob.inner_text("#rematch-gone") == "The rematch was called off."
    bob.click("#rematch")  # a new one, dealt by him
    bob.wait_for_url(lambda url: "/play/" in url and g["id"] not in url and first["id"] not in url)
    assert "seat=1" in bob.url
    assert bob.errors == []  # type: ignore[attr-defined]


def test_a_rematch_asked_for_you_is_said_in_your_games_in_the_lobby(server: Server, browser: Browser) -> None:
    """A friend back in the lobby saw only "won by you — see the end": the rematch asked of them showed only on
    the finished game's own page, and expired unseen."""
    g = _two_humans(server)
    bob = open_page(browser, g["seats"][1]["link"])  # this browser keeps bob's seat
    ann = {"x-seat-token": g["seats"][0]["token"]}
    with server.client() as c:
        assert c.post(f"/api/games/{g['id']}/seats/0/abort", headers=ann).status_code == 200
        assert c.post(f"/api/games/{g['id']}/seats/0/rematch", headers=ann).status_code == 200
    bob.goto(f"{server.base}/")
    row = bob.locator(f"#my-games tr[data-my-game='{g['id']}']")
    row.wait_for()
    bob.wait_for_function(f"document.querySelector(\"tr[data-my-game='{g['id']}']\").textContent.includes('asked')")
    assert (
        "ann asked for a rematch." in row.inner_text() and row.get_attribute("data-your-turn") is not None
    )  # with the turns, first
    row.get_by_text("Accept the rematch").click()
    bob.wait_for_selector("#rematch-asked")  # the finished table, where it is accepted with one click


def test_a_rated_games_resign_dialog_says_when_leaving_now_counts_for_nobody(server: Server, browser: Browser) -> None:
    """A newcomer resigned a rated game after two moves and learned only from the end screen that it counted for
    nobody: the dialog says so before, while the person has made fewer than five moves, and not after."""
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("[data-seat-kind='1']")
    sign_up(page, "rosa", "correct horse")
    made = page.request.post(
        server.base + "/api/games",
        data={"game": "classic", "seats": [{"kind": "human", "mine": True}, {"kind": "bot", "bot": "greedy"}]},
    ).json()
    assert made["rated"]
    page.goto(made["seats"][0]["link"])
    page.wait_for_function("document.body.dataset.actions !== undefined")
    page.locator("#resign").click()
    assert (
        "You have made fewer than 5 moves, so the game will count for nobody's rating."
        in page.locator("#leave-words").inner_text()
    )
    page.keyboard.press("Escape")
    with server.client() as c:
        played = play_turns(c, made, 0, RATED_AFTER_MOVES)  # by the seat's secret
    page.wait_for_function(f"Number(document.body.dataset.actions) >= {played}")
    page.locator("#resign").click()
    assert "nobody" not in page.locator("#leave-words").inner_text()
    page.keyboard.press("Escape")


def test_your_games_tell_a_resignation_from_a_loss_and_each_game_by_its_clock_and_start(
    server: Server, browser: Browser
) -> None:
    """A phone player's find: in "Your games" a game they resigned read "won by Greedy bot" as any loss, and two
    games of the same players could not be told apart (no clock, no date). A resignation says so, a game called off
    says so, and each row says its clock and when it began."""
    with server.client() as c:
        resigned = create(c, "classic", [{"kind": "human", "name": n} for n in ("ann", "bob")])
        timed = create(c, "classic", [{"kind": "human", "name": n} for n in ("ann", "bob")], clock="5+10")
        aborted = create(c, "classic", [{"kind": "human", "name": n} for n in ("ann", "bob")])
        three = create(c, "classic", [{"kind": "human", "name": n} for n in ("ann", "bob", "cy")])
    bob = open_page(browser, resigned["seats"][1]["link"])  # this browser keeps bob's seat in each
    for g in (timed, aborted, three):
        bob.goto(g["seats"][1]["link"])
        bob.wait_for_function("document.body.dataset.actions !== undefined")
    with server.client() as c:
        api_act(c, resigned, 0, "take w b g")
        r = c.post(
            f"/api/games/{resigned['id']}/seats/1/resign", headers={"x-seat-token": resigned["seats"][1]["token"]}
        )
        assert r.status_code == 200, r.text
        r = c.post(f"/api/games/{aborted['id']}/seats/0/abort", headers={"x-seat-token": aborted["seats"][0]["token"]})
        assert r.status_code == 200, r.text
        r = c.post(f"/api/games/{three['id']}/seats/1/resign", headers={"x-seat-token": three["seats"][1]["token"]})
        assert r.status_code == 200, r.text  # the game goes on, a bot in bob's seat
    bob.goto(f"{server.base}/")
    rows = {g["id"]: bob.locator(f"#my-games tr[data-my-game='{g['id']}']") for g in (resigned, timed, aborted, three)}
    for row in rows.values():
        row.wait_for()
    cells = {game_id: row.locator("td").all_inner_texts() for game_id, row in rows.items()}
    assert cells[resigned["id"]][2] == "you resigned", cells
    assert cells[aborted["id"]][2] == "called off", cells
    assert cells[three["id"]][2] == "you resigned", cells  # not "in play": a bot plays the seat on
    assert cells[timed["id"]][0] == "Splendor · 5+10" and cells[resigned["id"]][0] == "Splendor", cells
    assert all(re.search(r"(seconds?|minutes?) ago|now", c[3]) for c in cells.values()), cells  # when it began
    assert bob.errors == []  # type: ignore[attr-defined]
