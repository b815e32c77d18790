"""A game is its record: every accepted action is committed before the answer; after kill -9 and a restart every
game resumes exactly, bots included; on SQLite and on a real PostgreSQL server. And no payload ever shows a seat
what it may not see: every view a seat received equals, exactly, that seat's view replayed from the record."""

from __future__ import annotations

import json
import random
import time
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from sqlalchemy import inspect
from websockets.sync.client import connect

import splendor
from splendor.store import Pokedex, open_store
from splendor.store.accounts import Accounts
from splendor.store.database import _migrations_config
from splendor.store.games import Ending, GameStore, SeatInfo
from tests.server.conftest import Server, create

HUMANS2 = [{"kind": "human", "name": "ann"}, {"kind": "human", "name": "bob"}]


def seat_get(c: httpx.Client, g: dict[str, Any], seat: int) -> dict[str, Any]:
    r = c.get(f"/api/games/{g['id']}", params={"seat": seat}, headers={"x-seat-token": g["seats"][seat]["token"]})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def test_the_store_keeps_games_and_refuses_a_second_action_with_the_same_number(database_url: str) -> None:
    store = open_store(database_url)
    games = GameStore(store)
    games.create(
        "a" * 32,
        "classic",
        2,
        7,
        {"max_turns": None},
        [SeatInfo(0, "human", None, "ann", "h"), SeatInfo(1, "bot", "greedy", "greedy", None)],
    )
    games.append("a" * 32, 1, 0, "take w b g", "ongoing")
    with pytest.raises(Exception):  # noqa: B017 (whichever error the store raises for a taken number)
        games.append("a" * 32, 1, 1, "take r k w", "ongoing")
    stored = games.load("a" * 32)
    assert stored is not None and stored.actions == ["take w b g"] and stored.seats[1].bot == "greedy"
    assert stored.status == "ongoing" and games.unfinished_of("") == (1, 0)
    assert games.listing()[0]["winners"] is None  # unfinished: nobody has won yet
    created = datetime.fromisoformat(games.listing()[0]["created_at"])  # its zone said, on SQLite too
    assert created.tzinfo is not None and abs(datetime.now(UTC) - created) < timedelta(hours=1)
    games.append("a" * 32, 2, 1, "take r k w", "won", pokedex=[("ann", ["Mew", "Abra"])], winners=[1])
    assert games.unfinished_of("") == (0, 0) and games.listing()[0]["status"] == "won"
    assert games.listing()[0]["winners"] == [1]  # the listing says who won
    account = Accounts(store).sign_up("ann", "correct horse")[0]
    kept = SeatInfo(0, "human", None, "ann", "h", account_id=account.id)
    games.create("c" * 32, "pokemon", 2, 7, {}, [kept, SeatInfo(1, "human", None, "bob", "i")])
    assert not games.set_profile("c" * 32, 0, "misty")  # kept in an account: its own Pokédex, never another
    assert games.set_profile("c" * 32, 1, "misty") and games.load("c" * 32).seats[1].profile == "misty"
    assert Pokedex(store).page("ann").completion == (2, 55)
    store.close()


def test_after_kill_9_and_a_restart_every_game_resumes_exactly_bots_included(database_url: str, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = Server(database_url, log).start()
    with server.client() as c:
        mine = create(c, "kids", [{"kind": "human"}, {"kind": "human"}], options={"mysteries": True})
        bots = create(
            c,
            "pokemon",
            [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
            seed=12,
            options={"max_turns": 400},
        )
        rng = random.Random(3)
        for _ in range(12):
            seat = seat_get(c, mine, 0)["view"]["current_player"]
            legal = seat_get(c, mine, seat)["view"]["legal_actions"]
            r = c.post(
                f"/api/games/{mine['id']}/actions",
                json={"seat": seat, "action": rng.choice(legal)},
                headers={"x-seat-token": mine["seats"][seat]["token"]},
            )
            assert r.status_code == 200
        before = [seat_get(c, mine, s) for s in (0, 1)]
        time.sleep(0.5)
    server.kill9()  # mid-game, bots thinking
    server = Server(database_url, log).start()
    try:
        with server.client() as c:
            after = [seat_get(c, mine, s) for s in (0, 1)]
            assert after == before
            deadline = time.monotonic() + 180
            while not c.get(f"/api/games/{bots['id']}").json()["view"]["is_over"]:
                assert time.monotonic() < deadline, "the bots' game did not resume"
                time.sleep(0.3)
            record = c.get(f"/api/games/{bots['id']}/record").text
            final = c.get(f"/api/games/{bots['id']}").json()["view"]
            assert splendor.replay(record).view(None) == final
    finally:
        server.stop()


def _play_and_collect(
    server: Server, game: str, options: dict[str, Any]
) -> tuple[str, list[str], list[tuple[int | None, dict]]]:
    """Play a whole game by HTTP for both seats while every seat and a spectator listen on WebSockets; return
    the record and every (seat, payload) received."""
    received: list[tuple[int | None, dict]] = []
    with server.client() as c:
        g = create(c, game, HUMANS2, options=options)
        ws = server.base.replace("http", "ws") + f"/api/games/{g['id']}/ws"
        with ExitStack() as stack:
            socks = {
                0: stack.enter_context(connect(f"{ws}?seat=0&token={g['seats'][0]['token']}")),
                1: stack.enter_context(connect(f"{ws}?seat=1&token={g['seats'][1]['token']}")),
                None: stack.enter_context(connect(ws)),
            }
            rng = random.Random(5)
            while True:
                payloads = {s: seat_get(c, g, s) for s in (0, 1)}
                received += list(payloads.items())
                view = payloads[0]["view"]
                if view["is_over"]:
                    break
                seat = view["current_player"]
                legal = payloads[seat]["view"]["legal_actions"]
                r = c.post(
                    f"/api/games/{g['id']}/actions",
                    json={"seat": seat, "action": rng.choice(legal)},
                    headers={"x-seat-token": g["seats"][seat]["token"]},
                )
                assert r.status_code == 200
                received.append((seat, r.json()))
                wrong = c.post(
                    f"/api/games/{g['id']}/actions",
                    json={"seat": 1 - seat, "action": legal[0]},
                    headers={"x-seat-token": g["seats"][1 - seat]["token"]},
                )
                received.append((1 - seat, {"error": wrong.json()}))
            time.sleep(0.3)
            for s, sock in socks.items():
                while True:
                    try:
                        received.append((s, json.loads(sock.recv(timeout=0.5))))
                    except TimeoutError:
                        break
        secrets = [g["seats"][0]["token"], g["seats"][1]["token"]]
        return c.get(f"/api/games/{g['id']}/record").text, secrets, received


@pytest.mark.parametrize(("game", "options"), [("classic", {}), ("pokemon", {}), ("kids", {"mysteries": True})])
def test_no_response_or_push_shows_a_seat_what_it_may_not_see(
    server: Server, game: str, options: dict[str, Any]
) -> None:
    record, secrets, received = _play_and_collect(server, game, {"max_turns": 60, **options})
    states = [splendor.replay(record, upto=n) for n in range(len(splendor.Record.from_text(record).actions) + 1)]
    pushes = 0
    for seat, payload in received:
        text = json.dumps(payload)
        assert '"seed"' not in text and not any(secret in text for secret in secrets)
        if "error" in payload:
            continue
        assert payload["view"] == states[payload["actions"]].view(seat)
        pushes += 1
    assert pushes > 20


def _play_pokemon_to_its_end(c: httpx.Client, g: dict[str, Any]) -> list[str]:
    """Seat 0 (a person) plays against a greedy bot until the end; returns what seat 0 caught."""
    rng = random.Random(1)
    while True:
        p = seat_get(c, g, 0)
        if p["view"]["is_over"]:
            caught: list[str] = p["view"]["result"]["pokedex"][0]
            return caught
        if p["view"]["current_player"] != 0:
            time.sleep(0.05)
            continue
        legal = p["view"]["legal_actions"]
        buys = [a for a in legal if a.startswith(("catch", "evolve"))]
        c.post(
            f"/api/games/{g['id']}/actions",
            json={"seat": 0, "action": rng.choice(buys or legal), "expect": p["actions"]},
            headers={"x-seat-token": g["seats"][0]["token"]},
        )


def test_a_finished_pokemon_game_marks_only_the_profiles_its_seats_proved(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/p.db"
    server = Server(url, tmp_path / "s.log").start()
    try:
        with server.client() as c:
            claimed = c.post("/api/profiles", json={"name": "misty"})
            assert claimed.status_code == 201
            secret = claimed.json()["secret"]
            assert c.post("/api/profiles", json={"name": "misty"}).status_code == 409
            bot = {"kind": "bot", "bot": "greedy"}
            wrong = c.post(
                "/api/games",
                json={
                    "game": "pokemon",
                    "seats": [{"kind": "human", "profile": "misty", "profile_secret": "guess"}, bot],
                },
            )
            assert wrong.status_code == 403 and "secret for the profile" in wrong.text
            # a seat merely named after the profile marks nothing
            impostor = create(
                c, "pokemon", [{"kind": "human", "name": "misty"}, bot], seed=5, options={"max_turns": 400}
            )
            # the owner proves it at creation, or later with the seat's own secret
            owner = create(
                c,
                "pokemon",
                [{"kind": "human", "name": "misty", "profile": "misty", "profile_secret": secret}, bot],
                seed=4,
                options={"max_turns": 400},
            )
            later = create(c, "pokemon", [{"kind": "human"}, bot], seed=6, options={"max_turns": 400})
            link = f"/api/games/{later['id']}/seats/0/profile"
            assert c.post(link, json={"profile": "misty", "secret": secret}).status_code == 403  # no seat secret
            assert (
                c.post(
                    link,
                    json={"profile": "misty", "secret": "guess"},
                    headers={"x-seat-token": later["seats"][0]["token"]},
                ).status_code
                == 403
            )
            linked = c.post(
                link, json={"profile": "misty", "secret": secret}, headers={"x-seat-token": later["seats"][0]["token"]}
            )
            assert linked.status_code == 200 and linked.json()["seats"][0]["profile"] == "misty"
            _play_pokemon_to_its_end(c, impostor)
            caught = set(_play_pokemon_to_its_end(c, owner)) | set(_play_pokemon_to_its_end(c, later))
            page = c.get("/api/pokedex/misty").json()
    finally:
        server.stop()
    assert set(page["marked"]) == caught and caught
    assert page["marked"] == Pokedex(open_store(url)).page("misty").marked


def test_a_game_rebuilt_while_this_process_played_it_to_its_end_does_not_replace_the_finished_copy() -> None:
    """A stored game is rebuilt in a worker thread, which takes seconds for a long one; meanwhile another request
    may hold the game and end it. The older rebuilt copy must not be held as if the game were still going on."""
    from splendor.server.cache import GameCache, LiveGame
    from splendor.server.settings import Settings

    cache = GameCache(Settings(database_url="sqlite://"))
    seats = [SeatInfo(seat=s, kind="human", bot=None, name=n, token_hash=None) for s, n in enumerate(("a", "b"))]
    ended = LiveGame(id="g", game=splendor.new_game("classic", seed=1), seats=seats, ending=Ending("resigned", 0))
    cache.keep_finished(ended)
    stale = LiveGame(id="g", game=splendor.new_game("classic", seed=1), seats=seats)  # read before it ended
    assert cache.hold(stale) is ended and cache.playing("g") is None
    going = LiveGame(id="h", game=splendor.new_game("classic", seed=2), seats=seats)
    cache.add(going)
    assert cache.hold(LiveGame(id="h", game=splendor.new_game("classic", seed=2), seats=seats)) is going


def test_a_finished_game_that_sockets_watch_is_never_dropped_from_memory() -> None:
    """Past the bound of finished games kept, the least recently seen go, but not one still watched: its chat is
    open after the end, and a copy read again from the store has no watchers to push a new line to."""
    from unittest.mock import Mock

    from splendor.server.cache import GameCache, LiveGame
    from splendor.server.settings import Settings

    cache = GameCache(Settings(database_url="sqlite://", finished_games_kept=2))
    seats = [SeatInfo(seat=s, kind="human", bot=None, name=n, token_hash=None) for s, n in enumerate(("a", "b"))]

    def ended(game_id: str) -> LiveGame:
        return LiveGame(id=game_id, game=splendor.new_game("classic", seed=1), seats=seats, ending=Ending("aborted", 0))

    watched = ended("watched")
    watched.watchers.append(Mock())
    cache.keep_finished(watched)
    for n in range(5):
        cache.keep_finished(ended(f"g{n}"))
    assert list(cache.finished) == ["watched", "g4"]  # the oldest, but watched
    also = ended("also watched")
    also.watchers.append(Mock())
    cache.keep_finished(also)
    assert list(cache.finished) == ["watched", "also watched"]
    cache.keep_finished(ended("g5"))  # every other one watched: the one just kept stays too (a socket may join it)
    assert list(cache.finished) == ["watched", "also watched", "g5"]
    watched.watchers.clear()
    cache.keep_finished(ended("g6"))
    assert list(cache.finished) == ["also watched", "g6"]  # no longer watched: it goes as the oldest


def test_games_that_ended_before_0013_list_no_winners_and_its_downgrade_drops_them(database_url: str) -> None:
    """0013 adds who won to the games kept; a game that ended before it keeps none (the lobby says only "won")."""
    store = open_store(database_url)
    try:
        games = GameStore(store)
        seats = [SeatInfo(0, "human", None, "ann", "h"), SeatInfo(1, "human", None, "bob", "i")]
        games.create("b" * 32, "classic", 2, 7, {"max_turns": None}, seats)
        games.append("b" * 32, 1, 0, "take w b g", "won", winners=[0])
        assert games.listing()[0]["winners"] == [0]
        command.downgrade(_migrations_config(store.engine), "0012")
        assert "winners" not in {c["name"] for c in inspect(store.engine).get_columns("games")}
        command.upgrade(_migrations_config(store.engine), "head")
        assert games.listing()[0]["status"] == "won" and games.listing()[0]["winners"] is None
    finally:
        store.close()


def test_0014_keeps_who_took_an_open_seat_and_its_downgrade_drops_it(database_url: str) -> None:
    """0014 adds the address that took an open seat (a bound counts them); its downgrade drops the column."""
    store = open_store(database_url)
    try:
        columns = {c["name"] for c in inspect(store.engine).get_columns("game_seats")}
        assert "taker" in columns
        command.downgrade(_migrations_config(store.engine), "0013")
        assert "taker" not in {c["name"] for c in inspect(store.engine).get_columns("game_seats")}
        command.upgrade(_migrations_config(store.engine), "head")
        assert "taker" in {c["name"] for c in inspect(store.engine).get_columns("game_seats")}
        assert "ix_game_seats_taker" in {i["name"] for i in inspect(store.engine).get_indexes("game_seats")}
    finally:
        store.close()


def test_0015_keeps_which_game_is_a_rematch_uniquely_and_its_downgrade_drops_it(database_url: str) -> None:
    """0015 adds the game a rematch follows, under a unique index (one rematch a game); its downgrade drops it."""
    store = open_store(database_url)
    try:
        indexes = {i["name"]: i for i in inspect(store.engine).get_indexes("games")}
        assert "rematch_of" in {c["name"] for c in inspect(store.engine).get_columns("games")}
        assert indexes["ix_games_rematch_of"]["unique"]
        command.downgrade(_migrations_config(store.engine), "0014")
        assert "rematch_of" not in {c["name"] for c in inspect(store.engine).get_columns("games")}
        command.upgrade(_migrations_config(store.engine), "head")
        assert "rematch_of" in {c["name"] for c in inspect(store.engine).get_columns("games")}
    finally:
        store.close()


def test_pokemon_games_stored_before_the_hidden_evolution_question_keep_their_rule(database_url: str) -> None:
    """0017: every Pokémon game stored before it was played when a seat was asked whether to evolve only when it
    could (ruling 5 asks whenever a hidden card might be the evolution); it keeps that rule, so it replays and
    resumes as it was played. Other games are left as they were; the downgrade takes the option away again."""
    store = open_store(database_url)
    games = GameStore(store)
    seats = [SeatInfo(0, "human", None, "ann", "h"), SeatInfo(1, "human", None, "bob", "i")]
    games.create("p" * 32, "pokemon", 2, 0, {"max_turns": None, "first_player": 0}, seats)
    games.create("k" * 32, "classic", 2, 0, {"max_turns": None, "first_player": 0}, seats)
    config = _migrations_config(store.engine)
    command.downgrade(config, "0016")
    command.upgrade(config, "head")
    kept = games.load("p" * 32)
    assert kept is not None and kept.options == {"max_turns": None, "first_player": 0, "evolve_only_when_open": True}
    assert splendor.new_game("pokemon", seed=0, **kept.options).options == kept.options
    assert games.load("k" * 32).options == {"max_turns": None, "first_player": 0}  # type: ignore[union-attr]
    command.downgrade(config, "0016")
    assert games.load("p" * 32).options == {"max_turns": None, "first_player": 0}  # type: ignore[union-attr]
    store.close()


def test_bot_workers_killed_are_started_again_and_the_bots_play_on(tmp_path: Path) -> None:
    """A server operator's find: a bot worker process killed (as the out-of-memory killer kills) broke its pool for
    good: every bot of the process stopped ("will try again" for ever), hints answered 503, and health said ok."""
    import os
    import signal

    server = Server(f"sqlite:///{tmp_path}/w.db", tmp_path / "w.log").start()
    try:
        with server.client() as c:
            g = create(c, "classic", [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "greedy"}], seed=3)

            def wait_for(actions: int) -> None:
                deadline = time.monotonic() + 60
                while seat_get(c, g, 0)["actions"] < actions:
                    assert time.monotonic() < deadline, server.log.read_text()[-2000:]
                    time.sleep(0.2)

            c.post(f"/api/games/{g['id']}/actions", json={"seat": 0, "action": "take w b g"},
                   headers={"x-seat-token": g["seats"][0]["token"]}).raise_for_status()  # fmt: skip
            wait_for(2)  # the greedy bot answered, from its worker
            assert server.proc is not None
            children = Path(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children").read_text().split()
            workers = [int(pid) for pid in children if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]
            assert workers, children
            for pid in workers:
                os.kill(pid, signal.SIGKILL)
            c.post(f"/api/games/{g['id']}/actions", json={"seat": 0, "action": "take r k w"},
                   headers={"x-seat-token": g["seats"][0]["token"]}).raise_for_status()  # fmt: skip
            wait_for(4)  # the bot plays on, from a worker started again
            health = c.get("/api/health").json()
            assert health["ok"] and health["bot_worker_restarts"] >= 1, health
    finally:
        server.stop()


def test_ctrl_c_stops_the_bot_workers_with_the_server_and_starts_none_again(tmp_path: Path) -> None:
    """A newcomer's find: Ctrl-C in the terminal of `make run` reaches the bot workers too; one deciding then died
    with it, and the server logged an error ("a bot worker process died") and started a new pool as it stopped."""
    import os
    import signal

    server = Server(f"sqlite:///{tmp_path}/c.db", tmp_path / "c.log").start()
    try:
        with server.client() as c:
            bots = [{"kind": "bot", "bot": "ismcts:expert"} for _ in range(2)]
            g = c.post("/api/games", json={"game": "classic", "seats": bots}).json()
            deadline = time.monotonic() + 60
            while c.get(f"/api/games/{g['id']}").json()["actions"] < 2:  # the bots are deciding, one after another
                assert time.monotonic() < deadline, server.log.read_text()[-2000:]
                time.sleep(0.1)
        assert server.proc is not None
        os.killpg(server.proc.pid, signal.SIGINT)  # the terminal's Ctrl-C: to the whole group
        # as Ctrl-C ends a program (0 where the test's runner started it with SIGINT ignored, as xdist's workers do)
        assert server.proc.wait(timeout=30) in (0, 128 + signal.SIGINT)
    finally:
        server.stop()
    said = server.log.read_text()
    assert "Finished server process" in said and "ERROR" not in said and "started again" not in said, said[-3000:]
    # and as soon as it answers, while its workers are still loading the compiled search
    server = Server(f"sqlite:///{tmp_path}/c.db", tmp_path / "first.log").start()
    assert server.proc is not None
    os.killpg(server.proc.pid, signal.SIGINT)
    assert server.proc.wait(timeout=30) in (0, 128 + signal.SIGINT)
    server.stop()
    said = server.log.read_text()
    assert "Finished server process" in said and "ERROR" not in said and "started again" not in said, said[-3000:]
