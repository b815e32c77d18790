"""Accounts, sessions and ratings on a real server: sign up and in with a password (hashed, locked after
repeated wrong ones), seats kept in an account and played from any browser, the Pokédex of the account, and an
OpenSkill rating updated once when a rated game ends, shown on an Elo-like scale (1500 for a newcomer) on the
leaderboard; a seat a friend keeps in an account shows the account's name to everyone."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from splendor.store import Pokedex, open_store
from splendor.store.accounts import FREE_FAILURES, AccountError, Accounts, check_password, lock_seconds
from splendor.store.database import Store
from splendor.store.models import Account
from splendor.store.ratings import NEW, RatedSeat, Ratings, rate_game, rated, shown
from tests.server.conftest import Server, _reset_postgres, create
from tests.server.test_many_processes import wait_state


@contextmanager
def sign_up(server: Server, name: str, password: str = "correct horse") -> Iterator[httpx.Client]:
    """A browser of its own (its own cookie jar), signed up as ``name``. A 503 (the store did not answer in time,
    which a loaded test machine can make of a sign-up's hashing and two store calls) is tried again, as the
    answer asks; if the unanswered one was made after all, the browser signs in to it."""
    with server.client() as browser:
        for attempt in range(4):
            r = browser.post("/api/accounts", json={"name": name, "password": password})
            if r.status_code == 409 and attempt:
                r = browser.post("/api/session", json={"name": name, "password": password})
                assert r.status_code == 200, r.text
                break
            if r.status_code != 503:
                assert r.status_code == 201, r.text
                break
            time.sleep(1.0)
        else:
            raise AssertionError(f"the store did not answer a sign-up four times: {r.text}")
        yield browser


def play_to_the_end(browser: httpx.Client, game_id: str, seat: int) -> dict[str, Any]:
    """Play random legal actions for ``seat`` (signed in, no secret) until the game ends; the bot replies."""
    rng = random.Random(7)
    while True:
        payload = browser.get(f"/api/games/{game_id}", params={"seat": seat}).json()
        view = payload["view"]
        if view["is_over"]:
            return payload
        if view["current_player"] != seat:
            continue
        r = browser.post(
            f"/api/games/{game_id}/actions",
            json={"seat": seat, "action": rng.choice(view["legal_actions"]), "expect": payload["actions"]},
        )
        assert r.status_code in (200, 409), r.text


def test_a_session_is_an_httponly_cookie_and_the_password_is_kept_only_as_an_argon2_hash(server: Server) -> None:
    with sign_up(server, "ann") as ann:
        cookie = ann.cookies.jar
        assert [c.name for c in cookie] == ["splendor_session"]
        r = ann.post("/api/session", json={"name": "ann", "password": "correct horse"})
        header = r.headers["set-cookie"].lower()
        assert "httponly" in header and "samesite=lax" in header and "path=/" in header
        assert ann.get("/api/me").json()["name"] == "ann"
        assert ann.get("/api/session").json() == {"account": ann.get("/api/me").json()}  # what the pages ask
        assert ann.delete("/api/session").status_code == 204
        assert ann.get("/api/me").status_code == 401
        assert ann.get("/api/session").json() == {"account": None}  # a guest, told without an error
    store = open_store(server.db_url)
    try:
        with store.session() as s:
            hashed = s.query(Account.password_hash).filter_by(name="ann").scalar()
        assert hashed.startswith("$argon2id$") and "correct horse" not in hashed
    finally:
        store.close()


def test_sign_up_refuses_a_taken_name_a_short_password_and_one_nobody_types(server: Server) -> None:
    with sign_up(server, "ann") as _, server.client() as other:
        assert other.post("/api/accounts", json={"name": "ann", "password": "another one"}).status_code == 409
        assert other.post("/api/accounts", json={"name": "bea", "password": "short"}).status_code == 422
        # invisible characters alone are no more typed than spaces (a hostile tester's eight U+200B were taken)
        for untyped in (" " * 8, "\u0000" * 8, "password\u001b", "\u200b" * 8):
            r = other.post("/api/accounts", json={"name": "bea", "password": untyped})
            assert r.status_code == 400 and "no control characters" in r.json()["detail"], repr(untyped)
        assert other.post("/api/accounts", json={"name": "bea", "password": "  spaced out  "}).status_code == 201


@pytest.mark.parametrize("password", ["\u200b" * 8, "\ufeff" * 8, "\u3164" * 8, "\u2800" * 8, "\u200b \u2800 " * 4])
def test_a_password_of_invisible_characters_alone_is_refused_as_spaces_alone_are(password: str) -> None:
    with pytest.raises(AccountError, match="not spaces alone"):
        check_password(password)
    assert check_password("\u200bcorrect horse") == "\u200bcorrect horse"  # one among what is typed is no matter
    assert check_password("\uf8ff" * 8) == "\uf8ff" * 8  # a private-use glyph is typed (the Apple logo, on a Mac)


def test_no_account_is_called_as_a_table_calls_a_seat(server: Server) -> None:
    """An account "Player 1" passed for the first seat's person in a game whose seats have no names."""
    with server.client() as c:
        for name in ("Player 1", "PLAYER 4", "Igralec 2", "玩家 3"):
            r = c.post("/api/accounts", json={"name": name, "password": "correct horse"})
            assert r.status_code == 409 and "how a table calls a seat" in r.json()["detail"], (name, r.text)
        for name in ("Player One", "player1"):  # a name people take, and read as a name
            assert c.post("/api/accounts", json={"name": name, "password": "correct horse"}).status_code == 201


@pytest.mark.parametrize(
    "name", ["Expert bot", "greedy BOT", "Random  bot", "Strokovni bot", "전문가 봇", "专家机器人"]
)
def test_no_account_is_named_as_one_of_the_servers_bots(server: Server, name: str) -> None:
    """A person would pass for a bot on the table, in the chat and on the leaderboard: in every language the pages
    name the bots in (a hostile tester sat as "Strokovni bot", the expert on a Slovenian reader's table)."""
    with server.client() as c:
        r = c.post("/api/accounts", json={"name": name, "password": "correct horse"})
        assert r.status_code == 409 and "bot's" in r.json()["detail"], r.text
        assert c.post("/api/accounts", json={"name": "Expert bob", "password": "correct horse"}).status_code == 201
        assert c.post("/api/profiles", json={"name": name}).status_code == 409  # nor a Pokédex profile


def test_a_bots_seat_is_never_called_by_another_bots_name(server: Server) -> None:
    """A random bot called "Expert bot" told whoever joined a strength it does not have."""
    with server.client() as c:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random", "name": "Expert bot"}]
        r = c.post("/api/games", json={"game": "classic", "seats": seats})
        assert r.status_code == 400 and "called by its own name, Random bot" in r.json()["detail"], r.text
        seats[1] = {"kind": "bot", "bot": "ismcts:expert", "name": "expert BOT"}  # its own, in any case
        assert c.post("/api/games", json={"game": "classic", "seats": seats}).status_code == 201


def test_a_taken_name_is_refused_before_any_password_is_hashed(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hashing is the dear part of a sign-up (Argon2): a name already taken must not cost one."""
    from splendor.store import accounts as module

    accounts = Accounts(store)
    hashed: list[str] = []
    original = module._hasher

    class Counting:
        def hash(self, password: str) -> str:
            hashed.append(password)
            return original.hash(password)

        def __getattr__(self, name: str) -> Any:
            return getattr(original, name)

    accounts.sign_up("ann", "correct horse")
    monkeypatch.setattr(module, "_hasher", Counting())
    with pytest.raises(ValueError, match="taken"):
        accounts.sign_up("ann", "another one")
    assert hashed == []
    accounts.sign_up("bea", "another one")
    assert hashed == ["another one"]


def test_an_unknown_name_costs_a_sign_in_the_same_argon2_work_as_a_known_one(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """So that the time of a refusal does not tell whether a name has an account: an unknown name's password is
    verified against a hash made with the hasher's own parameters, as every account's is."""
    from splendor.store import accounts as module

    assert not module._hasher.check_needs_rehash(module.UNKNOWN_NAME_HASH), "the hasher's parameters changed"
    verified: list[str] = []
    original = module._verify
    monkeypatch.setattr(
        module, "_verify", lambda hashed, password: verified.append(hashed) or original(hashed, password)
    )
    with pytest.raises(ValueError, match="wrong name or password"):
        Accounts(store).sign_in("nobody", "a password")
    assert verified == [module.UNKNOWN_NAME_HASH]


def test_wrong_passwords_lock_the_account_for_a_while(store: Store) -> None:
    accounts = Accounts(store)
    accounts.sign_up("ann", "correct horse")
    for _ in range(FREE_FAILURES):
        with pytest.raises(ValueError, match="wrong name or password"):
            accounts.sign_in("ann", "wrong guess")
    with pytest.raises(ValueError, match="too many wrong passwords"):
        accounts.sign_in("ann", "correct horse")  # even the right one, while locked
    with pytest.raises(ValueError, match="wrong name or password"):
        accounts.sign_in("nobody", "correct horse")
    assert lock_seconds(FREE_FAILURES - 1) == 0 and lock_seconds(FREE_FAILURES) == 30
    assert lock_seconds(FREE_FAILURES + 20) == 3600


def test_a_refused_sign_in_is_said_in_the_readers_language(server: Server) -> None:
    with server.client() as c:
        r = c.post("/api/session", json={"name": "ann", "password": "whatever1"}, headers={"accept-language": "ko"})
    assert r.status_code == 401 and r.json()["detail"] == "이름 또는 비밀번호가 틀렸습니다"


@pytest.mark.settings(store_seconds=0.5, write_retry_seconds=0.5)
def test_a_slow_password_hash_is_not_taken_for_a_silent_store(app_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy machine takes seconds over a password's argon2 hash: no sign of a silent store, so sign-up, sign-in
    and a change of password wait for it past the store's deadline and the request's (``HASHING_SECONDS`` more)
    and answer as they should. (The request's deadline once cut the hash short: 503 under a loaded suite.)"""
    from argon2 import PasswordHasher

    from splendor.store import accounts as kept

    class Slow(PasswordHasher):
        def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
            time.sleep(1.0)
            return super().hash(password, salt=salt)

        def verify(self, hash: str | bytes, password: str | bytes) -> bool:
            time.sleep(1.0)
            return super().verify(hash, password)

    monkeypatch.setattr(kept, "_hasher", Slow())
    assert app_client.post("/api/accounts", json={"name": "ann", "password": "correct horse"}).status_code == 201
    r = app_client.post("/api/session", json={"name": "bob", "password": "whatever1"})
    assert r.status_code == 401 and "wrong name or password" in r.json()["detail"]
    assert app_client.post("/api/session", json={"name": "ann", "password": "correct horse"}).status_code == 200
    changed = app_client.post("/api/me/password", json={"old": "correct horse", "new": "battery staple"})
    assert changed.status_code == 204


def test_sign_in_attempts_are_rate_limited_per_address(server: Server) -> None:
    with server.client() as c:
        answers = [
            c.post("/api/session", json={"name": f"x{i}", "password": "whatever1"}).status_code for i in range(14)
        ]
    # ten at once, then one more every six seconds: however slow the machine, the fourteenth is refused
    assert answers[:10] == [401] * 10 and answers[-1] == 429


def test_a_seat_kept_in_an_account_is_played_from_any_browser_and_listed_in_its_games(server: Server) -> None:
    with sign_up(server, "ann") as ann, server.client() as ann_elsewhere, server.client() as stranger:
        game = create(ann, "classic", [{"kind": "human", "mine": True}, {"kind": "human"}])
        assert game["seats"][0]["name"] == "ann" and game["seats"][0]["has_account"]
        assert ann_elsewhere.post("/api/session", json={"name": "ann", "password": "correct horse"}).status_code == 200
        assert ann_elsewhere.get(f"/api/games/{game['id']}", params={"seat": 0}).status_code == 200
        assert stranger.get(f"/api/games/{game['id']}", params={"seat": 0}).status_code == 403
        assert [g["id"] for g in ann_elsewhere.get("/api/me").json()["games"]] == [game["id"]]
        # bea got seat 1's link from ann: she keeps it in her account, and then plays it without the secret
        with sign_up(server, "bea") as bea:
            token = game["seats"][1]["token"]
            assert bea.post(f"/api/games/{game['id']}/seats/1/keep").status_code == 403
            kept = bea.post(f"/api/games/{game['id']}/seats/1/keep", headers={"x-seat-token": token})
            assert kept.status_code == 200
            assert bea.get(f"/api/games/{game['id']}", params={"seat": 1}).status_code == 200
            refused = stranger.get(f"/api/games/{game['id']}", params={"seat": 1}, headers={"x-seat-token": token})
            assert refused.status_code == 403 and "old link no longer works" in refused.json()["detail"]
            looked = ann.get(f"/api/games/{game['id']}", params={"seat": 1})  # no link: not told of an old one
            assert looked.status_code == 403 and "kept in another account" in looked.json()["detail"]
            # bea's address bar, with the seat's new secret, sent to ann: signed in as another, she plays nothing
            fresh = {"x-seat-token": kept.json()["token"]}
            for asked in (
                ann.get(f"/api/games/{game['id']}", params={"seat": 1}, headers=fresh),
                ann.post(f"/api/games/{game['id']}/actions", json={"seat": 1, "action": "take w b g"}, headers=fresh),
            ):
                assert asked.status_code == 403 and "kept in another account" in asked.json()["detail"]
            assert stranger.get(f"/api/games/{game['id']}", params={"seat": 1}, headers=fresh).status_code == 200
        assert (
            stranger.post(
                "/api/games", json={"game": "classic", "seats": [{"kind": "human", "mine": True}, {"kind": "bot"}]}
            ).status_code
            == 401
        )


def test_a_seat_kept_in_an_account_marks_the_accounts_pokedex_and_is_never_linked_to_another(server: Server) -> None:
    """An account's seat marks its own Pokédex only: a profile proved by its secret cannot take its place."""
    with sign_up(server, "ash") as ash:
        claimed = ash.post("/api/profiles", json={"name": "pokefan"})
        assert claimed.status_code == 201, claimed.text
        game = create(ash, "pokemon", [{"kind": "human", "mine": True}, {"kind": "human", "name": "x"}])
        link = ash.post(
            f"/api/games/{game['id']}/seats/0/profile", json={"profile": "pokefan", "secret": claimed.json()["secret"]}
        )
        assert link.status_code == 409 and "account's own Pokédex" in link.json()["detail"]
        assert ash.get(f"/api/games/{game['id']}").json()["seats"][0]["profile"] == "ash"


def test_a_rated_game_against_a_bot_changes_the_rating_once_and_shows_on_the_leaderboard(server: Server) -> None:
    with sign_up(server, "ann") as ann:
        game = create(ann, "classic", [{"kind": "human", "mine": True}, {"kind": "bot", "bot": "greedy"}])
        end = play_to_the_end(ann, game["id"], 0)
        changes = ann.get(f"/api/games/{game['id']}/ratings").json()
        assert changes["rated"] and [c["seat"] for c in changes["changes"]] == [0]
        change = changes["changes"][0]
        # on the Elo-like scale: a newcomer reads 1500, and one game against greedy moves it by about 90-110
        assert change["before"] == 1500 and change["after"] == change["before"] + change["change"]
        assert all(isinstance(change[k], int) for k in ("before", "after", "change"))
        won = end["view"]["result"]["winners"] == [0]
        assert (change["change"] > 0) == won and 50 < abs(change["change"]) < 150
        me = ann.get("/api/me").json()
        assert me["ratings"]["classic"] == {"rating": change["after"], "games": 1}
        board = ann.get("/api/leaderboard/classic").json()["players"]
        assert board == [{"rank": 1, "name": "ann", "rating": change["after"], "games": 1}]
        assert ann.get("/api/leaderboard/pokemon").json()["players"] == []


def test_the_openapi_schema_says_the_ratings_are_whole_numbers_on_the_elo_like_scale(server: Server) -> None:
    with server.client() as c:
        schemas = c.get("/openapi.json").json()["components"]["schemas"]
    for model in ("LeaderboardLine", "GameRating"):
        rating = schemas[model]["properties"]["rating"]
        assert rating["type"] == "integer" and "1500 for a newcomer" in rating["description"]
    assert {"before", "after", "change"} <= set(schemas["RatingChangeLine"]["properties"])


def _friend_keeps_seat_1(watched: Server, kept_on: Server) -> None:
    """Ann creates a game for herself and a friend (seat 1, no name: the table calls it "Player 2") and watches it
    on ``watched``, as does a spectator; Bea opens the link on ``kept_on`` and keeps the seat in her account. Ann's
    table (her socket and her reads) and the spectator's then name seat 1 "bea", not "Player 2", at once."""
    from websockets.sync.client import connect

    with sign_up(watched, "ann") as ann, watched.client() as spectator:
        game = create(ann, "classic", [{"kind": "human", "mine": True}, {"kind": "human"}])
        assert game["seats"][1]["name"] is None
        base = watched.base.replace("http", "ws") + f"/api/games/{game['id']}/ws"
        cookie = f"splendor_session={ann.cookies['splendor_session']}"
        with (
            connect(f"{base}?seat=0", additional_headers={"cookie": cookie, "origin": watched.base}) as ann_ws,
            connect(base) as crowd,
        ):
            for sock in (ann_ws, crowd):
                assert wait_state(sock, lambda m: True)["seats"][1]["name"] is None
            with sign_up(kept_on, "bea") as bea:
                token = game["seats"][1]["token"]
                kept = bea.post(f"/api/games/{game['id']}/seats/1/keep", headers={"x-seat-token": token})
                assert kept.status_code == 200, kept.text
                for sock in (ann_ws, crowd):  # pushed at once to every table open on the game
                    pushed = wait_state(sock, lambda m: m["seats"][1]["name"] is not None)
                    assert pushed["seats"][1]["name"] == "bea" and pushed["seats"][1]["has_account"]
                for reader, seat in ((ann, 0), (spectator, None)):
                    params = {} if seat is None else {"seat": seat}
                    seats = reader.get(f"/api/games/{game['id']}", params=params).json()["seats"]
                    assert [s["name"] for s in seats] == ["ann", "bea"]
                assert [g["id"] for g in bea.get("/api/me").json()["games"]] == [game["id"]]


def test_a_seat_a_friend_keeps_in_an_account_shows_the_accounts_name_to_every_viewer(server: Server) -> None:
    _friend_keeps_seat_1(server, server)


def test_a_seat_kept_through_another_process_shows_the_accounts_name_there_too(
    postgres_url: str, tmp_path: Path
) -> None:
    _reset_postgres(postgres_url)
    a = Server(postgres_url, tmp_path / "a.log").start()
    try:
        b = Server(postgres_url, tmp_path / "b.log").start()
        try:
            _friend_keeps_seat_1(a, b)
        finally:
            b.stop()
    finally:
        a.stop()


def test_a_game_with_a_person_without_an_account_is_not_rated(server: Server) -> None:
    with sign_up(server, "ann") as ann:
        game = create(ann, "classic", [{"kind": "human", "mine": True}, {"kind": "human"}])
        assert ann.get(f"/api/games/{game['id']}/ratings").json() == {
            "over": False,
            "rated": False,
            "unplayed": False,
            "changes": [],
        }
    assert not rated([RatedSeat(0, account_id=1), RatedSeat(1)], winners=[0])
    assert not rated([RatedSeat(0, account_id=1), RatedSeat(1, account_id=1)], winners=[0])
    assert not rated([RatedSeat(0, account_id=1), RatedSeat(1, bot_rating=(18, 1))], winners=[])
    assert rated([RatedSeat(0, account_id=1), RatedSeat(1, bot_rating=(18, 1))], winners=[1])


def test_ratings_move_the_winner_up_and_leave_bots_fixed(store: Store) -> None:
    ann, _ = Accounts(store).sign_up("ann", "correct horse")
    bea, _ = Accounts(store).sign_up("bea", "correct horse")
    from splendor.store.games import GameStore, SeatInfo

    games = GameStore(store)
    for n, winners in enumerate(([0], [0], [1])):
        games.create(
            f"{n:032x}",
            "kids",
            3,
            1,
            {},
            [
                SeatInfo(0, "human", None, "ann", None, account_id=ann.id),
                SeatInfo(1, "human", None, "bea", None, account_id=bea.id),
                SeatInfo(2, "bot", "greedy", None, None),
            ],
        )
        with store.engine.begin() as conn:
            rate_game(
                conn,
                f"{n:032x}",
                "kids",
                [RatedSeat(0, ann.id), RatedSeat(1, bea.id), RatedSeat(2, bot_rating=(18.0, 1.0))],
                winners,
            )
    board = Ratings(store).leaderboard("kids")
    assert [p["name"] for p in board] == ["ann", "bea"] and [p["games"] for p in board] == [3, 3]
    first = Ratings(store).changes(f"{0:032x}")
    assert [c["change"] > 0 for c in first] == [True, False]
    assert [c["before"] for c in first] == [shown(*NEW)] * 2 == [1500, 1500]  # newcomers, Elo-like
    assert all(isinstance(p["rating"], int) and 1000 < p["rating"] < 2000 for p in board)


def test_an_accounts_pokemon_seat_marks_the_accounts_pokedex(server: Server) -> None:
    with sign_up(server, "misty") as misty:
        game = create(
            misty,
            "pokemon",
            [{"kind": "human", "mine": True}, {"kind": "bot", "bot": "greedy"}],
            options={"max_turns": 400},
        )
        assert game["seats"][0]["profile"] == "misty"
        end = play_to_the_end(misty, game["id"], 0)
        caught = end["view"]["result"]["pokedex"][0]
        page = misty.get("/api/pokedex/misty").json()
        assert page["caught"] == len(set(caught))


def test_a_seat_kept_in_an_account_plays_on_a_websocket_from_its_own_site_only(server: Server) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with sign_up(server, "ann") as ann:
        game = create(ann, "classic", [{"kind": "human", "mine": True}, {"kind": "human"}])
        cookie = f"splendor_session={ann.cookies['splendor_session']}"
        url = server.base.replace("http", "ws") + f"/api/games/{game['id']}/ws?seat=0"
        with connect(url, additional_headers={"cookie": cookie, "origin": server.base}) as ws:
            assert '"type":"state"' in str(ws.recv(timeout=10))
        evil = {"cookie": cookie, "origin": "https://evil.example"}
        with connect(url, additional_headers=evil) as refused, pytest.raises(ConnectionClosed) as closed:
            refused.recv(timeout=10)  # closed at once, as for a wrong secret, with its code and reason
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        assert "another site's page" in closed.value.rcvd.reason  # not "sign in", said to one signed in already
        with connect(url) as unsigned, pytest.raises(ConnectionClosed) as closed:
            unsigned.recv(timeout=10)  # no session and no link: sign in, it says
        assert closed.value.rcvd is not None and "sign in to that account" in closed.value.rcvd.reason


def test_a_new_password_ends_every_other_session_of_the_account(server: Server) -> None:
    with sign_up(server, "ann") as ann, server.client() as elsewhere:
        assert elsewhere.post("/api/session", json={"name": "ann", "password": "correct horse"}).status_code == 200
        assert ann.post("/api/me/password", json={"old": "wrong one", "new": "staple battery"}).status_code == 401
        assert ann.post("/api/me/password", json={"old": "correct horse", "new": "staple battery"}).status_code == 204
        assert ann.get("/api/me").status_code == 200  # this browser stays signed in
        assert elsewhere.get("/api/me").status_code == 401  # the other session ended
        assert elsewhere.post("/api/session", json={"name": "ann", "password": "correct horse"}).status_code == 401
        assert elsewhere.post("/api/session", json={"name": "ann", "password": "staple battery"}).status_code == 200


def test_signing_up_with_the_name_of_a_claimed_pokedex_needs_its_secret_and_adopts_it(server: Server) -> None:
    with server.client() as c:
        secret = c.post("/api/profiles", json={"name": "misty"}).json()["secret"]
        store = open_store(server.db_url)
        try:
            Pokedex(store).mark("misty", ["Lapras"], secret)  # a Pokédex in use (a claim never used gives way)
        finally:
            store.close()
        r = c.post("/api/accounts", json={"name": "misty", "password": "correct horse"})
        assert r.status_code == 409 and "claimed Pokédex" in r.json()["detail"]
        r = c.post("/api/accounts", json={"name": "misty", "password": "correct horse", "pokedex_secret": secret})
        assert r.status_code == 201
        game = create(c, "pokemon", [{"kind": "human", "mine": True}, {"kind": "bot", "bot": "greedy"}])
        assert game["seats"][0]["profile"] == "misty"  # the adopted Pokédex is the account's


def test_an_account_that_keeps_a_pokemon_seat_marks_its_own_pokedex_not_the_profile_linked_before(
    server: Server,
) -> None:
    with server.client() as creator:
        secret = creator.post("/api/profiles", json={"name": "gary"}).json()["secret"]
        linked = {"kind": "human", "profile": "gary", "profile_secret": secret}  # the creator's Pokédex, proved
        game = create(creator, "pokemon", [linked, {"kind": "human"}])
        assert game["seats"][0]["profile"] == "gary"
    with sign_up(server, "bea") as bea:  # the link was sent to Bea, who keeps the seat: she plays it now
        kept = bea.post(f"/api/games/{game['id']}/seats/0/keep", headers={"x-seat-token": game["seats"][0]["token"]})
        assert kept.status_code == 200, kept.text
        assert kept.json()["seats"][0]["profile"] == "bea"


def test_an_account_is_deleted_with_its_password_once_no_game_waits_on_it(server: Server) -> None:
    """A server operator's find: no account could be deleted. With its password shown again, and no game of its
    still going, it goes with its sessions, ratings and Pokédex; its name is free; its finished games keep the
    name they were played under."""
    with sign_up(server, "dora") as dora, server.client() as stranger:
        seats = [{"kind": "human", "mine": True}, {"kind": "bot", "bot": "greedy"}]
        game = dora.post("/api/games", json={"game": "classic", "seats": seats})
        assert game.status_code == 201, game.text
        game_id = game.json()["id"]
        refused = dora.request("DELETE", "/api/me", json={"password": "correct horse"})
        assert refused.status_code == 409 and "still plays 1 game: resign or finish it first" in refused.text
        play_to_the_end(dora, game_id, 0)
        wrong = dora.request("DELETE", "/api/me", json={"password": "wrong horse"})
        assert wrong.status_code == 401 and dora.get("/api/me").status_code == 200
        assert stranger.request("DELETE", "/api/me", json={"password": "correct horse"}).status_code == 401
        assert any(r["name"] == "dora" for r in dora.get("/api/leaderboard/classic").json()["players"])
        done = dora.request("DELETE", "/api/me", json={"password": "correct horse"})
        assert done.status_code == 204 and "splendor_session=" in done.headers["set-cookie"]
        assert dora.get("/api/me").status_code == 401
        assert stranger.post("/api/session", json={"name": "dora", "password": "correct horse"}).status_code == 401
        assert not any(r["name"] == "dora" for r in stranger.get("/api/leaderboard/classic").json()["players"])
        seat = stranger.get(f"/api/games/{game_id}").json()["seats"][0]
        assert seat["name"] == "dora" and seat["has_account"] is False
        again = stranger.post("/api/accounts", json={"name": "dora", "password": "another horse"})
        assert again.status_code == 201, again.text  # the name is free
