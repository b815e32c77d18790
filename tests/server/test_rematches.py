"""Rematches (`splendor.server.rematches`): one game however many of the people ask, its seats kept for them, no
clock running until they are all seated, and every table of the game before told, on every process."""

from __future__ import annotations

import threading
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from splendor.store.database import Store, open_store
from splendor.store.games import GameStore, SeatInfo
from splendor.store.models import GameRow
from splendor.store.rematches import Rematches, marking
from tests.server.conftest import Server, create, wait_for

ANN = {"kind": "human", "name": "ann"}
BOB = {"kind": "human", "name": "bob"}
GREEDY = {"kind": "bot", "bot": "greedy"}


def ask(c: TestClient | httpx.Client, game: dict[str, Any], seat: int, token: str | None = None) -> httpx.Response:
    """Seat ``seat``'s person asks for the rematch of ``game`` with that seat's secret (or ``token``)."""
    secret = token if token is not None else game["seats"][seat]["token"]
    return c.post(f"/api/games/{game['id']}/seats/{seat}/rematch", headers={"x-seat-token": secret})


def resigned(c: TestClient | httpx.Client, game: dict[str, Any], seat: int) -> None:
    """End a game of two: ``seat`` resigns."""
    r = c.post(f"/api/games/{game['id']}/seats/{seat}/resign", headers={"x-seat-token": game["seats"][seat]["token"]})
    assert r.status_code == 200, r.text


def spectator(c: TestClient | httpx.Client, game_id: str) -> dict[str, Any]:
    body: dict[str, Any] = c.get(f"/api/games/{game_id}").json()
    return body


def test_the_first_to_ask_deals_the_rematch_and_the_other_takes_the_seat_kept_for_them(
    app_client: TestClient,
) -> None:
    c = app_client
    old = create(c, "classic", [ANN, BOB], clock="5+10")
    assert ask(c, old, 0).status_code == 409  # not over yet: nothing changed
    resigned(c, old, 1)
    r = ask(c, old, 0)
    assert r.status_code == 200, r.text
    dealt = r.json()
    assert dealt["you"] == 0 and dealt["rematch_of"] == old["id"] and f"seat=0&token={dealt['token']}" in dealt["link"]
    assert [(s["kind"], s["name"]) for s in dealt["seats"]] == [("human", "ann"), ("open", "bob")]  # kept, named
    assert [s["kept"] for s in dealt["seats"]] == [False, True]
    looked = c.get(f"/api/games/{dealt['id']}", params={"seat": 1}, headers={"x-seat-token": "guess"})
    assert looked.status_code == 403 and "kept for whoever played it" in looked.json()["detail"]
    assert dealt["view"]["legal_actions"] == []  # nobody plays until bob is seated
    assert dealt["clock"]["control"] == "5+10" and dealt["clock"]["running"] is None  # and no clock runs
    assert spectator(c, old["id"])["rematch"] == dealt["id"]  # the tables of the game before are told
    assert all(g["id"] != dealt["id"] for g in c.get("/api/open-games").json()["games"])  # kept, not listed
    stranger = c.post(f"/api/games/{dealt['id']}/seats/1/take", json={"name": "zoe"})
    assert stranger.status_code == 403 and "kept for whoever played it" in stranger.json()["detail"]
    assert ask(c, old, 1, token="not bob's").status_code == 403  # only the seat's person
    r = ask(c, old, 1)  # bob, with his seat of the game before: his kept seat, and the game begins
    assert r.status_code == 200, r.text
    taken = r.json()
    assert taken["id"] == dealt["id"] and taken["you"] == 1 and taken["seats"][1]["name"] == "bob"
    now = spectator(c, dealt["id"])
    # ann started the game before: bob starts the rematch (the first move passes on), and his clock runs now
    assert now["view"]["first_player"] == 1
    assert now["clock"]["running"] == now["view"]["current_player"] == 1
    his = c.get(f"/api/games/{dealt['id']}", params={"seat": 1}, headers={"x-seat-token": taken["token"]}).json()
    assert his["view"]["legal_actions"]
    again = ask(c, old, 0)  # ann again (her answer was lost): the same seat of the same rematch, a new secret
    assert again.status_code == 200 and again.json()["id"] == dealt["id"] and again.json()["you"] == 0
    lost = c.get(f"/api/games/{dealt['id']}", params={"seat": 0}, headers={"x-seat-token": dealt["token"]})
    assert lost.status_code == 403  # the old secret stops working
    now_mine = {"x-seat-token": again.json()["token"]}
    assert c.get(f"/api/games/{dealt['id']}", params={"seat": 0}, headers=now_mine).status_code == 200


def test_a_rematch_that_never_began_gives_way_to_the_next_one_asked_for(app_client: TestClient) -> None:
    """A rematch its asker called off (or that expired unfilled) had held the game's one rematch for good: every
    later ask was refused, and the other table offered a seat in a dead game."""
    c = app_client
    old = create(c, "classic", [ANN, BOB])
    resigned(c, old, 1)
    first = ask(c, old, 0).json()
    called_off = c.post(f"/api/games/{first['id']}/seats/0/abort", headers={"x-seat-token": first["token"]})
    assert called_off.status_code == 200, called_off.text
    r = ask(c, old, 1)  # bob asks: a new rematch, dealt by him
    assert r.status_code == 200, r.text
    second = r.json()
    assert second["id"] != first["id"] and [s["kind"] for s in second["seats"]] == ["open", "human"]
    assert spectator(c, old["id"])["rematch"] == second["id"]
    assert spectator(c, first["id"])["rematch_of"] is None  # no longer the game's rematch
    assert ask(c, old, 0).json()["id"] == second["id"]  # and ann takes her seat in it


def test_the_unique_index_makes_one_rematch_when_a_second_asker_did_not_see_the_first(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race, made certain: the second asker reads no rematch (as a process that has not heard of it yet), deals
    one, fails on the unique index, and takes its seat in the first's instead."""
    c = app_client
    old = create(c, "classic", [ANN, BOB])
    resigned(c, old, 1)
    dealt = ask(c, old, 0).json()
    manager = c.app.state.manager  # type: ignore[attr-defined]
    real = manager.rematches.of
    calls: list[str] = []

    def unheard(game_id: str) -> str | None:
        calls.append(game_id)
        return None if len(calls) == 1 else real(game_id)

    monkeypatch.setattr(manager.rematches, "of", unheard)
    r = ask(c, old, 1)
    assert r.status_code == 200, r.text
    assert r.json()["id"] == dealt["id"] and r.json()["you"] == 1 and len(calls) == 2


def test_the_unique_index_refuses_a_second_rematch_of_one_game(store: Store) -> None:
    games, old = GameStore(store), "a" * 32
    seats = [SeatInfo(seat=i, kind="bot", bot="random", name="Random bot", token_hash=None) for i in (0, 1)]
    games.create("b" * 32, "classic", 2, 1, {}, seats, also=lambda conn: marking(old)(conn, "b" * 32))
    with pytest.raises(IntegrityError):
        games.create("c" * 32, "classic", 2, 1, {}, seats, also=lambda conn: marking(old)(conn, "c" * 32))
    assert Rematches(store).of(old) == "b" * 32


def test_a_rematch_keeps_the_bots_and_the_options_and_a_person_alone_plays_at_once(app_client: TestClient) -> None:
    c = app_client
    old = create(c, "kids", [GREEDY, ANN], options={"mysteries": True})
    resigned(c, old, 1)
    r = ask(c, old, 1)
    assert r.status_code == 200, r.text
    dealt = r.json()
    assert [(s["kind"], s["bot"], s["name"]) for s in dealt["seats"]] == [
        ("bot", "greedy", "Greedy bot"),
        ("human", None, "ann"),
    ]
    assert dealt["view"]["mysteries"] is True
    assert dealt["view"]["first_player"] == 1  # the bot started the game before: ann starts this one
    token = {"x-seat-token": dealt["token"]}  # nobody else to wait for: ann plays at once
    assert c.get(f"/api/games/{dealt['id']}", params={"seat": 1}, headers=token).json()["view"]["legal_actions"]


def test_a_seat_whose_person_resigned_a_game_of_three_is_theirs_again_in_the_rematch(app_client: TestClient) -> None:
    c = app_client
    old = create(c, "classic", [ANN, BOB, GREEDY])
    resigned(c, old, 1)  # a bot plays bob's seat on
    resigned(c, old, 0)  # and ann's: the game plays on between bots to its end
    assert wait_for(lambda: spectator(c, old["id"])["over"], seconds=60)
    r = ask(c, old, 1)
    assert r.status_code == 200, r.text
    assert [s["kind"] for s in r.json()["seats"]] == ["open", "human", "bot"]
    assert ask(c, old, 0).json()["seats"][0]["name"] == "ann"


def test_a_game_called_off_before_it_began_has_no_rematch(app_client: TestClient) -> None:
    c = app_client
    old = create(c, "classic", [ANN, {"kind": "open"}])
    called_off = c.post(f"/api/games/{old['id']}/seats/0/abort", headers={"x-seat-token": old["seats"][0]["token"]})
    assert called_off.status_code == 200, called_off.text
    r = ask(c, old, 0)
    assert r.status_code == 409 and "never began" in r.json()["detail"]


@pytest.mark.settings(games_per_minute=3)
def test_rematches_dealt_count_among_the_games_an_address_makes_a_minute(app_client: TestClient) -> None:
    """A rematch dealt and ended at once, again and again, had made games past the bound of new games a minute:
    a hostile tester made 35 in 0.3 s, which filled the games' list."""
    c = app_client
    game = create(c, "classic", [ANN, GREEDY])  # one
    for made in (2, 3, 4):
        resigned(c, game, 0)
        r = ask(c, game, 0)
        if made > 3:
            assert r.status_code == 429 and "too many games created" in r.json()["detail"]
            break
        assert r.status_code == 200, r.text
        game = {"id": r.json()["id"], "seats": [{"token": r.json()["token"]}]}
    refused = c.post("/api/games", json={"game": "classic", "seats": [ANN, GREEDY]})
    assert refused.status_code == 429


def test_two_asking_at_once_make_one_rematch_and_both_sit_in_it(server: Server) -> None:
    with server.client() as c:
        old = create(c, "classic", [ANN, BOB])
        resigned(c, old, 0)
    answers: list[httpx.Response | None] = [None, None]
    start = threading.Barrier(2)

    def send(seat: int) -> None:
        with httpx.Client(base_url=server.base, timeout=30) as client:
            start.wait()
            answers[seat] = ask(client, old, seat)

    threads = [threading.Thread(target=send, args=(seat,)) for seat in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(a is not None and a.status_code == 200 for a in answers), [a.text for a in answers if a]
    ids = {a.json()["id"] for a in answers if a is not None}
    assert len(ids) == 1  # one rematch
    store = open_store(server.db_url)
    try:
        with store.engine.connect() as conn:
            count = conn.execute(select(func.count()).where(GameRow.rematch_of == old["id"])).scalar()
        assert count == 1
    finally:
        store.close()


def test_a_person_asking_several_times_at_once_is_seated_by_each_and_the_last_secret_plays(server: Server) -> None:
    """A hostile tester's find: of three requests at once for the seat kept for bob, one was answered and two had
    "this seat was taken by someone else", which was not so (only bob takes it). Each is answered now, as when
    asked one after the other, and the secret of one of them plays the seat."""
    with server.client() as c:
        old = create(c, "classic", [ANN, BOB])
        resigned(c, old, 1)
        dealt = ask(c, old, 0)
        assert dealt.status_code == 200, dealt.text
    answers: list[httpx.Response | None] = [None] * 3
    start = threading.Barrier(3)

    def send(i: int) -> None:
        with httpx.Client(base_url=server.base, timeout=30) as client:
            start.wait()
            answers[i] = ask(client, old, 1)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(a is not None and a.status_code == 200 for a in answers), [a.text for a in answers if a]
    assert {a.json()["id"] for a in answers if a is not None} == {dealt.json()["id"]}
    with server.client() as c:
        playing = [
            c.get(f"/api/games/{dealt.json()['id']}", params={"seat": 1}, headers={"x-seat-token": a.json()["token"]})
            for a in answers
            if a is not None
        ]
    assert [p.status_code for p in playing].count(200) == 1  # the last given; the others stopped playing it


def test_on_two_processes_the_other_process_tables_learn_of_the_rematch(two: list[Server]) -> None:
    a, b = two
    with a.client() as c:
        old = create(c, "classic", [ANN, BOB])
        resigned(c, old, 1)
    with b.client() as c:
        assert spectator(c, old["id"])["rematch"] is None  # b holds the finished game
    with a.client() as c:
        dealt = ask(c, old, 0).json()
    with b.client() as c:
        assert wait_for(lambda: spectator(c, old["id"])["rematch"] == dealt["id"])
        taken = ask(c, old, 1)  # bob takes his seat on the other process
        assert taken.status_code == 200 and taken.json()["id"] == dealt["id"]
