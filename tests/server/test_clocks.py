"""Clocks (issue 33, item 2): chosen at creation, counted by the store's clock alone, charged with each move and
given the increment; a person who runs out loses a game of two (rated so) or is played on by a bot in a game of
three or four and ranks last; the deadline survives a restart; a move after it is refused; no client's time is
read; with many processes the game is ended on time exactly once, even when the process holding it dies."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from splendor.server.api import create_app
from splendor.server.moves import RATED_AFTER_MOVES
from splendor.server.settings import Settings
from tests.server.conftest import Server, create, play_turns, processes, wait_for

GREEDY = {"kind": "bot", "bot": "greedy"}
MINE = {"kind": "human", "mine": True}
HUMANS2 = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]
PASSWORD = "correct horse"
SHORT = pytest.mark.settings(allow_short_clocks=True)


def signed_in(c: TestClient | httpx.Client, name: str = "ann") -> None:
    assert c.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201


def state(c: TestClient | httpx.Client, game: dict[str, Any]) -> dict[str, Any]:
    payload: dict[str, Any] = c.get(f"/api/games/{game['id']}").json()
    return payload


def move(c: TestClient | httpx.Client, game: dict[str, Any], seat: int, **extra: Any) -> httpx.Response:
    """Seat ``seat`` plays its first legal action (with its secret)."""
    token = game["seats"][seat]["token"]
    view = c.get(f"/api/games/{game['id']}", params={"seat": seat}, headers={"x-seat-token": token}).json()["view"]
    return c.post(
        f"/api/games/{game['id']}/actions",
        headers={"x-seat-token": token},
        json={"seat": seat, "action": view["legal_actions"][0], **extra},
    )


def rating_changes(c: TestClient | httpx.Client, game: dict[str, Any]) -> dict[int, int]:
    return {x["seat"]: x["change"] for x in c.get(f"/api/games/{game['id']}/ratings").json()["changes"]}


# ----------------------------------------------------------------------------- choosing a clock


def test_a_clock_is_chosen_at_creation_and_runs_for_the_first_person(app_client: TestClient) -> None:
    c = app_client
    assert state(c, create(c, "classic", HUMANS2))["clock"] is None  # untimed
    clock = state(c, create(c, "kids", HUMANS2, clock="5+10"))["clock"]
    assert clock["control"] == "5+10" and clock["kind"] == "realtime"
    assert clock["per_turn"] == 300 and clock["increment"] == 10
    assert clock["banks"] == [300, 300] and clock["running"] == 0 and 295 < clock["left"] <= 300
    clock = state(c, create(c, "pokemon", HUMANS2, clock="2d"))["clock"]
    assert clock["kind"] == "correspondence" and clock["banks"] == [None, None] and clock["running"] == 0
    assert 2 * 86400 - 5 < clock["left"] <= 2 * 86400
    for written, kept in (("005+010", "5+10"), ("02d", "2d")):  # one control is written one way
        assert state(c, create(c, "classic", HUMANS2, clock=written))["clock"]["control"] == kept


def test_a_bad_time_control_is_refused_4xx_and_nothing_is_created(app_client: TestClient) -> None:
    c = app_client
    for control in ("0+5", "181+0", "5+181", "4d", "0d", "5", "5+", "+5", "five", "5 + 10", "1h", "0s+0"):
        r = c.post("/api/games", json={"game": "classic", "seats": HUMANS2, "clock": control})
        assert r.status_code == 400 and "time control" in r.json()["detail"], control
    r = c.post("/api/games", json={"game": "classic", "seats": HUMANS2, "clock": "10s+0"})
    assert r.status_code == 400 and "for tests" in r.json()["detail"]  # seconds: only where the server allows
    r = c.post("/api/games", json={"game": "classic", "seats": [GREEDY, GREEDY], "clock": "3+2"})
    assert r.status_code == 400 and "bots only" in r.json()["detail"]
    for clock in (300, {"control": "5+10", "left": 9999}, "5+10" * 4):
        r = c.post("/api/games", json={"game": "classic", "seats": HUMANS2, "clock": clock})
        assert r.status_code == 422, clock
    assert c.get("/api/games").json()["games"] == []


# ----------------------------------------------------------------------------- counting


@SHORT
def test_a_move_charges_the_time_used_and_adds_the_increment(app_client: TestClient) -> None:
    c = app_client
    game = create(c, "classic", HUMANS2, clock="30s+5")
    time.sleep(1.0)
    assert move(c, game, 0).status_code == 200
    clock = state(c, game)["clock"]
    assert 30 - 1.0 + 5 - 1.5 < clock["banks"][0] <= 30 - 1.0 + 5  # charged about a second, given 5
    assert clock["banks"][1] == 30 and clock["running"] == 1 and 28 < clock["left"] <= 30


@SHORT
def test_a_bots_time_is_not_counted(app_client: TestClient) -> None:
    c = app_client
    game = create(c, "classic", [{"kind": "human", "name": "ann"}, GREEDY], clock="30s+0")
    assert move(c, game, 0).status_code == 200
    after = wait_for(lambda: (p := state(c, game))["actions"] >= 2 and p)  # the bot moved
    assert after["clock"]["banks"][1] is None and after["clock"]["running"] == 0


@pytest.mark.settings(allow_short_clocks=True, clock_sweep_seconds=3600)
def test_a_move_after_the_deadline_is_refused_and_nothing_changes(app_client: TestClient) -> None:
    c = app_client
    game = create(c, "classic", HUMANS2, clock="1s+0")
    time.sleep(1.3)
    before = state(c, game)
    r = move(c, game, 0)
    assert r.status_code == 409 and "time has run out" in r.json()["detail"]
    after = state(c, game)
    assert after["actions"] == before["actions"] == 0 and after["log"] == before["log"]


@pytest.mark.settings(allow_short_clocks=True, clock_sweep_seconds=3600)
def test_a_resignation_or_an_abort_after_the_deadline_is_refused_and_the_game_left_to_the_clock(
    app_client: TestClient,
) -> None:
    """A hostile tester resigned bob's seat in the second before the sweep ended ann's game on time: ann won."""
    c = app_client
    game = create(c, "classic", HUMANS2, clock="1s+0")
    assert move(c, game, 0).status_code == 200
    assert move(c, game, 1).status_code == 200  # ann to move, her 1 s running
    unstarted = create(c, "classic", HUMANS2, clock="1s+0")  # bob may abort it, before his first move
    time.sleep(1.3)
    befores = [state(c, g) for g in (game, unstarted)]
    for g, seat, what in ((game, 1, "resign"), (game, 0, "resign"), (unstarted, 1, "abort")):
        token = g["seats"][seat]["token"]
        r = c.post(f"/api/games/{g['id']}/seats/{seat}/{what}", headers={"x-seat-token": token}, json={})
        assert r.status_code == 409, (seat, what, r.text)
        said = r.json()["detail"]
        assert ("your time has run out" if seat == 0 else "time of the player to move has run out") in said
    for g, before in zip((game, unstarted), befores):
        after = state(c, g)
        assert not after["over"] and after["seats"] == before["seats"] and after["actions"] == before["actions"]


@SHORT
def test_no_client_time_is_read(app_client: TestClient) -> None:
    c = app_client
    game = create(c, "classic", HUMANS2, clock="30s+0")
    for field in ({"seconds_left": 9999}, {"clock": {"left": 9999}}, {"time": 0}):
        r = move(c, game, 0, **field)
        assert r.status_code == 422, field
    assert state(c, game)["actions"] == 0
    token = game["seats"][0]["token"]
    url = f"/api/games/{game['id']}/ws?seat=0&token={token}"
    with c.websocket_connect(url) as ws:
        first = ws.receive_json()
        action = first["view"]["legal_actions"][0]
        ws.send_json({"type": "action", "action": action, "left": 9999, "banks": [9999, 9999], "turn_started": 0})
        pushed = ws.receive_json()
        while pushed.get("actions") != 1:
            pushed = ws.receive_json()
    assert pushed["clock"]["banks"][0] <= 30  # the socket's own numbers were ignored


# ----------------------------------------------------------------------------- running out


@SHORT
def test_two_players_the_one_who_runs_out_loses_rated_so(app_client: TestClient) -> None:
    c = app_client
    signed_in(c)
    game = create(c, "classic", [MINE, GREEDY], clock="5s+0")  # room for five moves on a loaded machine
    assert game["rated"]
    played = play_turns(c, game, 0, RATED_AFTER_MOVES)  # then ann's time runs out (left sooner: unrated)
    never = create(c, "classic", [MINE, GREEDY], clock="1s+0")
    ended = wait_for(lambda: (p := state(c, game))["over"] and p, seconds=15)
    assert ended["ending"] == {"by": "time", "seat": 0, "at": played}
    assert ended["clock"]["running"] is None and ended["view"]["legal_actions"] == []
    assert ended["clock"]["banks"][0] == 0  # spent, not as it stood when the turn began
    assert rating_changes(c, game)[0] < 0  # a loss on time counts
    unplayed = wait_for(lambda: (p := state(c, never))["over"] and p, seconds=10)
    assert unplayed["ending"] == {"by": "no_start", "seat": 0, "at": 0}  # out of time before a first move
    assert unplayed["clock"]["banks"][0] == 0  # called off, and the bank still shows it spent
    assert rating_changes(c, never) == {}  # called off: never played, as an abort
    listed = {g["id"]: g["status"] for g in c.get("/api/games").json()["games"]}
    assert listed[never["id"]] == "aborted" and listed[game["id"]] == "won"
    record = c.get(f"/api/games/{game['id']}/record").text
    notes = json.loads(record.splitlines()[0])["notes"]
    assert notes["ending"]["by"] == "time" and notes["time_control"] == "5s+0"
    assert c.get(f"/api/games/{game['id']}/replay").json()["ending"]["by"] == "time"


@SHORT
def test_three_players_a_bot_plays_on_the_seat_that_ran_out_and_it_ranks_last(app_client: TestClient) -> None:
    c = app_client
    signed_in(c)
    game = create(c, "kids", [MINE, GREEDY, GREEDY], clock="5s+0", options={"short": True})
    played = play_turns(c, game, 0, RATED_AFTER_MOVES)  # then ann's time runs out (left sooner: unrated)
    seat = wait_for(lambda: (s := state(c, game)["seats"][0])["forfeited"] and s, seconds=15)
    assert seat["kind"] == "bot" and seat["forfeit"] == {"by": "time", "at": played, "moved": True, "too_soon": False}
    r = c.post(f"/api/games/{game['id']}/actions", json={"seat": 0, "action": "take k r g"})  # signed in
    assert r.status_code == 403 and "ran out of time" in r.json()["detail"]
    ended = wait_for(lambda: (p := state(c, game))["over"] and p, seconds=60)  # the bots play it out
    assert ended["ending"] is None and ended["clock"]["running"] is None
    assert rating_changes(c, game)[0] < 0  # ranked last, whatever the bot made of the seat


@pytest.mark.settings(allow_short_clocks=True, idle_forfeit_seconds=0.4)
def test_a_timed_game_is_exempt_from_the_idle_forfeit(app_client: TestClient) -> None:
    c = app_client
    signed_in(c)
    timed = create(c, "classic", [MINE, GREEDY], clock="1d")
    untimed = create(c, "classic", [MINE, GREEDY])
    wait_for(lambda: state(c, untimed)["over"], seconds=10)  # the idle forfeit ends the untimed one
    assert not state(c, timed)["over"]


# ----------------------------------------------------------------------------- the store and restarts


def stored(db: Path, game_id: str) -> tuple[Any, ...]:
    with sqlite3.connect(db) as conn:
        row: tuple[Any, ...] = conn.execute(
            "SELECT time_control, to_move, turn_started, deadline FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    return row


def test_the_clock_survives_a_restart_with_its_deadline_intact(tmp_path: Path) -> None:
    db = tmp_path / "server.db"
    server = Server(f"sqlite:///{db}", tmp_path / "server.log").start()
    try:
        with server.client() as c:
            game = create(c, "classic", HUMANS2, clock="3d")
            assert move(c, game, 0).status_code == 200
            before = stored(db, game["id"])
            assert before[0] == "3d" and before[1] == 1 and before[3] == pytest.approx(before[2] + 3 * 86400)
        server.stop()
        server.start()
        with server.client() as c:
            assert stored(db, game["id"]) == before
            asked = time.time()
            clock = state(c, game)["clock"]
            answered = time.time()  # the server read its clock between these two: what is left is the same deadline
            assert clock["running"] == 1 and before[3] - answered - 1 <= clock["left"] <= before[3] - asked + 1
            assert move(c, game, 1).status_code == 200  # it goes on
            assert stored(db, game["id"])[1] == 0
    finally:
        server.stop()


def test_a_start_after_no_server_ran_gives_the_running_clocks_that_time_back(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    settings = Settings(database_url=f"sqlite:///{db}", bot_workers=1, warm_bot_workers=False, alive_seconds=5)
    with TestClient(create_app(settings)) as c:
        running = create(c, "classic", HUMANS2, clock="5+10")
        assert move(c, running, 0).status_code == 200  # bob's bank runs
        overdue = create(c, "classic", HUMANS2, clock="3d")
    before = stored(db, running["id"])
    with sqlite3.connect(db) as conn:  # no server ran for ten minutes (the last said it was alive then)
        conn.execute("UPDATE server_alive SET alive_at = alive_at - 600")
        due = before[3] - 1000  # a turn that ran out before the last server stopped: its sweep had ended it
        conn.execute("UPDATE games SET deadline = ? WHERE id = ?", (due, overdue["id"]))
    with TestClient(create_app(settings)) as c:
        after = stored(db, running["id"])
        # ten minutes less one beat: the last process may have lived a beat past its last word, its clocks running
        # (a hostile tester's bank of 60 s came back as 61)
        assert before[3] + 594 < after[3] < before[3] + 599
        assert after[3] - before[3] == pytest.approx(after[2] - before[2], abs=1e-6)
        assert stored(db, overdue["id"])[3] in (due, None)  # given nothing: ended on time, or about to be
        assert state(c, running)["clock"]["left"] > 290  # bob's five minutes, not gone while nobody could move
    with TestClient(create_app(settings)) as c:  # a restart at once: nothing given
        assert stored(db, running["id"]) == after


def test_a_start_after_no_server_ran_gives_the_idle_limit_and_the_open_seats_that_time_too(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    settings = Settings(database_url=f"sqlite:///{db}", bot_workers=1, warm_bot_workers=False, alive_seconds=5)
    with TestClient(create_app(settings)) as c:
        untimed = create(c, "classic", HUMANS2)
        waiting = create(c, "classic", [{"kind": "human", "name": "ann"}, {"kind": "open"}])

    def read() -> tuple[Any, ...]:
        with sqlite3.connect(db) as conn:
            changed = conn.execute("SELECT updated_at FROM games WHERE id = ?", (untimed["id"],)).fetchone()[0]
            until = conn.execute("SELECT open_until FROM games WHERE id = ?", (waiting["id"],)).fetchone()[0]
        return changed, until

    before = read()
    with sqlite3.connect(db) as conn:  # no server ran for an hour
        conn.execute("UPDATE server_alive SET alive_at = alive_at - 3600")
    with TestClient(create_app(settings)):
        after = read()
    shifted = datetime.fromisoformat(after[0]) - datetime.fromisoformat(before[0])
    assert abs(shifted.total_seconds() - 3600) < 10  # the idle forfeit counts from an hour later
    assert after[1] == pytest.approx(before[1] + 3600, abs=10)  # the open seat waits an hour longer


# ----------------------------------------------------------------------------- many processes


@pytest.fixture
def three(postgres_url: str, tmp_path: Path) -> Iterator[list[Server]]:
    with processes(postgres_url, tmp_path, 3, "--allow-short-clocks") as servers:
        yield servers


def test_when_the_process_holding_the_game_dies_the_others_end_it_on_time_once(
    three: list[Server], postgres_url: str, tmp_path: Path
) -> None:
    a, b, c = three
    with a.client() as client:
        signed_in(client)
        timed = create(client, "classic", [MINE, GREEDY], clock="8s+0")
        assert timed["rated"]
        assert state(client, timed)["clock"]["running"] == 0
        played = play_turns(client, timed, 0, RATED_AFTER_MOVES)  # left sooner, it would count for nobody
        game = create(client, "classic", [MINE, {"kind": "human", "name": "bob"}], clock="8s+2")
        legal = client.get(f"/api/games/{game['id']}", params={"seat": 0}).json()["view"]["legal_actions"]
        moved = client.post(f"/api/games/{game['id']}/actions", json={"seat": 0, "action": legal[0]})
        assert moved.status_code == 200  # charged by PostgreSQL's clock: about 8 s + 2 left
        assert 8 < moved.json()["clock"]["banks"][0] <= 10 and moved.json()["clock"]["running"] == 1
    a.kill9()  # the process that holds both games dies before the deadline
    with b.client() as client:
        ended = wait_for(lambda: (p := state(client, timed))["over"] and p, seconds=20)
        assert ended["ending"] == {"by": "time", "seat": 0, "at": played}
        ended = wait_for(lambda: (p := state(client, game))["over"] and p, seconds=45)
        assert ended["ending"] == {"by": "no_start", "seat": 1, "at": 1}  # bob's 8 s ran out before he moved
    time.sleep(2)  # every survivor's sweep has run again meanwhile
    engine = create_engine(postgres_url)
    try:
        with engine.connect() as conn:
            changes = conn.execute(
                text("SELECT count(*) FROM rating_changes WHERE game_id = :g"), {"g": timed["id"]}
            ).scalar()
            row = conn.execute(
                text("SELECT status, ended_by, deadline, to_move FROM games WHERE id = :g"), {"g": timed["id"]}
            ).one()
    finally:
        engine.dispose()
    assert changes == 1 and tuple(row) == ("won", "time", None, None)  # one rating change (the account's)
    logs = [s.log.read_text() for s in (b, c)]
    endings = [
        sum(log.count(f"game {g['id']}: seat {seat} ran out of time") for log in logs)
        for g, seat in ((timed, 0), (game, 1))
    ]
    assert endings == [1, 1]  # each game ended once, by one of the survivors
