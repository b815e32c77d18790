"""The server through its real HTTP and WebSocket interfaces: creating, joining, playing to the end with people
and bots, bad input, races, bounds, and logs."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import splendor
from tests.server.conftest import Server, create, wait_for

HUMANS2 = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]


def act(client: httpx.Client, game: dict, seat: int, action: str, **extra: object) -> httpx.Response:
    token = game["seats"][seat]["token"]
    return client.post(
        f"/api/games/{game['id']}/actions",
        json={"seat": seat, "action": action, **extra},
        headers={"x-seat-token": token},
    )


def test_create_join_and_play_a_game_to_its_end_through_the_api(server: Server) -> None:
    with server.client() as c:
        g = create(c, "classic", HUMANS2)
        assert g["seats"][0]["link"].endswith(f"/play/{g['id']}?seat=0&token={g['seats'][0]['token']}")
        assert g["spectator_link"].endswith(f"/watch/{g['id']}")
        joined = c.post(f"/api/games/{g['id']}/seats/0/join", headers={"x-seat-token": g["seats"][0]["token"]})
        assert joined.status_code == 200 and joined.json()["you"] == 0
        assert c.post(f"/api/games/{g['id']}/seats/1/join", headers={"x-seat-token": "x"}).status_code == 403
        rng = random.Random(1)
        while True:
            seat_views = [
                c.get(
                    f"/api/games/{g['id']}", params={"seat": s}, headers={"x-seat-token": g["seats"][s]["token"]}
                ).json()
                for s in (0, 1)
            ]
            view = seat_views[0]["view"]
            if view["is_over"]:
                break
            seat = view["current_player"]
            legal = seat_views[seat]["view"]["legal_actions"]
            r = act(c, g, seat, rng.choice(legal))
            assert r.status_code == 200, r.text
        record = c.get(f"/api/games/{g['id']}/record")
        assert record.status_code == 200
        assert splendor.replay(record.text).is_over
        listing = c.get("/api/games").json()["games"]
        assert listing[0]["id"] == g["id"] and listing[0]["status"] in ("won", "shared")
        assert [(s["seat"], s["kind"], s["name"]) for s in listing[0]["seats"]] == [
            (0, "human", "ann"),
            (1, "human", "bob"),
        ]  # who played, as the lobby's list shows it; never a seat's secret
        assert all(set(s) == {"seat", "kind", "bot", "name", "kept"} for s in listing[0]["seats"])
        replay = c.get(f"/api/games/{g['id']}/replay", params={"upto": 3}).json()
        assert replay["upto"] == 3 and replay["view"]["viewer"] is None
        # a step comes with the actions that led to it, however early: the game's own log keeps only its last 60
        assert [e["n"] for e in replay["log"]] == [1, 2, 3] and replay["log"][-1] == replay["entry"]
        total = replay["total"]
        assert total > 70  # random play: longer than the log a game keeps
        kept = c.get(f"/api/games/{g['id']}").json()["log"]
        last = c.get(f"/api/games/{g['id']}/replay", params={"upto": total}).json()["log"]
        assert [e["n"] for e in last] == list(range(total - 59, total + 1)) and last == kept  # the same words
        # a whole number in a query is written in digits: a hostile tester's upto=1.0 was read as 1
        for path, query in (("replay", "upto=1.0"), ("replay", "upto=+1"), ("replay", "upto=1e0"), ("", "seat=0.0")):
            refused = c.get(f"/api/games/{g['id']}/{path}?{query}".replace("/?", "?"))
            assert refused.status_code == 422 and "whole number" in refused.text, (query, refused.text)
        for seat in ("1.0", "+1", "-1"):  # a seat in the path too: "1.0" had been read as seat 1
            refused = c.post(f"/api/games/{g['id']}/seats/{seat}/explain", json={"action": "take w b g"})
            assert refused.status_code == 422 and "whole number of 0 or more" in refused.text, (seat, refused.text)
        socket = server.base.replace("http", "ws") + f"/api/games/{g['id']}/ws?seat=1.0&token={g['seats'][1]['token']}"
        with connect(socket) as refused_socket, pytest.raises(ConnectionClosed) as closed:  # a socket's seat too
            refused_socket.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008  # said why, not a bare 403
        assert "malformed seat" in closed.value.rcvd.reason
        with connect(socket.replace("seat=1.0", "seat=1")) as ws:  # written in digits: the seat's view
            assert json.loads(ws.recv(timeout=5))["view"]["viewer"] == 1


@pytest.mark.parametrize("game", ["classic", "pokemon", "kids"])
def test_human_against_bots_and_bot_only_games_finish(server: Server, game: str) -> None:
    with server.client() as c:
        bots = create(
            c,
            game,
            [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
            seed=3,
            options={"max_turns": 200},
        )
        mixed = create(c, game, [{"kind": "human"}, {"kind": "bot", "bot": "ismcts:easy"}], seed=4)
        deadline = time.monotonic() + 120
        while c.get(f"/api/games/{bots['id']}").json()["view"]["is_over"] is False:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        rng = random.Random(2)
        for _ in range(6):
            payload = c.get(
                f"/api/games/{mixed['id']}", params={"seat": 0}, headers={"x-seat-token": mixed["seats"][0]["token"]}
            ).json()
            while payload["view"]["current_player"] != 0:
                time.sleep(0.1)
                payload = c.get(
                    f"/api/games/{mixed['id']}",
                    params={"seat": 0},
                    headers={"x-seat-token": mixed["seats"][0]["token"]},
                ).json()
            assert act(c, mixed, 0, rng.choice(payload["view"]["legal_actions"])).status_code == 200


def test_websocket_pushes_each_seat_its_own_view_after_every_change(server: Server) -> None:
    with server.client() as c:
        g = create(c, "classic", HUMANS2)
        ws_url = server.base.replace("http", "ws") + f"/api/games/{g['id']}/ws"
        with (
            connect(f"{ws_url}?seat=0&token={g['seats'][0]['token']}") as a,
            connect(f"{ws_url}?seat=1&token={g['seats'][1]['token']}") as b,
            connect(ws_url) as watcher,
        ):
            for sock in (a, b, watcher):
                assert json.loads(sock.recv(timeout=10))["actions"] == 0
            a.send(json.dumps({"type": "action", "action": "reserve deck 2"}))
            pushed = [json.loads(sock.recv(timeout=10)) for sock in (a, b, watcher)]
            assert [p["actions"] for p in pushed] == [1, 1, 1]
            assert pushed[0]["view"]["seats"][0]["reserved"][0].get("id") is not None
            assert pushed[1]["view"]["seats"][0]["reserved"] == [{"hidden": True, "tier": 2}]
            assert pushed[2]["view"]["seats"][0]["reserved"] == [{"hidden": True, "tier": 2}]
            a.send(json.dumps({"type": "action", "action": "take w b g"}))
            error = json.loads(a.recv(timeout=10))
            assert error == {"type": "error", "status": 409, "detail": "it is not your decision: Player 2 decides now"}
            watcher.send(json.dumps({"type": "action", "action": "take w b g"}))
            assert json.loads(watcher.recv(timeout=10))["detail"] == "spectators do not act"


def test_a_websocket_with_a_wrong_secret_is_refused(server: Server) -> None:
    with server.client() as c:
        g = create(c, "classic", HUMANS2)
        ws_url = server.base.replace("http", "ws") + f"/api/games/{g['id']}/ws?seat=0&token=nope"
        with pytest.raises(Exception), connect(ws_url) as sock:  # noqa: B017 (any refused handshake will do)
            sock.recv(timeout=5)


JSON = {"content-type": "application/json"}


def test_bad_input_gets_a_clear_error_and_changes_nothing(server: Server) -> None:
    with server.client() as c:
        g = create(c, "classic", HUMANS2)
        gid = g["id"]
        cases = [
            (c.post("/api/games", content=b"{not json", headers={"content-type": "application/json"}), 422, "JSON"),
            (c.post("/api/games", content=b"[" * 30000 + b"]" * 30000, headers=JSON), 422, "nested too deeply"),
            (c.post("/api/games", content=b'{"seed": ' + b"7" * 5000 + b"}", headers=JSON), 422, "a number too long"),
            (c.post(f"/api/games/{gid}/seats/0/resign", content=b"[" * 30000, headers=JSON), 422, "JSON"),
            (c.post("/api/games", json={"game": "chess", "seats": HUMANS2}), 422, "'classic', 'pokemon' or 'kids'"),
            (c.post("/api/games", json={"game": "classic", "seats": HUMANS2[:1]}), 422, "at least 2"),
            (
                c.post(
                    "/api/games",
                    json={"game": "classic", "seats": [{"kind": "bot", "bot": "cmd:rm -rf /"}, {"kind": "human"}]},
                ),
                422,
                "ismcts:hard",
            ),
            (
                c.post(
                    "/api/games",
                    json={"game": "pokemon", "seats": [{"kind": "human", "name": "a/b"}, {"kind": "human"}]},
                ),
                422,
                "a name is 1-40 letters",
            ),
            (
                c.post(
                    "/api/games", json={"game": "kids", "seats": HUMANS2, "options": {"short": True, "mysteries": True}}
                ),
                400,
                "cannot be short",
            ),
            (c.get("/api/pokedex/%01ash"), 422, "a name is 1-40 letters"),  # the Pokédex path's pattern: a name's
            (  # any other field's pattern is its own, not the rule of names
                c.post(
                    "/api/quick-play",
                    json={"game": "classic", "name": "zed", "replaces": {"id": "Z" * 32, "secret": "s"}},
                ),
                422,
                "^[0-9a-f]{32}$",
            ),
            (act(c, g, 0, "fly away"), 400, "'fly' is not an action"),
            (act(c, g, 0, "take w w"), 200, ""),
            (act(c, g, 0, "take b g r"), 409, "it is not your decision: Player 2 decides now"),
            (act(c, g, 1, "take w w"), 409, "needs at least 4 in the supply before taking; white has 2"),
            (
                c.post(
                    f"/api/games/{gid}/actions",
                    json={"seat": 1, "action": "take b g r"},
                    headers={"x-seat-token": g["seats"][0]["token"]},
                ),
                403,
                "wrong or missing secret for Player 2's seat",
            ),
            (c.post(f"/api/games/{gid}/actions", json={"seat": 1, "action": "take b g r"}), 403, "secret"),
            (c.get(f"/api/games/{gid}", params={"seat": 1}), 403, "secret"),
            (c.get(f"/api/games/{gid}", params={"seat": 7}), 422, ""),
            (c.get("/api/games/0123456789abcdef0123456789abcdef"), 404, "no game"),
            (c.get(f"/api/games/{gid}/record"), 409, "published when the game ends"),
            (act(c, g, 1, "take b g r", expect=0), 409, "has moved on"),
        ]
        for response, status, words in cases:
            assert response.status_code == status, (response.status_code, response.text)
            assert words in response.text
        flood = c.get("/api/games/" + "x" * 2000)  # a long id is not echoed back whole
        assert flood.status_code == 404 and len(flood.json()["detail"]) < 100
        state = c.get(f"/api/games/{gid}").json()
        assert state["actions"] == 1


def test_two_actions_racing_for_one_seat_exactly_one_is_accepted(server: Server) -> None:
    with server.client() as c:
        for _ in range(5):
            g = create(c, "classic", HUMANS2)
            results: list[int] = []

            def send(action: str) -> None:
                with httpx.Client(base_url=server.base, timeout=30) as own:
                    results.append(act(own, g, 0, action).status_code)  # noqa: B023 (joined in this round)

            threads = [threading.Thread(target=send, args=(a,)) for a in ("take w b g", "take r k w", "take w w")]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(results) == [200, 409, 409]
            assert c.get(f"/api/games/{g['id']}").json()["actions"] == 1


def test_a_bots_thinking_never_stalls_another_game(server: Server) -> None:
    with server.client() as c:
        slow = create(c, "classic", [{"kind": "bot", "bot": "ismcts:hard"}, {"kind": "bot", "bot": "ismcts:hard"}])
        fast = create(c, "classic", HUMANS2)
        time.sleep(0.3)
        before = c.get(f"/api/games/{slow['id']}").json()["actions"]
        for action in ("take w b g", "take r k w", "take b g r"):
            seat = c.get(f"/api/games/{fast['id']}").json()["view"]["current_player"]
            assert act(c, fast, seat, action).status_code == 200
        after = c.get(f"/api/games/{slow['id']}").json()["actions"]
        assert after - before <= 2  # the hard bots were still thinking while the other game went on


def test_request_size_and_rate_are_bounded(tmp_path: Path) -> None:
    s = Server(
        f"sqlite:///{tmp_path}/b.db",
        tmp_path / "b.log",
        "--requests-per-second",
        "5",
        "--request-burst",
        "8",
        "--max-body",
        "2000",
    ).start()
    try:
        with s.client() as c:
            big = c.post("/api/games", content=b"x" * 5000, headers={"content-type": "application/json"})
            assert big.status_code == 413 and "over 2000 bytes" in big.text
            streamed = c.post(  # no content-length: sent in chunks, refused as it passes the limit
                "/api/games", content=iter([b"x" * 1000] * 5), headers={"content-type": "application/json"}
            )
            assert streamed.status_code == 413 and "over 2000 bytes" in streamed.text
            small = c.post("/api/games", content=iter([b'{"game": "classic",', b' "seats": []}']))
            assert small.status_code == 422  # a streamed body within the limit reaches the app whole
            codes = [c.get("/api/health").status_code for _ in range(30)]
            assert 429 in codes and codes[0] == 200
    finally:
        s.stop()


def test_no_log_line_carries_a_secret(server: Server) -> None:
    with server.client() as c:
        g = create(c, "classic", HUMANS2)
        act(c, g, 0, "take w b g")
        ws_url = server.base.replace("http", "ws") + f"/api/games/{g['id']}/ws?seat=1&token={g['seats'][1]['token']}"
        with connect(ws_url) as sock:
            sock.recv(timeout=10)
        c.get(f"/api/games/{g['id']}", params={"seat": 0, "token": g["seats"][0]["token"]})
    server.stop()
    log = server.log.read_text()
    assert "seat 0 played take w b g" in log
    for seat in g["seats"]:
        assert seat["token"] not in log


def test_openapi_schema_documents_the_api(server: Server) -> None:
    with server.client() as c:
        schema = c.get("/openapi.json").json()
    assert {
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/actions",
        "/api/games/{game_id}/record",
        "/api/games/{game_id}/replay",
    } <= set(schema["paths"])


def test_a_bot_playing_people_pauses_before_its_move_and_bots_alone_do_not_unless_watched(tmp_path: Path) -> None:
    """The bot pause (1 s by default, 0.8 s here): a person sees each bot move happen; bot-only games run on,
    unless someone watches them. A newcomer's game between two bots ended before its spectator's table opened."""
    server = Server(f"sqlite:///{tmp_path}/p.db", tmp_path / "p.log", "--bot-pause", "0.8").start()
    try:
        with server.client() as c:
            g = create(c, "classic", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], seed=3)
            start = time.monotonic()
            assert act(c, g, 0, "take w b g").status_code == 200
            while c.get(f"/api/games/{g['id']}").json()["actions"] < 2:
                time.sleep(0.02)
            assert time.monotonic() - start >= 0.8
            bots = create(c, "classic", [{"kind": "bot", "bot": "greedy"}] * 2, options={"max_turns": 20})
            start = time.monotonic()
            while c.get(f"/api/games/{bots['id']}").json()["actions"] < 20:
                assert time.monotonic() - start < 8, "a bot-only game paused between moves"
                time.sleep(0.05)
            watched = create(c, "classic", [{"kind": "bot", "bot": "greedy"}] * 2, options={"max_turns": 20})
            ws_url = server.base.replace("http", "ws") + f"/api/games/{watched['id']}/ws"
            with connect(ws_url) as spectator:  # opened as the creator's page opens it, during the first wait
                spectator.recv(timeout=5)
                time.sleep(1.2)
                assert c.get(f"/api/games/{watched['id']}").json()["actions"] == 0  # waits three pauses to begin
                first = wait_for(lambda: c.get(f"/api/games/{watched['id']}").json()["actions"] or None, seconds=6)
                time.sleep(1.6)  # two pauses more: two moves, three at most, where unwatched it would have ended
                seen = c.get(f"/api/games/{watched['id']}").json()["actions"] - first
                assert seen <= 3, f"{seen} moves in 1.6 s of a watched game: its bots did not pause"
            start = time.monotonic()  # nobody watches any more: it runs on
            while c.get(f"/api/games/{watched['id']}").json()["actions"] < 20:
                assert time.monotonic() - start < 8, "a game between bots left unwatched still paused"
                time.sleep(0.05)
    finally:
        server.stop()


def test_bots_are_listed_and_seated_under_the_names_players_use(server: Server) -> None:
    with server.client() as c:
        bots = {b["spec"]: b["name"] for b in c.get("/api/bots").json()["bots"]}
        assert bots["greedy"] == "Greedy bot" and bots["ismcts:hard"] == "Hard bot"
        g = create(
            c,
            "classic",
            [{"kind": "human"}, {"kind": "bot", "bot": "ismcts:easy"}, {"kind": "bot", "bot": "greedy", "name": "Gus"}],
        )
        assert [s["name"] for s in g["seats"]] == [None, "Easy bot", "Gus"]
        assert bots["ismcts:advanced"] == "Advanced bot" and bots["ismcts:expert"] == "Expert bot"
        levels = [spec for spec in bots if spec.startswith("ismcts:")]  # listed weakest first
        assert levels == ["ismcts:easy", "ismcts:medium", "ismcts:hard", "ismcts:advanced", "ismcts:expert"]


def test_a_hint_is_the_expert_bots_move_for_your_decision_and_only_yours(server: Server) -> None:
    with server.client() as c:
        g = create(c, "classic", HUMANS2)
        hint = f"/api/games/{g['id']}/seats/{{seat}}/hint"
        first = c.post(hint.format(seat=0), headers={"x-seat-token": g["seats"][0]["token"]})
        assert first.status_code == 200, first.text
        advice = first.json()
        view = c.get(
            f"/api/games/{g['id']}", params={"seat": 0}, headers={"x-seat-token": g["seats"][0]["token"]}
        ).json()["view"]
        assert advice["action"] in view["legal_actions"] and 0.0 <= advice["win_chance"] <= 1.0
        assert advice["level"] == "expert" and advice["actions"] == 0
        again = c.post(hint.format(seat=0), headers={"x-seat-token": g["seats"][0]["token"]}).json()
        assert again == advice  # one search a position
        assert c.post(hint.format(seat=0), headers={"x-seat-token": "wrong"}).status_code == 403
        refused = c.post(hint.format(seat=1), headers={"x-seat-token": g["seats"][1]["token"]})
        assert refused.status_code == 409 and "Player 1 decides now" in refused.json()["detail"]
        assert c.post(hint.format(seat=7), headers={"x-seat-token": "x"}).status_code == 422
        assert act(c, g, 0, advice["action"]).status_code == 200
        moved = c.post(hint.format(seat=1), headers={"x-seat-token": g["seats"][1]["token"]}).json()
        assert moved["actions"] == 1 and moved["seat"] == 1


def test_the_table_is_told_why_an_action_would_be_refused_without_playing_it(server: Server) -> None:
    """The explanation the table shows beside a click: the rule's words in the reader's language, null for a
    legal action, nothing played, and only for the seat's own secret."""
    with server.client() as c:
        g = create(c, "classic", HUMANS2)
        explain = f"/api/games/{g['id']}/seats/{{seat}}/explain"
        own = {"x-seat-token": g["seats"][0]["token"]}
        r = c.post(explain.format(seat=0), headers=own, json={"actions": ["take y", "take w w", "buy 3.1", "nonsense"]})
        assert r.status_code == 200, r.text
        reasons = r.json()["reasons"]
        assert reasons["take w w"] is None
        assert reasons["take y"] == "gold tokens cannot be taken; one comes with a reservation"
        assert "you cannot afford that card" in reasons["buy 3.1"]
        assert reasons["nonsense"]  # a malformed action is explained too
        sl = c.post(explain.format(seat=0), headers={**own, "accept-language": "sl"}, json={"actions": ["take y"]})
        assert sl.json()["reasons"]["take y"].startswith("žetonov zlata ne moreš vzeti")
        other = c.post(
            explain.format(seat=1), headers={"x-seat-token": g["seats"][1]["token"]}, json={"actions": ["take w w"]}
        ).json()["reasons"]["take w w"]
        assert "Player 1 decides now" in other
        assert (
            c.post(
                explain.format(seat=0), headers={"x-seat-token": "wrong"}, json={"actions": ["take w w"]}
            ).status_code
            == 403
        )
        assert c.post(explain.format(seat=0), headers=own, json={"actions": []}).status_code == 422
        assert c.post(explain.format(seat=0), headers=own, json={"actions": ["take w w"] * 33}).status_code == 422
        assert c.get(f"/api/games/{g['id']}").json()["actions"] == 0  # nothing was played


def test_a_kids_replay_draws_the_board_as_it_stood_at_that_action(server: Server) -> None:
    """The replay's board follows its step: at the start every pawn is at the Port, after the game where it ended.
    While the game goes on no past board is drawn (409), as no replay is."""
    with server.client() as c:
        g = create(c, "kids", [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}])
        assert c.get(f"/api/games/{g['id']}/board.svg", params={"upto": 0}).status_code == 409
        moved = False
        while not moved:  # take and move until a pawn leaves the Port
            seat = c.get(f"/api/games/{g['id']}").json()["view"]["current_player"]
            token = g["seats"][seat]["token"]
            legal = c.get(f"/api/games/{g['id']}", params={"seat": seat}, headers={"x-seat-token": token}).json()
            legal = legal["view"]["legal_actions"]
            action = next((a for a in legal if a.startswith("move ")), legal[0])
            moved = action.startswith("move ")
            r = c.post(
                f"/api/games/{g['id']}/actions", json={"seat": seat, "action": action}, headers={"x-seat-token": token}
            )
            assert r.status_code == 200, r.text
        r = c.post(f"/api/games/{g['id']}/seats/0/resign", headers={"x-seat-token": g["seats"][0]["token"]})
        assert r.status_code == 200
        total = len(c.get(f"/api/games/{g['id']}/record").text.splitlines()) - 1
        start = c.get(f"/api/games/{g['id']}/board.svg", params={"upto": 0}).text
        end = c.get(f"/api/games/{g['id']}/board.svg", params={"upto": total}).text
        now = c.get(f"/api/games/{g['id']}/board.svg").text
    assert 'class="pawn"' in start and start != end and end == now
