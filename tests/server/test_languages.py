"""The server speaks the reader's language: refusals over HTTP (Accept-Language) and WebSocket (?lang=), and the
catalogs the pages read."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from tests.server.conftest import Server, create

HUMANS2 = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]


def test_a_refused_action_is_explained_in_the_language_the_request_asks_for(server: Server) -> None:
    with server.client() as c:
        g = create(c, "classic", HUMANS2)
        token = g["seats"][0]["token"]
        url = f"/api/games/{g['id']}/actions"
        said = {}
        for accept in ("ko-KR,ko;q=0.9,en;q=0.8", "sl", "zh-CN", "de", None):
            headers = {"x-seat-token": token, **({"accept-language": accept} if accept else {})}
            r = c.post(url, json={"seat": 0, "action": "take w w w"}, headers=headers)
            assert r.status_code == 400
            said[accept] = (r.json()["detail"], r.headers["content-language"])
        assert said[None] == ("take either up to 3 tokens of different colours, or 2 of one colour", "en")
        assert said["de"][1] == "en"
        assert said["ko-KR,ko;q=0.9,en;q=0.8"] == (
            "서로 다른 색의 토큰을 3개까지 가져오거나, 같은 색 2개를 가져오세요",
            "ko",
        )
        assert said["sl"] == ("vzemi največ 3 žetone različnih barv ali 2 iste barve", "sl")
        assert said["zh-CN"][1] == "zh" and "不同颜色" in said["zh-CN"][0]
        r = c.post(
            url,
            json={"seat": 1, "action": "take w b g"},
            headers={"x-seat-token": g["seats"][1]["token"], "accept-language": "sl"},
        )
        assert r.status_code == 409 and r.json()["detail"] == "zdaj ne odločaš ti: odloča igralec 1"


def test_a_websocket_refusal_is_said_in_its_lang(server: Server) -> None:
    with server.client() as c:
        g = create(c, "classic", HUMANS2)
    ws_url = server.base.replace("http", "ws") + f"/api/games/{g['id']}/ws"
    with connect(f"{ws_url}?seat=1&token={g['seats'][1]['token']}&lang=zh") as sock:
        assert json.loads(sock.recv(timeout=10))["type"] == "state"
        sock.send(json.dumps({"type": "action", "action": "take w b g"}))
        assert json.loads(sock.recv(timeout=10)) == {
            "type": "error",
            "status": 409,
            "detail": "现在不是你决定：由玩家 1 决定",
        }


def test_the_pages_catalogs_are_served_for_each_language_and_only_those(server: Server) -> None:
    with server.client() as c:
        for code in ("sl", "ko", "zh"):
            body = c.get(f"/api/messages/{code}").json()
            assert body["language"] == code and len(body["messages"]) > 500
        assert c.get("/api/messages/en").json()["messages"] == {}
        r = c.get("/api/messages/xx")
        assert r.status_code == 422
        assert c.get("/api/messages/..%2F..%2Fetc").status_code in (404, 422)


def test_a_wrong_secret_is_refused_in_the_readers_language(server: Server) -> None:
    with server.client() as c:
        g = create(c, "classic", HUMANS2)
        r = c.get(
            f"/api/games/{g['id']}", params={"seat": 1}, headers={"x-seat-token": "nope", "accept-language": "ko"}
        )
        assert r.status_code == 403 and r.json()["detail"] == "플레이어 2 자리의 비밀 키가 틀렸거나 없습니다"
        r = c.get(f"/api/games/{g['id']}", params={"seat": 1}, headers={"x-seat-token": "nope"})
        assert r.json()["detail"] == "wrong or missing secret for Player 2's seat"


def test_a_name_refused_by_the_rules_of_names_says_why_in_the_readers_language(app_client: TestClient) -> None:
    """A newcomer signing up in Slovenian as "a<b" was told why in English, though the catalog had the words."""
    r = app_client.post(
        "/api/accounts", json={"name": "a<b", "password": "correct horse"}, headers={"accept-language": "sl"}
    )
    assert r.status_code == 422
    said = r.json()["detail"][0]["msg"]
    assert said.startswith("v imenu uporabi le črke, števke, presledke in .'-_") and "a name is 1-40" in said


@pytest.mark.settings(games_per_client=1)
def test_refusals_of_a_new_game_are_said_in_the_readers_language_with_their_numbers(app_client: TestClient) -> None:
    c = app_client
    sl = {"accept-language": "sl"}
    assert c.post("/api/games", json={"game": "classic", "seats": HUMANS2}).status_code == 201
    r = c.post("/api/games", json={"game": "classic", "seats": HUMANS2}, headers=sl)
    assert r.status_code == 429
    assert r.json()["detail"] == (
        "na tem strežniku imaš 1 nedokončano igro, kar je največ dovoljenih: najprej jo dokončaj"
    )
    r = c.post("/api/games", json={"game": "classic", "seats": HUMANS2})
    assert r.json()["detail"] == "you have 1 unfinished game on this server, the most allowed: finish it first"


def test_a_seats_pokedex_refusal_names_its_player_in_the_readers_language(app_client: TestClient) -> None:
    seats = [
        {"kind": "human", "name": "ann", "profile": "ann", "profile_secret": "nope"},
        {"kind": "human", "name": "bob"},
    ]
    r = app_client.post("/api/games", json={"game": "pokemon", "seats": seats}, headers={"accept-language": "sl"})
    assert r.status_code == 403 and r.json()["detail"] == "Igralec 1: napačna ali manjkajoča skrivnost profila ann"
    r = app_client.post("/api/games", json={"game": "classic", "seats": seats}, headers={"accept-language": "sl"})
    assert r.status_code == 400 and r.json()["detail"] == "Pokédex vodi le Splendor: Pokémon"
