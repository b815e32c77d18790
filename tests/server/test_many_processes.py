"""Three `splendor serve` processes on one real PostgreSQL, sharing nothing else: people on different processes
see each other's moves live, racing actions on different processes are accepted exactly once, and after kill -9
of one process its games go on through the others, no acknowledged action lost, its bots taken over (their games
move on by four actions after the kill, and the stored actions replay to the state served)."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from splendor.server.cache import rebuild
from splendor.store import open_store
from splendor.store.games import GameStore
from tests.server.conftest import Server, _reset_postgres, create

HUMANS2 = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]
LEASE = "3"  # seconds: a dead process's bots are taken over after about this long


@pytest.fixture
def three(postgres_url: str, tmp_path: Path) -> Iterator[list[Server]]:
    _reset_postgres(postgres_url)
    servers: list[Server] = []
    try:
        for i in range(3):  # all at once on a new database: they upgrade it in turn
            servers.append(Server(postgres_url, tmp_path / f"server{i}.log", "--lease-seconds", LEASE).launch())
        for server in servers:
            server.wait_ready()
        yield servers
    finally:
        for s in servers:
            if s.proc is not None and s.proc.poll() is None:
                s.stop()


def socket_of(server: Server, game: dict[str, Any], seat: int | None) -> ClientConnection:
    url = server.base.replace("http", "ws") + f"/api/games/{game['id']}/ws"
    if seat is not None:
        url += f"?seat={seat}&token={game['seats'][seat]['token']}"
    return connect(url)


def wait_state(sock: ClientConnection, done: Callable[[dict[str, Any]], bool], timeout: float = 20) -> dict[str, Any]:
    """The first state pushed on ``sock`` for which ``done`` holds (AssertionError after ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "no such state was pushed in time"
        try:
            message = json.loads(sock.recv(timeout=left))
        except TimeoutError:
            continue
        if message.get("type") == "state" and done(message):
            return message


def legal(server: Server, game: dict[str, Any], seat: int) -> tuple[int, list[str]]:
    r = httpx.get(
        f"{server.base}/api/games/{game['id']}",
        params={"seat": seat},
        headers={"x-seat-token": game["seats"][seat]["token"]},
        timeout=30,
    )
    assert r.status_code == 200, r.text
    view = r.json()["view"]
    return r.json()["actions"], view["legal_actions"] if view["current_player"] == seat else []


def test_two_people_on_different_processes_see_each_others_moves_live(three: list[Server]) -> None:
    a, b, c = three
    with a.client() as client:
        game = create(client, "classic", HUMANS2)
    rng = random.Random(1)
    with socket_of(a, game, 0) as ann, socket_of(b, game, 1) as bob, socket_of(c, game, None) as crowd:
        seat = 0
        for sock in (ann, bob, crowd):
            seat = wait_state(sock, lambda m: m["actions"] == 0)["view"]["current_player"]
        for number in range(1, 13):
            mover, server = (ann, a) if seat == 0 else (bob, b)
            _, actions = legal(server, game, seat)
            mover.send(json.dumps({"type": "action", "action": rng.choice(actions), "expect": number - 1}))
            seen = [
                wait_state(sock, lambda m, n=number: m["actions"] == n)  # pushed to everyone, whichever
                for sock in (ann, bob, crowd)
            ]  # process they are on
            assert len({json.dumps(s["view"]["current_player"]) for s in seen}) == 1
            seat = seen[0]["view"]["current_player"]
    for server in three:  # and every process answers the same state
        assert httpx.get(f"{server.base}/api/games/{game['id']}", timeout=30).json()["actions"] == 12


def test_racing_actions_on_different_processes_are_accepted_exactly_once(three: list[Server]) -> None:
    with three[0].client() as client:
        games = [create(client, "classic", HUMANS2) for _ in range(8)]
    for game in games:
        _, actions = legal(three[0], game, 0)
        answers: list[int] = []

        def send(server: Server, action: str) -> None:
            r = httpx.post(
                f"{server.base}/api/games/{game['id']}/actions",  # noqa: B023 (joined in this round)
                json={"seat": 0, "action": action},
                headers={"x-seat-token": game["seats"][0]["token"]},  # noqa: B023 (joined in this round)
                timeout=30,
            )
            answers.append(r.status_code)  # noqa: B023 (joined in this round)

        racers = [threading.Thread(target=send, args=(server, actions[i])) for i, server in enumerate(three)]
        for t in racers:
            t.start()
        for t in racers:
            t.join()
        assert sorted(answers) == [200, 409, 409], answers
        for server in three:
            assert legal(server, game, 1)[0] == 1


def test_after_kill_9_of_one_process_its_games_go_on_through_the_others(postgres_url: str, tmp_path: Path) -> None:
    _reset_postgres(postgres_url)
    a = Server(postgres_url, tmp_path / "a.log", "--lease-seconds", LEASE).start()
    others: list[Server] = []
    try:
        with a.client() as client:  # alone at first, so that its bots are its own
            between_bots = [
                create(client, "classic", [{"kind": "bot", "bot": "ismcts:hard"}, {"kind": "bot", "bot": "greedy"}])
                for _ in range(2)
            ]
            person = create(client, "pokemon", [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "greedy"}])
        others = [Server(postgres_url, tmp_path / f"{n}.log", "--lease-seconds", LEASE).start() for n in "bc"]
        b, c = others
        _kill_one_while_busy(a, b, c, between_bots, person, postgres_url)
    finally:
        for s in [a, *others]:
            if s.proc is not None and s.proc.poll() is None:
                s.stop()


def _kill_one_while_busy(
    a: Server, b: Server, c: Server, between_bots: list[dict[str, Any]], person: dict[str, Any], postgres_url: str
) -> None:
    acknowledged: dict[int, str] = {}

    def ann_plays(server: Server) -> None:
        """Ann's next action through ``server``; then her next decision, once the bot (whoever moves it)
        replied."""
        number, actions = legal(server, person, 0)
        r = httpx.post(
            f"{server.base}/api/games/{person['id']}/actions",
            timeout=30,
            json={"seat": 0, "action": actions[0], "expect": number},
            headers={"x-seat-token": person["seats"][0]["token"]},
        )
        assert r.status_code == 200, r.text
        acknowledged[number + 1] = actions[0]
        wait_state(ann_on_b, lambda m: m["actions"] > number and m["view"]["current_player"] == 0, timeout=40)

    with socket_of(b, person, 0) as ann_on_b, socket_of(a, person, None) as crowd_on_a:
        for _ in range(3):  # ann plays through the process that will die
            ann_plays(a)
        moved = {
            g["id"]: httpx.get(f"{b.base}/api/games/{g['id']}", timeout=30).json()["actions"] for g in between_bots
        }
        assert not any(httpx.get(f"{b.base}/api/games/{g}", timeout=30).json()["view"]["is_over"] for g in moved)
        a.kill9()  # its bots mid-thought, its watchers connected
        with pytest.raises(ConnectionClosed):  # its watchers learn it (and would reconnect)
            while True:
                crowd_on_a.recv(timeout=5)
        at_kill = {g: httpx.get(f"{b.base}/api/games/{g}", timeout=30).json()["actions"] for g in moved}
        for _ in range(3):  # ann goes on through another process, and the
            ann_plays(c)  # bot of the dead process is taken over
    store = open_store(postgres_url)
    try:
        stored = GameStore(store).load(person["id"])
        assert stored is not None  # every acknowledged action is kept, at its place
        assert {n: stored.actions[n - 1] for n in acknowledged} == acknowledged
        deadline = time.monotonic() + 120
        for game_id, dead in at_kill.items():  # the bots' games are taken over: four more actions (or it ends)
            while (view := httpx.get(f"{c.base}/api/games/{game_id}", timeout=30).json())["actions"] < dead + 4:
                if view["view"]["is_over"]:
                    break
                assert time.monotonic() < deadline, "a game between bots of the dead process was not taken over"
                time.sleep(0.3)
            assert view["actions"] > dead >= moved[game_id]
            for _ in range(50):  # the stored actions, between two moves, replay to the state served then
                kept = GameStore(store).load(game_id)
                served = httpx.get(f"{b.base}/api/games/{game_id}", timeout=30).json()
                assert kept is not None
                if served["actions"] == len(kept.actions):
                    assert rebuild(kept).game.view(None) == served["view"]
                    break
            else:
                raise AssertionError("the bots moved between every reading of the store and the state")
    finally:
        store.close()


def test_processes_started_together_on_a_new_database_upgrade_it_in_turn(postgres_url: str) -> None:
    _reset_postgres(postgres_url)
    ready = threading.Barrier(4)
    failures: list[BaseException] = []

    def start() -> None:
        ready.wait()
        try:
            open_store(postgres_url).close()
        except BaseException as e:
            failures.append(e)

    starters = [threading.Thread(target=start, daemon=True) for _ in range(4)]
    for t in starters:
        t.start()
    for t in starters:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in starters), "starting together, the processes waited for each other forever"
    assert failures == []
