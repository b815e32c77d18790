"""Seats that cannot be taken over and ratings that cannot be farmed (issue 30, defects 2, 3, 4, 6, 7, 10): each
test reproduces what a hostile tester did and shows it refused."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from splendor.server.bots import bot_seed
from splendor.server.moves import RATED_AFTER_MOVES
from splendor.store import open_store
from splendor.store.accounts import Accounts
from splendor.store.database import Store
from splendor.store.games import GameStore, SeatInfo
from splendor.store.models import GameRow, RatingRow
from splendor.store.ratings import RatedSeat, Ratings, rate_game
from tests.server.conftest import Server, create, play_turns, wait_for

GREEDY = {"kind": "bot", "bot": "greedy"}
MINE = {"kind": "human", "mine": True}
PASSWORD = "correct horse"


@contextmanager
def signed_up(base: str, name: str) -> Iterator[httpx.Client]:
    """A browser of its own (its own cookie jar), signed up as ``name``."""
    with httpx.Client(base_url=base, timeout=30) as browser:
        r = browser.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        yield browser


def ws_url(server: Server, game_id: str, seat: int | None, token: str | None = None) -> str:
    url = server.base.replace("http", "ws") + f"/api/games/{game_id}/ws"
    query = [f"seat={seat}"] if seat is not None else []
    query += [f"token={token}"] if token else []
    return url + ("?" + "&".join(query) if query else "")


def closed_with(ws: Any, timeout: float = 10) -> int | None:
    """Read until the socket closes; its close code (None if it stayed open ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ws.recv(timeout=deadline - time.monotonic())
    except TimeoutError:
        return None
    except ConnectionClosed as e:
        return e.rcvd.code if e.rcvd else None
    return None


def _move(c: httpx.Client | TestClient, game: dict[str, Any], seat: int, token: str | None = None) -> None:
    headers = {"x-seat-token": token} if token else {}
    legal = c.get(f"/api/games/{game['id']}", params={"seat": seat}, headers=headers).json()["view"]["legal_actions"]
    r = c.post(f"/api/games/{game['id']}/actions", json={"seat": seat, "action": legal[0]}, headers=headers)
    assert r.status_code == 200, r.text


def _turn(c: httpx.Client | TestClient, game: dict[str, Any], seat: int, token: str | None = None) -> None:
    """A whole turn of ``seat``: its first legal action, and again while the seat still decides (tokens to return)."""
    headers = {"x-seat-token": token} if token else {}
    while True:
        _move(c, game, seat, token)
        view = c.get(f"/api/games/{game['id']}", params={"seat": seat}, headers=headers).json()["view"]
        if view["current_player"] != seat:
            return


# ----------------------------------------------------------------------------- 2. keeping a seat rotates its secret


def test_keeping_a_seat_gives_it_a_new_secret_and_the_old_link_stops_working(server: Server) -> None:
    with signed_up(server.base, "ann") as ann, signed_up(server.base, "bea") as bea, server.client() as anon:
        game = create(ann, "classic", [MINE, {"kind": "human"}])
        old = game["seats"][1]["token"]
        # the creator watches seat 1 by its link, then bea keeps the seat with that link
        with connect(ws_url(server, game["id"], 1, old)) as creators_socket:
            creators_socket.recv(timeout=10)
            kept = bea.post(f"/api/games/{game['id']}/seats/1/keep", headers={"x-seat-token": old})
            assert kept.status_code == 200, kept.text
            fresh = kept.json()["token"]
            assert fresh != old and f"token={fresh}" in kept.json()["link"]
            assert kept.json()["seats"][1]["name"] == "bea"  # an account's seat shows the account's name
            assert closed_with(creators_socket) == 4403  # no more of seat 1's hidden cards
        refused = anon.get(f"/api/games/{game['id']}", params={"seat": 1}, headers={"x-seat-token": old})
        assert refused.status_code == 403 and "old link no longer works" in refused.json()["detail"]
        legal = bea.get(f"/api/games/{game['id']}", params={"seat": 1}).json()["view"]["legal_actions"]
        assert legal == []  # seat 0 moves first
        assert (
            anon.get(f"/api/games/{game['id']}", params={"seat": 1}, headers={"x-seat-token": fresh}).status_code == 200
        )
        with pytest.raises(Exception, match="4403|403"), connect(ws_url(server, game["id"], 1, old)) as again:
            again.recv(timeout=10)


def test_an_account_keeps_one_seat_of_a_game_never_two(app_client: TestClient) -> None:
    c = app_client
    assert c.post("/api/accounts", json={"name": "ann", "password": PASSWORD}).status_code == 201
    r = c.post("/api/games", json={"game": "pokemon", "seats": [MINE, {"kind": "human"}], "rated": False})
    assert r.status_code == 201, r.text
    game = r.json()
    kept = c.post(f"/api/games/{game['id']}/seats/1/keep", headers={"x-seat-token": game["seats"][1]["token"]})
    assert kept.status_code == 409 and "you have a seat in this game already" in kept.json()["detail"]
    seats = c.get(f"/api/games/{game['id']}").json()["seats"]
    assert [s["has_account"] for s in seats] == [True, False]


def test_the_store_gives_an_account_no_second_seat_of_a_game(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path}/s.db")
    account, _secret = Accounts(store).sign_up("ann", PASSWORD)
    games = GameStore(store)
    humans = [SeatInfo(seat=i, kind="human", bot=None, name=None, token_hash=f"{i}" * 64) for i in range(2)]
    games.create("g1", "classic", 2, 1, {}, humans)
    assert games.give_seat("g1", 0, account.id, None, "a" * 64, "ann")
    with store.session() as s:
        kept_at = s.scalar(select(GameRow.updated_at).where(GameRow.id == "g1"))
    assert not games.give_seat("g1", 1, account.id, None, "b" * 64, "ann")  # the write itself refuses a second
    with store.session() as s:  # and a keep refused changes nothing, the time the idle forfeit counts from included
        assert s.scalar(select(GameRow.updated_at).where(GameRow.id == "g1")) == kept_at
    assert [s.account_id for s in games.seats("g1")] == [account.id, None]


# ----------------------------------------------------------------------------- 3. sockets of ended sessions


def test_a_socket_let_in_by_a_session_acts_no_more_once_the_session_ends(server: Server) -> None:
    with signed_up(server.base, "ann") as ann, server.client() as elsewhere:
        game = create(ann, "classic", [MINE, {"kind": "human"}])
        assert elsewhere.post("/api/session", json={"name": "ann", "password": PASSWORD}).status_code == 200
        view = ann.get(f"/api/games/{game['id']}", params={"seat": 0}).json()["view"]
        sockets = []
        for browser in (ann, elsewhere):
            cookie = f"splendor_session={browser.cookies['splendor_session']}"
            ws = connect(ws_url(server, game["id"], 0), additional_headers={"cookie": cookie, "origin": server.base})
            ws.recv(timeout=10)
            sockets.append(ws)
        # a password change ends the other session: its socket may not act (nor read the seat) any more
        assert ann.post("/api/me/password", json={"old": PASSWORD, "new": "staple battery"}).status_code == 204
        sockets[1].send(json.dumps({"type": "action", "action": view["legal_actions"][0]}))
        assert closed_with(sockets[1]) == 4401
        # signing out ends this one
        assert ann.delete("/api/session").status_code == 204
        sockets[0].send(json.dumps({"type": "action", "action": view["legal_actions"][0]}))
        assert closed_with(sockets[0]) == 4401
        with signed_up(server.base, "cat") as cat:
            assert cat.get(f"/api/games/{game['id']}").json()["actions"] == 0  # neither action was accepted


@pytest.mark.settings(session_check_seconds=0.2)
def test_a_socket_of_an_ended_session_is_closed_even_if_it_sends_nothing(app_client: TestClient) -> None:
    c = app_client
    assert c.post("/api/accounts", json={"name": "ann", "password": PASSWORD}).status_code == 201
    game = c.post("/api/games", json={"game": "classic", "seats": [MINE, {"kind": "human"}]}).json()
    with c.websocket_connect(f"/api/games/{game['id']}/ws?seat=0") as ws:
        assert ws.receive_json()["type"] == "state"
        assert c.delete("/api/session").status_code == 204
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_json()
        assert closed.value.code == 4401


# ----------------------------------------------------------------------------- 4. ratings that cannot be farmed


def test_a_game_with_a_chosen_seed_is_never_rated_and_a_rated_game_takes_no_seed(server: Server) -> None:
    with signed_up(server.base, "ann") as ann:
        practice = create(ann, "classic", [MINE, GREEDY], seed=7)
        assert practice["rated"] is False
        r = ann.post("/api/games", json={"game": "classic", "seats": [MINE, GREEDY], "seed": 7, "rated": True})
        assert r.status_code == 400 and "rated game is dealt by the server" in r.json()["detail"]
        assert create(ann, "classic", [MINE, GREEDY])["rated"] is True  # the account's game, by default
        from tests.server.test_accounts import play_to_the_end

        play_to_the_end(ann, practice["id"], 0)
        assert ann.get(f"/api/games/{practice['id']}/ratings").json()["rated"] is False
        assert "classic" not in ann.get("/api/me").json()["ratings"]


def test_a_rated_game_gives_no_hint_and_an_unrated_one_does(server: Server) -> None:
    with signed_up(server.base, "ann") as ann:
        rated = create(ann, "classic", [MINE, GREEDY])
        r = ann.post(f"/api/games/{rated['id']}/seats/0/hint")
        assert r.status_code == 409 and "no hints in a rated game" in r.json()["detail"]
        assert ann.get(f"/api/games/{rated['id']}", params={"seat": 0}).json()["rated"] is True
        unrated = create(ann, "classic", [MINE, GREEDY], rated=False)
        assert ann.post(f"/api/games/{unrated['id']}/seats/0/hint").status_code == 200


def test_bot_seeds_derive_from_a_secret_of_the_game_not_from_its_public_id(server: Server, tmp_path: Path) -> None:
    with signed_up(server.base, "ann") as ann:
        game = create(ann, "classic", [MINE, GREEDY])
        row = (
            sqlite3.connect(tmp_path / "server.db")
            .execute("SELECT bot_salt FROM games WHERE id = ?", (game["id"],))
            .fetchone()
        )
        salt = row[0]
        assert salt and len(salt) == 32
        assert bot_seed(game["id"], 1, salt) != bot_seed(game["id"], 1)
        seen = [
            ann.get(f"/api/games/{game['id']}", params={"seat": 0}).text,
            ann.get("/api/games").text,
            ann.get(f"/api/games/{game['id']}").text,
            str(game),
        ]
        assert not any(salt in text for text in seen)  # the salt is never shown


@pytest.mark.settings(idle_forfeit_seconds=2.0)
def test_a_person_idle_past_the_limit_loses_a_rated_game_of_two_and_it_is_rated(app_client: TestClient) -> None:
    c = app_client
    assert c.post("/api/accounts", json={"name": "ann", "password": PASSWORD}).status_code == 201
    never = c.post("/api/games", json={"game": "classic", "seats": [MINE, GREEDY]}).json()
    game = c.post("/api/games", json={"game": "classic", "seats": [MINE, GREEDY]}).json()
    played = play_turns(c, game, 0, RATED_AFTER_MOVES)  # within the limit (idle sooner: unrated); then idle
    unrated = c.post("/api/games", json={"game": "classic", "seats": [MINE, GREEDY], "rated": False}).json()
    guest_first = c.post("/api/games", json={"game": "classic", "seats": [{"kind": "human"}, MINE]}).json()
    ended = wait_for(lambda: (p := c.get(f"/api/games/{game['id']}", params={"seat": 0}).json())["over"] and p)
    assert ended["ending"] == {"by": "idle", "seat": 0, "at": played} and ended["view"]["legal_actions"] == []
    assert ended["view"]["is_over"]
    idle_at_once = wait_for(lambda: (p := c.get(f"/api/games/{never['id']}").json())["over"] and p)
    assert idle_at_once["ending"] == {"by": "no_start", "seat": 0, "at": 0}  # never played: called off
    assert c.get(f"/api/games/{never['id']}/ratings").json()["rated"] is False
    waiting = c.get(f"/api/games/{guest_first['id']}").json()
    assert not waiting["over"]  # a seat without an account, which cannot be rated, never forfeits
    legal = c.get(f"/api/games/{unrated['id']}", params={"seat": 0}).json()
    assert not legal["over"] and legal["ending"] is None  # an unrated game just waits
    r = c.post(f"/api/games/{game['id']}/actions", json={"seat": 0, "action": legal["view"]["legal_actions"][0]})
    assert r.status_code == 409 and "over" in r.json()["detail"]
    changes = c.get(f"/api/games/{game['id']}/ratings").json()
    assert changes["rated"] and changes["changes"][0]["change"] < 0  # a loss on time counts
    assert "ending" in c.get(f"/api/games/{game['id']}/record").text


@pytest.mark.settings(abandoned_game_seconds=1.0)
def test_a_game_left_without_a_move_past_the_limit_for_abandoned_games_is_called_off(app_client: TestClient) -> None:
    """A parent's find: a tutorial or a practice game left for good stood "in play" in the lobby's lists for ever
    (an unrated game has no idle forfeit). Past the limit it is called off, whatever the number of players: no
    winner, not rated, said in the record; a timed game is left to its clock."""
    c = app_client
    practice = create(c, "classic", [{"kind": "human"}, GREEDY], rated=False)
    played = play_turns(c, practice, 0, 2)
    three = create(c, "classic", [GREEDY, {"kind": "human"}, GREEDY], rated=False)
    timed = create(c, "classic", [{"kind": "human"}, GREEDY], rated=False, clock="1+0")
    assert c.post("/api/accounts", json={"name": "ann", "password": PASSWORD}).status_code == 201
    guest = create(c, "classic", [{"kind": "human"}, MINE])  # rated, its guest to move: never idle-forfeited
    kept = create(c, "classic", [MINE, GREEDY])  # rated, ann to move: forfeited in its time (an hour), not voided
    ended = wait_for(lambda: (p := c.get(f"/api/games/{practice['id']}").json())["over"] and p)
    assert ended["ending"] == {"by": "abandoned", "seat": 0, "at": played} and ended["winners"] == []
    left = wait_for(lambda: (p := c.get(f"/api/games/{three['id']}").json())["over"] and p)
    assert left["ending"]["by"] == "abandoned" and left["ending"]["seat"] == 1  # no bot plays the seat on
    assert not any(s["forfeited"] for s in left["seats"]) and left["winners"] == []
    assert wait_for(lambda: c.get(f"/api/games/{guest['id']}").json()["over"])
    assert c.get(f"/api/games/{guest['id']}").json()["ending"]["by"] == "abandoned"
    assert c.get(f"/api/games/{guest['id']}/ratings").json()["rated"] is False
    assert not c.get(f"/api/games/{kept['id']}").json()["over"]  # a rated seat with an account: a loss in its time
    assert not c.get(f"/api/games/{timed['id']}").json()["over"]  # its clock, a minute, governs it
    listed = {g["id"]: g["status"] for g in c.get("/api/games").json()["games"]}
    assert listed[practice["id"]] == listed[three["id"]] == "abandoned" and listed[timed["id"]] == "ongoing"
    assert '"by": "abandoned"' in c.get(f"/api/games/{practice['id']}/record").text
    r = c.post(f"/api/games/{practice['id']}/actions", json={"seat": 0, "action": "take w b g"},
               headers={"x-seat-token": practice["seats"][0]["token"]})  # fmt: skip
    assert r.status_code == 409 and "over" in r.json()["detail"]


@pytest.mark.settings(idle_forfeit_seconds=0.6)
def test_in_a_rated_game_of_three_a_bot_plays_on_the_seat_of_a_person_idle_past_the_limit(
    app_client: TestClient,
) -> None:
    c = app_client
    assert c.post("/api/accounts", json={"name": "ann", "password": PASSWORD}).status_code == 201
    game = c.post("/api/games", json={"game": "classic", "seats": [MINE, GREEDY, GREEDY]}).json()
    moved = wait_for(lambda: (p := c.get(f"/api/games/{game['id']}").json())["actions"] >= 3 and p)
    seat = moved["seats"][0]
    assert seat["forfeited"] and seat["kind"] == "bot" and not moved["over"]  # the game goes on
    r = c.get(f"/api/games/{game['id']}", params={"seat": 0})
    assert r.status_code == 403 and "a bot plays it now" in r.json()["detail"]
    live = c.app.state.manager.cache.live.get(game["id"])  # type: ignore[attr-defined]  # the app's state: untyped
    assert live is not None and not live.bots_only  # the bots go on at a person's pace, counted as a person's game


def test_a_seat_that_forfeited_ranks_last_in_the_ratings(store: Store) -> None:
    ann, _ = Accounts(store).sign_up("ann", PASSWORD)
    bea, _ = Accounts(store).sign_up("bea", PASSWORD)
    GameStore(store).create(
        "a" * 32,
        "classic",
        3,
        1,
        {},
        [
            SeatInfo(0, "bot", "ismcts:medium", "ann", None, account_id=ann.id, forfeited=True),
            SeatInfo(1, "human", None, "bea", None, account_id=bea.id),
            SeatInfo(2, "bot", "greedy", None, None),
        ],
    )
    with store.engine.begin() as conn:  # the bot playing ann's seat won: she still lost
        rate_game(
            conn,
            "a" * 32,
            "classic",
            [RatedSeat(0, ann.id, forfeited=True), RatedSeat(1, bea.id), RatedSeat(2, bot_rating=(18.0, 1.0))],
            winners=[0],
        )
    changes = {c["name"]: c["change"] for c in Ratings(store).changes("a" * 32)}
    assert changes["ann"] < 0 < changes["bea"]


# ----------------------------------------------------------------------------- 6. spectators cannot lock seats out


@pytest.mark.settings(watchers_per_game=2, spectators_per_address=8)
def test_spectators_filling_a_game_never_keep_its_seats_out(app_client: TestClient) -> None:
    c = app_client
    game = c.post("/api/games", json={"game": "classic", "seats": [{"kind": "human"}, GREEDY]}).json()
    path = f"/api/games/{game['id']}/ws"
    with c.websocket_connect(path) as one, c.websocket_connect(path) as two:
        assert one.receive_json()["type"] == two.receive_json()["type"] == "state"
        with c.websocket_connect(path + "?lang=sl") as third:
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive_json()
            assert closed.value.code == 1013 and closed.value.reason == "ta igra ima 2 gledalca, največ dovoljenih"
        with c.websocket_connect(f"{path}?seat=0&token={game['seats'][0]['token']}") as seat:
            assert seat.receive_json()["view"]["legal_actions"]  # the player always gets in


@pytest.mark.settings(spectators_per_address=2)
def test_one_address_watches_a_game_a_bounded_number_of_times(app_client: TestClient) -> None:
    c = app_client
    game = c.post("/api/games", json={"game": "classic", "seats": [{"kind": "human"}, GREEDY]}).json()
    path = f"/api/games/{game['id']}/ws"
    with c.websocket_connect(path) as one, c.websocket_connect(path) as two:
        one.receive_json(), two.receive_json()
        with c.websocket_connect(path) as third:
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive_json()
            assert closed.value.code == 1013


@pytest.mark.settings(sockets_per_seat=2)
def test_a_seat_opened_in_one_tab_too_many_closes_the_oldest_saying_so_and_not_to_come_back(
    app_client: TestClient,
) -> None:
    c = app_client
    game = c.post("/api/games", json={"game": "classic", "seats": [{"kind": "human"}, GREEDY]}).json()
    path = f"/api/games/{game['id']}/ws?seat=0&token={game['seats'][0]['token']}"
    with c.websocket_connect(path + "&lang=sl") as oldest, c.websocket_connect(path) as second:
        assert oldest.receive_json()["type"] == second.receive_json()["type"] == "state"
        with c.websocket_connect(path) as newest:
            assert newest.receive_json()["view"]["legal_actions"]
            with pytest.raises(WebSocketDisconnect) as closed:
                oldest.receive_json()
            # not 1013, "try again later": the table would reconnect and take the seat back from the newest tab
            assert closed.value.code == 4409 and closed.value.reason == "ta sedež je bil odprt v drugem zavihku"


# ----------------------------------------------------------------------------- 7. bounds that hold under a race


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_concurrent_creates_cannot_pass_a_clients_bound_together(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    from tests.server.conftest import _reset_postgres

    if backend == "sqlite":
        url = f"sqlite:///{tmp_path}/b.db"
    else:
        url = request.getfixturevalue("postgres_url")
        _reset_postgres(url)
    from splendor.store.games import GameBounds, TooManyGames

    store = open_store(url)
    games = GameStore(store)
    bounds = GameBounds(games=5, bots_only=2)
    outcomes: list[str] = []
    start = threading.Barrier(12)

    def make(n: int, bots_only: bool) -> None:
        seats = [
            SeatInfo(0, "bot", "greedy", None, None),
            SeatInfo(1, "bot" if bots_only else "human", None, None, None),
        ]
        start.wait()
        try:
            games.create(f"{n:032x}", "classic", 2, 1, {}, seats, owner="one client", bounds=bounds)
            outcomes.append("bots" if bots_only else "people")
        except TooManyGames:
            outcomes.append("refused")

    threads = [threading.Thread(target=make, args=(n, n % 2 == 0)) for n in range(12)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert outcomes.count("bots") <= 2 and outcomes.count("bots") + outcomes.count("people") == 5
        assert games.unfinished_of("one client") == (5, outcomes.count("bots"))
    finally:
        store.close()


# ----------------------------------------------------------------------------- 10. two rated games ending at once


def test_two_rated_games_of_a_new_account_ending_at_once_both_count(postgres_url: str) -> None:
    from tests.server.conftest import _reset_postgres

    _reset_postgres(postgres_url)
    store = open_store(postgres_url)
    try:
        ann, _ = Accounts(store).sign_up("ann", PASSWORD)
        for g in ("1" * 32, "2" * 32):
            GameStore(store).create(
                g,
                "classic",
                2,
                1,
                {},
                [SeatInfo(0, "human", None, "ann", None, account_id=ann.id), SeatInfo(1, "bot", "greedy", None, None)],
            )
        seats = [RatedSeat(0, ann.id), RatedSeat(1, bot_rating=(18.0, 1.0))]
        failures: list[BaseException] = []
        first = store.engine.connect()
        first.begin()
        rate_game(first, "1" * 32, "classic", seats, winners=[0])  # the first game's end, not yet committed

        def second_game_ends() -> None:
            try:
                with store.engine.begin() as conn:
                    rate_game(conn, "2" * 32, "classic", seats, winners=[0])
            except BaseException as e:
                failures.append(e)

        racer = threading.Thread(target=second_game_ends)
        racer.start()
        time.sleep(0.5)  # the second waits for the first's row
        first.commit()
        first.close()
        racer.join(timeout=30)
        assert not failures, failures
        with store.session() as s:
            assert s.scalar(select(RatingRow.games).where(RatingRow.account_id == ann.id)) == 2
    finally:
        store.close()


def test_no_action_is_written_to_a_game_that_ended_by_a_forfeit_meanwhile(store: Store) -> None:
    from splendor.store.games import Ending, GameMovedOn

    games = GameStore(store)
    games.create(
        "f" * 32,
        "classic",
        2,
        1,
        {},
        [SeatInfo(0, "human", None, None, None), SeatInfo(1, "bot", "greedy", None, None)],
    )
    assert games.end_by_forfeit("f" * 32, 0, Ending("idle", 0), "won")  # one process forfeits the seat...
    with pytest.raises(GameMovedOn):  # ...another's late move is refused
        games.append("f" * 32, 1, 0, "take w b g", "ongoing")
    assert not games.end_by_forfeit("f" * 32, 0, Ending("idle", 0), "won")  # and it ends only once
    assert games.load("f" * 32).actions == []  # type: ignore[union-attr]


def test_another_seats_resignation_does_not_restart_the_idle_time_of_the_person_to_move(store: Store) -> None:
    """A hostile tester's seat 0 was forfeited 53 s into a limit of 30, because seat 1 resigned at 20 s."""
    games = GameStore(store)
    humans = [SeatInfo(i, "human", None, None, None) for i in range(3)]
    games.create("e" * 32, "classic", 3, 1, {}, humans, rated=True, to_move=0)
    time.sleep(0.3)
    assert games.idle(0.2, rated=True) == [("e" * 32, 0)]  # seat 0, to move, idle past 0.2 s
    assert games.forfeit_seat("e" * 32, 0, 1, "ismcts:medium", "resigned", bot_turn=False, asked=True)
    assert games.idle(0.2, rated=True) == [("e" * 32, 0)]  # still idle as long: seat 1's leaving is not seat 0's move


def test_the_idle_sweeps_read_only_the_games_they_end_by_whether_the_seat_to_move_keeps_an_account(
    store: Store,
) -> None:
    """A code review's find: the idle forfeit read the oldest hundred idle rated games and passed over those whose
    seat to move keeps no account (it cannot be rated), which stayed the oldest hundred for good, so that no later
    game was ever forfeited. Each sweep reads only the games it ends."""
    games = GameStore(store)
    ann, _ = Accounts(store).sign_up("ann", PASSWORD)
    guest = [SeatInfo(0, "human", None, "bea", None), SeatInfo(1, "human", None, "ann", None, account_id=ann.id)]
    kept = [SeatInfo(0, "human", None, "ann", None, account_id=ann.id), SeatInfo(1, "bot", "greedy", None, None)]
    games.create("g" * 32, "classic", 2, 1, {}, guest, rated=True, to_move=0)
    games.create("k" * 32, "classic", 2, 1, {}, kept, rated=True, to_move=0)
    time.sleep(0.3)
    assert games.idle(0.2, rated=True, accounts=True, limit=1) == [("k" * 32, 0)]  # the guest's, older, passed
    assert games.idle(0.2, rated=True, accounts=False) == [("g" * 32, 0)]
    assert {g for g, _ in games.idle(0.2, rated=True)} == {"g" * 32, "k" * 32}


def test_a_seat_a_bot_plays_on_since_its_person_forfeited_takes_no_move_from_the_person(store: Store) -> None:
    from splendor.store.games import GameMovedOn

    games = GameStore(store)
    games.create(
        "e" * 32,
        "classic",
        3,
        1,
        {},
        [
            SeatInfo(0, "human", None, None, None),
            SeatInfo(1, "bot", "greedy", None, None),
            SeatInfo(2, "bot", "greedy", None, None),
        ],
    )
    assert games.forfeit_seat("e" * 32, 0, 0, "ismcts:medium")
    with pytest.raises(GameMovedOn):  # the person's late move, on a process not yet told
        games.append("e" * 32, 1, 0, "take w b g", "ongoing", by_person=True)
    games.append("e" * 32, 1, 0, "take w b g", "ongoing")  # the bot that plays it on
    assert games.load("e" * 32).actions == ["take w b g"]  # type: ignore[union-attr]


# ----------------------------------------------------------------------------- a hostile tester, once more (#35)


def test_a_seat_of_a_rated_game_is_kept_only_before_its_first_move(server: Server) -> None:
    with signed_up(server.base, "ann") as ann, signed_up(server.base, "bea") as bea:
        early = create(ann, "classic", [MINE, {"kind": "human"}])
        assert early["rated"]
        token = early["seats"][1]["token"]
        assert bea.post(f"/api/games/{early['id']}/seats/1/keep", headers={"x-seat-token": token}).status_code == 200
        late = create(ann, "classic", [MINE, {"kind": "human"}])
        token = late["seats"][1]["token"]
        _move(ann, late, 0)
        refused = bea.post(f"/api/games/{late['id']}/seats/1/keep", headers={"x-seat-token": token})
        assert refused.status_code == 409 and "before its first move" in refused.json()["detail"]
        _move(bea, late, 1, token)  # the link still plays the seat
        for _round in range(RATED_AFTER_MOVES - 1):  # (ann leaving sooner would be a reason of its own)
            _turn(ann, late, 0)
            _turn(bea, late, 1, token)
        assert ann.post(f"/api/games/{late['id']}/seats/0/resign").status_code == 200
        late_changes = ann.get(f"/api/games/{late['id']}/ratings").json()
        assert late_changes == {
            "over": True,
            "rated": False,
            "unplayed": False,
            "changes": [],
        }  # bea's seat: no account
        unrated = create(ann, "classic", [MINE, {"kind": "human"}], rated=False)
        token = unrated["seats"][1]["token"]
        _move(ann, unrated, 0)
        kept = bea.post(f"/api/games/{unrated['id']}/seats/1/keep", headers={"x-seat-token": token})
        assert kept.status_code == 200  # where nothing counts, a seat may be kept at any time


def test_a_rated_game_left_before_a_persons_fifth_move_changes_no_rating(server: Server) -> None:
    """A second account resigning at once, game after game, farmed a rating: a game one of its people never
    moved in was never played, as an abort is not; nor, since a hostile tester resigned after one move, one that
    a person left before their fifth."""
    with signed_up(server.base, "ann") as ann, signed_up(server.base, "bea") as bea:
        game = create(bea, "classic", [MINE, {"kind": "human"}])
        token = game["seats"][1]["token"]
        assert ann.post(f"/api/games/{game['id']}/seats/1/keep", headers={"x-seat-token": token}).status_code == 200
        resigned = bea.post(f"/api/games/{game['id']}/seats/0/resign")
        assert resigned.status_code == 200 and resigned.json()["ending"] == {"by": "resigned", "seat": 0, "at": 0}
        assert ann.get(f"/api/games/{game['id']}/ratings").json() == {
            "over": True,
            "rated": False,
            "unplayed": True,
            "changes": [],
        }
        assert ann.get("/api/me").json()["ratings"] == {}
        again = create(bea, "classic", [MINE, {"kind": "human"}])
        token = again["seats"][1]["token"]
        assert ann.post(f"/api/games/{again['id']}/seats/1/keep", headers={"x-seat-token": token}).status_code == 200
        _move(bea, again, 0)
        assert bea.post(f"/api/games/{again['id']}/seats/0/resign").status_code == 200
        assert ann.get(f"/api/games/{again['id']}/ratings").json() == {
            "over": True,
            "rated": False,
            "unplayed": True,
            "changes": [],
        }  # ann: no move
        quick = create(bea, "classic", [MINE, {"kind": "human"}])  # a move each, and resigned: a hostile tester
        token = quick["seats"][1]["token"]  # farmed a rating so, 1500 to 1800 in four games
        assert ann.post(f"/api/games/{quick['id']}/seats/1/keep", headers={"x-seat-token": token}).status_code == 200
        _move(bea, quick, 0)
        _move(ann, quick, 1)
        assert bea.post(f"/api/games/{quick['id']}/seats/0/resign").status_code == 200
        assert ann.get(f"/api/games/{quick['id']}/ratings").json()["unplayed"] is True
        third = create(bea, "classic", [MINE, {"kind": "human"}])
        token = third["seats"][1]["token"]
        assert ann.post(f"/api/games/{third['id']}/seats/1/keep", headers={"x-seat-token": token}).status_code == 200
        for _round in range(RATED_AFTER_MOVES):
            _turn(bea, third, 0)
            _turn(ann, third, 1)
        assert bea.post(f"/api/games/{third['id']}/seats/0/resign").status_code == 200
        changes = ann.get(f"/api/games/{third['id']}/ratings").json()
        assert changes["rated"] and len(changes["changes"]) == 2  # five moves each: a game, and it counts


def test_a_game_of_open_seats_and_no_creators_seat_is_refused_since_nobody_could_call_it_off(
    app_client: TestClient,
) -> None:
    c = app_client
    greedy = {"kind": "bot", "bot": "greedy"}
    for seats in ([{"kind": "open"}, {"kind": "open"}], [{"kind": "open"}] * 4, [greedy, {"kind": "open"}]):
        r = c.post("/api/games", json={"game": "classic", "seats": seats, "clock": "3d"})
        assert r.status_code == 400 and "who may call it off" in r.json()["detail"], seats
    assert c.get("/api/open-games").json()["games"] == []
    assert (
        c.post("/api/games", json={"game": "classic", "seats": [{"kind": "human"}, {"kind": "open"}]}).status_code
        == 201
    )


@pytest.mark.settings(games_per_minute=3)
def test_one_address_creates_a_bounded_number_of_games_a_minute(app_client: TestClient) -> None:
    c = app_client
    codes = [
        c.post("/api/games", json={"game": "classic", "seats": [{"kind": "human"}, GREEDY]}).status_code
        for _ in range(5)
    ]
    assert codes == [201, 201, 201, 429, 429]
    r = c.post("/api/games", json={"game": "classic", "seats": [{"kind": "human"}, GREEDY]})
    assert "too many games created from your address" in r.json()["detail"]


@pytest.mark.settings(games_per_minute=3)
def test_a_creation_refused_for_its_options_does_not_count_among_the_games_a_minute(app_client: TestClient) -> None:
    """Thirty slips in the form (a clock that is none) had used up the minute's games: the next good one was 429."""
    c = app_client
    for _ in range(5):
        r = c.post("/api/games", json={"game": "classic", "seats": [{"kind": "human"}, GREEDY], "clock": "99+999"})
        assert r.status_code == 400, r.text
    r = c.post("/api/games", json={"game": "classic", "seats": [{"kind": "human"}, GREEDY]})
    assert r.status_code == 201, r.text
