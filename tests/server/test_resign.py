"""Resign and abort (issue 33, item 3): a seat resigns at any time (in a game of two it loses, rated so; with three
or four a bot plays it on and it ranks last) and aborts before its first move (no winner, unrated); both are kept
in the record and the replay; refusals change nothing; two racing requests on two processes: exactly one wins."""

from __future__ import annotations

import json
import re
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

import splendor
from splendor.bots import decide, make_bot
from splendor.core.record import CALLED_OFF, RESIGNED, TIME
from splendor.server.cache import LiveGame
from splendor.server.moves import RATED_AFTER_MOVES
from splendor.store.games import SeatInfo
from tests.server.conftest import Server, create, play_turns, wait_for

GREEDY = {"kind": "bot", "bot": "greedy"}
MINE = {"kind": "human", "mine": True}
HUMANS2 = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]
PASSWORD = "correct horse"


def signed_in(c: TestClient) -> None:
    assert c.post("/api/accounts", json={"name": "ann", "password": PASSWORD}).status_code == 201


def seat_call(c: TestClient | httpx.Client, game: dict[str, Any], seat: int, what: str, **body: Any) -> Any:
    """``POST …/seats/{seat}/{what}`` with the seat's own secret (none for a seat kept in the signed-in account)."""
    token = game["seats"][seat].get("token")
    headers = {"x-seat-token": token} if token else {}
    return c.post(f"/api/games/{game['id']}/seats/{seat}/{what}", headers=headers, json=body or None)


def state(c: TestClient | httpx.Client, game: dict[str, Any]) -> dict[str, Any]:
    """The spectator's payload, without its log (which a refused request must leave as it was too)."""
    payload: dict[str, Any] = c.get(f"/api/games/{game['id']}").json()
    return payload


def first_move(c: TestClient, game: dict[str, Any], seat: int) -> None:
    token = game["seats"][seat]["token"]
    view = c.get(f"/api/games/{game['id']}", params={"seat": seat}, headers={"x-seat-token": token}).json()["view"]
    r = c.post(
        f"/api/games/{game['id']}/actions",
        headers={"x-seat-token": token},
        json={"seat": seat, "action": view["legal_actions"][0]},
    )
    assert r.status_code == 200, r.text


def counted_for_nobody(c: TestClient, game: dict[str, Any]) -> None:
    """The finished rated game changed no rating, as one left too soon (`RATED_AFTER_MOVES`) does not."""
    assert c.get(f"/api/games/{game['id']}/ratings").json() == {
        "over": True,
        "rated": False,
        "unplayed": True,
        "changes": [],
    }
    assert "classic" not in c.get("/api/me").json()["ratings"]


# ----------------------------------------------------------------------------- resign


def test_resign_2p_loses_and_is_rated(app_client: TestClient) -> None:
    c = app_client
    signed_in(c)
    game = c.post("/api/games", json={"game": "classic", "seats": [MINE, GREEDY]}).json()
    assert game["rated"]
    played = play_turns(c, game, 0, RATED_AFTER_MOVES)  # left sooner, the game would count for nobody
    r = seat_call(c, game, 0, "resign", expect=played)
    assert r.status_code == 200, r.text
    ended = r.json()
    assert ended["over"] and ended["ending"] == {"by": "resigned", "seat": 0, "at": played} and ended["winners"] == [1]
    assert ended["view"]["is_over"] and ended["view"]["legal_actions"] == []
    changes = c.get(f"/api/games/{game['id']}/ratings").json()
    assert changes["rated"] and [x["seat"] for x in changes["changes"]] == [0]
    assert changes["changes"][0]["change"] < 0  # a resignation is a loss
    listed = next(g for g in c.get("/api/games").json()["games"] if g["id"] == game["id"])
    assert listed["status"] == "won" and listed["winners"] == [1]  # the lobby says who won


def test_resign_3p_a_bot_plays_on_and_the_seat_ranks_last(app_client: TestClient) -> None:
    c = app_client
    signed_in(c)
    game = c.post("/api/games", json={"game": "classic", "seats": [MINE, GREEDY, GREEDY]}).json()
    played = play_turns(c, game, 0, RATED_AFTER_MOVES)  # left sooner, the game would count for nobody
    r = seat_call(c, game, 0, "resign")
    assert r.status_code == 200, r.text
    seat = r.json()["seats"][0]
    assert seat["forfeited"] and seat["kind"] == "bot"
    assert seat["forfeit"] == {"by": "resigned", "at": played, "moved": True, "too_soon": False}
    assert not r.json()["over"]  # the game goes on for the others
    again = seat_call(c, game, 0, "resign")
    assert again.status_code == 403 and "resigned" in again.json()["detail"]  # twice: the seat is a bot's now
    ended = wait_for(lambda: (p := state(c, game))["over"] and p, seconds=60)  # the bots play it out, seat 0's included
    assert ended["ending"] is None and ended["view"]["result"]
    listed = next(g for g in c.get("/api/games").json()["games"] if g["id"] == game["id"])
    stayed = [w for w in ended["view"]["result"]["winners"] if w != 0]  # the rules' winners, but not who resigned
    assert listed["winners"] == ended["winners"] == stayed
    changes = {x["seat"]: x["change"] for x in c.get(f"/api/games/{game['id']}/ratings").json()["changes"]}
    assert changes[0] < 0  # ranked last, whatever the bot made of the seat


def test_a_seat_whose_person_forfeited_is_never_listed_among_the_winners() -> None:
    """The bot that plays a resigned seat of three on may win it; the ratings rank that seat last, so the lobby's
    "won by" must not name the person who left (it did: the answers' ``winners`` were the rules' alone)."""
    game = splendor.new_game("classic", players=3, seed=2)
    greedy = make_bot("greedy")
    while not game.is_over:
        game.apply(decide(greedy, game))
    assert game.winners == [0]
    seats = [SeatInfo(seat=i, kind="bot", bot="greedy", name=f"p{i}", token_hash=None) for i in range(3)]
    live = LiveGame(id="g", game=game, seats=seats)
    assert live.winners == live.payload(None)["winners"] == [0]
    seats[0] = replace(seats[0], forfeited=True, forfeited_by="resigned", forfeited_at=3)
    assert live.winners == live.rules_winners(game) == live.payload(None)["winners"] == []


def test_resign_3p_before_ones_first_move_leaves_the_game_unrated(app_client: TestClient) -> None:
    """A rated game of three one of whose people resigned before moving changes no rating, though the bots play it
    out to the rules' end: second accounts that resigned at once had ranked last and lifted the one that stayed."""
    c = app_client
    signed_in(c)
    game = c.post("/api/games", json={"game": "classic", "seats": [MINE, GREEDY, GREEDY]}).json()
    assert game["rated"]
    r = seat_call(c, game, 0, "resign")
    assert r.status_code == 200, r.text
    forfeit = r.json()["seats"][0]["forfeit"]
    assert forfeit == {"by": "resigned", "at": 0, "moved": False, "too_soon": True} and not r.json()["over"]
    ended = wait_for(lambda: (p := state(c, game))["over"] and p, seconds=60)
    assert ended["ending"] is None and ended["view"]["result"]  # the rules ended it
    counted_for_nobody(c, game)


@pytest.mark.parametrize("players", [2, 3])
def test_a_person_who_resigns_before_their_fifth_move_leaves_the_game_unrated(
    app_client: TestClient, players: int
) -> None:
    """A hostile tester's find: a second account that made one move and resigned lifted the first from 1500 to
    1800, first on the leaderboard, in four games. Nothing is decided in a game's first five turns."""
    c = app_client
    signed_in(c)
    game = c.post("/api/games", json={"game": "classic", "seats": [MINE] + [GREEDY] * (players - 1)}).json()
    played = play_turns(c, game, 0, RATED_AFTER_MOVES - 1)
    r = seat_call(c, game, 0, "resign", expect=played)
    assert r.status_code == 200, r.text
    if players == 3:
        assert r.json()["seats"][0]["forfeit"] == {"by": "resigned", "at": played, "moved": True, "too_soon": True}
    wait_for(lambda: state(c, game)["over"], seconds=60)
    counted_for_nobody(c, game)


def test_resign_for_another_seat_is_refused_403(app_client: TestClient) -> None:
    c = app_client
    game = create(c, "pokemon", HUMANS2)
    before = state(c, game)
    r = c.post(f"/api/games/{game['id']}/seats/1/resign", headers={"x-seat-token": game["seats"][0]["token"]}, json={})
    assert r.status_code == 403
    assert c.post(f"/api/games/{game['id']}/seats/1/abort").status_code == 403  # no secret at all
    assert state(c, game) == before


def test_resign_in_a_finished_game_is_refused(app_client: TestClient) -> None:
    c = app_client
    game = create(c, "kids", HUMANS2)
    assert seat_call(c, game, 1, "resign").status_code == 200
    before = state(c, game)
    for seat, what in ((1, "resign"), (0, "resign"), (0, "abort")):
        r = seat_call(c, game, seat, what)
        assert r.status_code == 409 and "over" in r.json()["detail"]
    assert state(c, game) == before
    assert before["ending"] == {"by": "resigned", "seat": 1, "at": 0}


def test_nothing_changes_on_refusal(app_client: TestClient) -> None:
    c = app_client
    game = create(c, "classic", HUMANS2)
    first_move(c, game, 0)
    before = state(c, game)
    stale = seat_call(c, game, 1, "resign", expect=0)  # a click made before the game moved on
    assert stale.status_code == 409 and "moved on" in stale.json()["detail"]
    assert seat_call(c, game, 0, "abort").status_code == 409
    bad = seat_call(c, game, 0, "resign", expect=True)  # not a whole number written as one
    assert bad.status_code == 422
    extra = seat_call(c, game, 0, "resign", action="take w b g")  # nothing but expect
    assert extra.status_code == 422
    assert state(c, game) == before and not before["over"]


# ----------------------------------------------------------------------------- abort


def test_abort_before_first_move(app_client: TestClient) -> None:
    c = app_client
    signed_in(c)
    game = c.post("/api/games", json={"game": "classic", "seats": [GREEDY, MINE]}).json()
    wait_for(lambda: state(c, game)["actions"] >= 1, seconds=60)  # the bot moved first; seat 1 has not moved yet
    r = seat_call(c, game, 1, "abort")
    assert r.status_code == 200, r.text
    ended = r.json()
    assert ended["over"] and ended["ending"] == {"by": "aborted", "seat": 1, "at": 1} and ended["winners"] == []
    assert ended["view"]["legal_actions"] == []
    assert c.get(f"/api/games/{game['id']}/ratings").json() == {
        "over": True,
        "rated": False,
        "unplayed": True,
        "changes": [],
    }
    listed = next(g for g in c.get("/api/games").json()["games"] if g["id"] == game["id"])
    assert listed["status"] == "aborted" and listed["winners"] == []
    assert c.get("/api/me").json()["ratings"] == {} or "classic" not in c.get("/api/me").json()["ratings"]


def test_abort_after_first_move_is_refused(app_client: TestClient) -> None:
    c = app_client
    game = create(c, "pokemon", HUMANS2)
    first_move(c, game, 0)
    before = state(c, game)
    r = seat_call(c, game, 0, "abort")
    assert r.status_code == 409 and "before your first move" in r.json()["detail"]
    sl = c.post(
        f"/api/games/{game['id']}/seats/0/abort",
        headers={"x-seat-token": game["seats"][0]["token"], "accept-language": "sl"},
    )
    assert sl.status_code == 409 and sl.headers["content-language"] == "sl"
    assert state(c, game) == before
    assert seat_call(c, game, 1, "abort").status_code == 200  # seat 1 has not moved yet: it may


# ----------------------------------------------------------------------------- the record and the replay


def notes(record: str) -> dict[str, Any]:
    """The notes of a record's header line."""
    found: dict[str, Any] = json.loads(record.splitlines()[0])["notes"]
    return found


def test_the_record_and_the_replay_show_it(app_client: TestClient) -> None:
    c = app_client
    game = create(c, "classic", HUMANS2)
    first_move(c, game, 0)
    assert seat_call(c, game, 1, "resign").status_code == 200
    record = c.get(f"/api/games/{game['id']}/record")
    assert record.status_code == 200
    assert notes(record.text)["ending"] == {"by": "resigned", "seat": 1, "at": 1}
    replay = c.get(f"/api/games/{game['id']}/replay", params={"upto": 1}).json()
    assert replay["ending"] == {"by": "resigned", "seat": 1, "at": 1} and replay["total"] == 1

    three = create(c, "classic", [*HUMANS2, {"kind": "human", "name": "cy"}])
    first_move(c, three, 0)
    assert seat_call(c, three, 1, "resign").status_code == 200
    assert seat_call(c, three, 2, "resign").status_code == 200
    assert seat_call(c, three, 0, "resign").status_code == 200  # nobody left: the bots play it out
    wait_for(lambda: state(c, three)["over"], seconds=60)
    seats = c.get(f"/api/games/{three['id']}/replay").json()["seats"]
    assert [s["forfeit"]["by"] for s in seats] == ["resigned"] * 3
    assert seats[1]["forfeit"]["at"] == 1  # the others resigned while its bot was already playing on
    kept = notes(c.get(f"/api/games/{three['id']}/record").text)["seats"]
    assert [s["forfeit"] for s in kept] == [s["forfeit"] for s in seats]


# ----------------------------------------------------------------------------- many processes


def spectate(server: Server, game: dict[str, Any]) -> dict[str, Any]:
    with server.client() as client:
        return state(client, game)


def race(calls: list[tuple[Server, dict[str, Any], int, str]]) -> list[int]:
    """Send the calls at once, each to its own process; their statuses."""
    start = threading.Barrier(len(calls))
    statuses: list[int] = [0] * len(calls)

    def send(i: int, server: Server, game: dict[str, Any], seat: int, what: str) -> None:
        with server.client() as client:
            start.wait()
            statuses[i] = seat_call(client, game, seat, what).status_code

    threads = [threading.Thread(target=send, args=(i, *call)) for i, call in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses


def test_two_racing_resigns_on_two_processes_exactly_one_wins(two: list[Server]) -> None:
    from websockets.sync.client import connect

    from tests.server.test_many_processes import wait_state

    a, b = two
    with a.client() as client:
        games = [create(client, "classic", HUMANS2) for _ in range(4)]
    for game in games:
        for s in (a, b):  # both processes hold the game before the race
            assert spectate(s, game)["actions"] == 0
    url = b.base.replace("http", "ws") + f"/api/games/{games[0]['id']}/ws"
    with connect(url) as watcher:  # a spectator on the other process sees the ending pushed
        # the two seats resign against each other, one on each process: one loses, the other's is refused
        assert sorted(race([(a, games[0], 0, "resign"), (b, games[0], 1, "resign")])) == [200, 409]
        pushed = wait_state(watcher, lambda m: m["over"])
    ended = [spectate(s, games[0])["ending"] for s in two]
    assert ended[0] == ended[1] == pushed["ending"] and ended[0]["by"] == "resigned"
    # one seat resigns twice at once, on both processes
    assert sorted(race([(a, games[1], 0, "resign"), (b, games[1], 0, "resign")])) == [200, 409]
    # an abort against a resignation
    assert sorted(race([(a, games[2], 0, "abort"), (b, games[2], 1, "resign")])) == [200, 409]
    endings = {spectate(s, games[2])["ending"]["by"] for s in two}
    assert len(endings) == 1
    # three seats, two resign at once on two processes: both are made, each once
    with a.client() as client:
        three = create(client, "classic", [*HUMANS2, {"kind": "human", "name": "cy"}])
    assert race([(a, three, 1, "resign"), (b, three, 1, "resign")]).count(200) == 1
    seats = spectate(b, three)["seats"]
    assert [s["forfeited"] for s in seats] == [False, True, False]


@pytest.mark.parametrize("players", [2, 3])
def test_a_pokemon_game_ended_by_a_resignation_marks_what_each_seat_caught(
    app_client: TestClient, players: int
) -> None:
    """Ruling 17 marks the Pokédex at a game's end; a resignation ends it (the loser's resignation had left the
    winner's marks unwritten). With three, the game ends for the one who leaves: marked then."""
    c = app_client
    game = _misty_catches(c, players)
    leaving = 1 if players == 2 else 0  # the winner's marks, or the leaver's own
    assert seat_call(c, game, leaving, "resign").status_code == 200
    page = c.get("/api/pokedex/misty").json()
    assert page["caught"] >= 1 and page["marked"]


def _misty_catches(c: TestClient, players: int) -> dict[str, Any]:
    """A Pokémon game of ``players`` people, misty's profile in seat 0: each seat catches what it can, else takes
    tokens, until misty has caught one; her Pokédex is not marked yet."""
    secret = c.post("/api/profiles", json={"name": "misty"}).json()["secret"]
    misty = {"kind": "human", "name": "misty", "profile": "misty", "profile_secret": secret}
    others = [{"kind": "human", "name": name} for name in ("brock", "cy")[: players - 1]]
    game: dict[str, Any] = c.post("/api/games", json={"game": "pokemon", "seats": [misty, *others]}).json()
    for _ in range(300):
        seat = state(c, game)["view"]["current_player"]
        token = game["seats"][seat]["token"]
        legal = c.get(f"/api/games/{game['id']}", params={"seat": seat}, headers={"x-seat-token": token}).json()
        actions = legal["view"]["legal_actions"]
        action = next((a for a in actions if a.startswith("catch")), actions[-1] if seat else actions[0])
        r = c.post(
            f"/api/games/{game['id']}/actions", headers={"x-seat-token": token}, json={"seat": seat, "action": action}
        )
        assert r.status_code == 200, r.text
        if seat == 0 and action.startswith("catch"):
            assert c.get("/api/pokedex/misty").json()["caught"] == 0  # marked at the end, not before
            return game
    raise AssertionError("misty caught nothing")


@pytest.mark.settings(abandoned_game_seconds=3.0)
def test_a_pokemon_game_called_off_as_abandoned_marks_what_each_seat_caught(app_client: TestClient) -> None:
    """A game left without a move past the limit for abandoned games ends (no winner): ruling 17 marks the
    Pokédex at a game's end, as it does at a resignation."""
    c = app_client
    game = _misty_catches(c, 2)
    ended = wait_for(lambda: (p := state(c, game))["over"] and p)
    assert ended["ending"]["by"] == "abandoned" and ended["winners"] == []
    page = c.get("/api/pokedex/misty").json()
    assert page["caught"] >= 1 and page["marked"]


def test_the_page_says_the_same_number_of_moves_as_the_server() -> None:
    """The end screen's words ('left it before making 5 moves') read the page's copy of `RATED_AFTER_MOVES`; the
    leaderboard says the number in its words."""
    source = (Path(splendor.__file__).parent / "server" / "web" / "endgame.js").read_text(encoding="utf-8")
    found = re.search(r"const RATED_AFTER_MOVES = (\d+);", source)
    assert found and int(found.group(1)) == RATED_AFTER_MOVES
    leaderboard = (Path(splendor.__file__).parent / "server" / "web" / "leaderboard.html").read_text(encoding="utf-8")
    assert f"before making {RATED_AFTER_MOVES} moves is not rated" in leaderboard


def test_the_page_calls_off_and_words_every_ending_the_server_calls_off() -> None:
    """The table's `calledOff` names the endings of `CALLED_OFF` (an abandoned game, added later, was one the page
    would have offered a rematch's words for as a loss), and its `endingWords` says each of them in words of its
    own, not the idle loss it falls back on."""
    source = (Path(splendor.__file__).parent / "server" / "web" / "endgame.js").read_text(encoding="utf-8")
    listed = re.search(r"return Boolean\(ending && \[([^\]]*)\]\.includes\(ending\.by\)\)", source)
    assert listed and set(re.findall(r'"(\w+)"', listed.group(1))) == set(CALLED_OFF)
    worded = set(re.findall(r'ending\.by === "(\w+)"', source))
    assert set(CALLED_OFF) | {RESIGNED, TIME} <= worded, worded
