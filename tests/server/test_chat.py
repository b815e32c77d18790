"""A game's chat (issue 33, item 4): the seats' room is the seats' alone, the spectators' room anyone's (a name to
write); a line is one line of plain text, 1-300 characters, no control or invisible characters; 5 lines in 10 s a
speaker (429, nothing kept); pushed live to the sockets that may read it, on any process; kept with the game, with
the action count it was said at (the replay shows it at its move); open for a while after the end."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

import splendor.server.chat
from splendor.server import Settings, create_app
from tests.server.conftest import Server, create

HUMANS2 = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]


def new_game(c: TestClient | httpx.Client) -> dict[str, Any]:
    r = c.post("/api/games", json={"game": "classic", "seats": HUMANS2})
    assert r.status_code == 201, r.text
    game: dict[str, Any] = r.json()
    return game


def say(
    c: TestClient | httpx.Client, game: dict[str, Any], seat: int | None, token: str | None = None, **body: Any
) -> httpx.Response:
    """``POST /chat`` as a seat (with ``token``, by default the seat's own) or as a spectator (``seat`` None)."""
    headers: dict[str, str] = {}
    if seat is not None:
        body["seat"] = seat
        headers["x-seat-token"] = token or game["seats"][seat]["token"]
    return c.post(f"/api/games/{game['id']}/chat", json=body, headers=headers)


def lines(c: TestClient | httpx.Client, game: dict[str, Any], seat: int | None = None, **query: Any) -> Any:
    headers = {"x-seat-token": game["seats"][seat]["token"]} if seat is not None else {}
    params = {**query, **({"seat": seat} if seat is not None else {})}
    r = c.get(f"/api/games/{game['id']}/chat", params=params, headers=headers)
    assert r.status_code == 200, r.text
    return [(x["room"], x["name"], x["text"]) for x in r.json()["lines"]]


def test_the_seats_room_is_read_and_written_by_the_seats_only(app_client: TestClient) -> None:
    c = app_client
    game = new_game(c)
    assert say(c, game, 0, text="hi bob").status_code == 201
    assert lines(c, game, 1) == [("seats", "ann", "hi bob")]
    assert lines(c, game, 0, room="seats") == [("seats", "ann", "hi bob")]
    # a spectator, or a stranger with a wrong secret, neither reads nor writes it
    assert lines(c, game) == []
    assert c.get(f"/api/games/{game['id']}/chat", params={"room": "seats"}).status_code == 403
    assert (
        c.get(f"/api/games/{game['id']}/chat", params={"seat": 0}, headers={"x-seat-token": "x" * 32}).status_code
        == 403
    )
    assert say(c, game, 0, token="x" * 32, text="I am ann").status_code == 403
    assert say(c, game, 1, token=game["seats"][0]["token"], text="I am bob").status_code == 403
    assert lines(c, game, 0) == [("seats", "ann", "hi bob")]


def test_the_spectators_room_is_anyones_to_read_and_needs_a_name_to_write(app_client: TestClient) -> None:
    c = app_client
    game = new_game(c)
    assert say(c, game, None, text="nice").status_code == 400  # no name, not signed in
    assert say(c, game, None, text="nice", name="bad\u200bname").status_code == 422
    assert say(c, game, None, text="nice", name="carol").status_code == 201
    assert c.post("/api/accounts", json={"name": "Dora", "password": "correct horse"}).status_code == 201
    assert say(c, game, None, text="hello", name="someone").json()["name"] == "Dora"  # signed in: the account's
    c.post("/api/accounts/signout")
    c.cookies.clear()
    assert say(c, game, None, text="I am Dora", name="dora").status_code == 409  # a guest takes no account's name
    for player in ("bob", "BOB", "bоb"):  # nor a player's of this game, in any case or look-alike (Cyrillic о)
        r = say(c, game, None, text="I resign, sorry", name=player)
        assert r.status_code == 409 and "a player of this game" in r.json()["detail"], player
    for seat in ("Player 1", "player 2", "Igralec 1"):  # nor what a table calls a seat without a name
        r = say(c, game, None, text="I resign, sorry", name=seat)
        assert r.status_code == 409 and "how a table calls a seat" in r.json()["detail"], seat
    r = say(c, game, None, text="I am the expert", name="EXPERT bot")  # nor a bot's, seated here or not
    assert r.status_code == 409 and "bot's" in r.json()["detail"]
    assert lines(c, game) == [("spectators", "carol", "nice"), ("spectators", "Dora", "hello")]
    assert len(lines(c, game, 0)) == 2  # the seats read it too


def test_a_cursor_past_what_the_store_can_hold_is_422_not_500(app_client: TestClient) -> None:
    game = new_game(app_client)
    assert say(app_client, game, 0, text="hi").status_code == 201
    assert lines(app_client, game, 0, after=2**31 - 1) == []  # chat lines are numbered by a 32-bit INTEGER
    r = app_client.get(f"/api/games/{game['id']}/chat", params={"after": 2**31})
    assert r.status_code == 422, r.text


def test_a_line_is_1_to_300_characters_of_one_line_of_visible_text(app_client: TestClient) -> None:
    c = app_client
    game = new_game(c)
    assert say(c, game, 0, text="x" * 301).status_code == 400
    assert say(c, game, 0, text="   ").status_code == 400
    assert say(c, game, 0, text="hi", phrase="hello").status_code == 400
    for bad in (
        "a\nb",
        "a\tb",
        "bell\x07",
        "left\u202eright",
        "zero\u200bwidth",
        "\u3164",
        "fill\u115fer",
        "\u2800 \u2800",  # the braille blank alone: a line that shows blank
        "a" + "\u0301" * 8,
    ):
        r = say(c, game, 0, text=bad)
        assert r.status_code == 400, bad
        assert r.json()["detail"]
    assert lines(c, game, 0) == []  # nothing kept
    goods = ("  " + "y" * 300 + "  ", "<b>bold</b> & co", "👍🏽 👨‍👩‍👧 ❤️ 1️⃣ 안녕하세요", "⠛⠛⠀⠺⠏")  # braille
    for good in goods:
        assert say(c, game, 0, text=good).status_code == 201, good
    kept = [text for _, _, text in lines(c, game, 0)]
    assert kept == ["y" * 300, "<b>bold</b> & co", "👍🏽 👨‍👩‍👧 ❤️ 1️⃣ 안녕하세요", "⠛⠛⠀⠺⠏"]


def test_a_subdivision_flag_is_allowed_and_tag_characters_elsewhere_are_refused(app_client: TestClient) -> None:
    c = app_client
    game = new_game(c)
    tags = "".join(chr(0xE0000 + ord(x)) for x in "gbeng")
    england, cancel = "\U0001f3f4" + tags + "\U000e007f", "\U000e007f"
    hidden = "\U0001f3f4" + "".join(chr(0xE0000 + ord(x)) for x in "ignore the rules") + cancel  # no flag: text
    for bad in (
        "a" + tags + "b",
        "\U0001f3f4" + tags,
        "x" + cancel,
        "\U0001f3f4" + cancel,
        "hi " + tags + cancel,
        hidden,
    ):
        assert say(c, game, 0, text=bad).status_code == 400, ascii(bad)
    for flag in ("gbsct", "gbwls"):
        spelt = "".join(chr(0xE0000 + ord(x)) for x in flag)
        assert say(c, game, 0, text="\U0001f3f4" + spelt + cancel).status_code == 201, flag
    assert say(c, game, 0, text=f"gg {england}!").status_code == 201
    assert [text for _, _, text in lines(c, game, 0)][-1] == f"gg {england}!"


def test_a_seat_that_resigned_still_reads_and_writes_the_seats_room_but_cannot_act(app_client: TestClient) -> None:
    c = app_client
    humans3 = [*HUMANS2, {"kind": "human", "name": "cat"}]
    game = c.post("/api/games", json={"game": "classic", "seats": humans3}).json()
    gid, token = game["id"], game["seats"][1]["token"]
    r = c.post(f"/api/games/{gid}/seats/1/resign", headers={"x-seat-token": token}, json={})
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["forfeited"] and not r.json()["over"]  # a bot plays seat 1 on
    assert say(c, game, 1, text="good game all").status_code == 201
    assert say(c, game, 1, phrase="good_game").status_code == 201
    assert say(c, game, 0, text="bye bob").status_code == 201
    assert lines(c, game, 1, room="seats") == [
        ("seats", "bob", "good game all"),
        ("seats", "bob", "Good game!"),
        ("seats", "ann", "bye bob"),
    ]
    assert len(lines(c, game, 2)) == 3  # the others read it
    # a wrong secret still reads and writes nothing for the forfeited seat
    assert say(c, game, 1, token="x" * 32, text="I am bob").status_code == 403
    assert c.get(f"/api/games/{gid}/chat", params={"seat": 1}, headers={"x-seat-token": "x" * 32}).status_code == 403
    # and the seat's secret acts for it no more: no view of its hand, no move, no hint, no second resignation
    mine = {"x-seat-token": token}
    assert c.get(f"/api/games/{gid}", params={"seat": 1}, headers=mine).status_code == 403
    view = c.get(f"/api/games/{gid}", params={"seat": 0}, headers={"x-seat-token": game["seats"][0]["token"]})
    action = view.json()["view"]["legal_actions"][0]
    assert c.post(f"/api/games/{gid}/actions", headers=mine, json={"seat": 1, "action": action}).status_code == 403
    assert c.post(f"/api/games/{gid}/seats/1/hint", headers=mine).status_code == 403
    assert c.post(f"/api/games/{gid}/seats/1/resign", headers=mine, json={}).status_code == 403
    with pytest.raises(WebSocketDisconnect), c.websocket_connect(f"/api/games/{gid}/ws?seat=1&token={token}") as ws:
        ws.receive_json()


def test_an_account_keeps_the_chat_of_the_seat_it_resigned(app_client: TestClient) -> None:
    c = app_client
    assert c.post("/api/accounts", json={"name": "Ann", "password": "correct horse"}).status_code == 201
    seats = [{"kind": "human", "mine": True}, {"kind": "human", "name": "bob"}, {"kind": "human", "name": "cat"}]
    game = c.post("/api/games", json={"game": "classic", "seats": seats}).json()
    gid = game["id"]
    assert c.post(f"/api/games/{gid}/seats/0/resign", json={}).status_code == 200
    r = c.post(f"/api/games/{gid}/chat", json={"seat": 0, "text": "gg"})  # by the session alone
    assert r.status_code == 201, r.text
    r = c.get(f"/api/games/{gid}/chat", params={"seat": 0, "room": "seats"})
    assert r.status_code == 200 and [x["text"] for x in r.json()["lines"]] == ["gg"]
    # without a seat, in any browser (a replay, a spectator's page), the account reads as the seat it keeps
    r = c.get(f"/api/games/{gid}/chat")
    assert r.status_code == 200 and r.json()["seat"] == 0 and r.json()["rooms"] == ["seats", "spectators"]
    assert [x["text"] for x in r.json()["lines"]] == ["gg"]
    assert c.get(f"/api/games/{gid}/chat", params={"room": "spectators"}).json()["seat"] is None
    c.post("/api/accounts/signout")
    c.cookies.clear()
    assert c.post(f"/api/games/{gid}/chat", json={"seat": 0, "text": "gg"}).status_code == 403  # signed out
    r = c.get(f"/api/games/{gid}/chat")  # a spectator now: the spectators' room only
    assert r.json()["seat"] is None and r.json()["rooms"] == ["spectators"] and r.json()["lines"] == []


def test_a_canned_phrase_is_kept_by_its_key(app_client: TestClient) -> None:
    c = app_client
    game = new_game(c)
    line = say(c, game, 1, phrase="good_luck").json()
    assert (line["phrase"], line["text"], line["seat"]) == ("good_luck", "Good luck!", 1)
    assert say(c, game, 1, phrase="<script>").status_code == 422


def test_a_sixth_line_within_ten_seconds_is_429_and_not_kept(app_client: TestClient) -> None:
    c = app_client
    game = new_game(c)
    for i in range(5):
        assert say(c, game, 0, text=f"line {i}").status_code == 201
    r = say(c, game, 0, text="one too many")
    assert r.status_code == 429
    assert "wait" in r.json()["detail"]
    # how long, for a page to hold its next line that long rather than send it to be refused again
    assert 1 <= int(r.headers["retry-after"]) <= 10 and f"wait {r.headers['retry-after']} second" in r.json()["detail"]
    assert say(c, game, 1, text="my own bucket").status_code == 201  # the other seat has its own
    assert [t for _, _, t in lines(c, game, 0)] == [f"line {i}" for i in range(5)] + ["my own bucket"]


def test_one_client_address_says_at_most_15_lines_in_ten_seconds_whatever_its_seats(app_client: TestClient) -> None:
    c = app_client
    r = c.post("/api/games", json={"game": "classic", "seats": [{"kind": "human"}] * 4})
    game = r.json()
    for seat in range(3):
        for i in range(5):
            assert say(c, game, seat, text=f"{seat}: {i}").status_code == 201
    r = say(c, game, 3, text="a fresh seat, the same address")
    assert r.status_code == 429 and "address" in r.json()["detail"]
    assert len(lines(c, game, 3)) == 15


def test_a_line_is_pushed_to_the_other_seat_and_never_to_a_spectator(app_client: TestClient) -> None:
    c = app_client
    game = new_game(c)
    bob = f"/api/games/{game['id']}/ws?seat=1&token={game['seats'][1]['token']}"
    with c.websocket_connect(bob) as seat, c.websocket_connect(f"/api/games/{game['id']}/ws") as crowd:
        assert seat.receive_json()["type"] == "state" and crowd.receive_json()["type"] == "state"
        assert say(c, game, 0, text="psst, bob").status_code == 201
        assert say(c, game, None, text="go ann", name="carol").status_code == 201
        pushed = seat.receive_json()
        assert (pushed["type"], pushed["room"], pushed["seat"], pushed["text"]) == ("chat", "seats", 0, "psst, bob")
        assert seat.receive_json()["text"] == "go ann"
        heard = crowd.receive_json()  # the spectator's first chat push is the spectators' line
        assert (heard["type"], heard["room"], heard["name"], heard["text"]) == ("chat", "spectators", "carol", "go ann")


def test_lines_are_kept_with_their_move_across_a_restart_and_open_an_hour_after_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path}/s.db", bot_workers=1, bot_pause_seconds=0, warm_bot_workers=False
    )
    with TestClient(create_app(settings)) as c:
        game = new_game(c)
        assert say(c, game, 0, phrase="good_luck").status_code == 201
        token = game["seats"][0]["token"]
        view = c.get(f"/api/games/{game['id']}", params={"seat": 0}, headers={"x-seat-token": token}).json()["view"]
        r = c.post(
            f"/api/games/{game['id']}/actions",
            headers={"x-seat-token": token},
            json={"seat": 0, "action": view["legal_actions"][0]},
        )
        assert r.status_code == 200, r.text
        assert say(c, game, 1, text="hmm").status_code == 201
        r = c.post(f"/api/games/{game['id']}/seats/1/resign", headers={"x-seat-token": game["seats"][1]["token"]})
        assert r.status_code == 200, r.text
        assert say(c, game, 1, phrase="good_game").status_code == 201  # after the end
    with TestClient(create_app(settings)) as c:  # a new process on the same store
        said = c.get(
            f"/api/games/{game['id']}/chat", params={"seat": 1}, headers={"x-seat-token": game["seats"][1]["token"]}
        ).json()["lines"]
        assert [(x["seat"], x["text"], x["actions"]) for x in said] == [
            (0, "Good luck!", 0),
            (1, "hmm", 1),
            (1, "Good game!", 1),
        ]
        assert lines(c, game) == []  # the replay's spectators never read the seats' room
        assert c.get(f"/api/games/{game['id']}/replay", params={"upto": 1}).status_code == 200
        monkeypatch.setattr(splendor.server.chat, "OPEN_AFTER_END", 0.0)
        r = say(c, game, 0, text="too late")
        assert r.status_code == 409
        assert len(lines(c, game, 0)) == 3


def chat_pushes(sock: Any, n: int, timeout: float = 20) -> list[dict[str, Any]]:
    """The next ``n`` chat pushes on ``sock`` (states skipped)."""
    deadline, found = time.monotonic() + timeout, []
    while len(found) < n:
        left = deadline - time.monotonic()
        assert left > 0, f"only {found} were pushed"
        message = json.loads(sock.recv(timeout=left))
        if message["type"] == "chat":
            found.append(message)
    return found


def test_on_postgresql_a_line_said_on_one_process_reaches_sockets_on_another(two: list[Server]) -> None:
    a, b = two
    with a.client() as client:
        game = create(client, "classic", HUMANS2)
    ws = b.base.replace("http", "ws") + f"/api/games/{game['id']}/ws"
    with connect(f"{ws}?seat=1&token={game['seats'][1]['token']}") as bob, connect(ws) as crowd:
        with a.client() as client:
            assert say(client, game, 0, text="from process a").status_code == 201
            assert say(client, game, None, text="from the crowd", name="carol").status_code == 201
        assert [m["text"] for m in chat_pushes(bob, 2)] == ["from process a", "from the crowd"]
        assert [m["text"] for m in chat_pushes(crowd, 1)] == ["from the crowd"]
        with b.client() as client:  # b's own line reaches its socket once, heard on the feed or not
            assert say(client, game, 1, text="from process b").status_code == 201
        with a.client() as client:
            assert say(client, game, 0, text="again").status_code == 201
        assert [m["text"] for m in chat_pushes(bob, 2)] == ["from process b", "again"]
