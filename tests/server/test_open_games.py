"""Open games (issue 33, item 1): a new game's open seats, listed in the lobby, taken by anyone (a guest with a
name, or an account that keeps the seat; a rated game's only by an account) until they expire; nobody acts, no
bot moves and no clock runs until the last is taken; of two racing takers exactly one wins, on one process or
many; a take of a taken or expired seat is refused with nothing changed."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from splendor.server.api import create_app
from splendor.server.settings import Settings
from splendor.store.models import GameRow
from splendor.store.open_seats import FILLED, NAMED, OpenSeats, Taker
from tests.server.conftest import Server, _reset_postgres, create, wait_for

PASSWORD = "correct horse"
ANN = {"kind": "human", "name": "ann"}
OPEN = {"kind": "open"}
GREEDY = {"kind": "bot", "bot": "greedy"}


def new_game(c: TestClient | httpx.Client, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = c.post("/api/games", json={"game": "classic", "seats": seats} | extra)
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def spectator(c: TestClient | httpx.Client, game: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = c.get(f"/api/games/{game['id']}").json()
    body.pop("log")
    return body


def take(c: TestClient | httpx.Client, game: dict[str, Any], seat: int, name: str | None = None) -> httpx.Response:
    return c.post(f"/api/games/{game['id']}/seats/{seat}/take", json={"name": name} if name else None)


def sign_up(c: TestClient, name: str) -> str:
    """A new account signed in on ``c``; returns its session cookie."""
    c.cookies.clear()
    r = c.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    cookie = c.cookies.get("splendor_session")
    assert cookie
    return cookie


def test_an_open_seat_is_listed_then_taken_by_a_guest_with_a_name(app_client: TestClient) -> None:
    c = app_client
    game = new_game(c, [ANN, OPEN])
    assert "token" not in game["seats"][1] and game["seats"][1]["kind"] == "open"
    listed = c.get("/api/open-games").json()["games"]
    assert [g["id"] for g in listed] == [game["id"]]
    entry = listed[0]
    assert entry["game"] == "classic" and entry["players"] == 2 and entry["open_seats"] == [1]
    assert entry["creator"] == {"name": "ann", "rating": None} and entry["rated"] is False
    assert entry["time_control"] is None and 1700 < entry["expires_in"] <= 1800
    ann = {"x-seat-token": game["seats"][0]["token"]}
    mine = c.get(f"/api/games/{game['id']}", params={"seat": 0}, headers=ann).json()
    assert mine["view"]["current_player"] == 0 and mine["view"]["legal_actions"] == []  # nothing to play yet
    r = take(c, game, 1, "bob")
    assert r.status_code == 200, r.text
    taken = r.json()
    assert c.get(f"/api/games/{game['id']}", params={"seat": 0}, headers=ann).json()["view"]["legal_actions"]
    assert taken["you"] == 1 and taken["seats"][1]["name"] == "bob" and taken["seats"][1]["kind"] == "human"
    assert f"seat=1&token={taken['token']}" in taken["link"]
    view = c.get(f"/api/games/{game['id']}", params={"seat": 1}, headers={"x-seat-token": taken["token"]})
    assert view.status_code == 200
    assert c.get("/api/open-games").json()["games"] == []


def test_both_lists_say_which_kids_game_a_game_is_short_or_mysteries(app_client: TestClient) -> None:
    """Whoever joins or watches a game from a list knows its variant before sitting down."""
    c = app_client
    dealt = {"mysteries": new_game(c, [ANN, OPEN], game="kids", options={"mysteries": True})}
    dealt["short"] = new_game(c, [ANN, OPEN], game="kids", options={"short": True})
    dealt["plain"] = new_game(c, [ANN, OPEN], game="classic")
    for listing in ("/api/open-games", "/api/games"):
        listed = {g["id"]: g["options"] for g in c.get(listing).json()["games"]}
        assert listed[dealt["mysteries"]["id"]]["mysteries"] is True
        assert listed[dealt["mysteries"]["id"]]["short"] is False
        assert listed[dealt["short"]["id"]]["short"] is True
        assert "mysteries" not in listed[dealt["plain"]["id"]]


@pytest.mark.settings(max_games_listed=2)
def test_an_invitations_game_is_listed_however_many_games_are_open(app_client: TestClient) -> None:
    c = app_client
    games = [new_game(c, [ANN, OPEN]) for _ in range(3)]
    assert [g["id"] for g in c.get("/api/open-games").json()["games"]] == [games[0]["id"], games[1]["id"]]
    asked = c.get("/api/open-games", params={"include": games[2]["id"]}).json()["games"]
    assert [g["id"] for g in asked] == [g["id"] for g in games]
    assert asked[2]["open_seats"] == [1] and asked[2]["creator"] == {"name": "ann", "rating": None}
    listed_already = c.get("/api/open-games", params={"include": games[0]["id"]}).json()["games"]
    assert [g["id"] for g in listed_already] == [games[0]["id"], games[1]["id"]]  # not twice
    assert len(c.get("/api/open-games", params={"include": "no-such-game"}).json()["games"]) == 2
    assert take(c, games[2], 1, "bob").status_code == 200
    assert len(c.get("/api/open-games", params={"include": games[2]["id"]}).json()["games"]) == 2  # no longer open


def test_nobody_acts_and_no_bot_moves_while_a_seat_is_open(app_client: TestClient) -> None:
    c = app_client
    waiting = new_game(c, [GREEDY, OPEN, ANN])  # the bot would move first
    token = waiting["seats"][2]["token"]
    time.sleep(0.5)
    assert spectator(c, waiting)["actions"] == 0
    before = spectator(c, waiting)
    r = c.post(
        f"/api/games/{waiting['id']}/actions", headers={"x-seat-token": token}, json={"seat": 2, "action": "pass"}
    )
    assert r.status_code == 409 and "waiting for players" in r.json()["detail"]
    r = c.post(f"/api/games/{waiting['id']}/seats/2/resign", headers={"x-seat-token": token})
    assert r.status_code == 409 and "waiting for players" in r.json()["detail"]
    r = c.post(
        f"/api/games/{waiting['id']}/seats/2/explain", headers={"x-seat-token": token}, json={"actions": ["pass"]}
    )
    assert "waiting for players" in r.json()["reasons"]["pass"]  # never "legal" while nobody may act
    assert spectator(c, waiting) == before
    # the open seat is nobody's: no secret plays it
    r = c.get(f"/api/games/{waiting['id']}", params={"seat": 1}, headers={"x-seat-token": token})
    assert r.status_code == 403
    # the last take starts the game: the bot moves
    assert take(c, waiting, 1, "bob").status_code == 200
    wait_for(lambda: spectator(c, waiting)["actions"] >= 1, 20)


def test_its_creator_may_abort_a_game_still_waiting(app_client: TestClient) -> None:
    c = app_client
    game = new_game(c, [ANN, OPEN])
    r = c.post(f"/api/games/{game['id']}/seats/0/abort", headers={"x-seat-token": game["seats"][0]["token"]})
    assert r.status_code == 200 and r.json()["ending"]["by"] == "aborted"
    before = spectator(c, game)
    r = take(c, game, 1, "bob")
    assert r.status_code == 409
    assert spectator(c, game) == before
    assert c.get("/api/open-games").json()["games"] == []


def test_the_lobby_names_the_games_creator_not_a_seat_taken_before_the_creators(app_client: TestClient) -> None:
    c = app_client
    game = new_game(c, [OPEN, ANN, OPEN])
    assert take(c, game, 0, "joiner").status_code == 200
    listed = c.get("/api/open-games").json()["games"][0]
    assert listed["creator"] == {"name": "ann", "rating": None} and listed["open_seats"] == [2]


def test_a_seat_taken_in_the_lobby_cannot_call_off_the_game_still_waiting(app_client: TestClient) -> None:
    c = app_client
    game = new_game(c, [ANN, OPEN, OPEN])
    joined = take(c, game, 1, "griefer").json()
    assert [s["joined"] for s in joined["seats"]] == [False, True, False]  # the table shows seat 1 no Abort
    listed = {g["id"]: g for g in c.get("/api/games").json()["games"]}[game["id"]]
    assert listed["status"] == "ongoing" and listed["waiting_for_players"]  # the lobby says "waiting for players"
    before = spectator(c, game)
    r = c.post(f"/api/games/{game['id']}/seats/1/abort", headers={"x-seat-token": joined["token"]})
    assert r.status_code == 409 and "only the game's creator can call it off" in r.json()["detail"]
    assert spectator(c, game) == before
    assert c.get("/api/open-games").json()["games"][0]["open_seats"] == [2]
    # once every seat is taken the game has begun: a seat that has not moved may abort it, as in any game
    last = take(c, game, 2, "cy").json()
    r = c.post(f"/api/games/{game['id']}/seats/2/abort", headers={"x-seat-token": last["token"]})
    assert r.status_code == 200 and r.json()["ending"] == {"by": "aborted", "seat": 2, "at": 0}


def test_a_guest_takes_no_seat_under_an_accounts_name(app_client: TestClient) -> None:
    c = app_client
    sign_up(c, "Alice")
    c.cookies.clear()
    game = new_game(c, [ANN, OPEN])
    for name in ("Alice", "ALICE", "\u0430lice"):  # the account's name, in any case or with a look-alike letter
        r = take(c, game, 1, name)
        assert r.status_code == 409 and "belongs to an account" in r.json()["detail"], name
    assert c.get("/api/open-games").json()["games"][0]["open_seats"] == [1]
    assert take(c, game, 1, "Alicia").status_code == 200


def test_a_taken_seat_is_refused_with_nothing_changed(app_client: TestClient) -> None:
    c = app_client
    game = new_game(c, [ANN, OPEN, OPEN])
    assert take(c, game, 1, "bob").status_code == 200
    before = spectator(c, game)
    r = take(c, game, 1, "cy")
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    assert take(c, game, 0, "cy").status_code == 409  # a person's seat is never open
    assert take(c, game, 3, "cy").status_code == 404
    assert take(c, game, 2).status_code == 400  # a guest gives a name
    assert c.post(f"/api/games/{'0' * 32}/seats/1/take", json={"name": "cy"}).status_code == 404
    assert spectator(c, game) == before
    assert c.get("/api/open-games").json()["games"][0]["open_seats"] == [2]


def test_a_guest_takes_no_seat_under_another_seats_name_or_a_look_alike(app_client: TestClient) -> None:
    """The seats' chat names a line by its seat's name: a "zed" beside "Zed" could pass for them."""
    c = app_client
    game = new_game(c, [{"kind": "human", "name": "Zed"}, OPEN, OPEN])
    before = spectator(c, game)
    for name in ("zed", "ZED", "Z\u0435d"):  # the last with a Cyrillic e
        r = take(c, game, 1, name)
        assert r.status_code == 409 and "looks like it" in r.json()["detail"], name
    assert spectator(c, game) == before
    assert take(c, game, 1, "bob").status_code == 200
    assert take(c, game, 2, "Bob").status_code == 409  # nor a name a taker holds
    assert take(c, game, 2, "cy").status_code == 200


def test_a_rated_open_game_is_created_only_by_an_account_keeping_its_own_seat(app_client: TestClient) -> None:
    """Listed as rated, it is taken by accounts only: a guest's, or one whose creator keeps no seat, would count for
    nobody (a rating needs every person's seat kept)."""
    c = app_client
    for seats in ([ANN, OPEN], [{"kind": "human"}, OPEN, OPEN]):
        r = c.post("/api/games", json={"game": "classic", "seats": seats, "rated": True})
        assert r.status_code == 400 and "signed in, keeping your own seat" in r.json()["detail"], r.text
    sign_up(c, "ann")
    r = c.post("/api/games", json={"game": "classic", "seats": [ANN, OPEN], "rated": True})
    assert r.status_code == 400  # signed in, but the creator's seat is not kept in the account
    assert c.get("/api/open-games").json()["games"] == []
    assert new_game(c, [{"kind": "human", "mine": True}, OPEN], rated=True)["rated"]


def test_a_rated_open_game_is_taken_only_by_an_account_which_keeps_the_seat(app_client: TestClient) -> None:
    c = app_client
    sign_up(c, "ann")
    game = new_game(c, [{"kind": "human", "mine": True}, OPEN, OPEN], rated=True)
    assert game["rated"]
    listed = c.get("/api/open-games").json()["games"][0]
    assert listed["rated"] and listed["creator"] == {"name": "ann", "rating": 1500}
    c.cookies.clear()
    before = spectator(c, game)
    r = take(c, game, 1, "guest")
    assert r.status_code == 401
    assert spectator(c, game) == before
    sign_up(c, "bob")
    r = take(c, game, 1)
    assert r.status_code == 200, r.text
    seat = r.json()["seats"][1]
    assert seat["name"] == "bob" and seat["has_account"]
    # the account plays it without the secret, and holds one seat of a game at most
    assert c.get(f"/api/games/{game['id']}", params={"seat": 1}).status_code == 200
    assert take(c, game, 2).status_code == 409
    assert spectator(c, game)["seats"][2]["kind"] == "open"


def updated_at(c: TestClient, game: dict[str, Any]) -> Any:
    store = c.app.state.store  # type: ignore[attr-defined]  # the app's state, set by its lifespan
    with store.engine.connect() as conn:
        return conn.execute(select(GameRow.updated_at).where(GameRow.id == game["id"])).scalar_one()


def test_a_refused_take_leaves_the_game_row_as_it_was(app_client: TestClient) -> None:
    c = app_client
    sign_up(c, "ann")
    game = new_game(c, [{"kind": "human", "mine": True}, OPEN, OPEN], rated=False)
    before = updated_at(c, game)
    time.sleep(0.05)
    r = take(c, game, 1)  # ann holds seat 0 already
    assert r.status_code == 409 and "already" in r.json()["detail"]
    assert updated_at(c, game) == before
    c.cookies.clear()
    assert take(c, game, 1, "bob").status_code == 200
    before = updated_at(c, game)
    time.sleep(0.05)
    assert take(c, game, 1, "cy").status_code == 409  # taken already
    assert updated_at(c, game) == before


def test_a_game_waiting_for_players_is_nobodys_turn_in_the_lobby(app_client: TestClient) -> None:
    c = app_client
    sign_up(c, "ann")
    game = new_game(c, [{"kind": "human", "mine": True}, OPEN], rated=False)
    (listed,) = c.get("/api/me").json()["games"]
    assert listed["to_move"] == 0 and listed["your_turn"] is False  # seat 0 is to move once the game starts
    ann = c.cookies.get("splendor_session")
    c.cookies.clear()
    assert take(c, game, 1, "bob").status_code == 200
    c.cookies.set("splendor_session", ann)
    (listed,) = c.get("/api/me").json()["games"]
    assert listed["your_turn"] is True


@pytest.mark.settings(open_seat_seconds=0.5, finding_sweep_seconds=0.1, games_per_client=1)
def test_open_seats_nobody_takes_expire_and_then_refuse_takers(app_client: TestClient) -> None:
    c = app_client
    game = new_game(c, [ANN, OPEN])
    ended = wait_for(lambda: spectator(c, game)["over"] and spectator(c, game), 10)
    assert ended["ending"]["by"] == "expired" and ended["view"]["is_over"]
    assert c.get("/api/open-games").json()["games"] == []
    r = take(c, game, 1, "bob")
    assert r.status_code == 409 and "expired" in r.json()["detail"]
    assert spectator(c, game) == ended
    listing = {g["id"]: g for g in c.get("/api/games").json()["games"]}
    assert listing[game["id"]]["status"] == "expired"
    # unrated, no winner, and not counted among its creator's unfinished games (the bound here is one)
    assert c.get(f"/api/games/{game['id']}/ratings").json()["rated"] is False
    new_game(c, [ANN, GREEDY])


@pytest.mark.settings(allow_short_clocks=True)
def test_no_clock_runs_until_the_last_seat_is_taken(app_client: TestClient) -> None:
    c = app_client
    game = new_game(c, [ANN, OPEN], clock="5+10")
    assert spectator(c, game)["clock"]["running"] is None
    assert take(c, game, 1, "bob").status_code == 200
    clock = spectator(c, game)["clock"]
    assert clock["running"] == spectator(c, game)["view"]["current_player"]
    assert 290 < clock["left"] <= 300


def test_an_open_game_of_days_a_move_waits_longer(app_client: TestClient) -> None:
    c = app_client
    new_game(c, [ANN, OPEN], clock="2d")
    listed = c.get("/api/open-games").json()["games"][0]
    assert listed["time_control"] == "2d" and listed["expires_in"] > 2 * 86400


# ----------------------------------------------------------------------------- races


def race(calls: list[tuple[str, dict[str, Any], int, str]]) -> list[int]:
    """Take open seats at once from threads: (server base, game, seat, name) each; their statuses."""
    statuses = [0] * len(calls)
    start = threading.Barrier(len(calls))

    def send(i: int, base: str, game: dict[str, Any], seat: int, name: str) -> None:
        with httpx.Client(base_url=base, timeout=30) as client:
            start.wait()
            statuses[i] = take(client, game, seat, name).status_code

    threads = [threading.Thread(target=send, args=(i, *call)) for i, call in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses


def test_two_racing_takers_of_one_seat_exactly_one_wins(server: Server) -> None:
    with server.client() as client:
        games = [create(client, "classic", [ANN, OPEN]) for _ in range(3)]
    for game in games:
        assert sorted(race([(server.base, game, 1, "bob"), (server.base, game, 1, "cy")])) == [200, 409]
        with server.client() as client:
            assert spectator(client, game)["seats"][1]["name"] in ("bob", "cy")


def test_two_guests_of_look_alike_names_taking_two_seats_at_once_one_is_refused(two: list[Server]) -> None:
    """The name was checked before the game's lock alone: two takes at once each saw the other's seat still open,
    and the game seated "bob" and "BOB" (five races in five). It is checked again in the take's transaction."""
    a, b = two
    with a.client() as client:
        games = [create(client, "classic", [ANN, OPEN, OPEN]) for _ in range(3)]
    for game in games:
        assert sorted(race([(a.base, game, 1, "bob"), (b.base, game, 2, "BOB")])) == [200, 409]
        with a.client() as client:
            names = [x["name"] for x in spectator(client, game)["seats"]]
            assert sorted(str(n).lower() for n in names if n) in (["ann", "bob"],), names


def test_the_store_refuses_a_guests_name_another_seat_took_first(app_client: TestClient) -> None:
    c = app_client
    game = new_game(c, [ANN, OPEN, OPEN])
    assert take(c, game, 1, "bob").status_code == 200
    store = c.app.state.manager.store.store  # type: ignore[attr-defined]
    seats = OpenSeats(store)
    assert seats.take(game["id"], 2, Taker(name="B0B", token_hash="x" * 64)) == NAMED  # the server checked too late
    assert seats.take(game["id"], 2, Taker(name="cy", token_hash="x" * 64)) == FILLED


def test_a_seat_that_was_never_open_says_so_when_taken(app_client: TestClient) -> None:
    c = app_client
    game = new_game(c, [ANN, GREEDY, OPEN])
    for seat in (0, 1):
        r = take(c, game, seat, "zoe")
        assert r.status_code == 409 and "never open" in r.json()["detail"], r.text
    assert take(c, game, 2, "zoe").status_code == 200
    r = take(c, game, 2, "yan")
    assert r.status_code == 409 and "taken by someone else" in r.json()["detail"]


@pytest.mark.parametrize("name", ["Greedy bot", "EXPERT BOT", "random  bot"])
def test_a_guest_takes_no_seat_under_a_bots_name(app_client: TestClient, name: str) -> None:
    c = app_client
    game = new_game(c, [ANN, OPEN])
    r = take(c, game, 1, name)
    assert r.status_code == 409 and "bot's" in r.json()["detail"], r.text
    assert spectator(c, game)["seats"][1]["kind"] == "open"


@pytest.mark.settings(seats_taken_per_client=2)
def test_one_address_takes_open_seats_in_a_bounded_number_of_unfinished_games(app_client: TestClient) -> None:
    """A hostile tester took both open seats of four games from one address and emptied the lobby: nothing bounded
    it. An address holds seats taken from the lobby in ``seats_taken_per_client`` unfinished games at most; a
    second seat of a game it holds counts nothing more, and a seat whose person left (a bot plays on) is not held."""
    c = app_client
    games = [new_game(c, [ANN, OPEN, OPEN]) for _ in range(3)]
    assert take(c, games[0], 1, "bob").status_code == 200
    bob = take(c, games[1], 1, "bob")
    assert bob.status_code == 200  # two games held: the most
    cy = take(c, games[1], 2, "cy")
    assert cy.status_code == 200  # a game already held: no more than before (the game starts)
    r = take(c, games[2], 1, "dee")
    assert r.status_code == 429 and "finish one" in r.json()["detail"], r.text
    assert spectator(c, games[2])["seats"][1]["kind"] == "open"  # nothing changed
    for seat, taken in ((1, bob), (2, cy)):  # both leave the game of three: bots play their seats on
        left = c.post(
            f"/api/games/{games[1]['id']}/seats/{seat}/resign", headers={"x-seat-token": taken.json()["token"]}
        )
        assert left.status_code == 200, left.text
    assert take(c, games[2], 1, "dee").status_code == 200  # only one game held now
    assert take(c, games[2], 2, "eve").status_code == 200  # and the same game again
    extra = new_game(c, [ANN, OPEN])
    assert take(c, extra, 1, "fay").status_code == 429  # two held again: games 0 and 2
    called_off = c.post(
        f"/api/games/{games[0]['id']}/seats/0/abort", headers={"x-seat-token": games[0]["seats"][0]["token"]}
    )
    assert called_off.status_code == 200, called_off.text  # its creator called it off, still waiting
    assert take(c, extra, 1, "fay").status_code == 200  # one of them ended: room for another


def test_on_two_processes_one_taker_wins_and_the_last_take_starts_the_game_once(two: list[Server]) -> None:
    a, b = two
    with a.client() as client:
        games = [create(client, "classic", [GREEDY, OPEN, OPEN, ANN]) for _ in range(3)]
    for game in games:
        with b.client() as client:
            assert spectator(client, game)["actions"] == 0  # both processes hold it
    # one seat, two takers, one on each process
    assert sorted(race([(a.base, games[0], 1, "bob"), (b.base, games[0], 1, "cy")])) == [200, 409]
    assert race([(a.base, games[0], 2, "dee")]) == [200]
    # the two last seats taken at once on two processes: both are, and the game starts (its bot moves)
    for game in games[1:]:
        assert race([(a.base, game, 1, "dee"), (b.base, game, 2, "eve")]) == [200, 200]
    for game in games:
        for s in two:
            with s.client() as client:
                seen = wait_for(lambda client=client, game=game: spectator(client, game)["actions"] >= 1)
                assert seen
                assert [x["kind"] for x in spectator(client, game)["seats"]] == ["bot", "human", "human", "human"]
    with b.client() as client:
        assert client.get("/api/open-games").json()["games"] == []


def test_open_seats_wait_by_the_databases_clock_whatever_the_process_clock(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _reset_postgres(postgres_url)
    settings = Settings(database_url=postgres_url, bot_workers=1, bot_pause_seconds=0, warm_bot_workers=False)
    with TestClient(create_app(settings)) as c:
        real = time.time
        with monkeypatch.context() as m:  # this process's clock an hour behind the database's while it creates
            m.setattr(time, "time", lambda: real() - 3600)
            game = new_game(c, [ANN, OPEN])
        (listed,) = c.get("/api/open-games").json()["games"]
        assert settings.open_seat_seconds - 5 < listed["expires_in"] <= settings.open_seat_seconds
        assert take(c, game, 1, "bob").status_code == 200
