"""Quick play (issue 33, item 1): seeks of one pool (game, players, time control, rated) are seated together when
their ratings are within a window that widens with the wait, or with a bot of about their rating after the wait
their player chose; exactly once, on one process or many; a seek its player stopped asking about expires; churn is
bounded (one waiting seek per account, and per address for guests; seeks per minute per address)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, select, update

from splendor.server.bots import BOT_GAMES, BOT_RATINGS, SERVER_BOTS
from splendor.server.quick_play import GUESTS_WAITING, WINDOW_PER_SECOND, WINDOW_START, bot_for, groups
from splendor.store.models import Account, RatingRow, Seek
from splendor.store.ratings import shown
from splendor.store.seeks import Pool, SeekInfo
from tests.server.conftest import Server, _reset_postgres, wait_for

PASSWORD = "correct horse"


def sign_up(c: TestClient | httpx.Client, name: str) -> str:
    """A new account signed in on ``c``; returns its session cookie."""
    c.cookies.clear()
    r = c.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    cookie = c.cookies.get("splendor_session")
    assert cookie
    return cookie


def as_(c: TestClient, cookie: str | None) -> TestClient:
    c.cookies.clear()
    if cookie:
        c.cookies.set("splendor_session", cookie)
    return c


def seek(c: TestClient | httpx.Client, **body: Any) -> dict[str, Any]:
    r = c.post("/api/quick-play", json={"game": "classic", "players": 2, **body})
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    return answer


def status(c: TestClient | httpx.Client, s: dict[str, Any]) -> dict[str, Any]:
    r = c.get(f"/api/quick-play/{s['id']}", headers={"x-seek-token": s["secret"]})
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def sweep(c: TestClient) -> None:
    manager = c.app.state.manager  # type: ignore[attr-defined]  # the app's state, set by its lifespan
    assert c.portal is not None
    c.portal.call(manager.quick_play.sweep)


def test_two_seeks_of_one_pool_are_seated_at_one_table(app_client: TestClient) -> None:
    c = app_client
    ann = sign_up(c, "ann")
    first = seek(c)
    assert status(c, first)["status"] == "waiting"
    as_(c, None)
    second = seek(c, name="guest")
    a, b = status(c, first), status(c, second)
    assert a["status"] == b["status"] == "seated" and a["game_id"] == b["game_id"]
    assert {a["seat"], b["seat"]} == {0, 1}
    # each seek's secret is its seat's: the link plays the seat; the account plays its seat without it
    view = c.get(f"/api/games/{b['game_id']}", params={"seat": b["seat"]}, headers={"x-seat-token": second["secret"]})
    assert view.status_code == 200 and b["link"].endswith(f"seat={b['seat']}&token={second['secret']}")
    seats = view.json()["seats"]
    assert seats[a["seat"]]["name"] == "ann" and seats[a["seat"]]["has_account"]
    assert seats[b["seat"]]["name"] == "guest" and not seats[b["seat"]]["has_account"]
    assert as_(c, ann).get(f"/api/games/{a['game_id']}", params={"seat": a["seat"]}).status_code == 200
    # a normal game afterwards, unrated (asked unrated), untimed
    assert not view.json()["rated"] and view.json()["clock"] is None


def test_seekers_of_names_that_read_alike_are_never_seated_together(app_client: TestClient) -> None:
    """As an open seat's take refuses another seat's name or a look-alike: quick play seated "zoe" and "ZOE" at one
    table, whose seats and chat then showed two of one name."""
    c = app_client
    zoe = seek(c, name="zoe")
    with TestClient(c.app) as other:  # another guest, of its own address's cookies
        shouting = seek(other, name="ZOE")
        assert status(c, zoe)["status"] == status(other, shouting)["status"] == "waiting"
        yan = seek(other, name="yan")
        assert status(other, yan)["status"] == "seated" == status(c, zoe)["status"]
        assert status(other, shouting)["status"] == "waiting"


@pytest.mark.parametrize("name", ["Greedy bot", "expert BOT"])
def test_a_guest_seeks_no_game_under_a_bots_name(app_client: TestClient, name: str) -> None:
    r = app_client.post("/api/quick-play", json={"game": "classic", "players": 2, "name": name, "bot_after": 0})
    assert r.status_code == 409 and "bot's" in r.json()["detail"], r.text


def test_no_pairing_across_games_clocks_or_rated(app_client: TestClient) -> None:
    c = app_client
    cookies = [sign_up(c, f"player{i}") for i in range(6)]
    asks: list[dict[str, Any]] = [
        {"game": "classic"},
        {"game": "kids"},
        {"game": "classic", "clock": "5+10"},
        {"game": "classic", "clock": "10+5"},
        {"game": "classic", "rated": True},
        {"game": "classic", "players": 3},
    ]
    seeks = [seek(as_(c, cookie), **ask) for cookie, ask in zip(cookies, asks)]
    sweep(c)
    for cookie, s in zip(cookies, seeks):
        assert status(as_(c, cookie), s)["status"] == "waiting"
    # one more seek of a pool is seated with the one waiting there, and only that one
    extra = sign_up(c, "player6")
    late = seek(c, game="classic", clock="10+5")
    assert status(c, late)["status"] == "seated"
    assert status(as_(c, cookies[3]), seeks[3])["game_id"] == status(as_(c, extra), late)["game_id"]
    game = c.get(f"/api/games/{status(c, late)['game_id']}").json()
    assert game["clock"]["control"] == "10+5"
    assert [status(as_(c, k), s)["status"] for k, s in zip(cookies, seeks)].count("waiting") == 5


def at(rating: float, created: float, pool: Pool | None = None) -> SeekInfo:
    return SeekInfo(
        id=f"{rating}:{created}",
        pool=pool or Pool("classic", 2, None, False),
        name=f"p{rating:.0f}-{created:.0f}",  # every seeker a name of its own: alike names never sit together
        token_hash="h",
        address_key="a",
        created=created,
        seen=created,
        rating=rating,
    )


def test_the_rating_window_widens_with_the_wait() -> None:
    # 100 points at once, 10 more every second
    assert (WINDOW_START, WINDOW_PER_SECOND) == (100.0, 10.0)
    now = 1000.0
    assert groups([at(1500, now), at(1590, now)], 2, now) != []
    assert groups([at(1500, now), at(1800, now)], 2, now) == []
    assert groups([at(1500, now - 19), at(1800, now - 19)], 2, now) == []
    assert len(groups([at(1500, now - 20), at(1800, now - 20)], 2, now)) == 1
    # the newer seek's window counts too: both must reach
    assert groups([at(1500, now - 60), at(1800, now)], 2, now) == []
    # the oldest is seated first, with the nearest
    table = groups([at(1500, now - 5), at(1700, now), at(1540, now), at(1520, now)], 2, now)
    assert [s.rating for s in table[0]] == [1500, 1520]
    # with three, every two must fit
    assert groups([at(1500, now), at(1590, now), at(1410, now)], 3, now) == []


def test_the_window_widens_in_the_store_too(app_client: TestClient) -> None:
    c = app_client
    ann, bob = sign_up(c, "ann"), sign_up(c, "bob")
    first = seek(as_(c, ann))
    store = c.app.state.store  # type: ignore[attr-defined]  # the app's state, set by its lifespan
    with store.engine.begin() as conn:  # ann is much stronger than a newcomer
        conn.execute(update(Seek).where(Seek.id == first["id"]).values(rating=1900.0))
    second = seek(as_(c, bob))
    waiting = status(c, second)
    low, high = waiting["window"]  # a newcomer's 1500, widened by the time it has waited, however short
    reach = WINDOW_START + WINDOW_PER_SECOND * waiting["waited"]  # "waited" is to a tenth of a second
    assert waiting["status"] == "waiting" and abs(low + high - 3000) <= 1 and abs((high - low) / 2 - reach) <= 1
    assert high < 1900 - 1  # ann's 1900 is out of reach: bob waits
    with store.engine.begin() as conn:  # both waited 40 s: 500 points either way
        conn.execute(update(Seek).values(created=time.time() - 40))
    sweep(c)
    assert status(c, second)["status"] == "seated"
    assert status(as_(c, ann), first)["game_id"] == status(as_(c, bob), second)["game_id"]


@pytest.mark.settings(finding_sweep_seconds=0.1)
def test_a_bot_of_about_your_strength_is_seated_after_the_wait_you_chose(app_client: TestClient) -> None:
    """By strength (μ), not by the cautious rating shown: a newcomer (μ 25, shown 1500) meets the greedy bot
    (μ 24.2), not the random one whose shown 1412 is nearer 1500."""
    everywhere = sorted((b for b in SERVER_BOTS if b not in BOT_GAMES), key=lambda b: BOT_RATINGS[b][0])
    for bot in everywhere:  # each bot's own strength seats it; beyond the ends, the weakest and the strongest
        assert bot_for(BOT_RATINGS[bot][0]) == bot
    assert bot_for(-50) == everywhere[0] == "random" and bot_for(500) == everywhere[-1] == "ismcts:expert"
    c = app_client
    s = seek(c, name="solo", bot_after=1, players=3)
    first = status(c, s)
    assert first["status"] == "waiting" and first["bot_in"] in (0, 1)
    seated = wait_for(lambda: status(c, s)["status"] == "seated" and status(c, s), 10)
    game = c.get(f"/api/games/{seated['game_id']}").json()
    kinds = [x["kind"] for x in game["seats"]]
    assert kinds.count("human") == 1 and kinds.count("bot") == 2
    assert {x["bot"] for x in game["seats"] if x["kind"] == "bot"} == {"greedy"} == {bot_for(25.0)}
    assert game["seats"][seated["seat"]]["name"] == "solo"
    # an account's own strength in the game: μ 50, σ still a newcomer's, shows 2237 (nearest the easy bot's 2313)
    ann = sign_up(c, "ann")
    store = c.app.state.store  # type: ignore[attr-defined]  # the app's state, set by its lifespan
    with store.engine.begin() as conn:
        account = conn.execute(select(Account.id).where(Account.name == "ann")).scalar_one()
        conn.execute(insert(RatingRow).values(account_id=account, game="classic", mu=50.0, sigma=25 / 3, games=3))
    strong = seek(as_(c, ann), bot_after=0)
    seated = wait_for(lambda: status(c, strong)["status"] == "seated" and status(c, strong), 10)
    bots = {x["bot"] for x in c.get(f"/api/games/{seated['game_id']}").json()["seats"] if x["kind"] == "bot"}
    assert shown(50.0, 25 / 3) == 2237 and bots == {bot_for(50.0)} and bot_for(50.0) not in ("random", "ismcts:easy")


@pytest.mark.settings(finding_sweep_seconds=3600)  # the sweeps are this test's own
def test_two_seekers_of_a_game_of_four_sit_together_with_two_bots_not_each_with_three(app_client: TestClient) -> None:
    c = app_client
    alpha = seek(c, name="alpha", players=4, bot_after=1)
    beta = seek(c, name="beta", players=4, bot_after=1)
    patient = seek(c, name="patient", players=4, bot_after=600)  # still waiting for people: not sat with bots
    time.sleep(1.2)
    sweep(c)
    a, b = status(c, alpha), status(c, beta)
    assert a["status"] == b["status"] == "seated" and a["game_id"] == b["game_id"]
    kinds = [x["kind"] for x in c.get(f"/api/games/{a['game_id']}").json()["seats"]]
    assert sorted(kinds) == ["bot", "bot", "human", "human"]
    assert status(c, patient)["status"] == "waiting"


@pytest.mark.settings(seek_seconds=0.5, finding_sweep_seconds=0.1)
def test_a_seek_nobody_asks_about_expires_and_is_seated_with_nobody(app_client: TestClient) -> None:
    c = app_client
    ann = sign_up(c, "ann")
    old = seek(c)
    time.sleep(1.2)
    assert status(c, old)["status"] == "expired"
    as_(c, None)
    fresh = seek(c, name="guest")
    assert status(c, fresh)["status"] == "waiting"
    assert status(as_(c, ann), old)["status"] == "expired"


@pytest.mark.settings(seeks_per_minute=4)
def test_churn_is_bounded(app_client: TestClient) -> None:
    c = app_client
    # a guest's new seek replaces the one it shows it holds
    first = seek(c, name="guest")
    second = seek(c, name="guest", game="kids", replaces={"id": first["id"], "secret": first["secret"]})
    assert status(c, first)["status"] == "cancelled" and status(c, second)["status"] == "waiting"
    # and per account, from any address
    sign_up(c, "ann")
    third = seek(c, game="pokemon")
    fourth = seek(c, game="pokemon", players=3)
    assert status(c, third)["status"] == "cancelled" and status(c, fourth)["status"] == "waiting"
    assert status(c, second)["status"] == "waiting"  # a guest's and an account's are apart
    # at most four a minute from one address
    r = c.post("/api/quick-play", json={"game": "classic", "players": 2})
    assert r.status_code == 429
    assert status(c, fourth)["status"] == "waiting"


def test_guests_behind_one_address_keep_their_own_seeks_up_to_a_few(app_client: TestClient) -> None:
    c = app_client  # every request of the test client comes from one address, as guests behind one NAT do
    games = [("classic", 2), ("kids", 2), ("pokemon", 2), ("classic", 3), ("kids", 3)]
    seeks = [seek(c, name=f"guest{i}", game=g, players=n) for i, (g, n) in enumerate(games[:GUESTS_WAITING])]
    assert [status(c, s)["status"] for s in seeks] == ["waiting"] * GUESTS_WAITING  # nobody cancelled anybody
    # a few at most: then a 429, and nothing kept
    game, players = games[GUESTS_WAITING]
    r = c.post("/api/quick-play", json={"game": game, "players": players, "name": "one-too-many"})
    assert r.status_code == 429 and "guests" in r.json()["detail"]
    # replacing one's own seek stays possible at the cap; a wrong secret replaces nothing (403, nothing kept)
    wrong = {"id": seeks[0]["id"], "secret": "not-it"}
    r = c.post("/api/quick-play", json={"game": "classic", "players": 2, "name": "g", "replaces": wrong})
    assert r.status_code == 403
    assert [status(c, s)["status"] for s in seeks] == ["waiting"] * GUESTS_WAITING
    mine = {"id": seeks[0]["id"], "secret": seeks[0]["secret"]}
    again = seek(c, name="guest0", game=game, players=players, replaces=mine)
    assert status(c, seeks[0])["status"] == "cancelled" and status(c, again)["status"] == "waiting"
    assert [status(c, s)["status"] for s in seeks[1:]] == ["waiting"] * (GUESTS_WAITING - 1)
    store = c.app.state.store  # type: ignore[attr-defined]  # the app's state, set by its lifespan
    with store.engine.connect() as conn:
        assert len(conn.execute(Seek.__table__.select()).all()) == GUESTS_WAITING + 1


@pytest.mark.settings(games_per_client=2, seeks_per_minute=50)
def test_quick_play_with_bots_counts_against_the_addresss_unfinished_games(app_client: TestClient) -> None:
    c = app_client
    for i in range(2):  # a bot at once: each seek is seated with a bot, in a game the address created
        s = seek(c, name=f"solo{i}", bot_after=0)
        assert status(c, s)["status"] == "seated"
    r = c.post("/api/quick-play", json={"game": "classic", "players": 2, "name": "solo", "bot_after": 0})
    assert r.status_code == 429 and "unfinished games" in r.json()["detail"]
    assert len(c.get("/api/games").json()["games"]) == 2
    store = c.app.state.store  # type: ignore[attr-defined]  # the app's state, set by its lifespan
    with store.engine.connect() as conn:
        assert len(conn.execute(Seek.__table__.select()).all()) == 2  # the refused seek was not kept


def test_bad_quick_play_requests_are_refused_with_nothing_kept(app_client: TestClient) -> None:
    c = app_client
    refused = [
        ({"game": "classic", "players": 2, "rated": True, "name": "guest"}, 401),
        ({"game": "classic", "players": 2}, 400),  # a guest without a name
        ({"game": "classic", "players": 2, "name": "g", "clock": "7x"}, 400),
        ({"game": "classic", "players": 2, "name": "g", "clock": "10s+0"}, 400),  # short clocks are for tests
        ({"game": "classic", "players": 5, "name": "g"}, 422),
        ({"game": "chess", "players": 2, "name": "g"}, 422),
        ({"game": "classic", "players": 2, "name": "g", "bot_after": -1}, 422),
        ({"game": "classic", "players": 2, "name": "g", "extra": 1}, 422),
        ({"game": "classic", "players": 2, "name": "g", "replaces": {"id": "x", "secret": "s"}}, 422),
    ]
    for body, code in refused:
        assert c.post("/api/quick-play", json=body).status_code == code, body
    sign_up(c, "Alice")
    as_(c, None)
    for name in ("Alice", "alice", "\u0430lice"):  # an account's name, in any case or with a look-alike letter
        r = c.post("/api/quick-play", json={"game": "classic", "players": 2, "name": name})
        assert r.status_code == 409 and "belongs to an account" in r.json()["detail"], name
    store = c.app.state.store  # type: ignore[attr-defined]  # the app's state, set by its lifespan
    with store.engine.connect() as conn:
        assert conn.execute(Seek.__table__.select()).all() == []


def test_only_the_seeks_secret_asks_and_cancels(app_client: TestClient) -> None:
    c = app_client
    s = seek(c, name="guest")
    wrong = {"x-seek-token": "nope"}
    assert c.get(f"/api/quick-play/{s['id']}", headers=wrong).status_code == 403
    assert c.get(f"/api/quick-play/{s['id']}").status_code == 403
    assert c.delete(f"/api/quick-play/{s['id']}", headers=wrong).status_code == 403
    assert c.get(f"/api/quick-play/{'0' * 32}", headers=wrong).status_code == 404
    assert status(c, s)["status"] == "waiting"
    assert c.delete(f"/api/quick-play/{s['id']}", headers={"x-seek-token": s["secret"]}).status_code == 204
    assert status(c, s)["status"] == "cancelled"
    # once seated, a seek is not cancelled: the game is there to play or resign
    sign_up(c, "ann")
    mine = seek(c)
    as_(c, None)
    seek(c, name="guest")
    assert status(c, mine)["status"] == "seated"
    assert c.delete(f"/api/quick-play/{mine['id']}", headers={"x-seek-token": mine["secret"]}).status_code == 409
    assert status(c, mine)["status"] == "seated"


# ----------------------------------------------------------------------------- many processes


def race(asks: list[tuple[httpx.Client, str]]) -> list[dict[str, Any]]:
    """Seeks made at once from threads, each (client, game); their answers."""
    answers: list[dict[str, Any]] = [{} for _ in asks]
    start = threading.Barrier(len(asks))

    def ask(i: int, client: httpx.Client, game: str) -> None:
        start.wait()
        answers[i] = seek(client, game=game)

    threads = [threading.Thread(target=ask, args=(i, *a)) for i, a in enumerate(asks)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def seated_seek(client: httpx.Client, s: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = wait_for(lambda: status(client, s)["status"] == "seated" and status(client, s))
    return answer


def test_on_two_processes_two_seeks_are_seated_together_exactly_once(two: list[Server]) -> None:
    a, b = two
    clients = [a.client(), b.client()]
    try:
        for i, client in enumerate(clients):
            sign_up(client, f"player{i}")
        for game in ("classic", "kids", "pokemon"):
            asked = race([(c, game) for c in clients])
            seated = [seated_seek(client, s) for client, s in zip(clients, asked)]
            assert seated[0]["game_id"] == seated[1]["game_id"]
            assert {seated[0]["seat"], seated[1]["seat"]} == {0, 1}
        games = clients[0].get("/api/games").json()["games"]
        assert len(games) == 3  # one game a round: never a second table for the same seeks
    finally:
        for client in clients:
            client.close()


def test_racing_seeks_from_one_address_on_two_processes_never_pass_the_bound_per_minute(
    postgres_url: str, tmp_path: Path
) -> None:
    _reset_postgres(postgres_url)
    servers = [Server(postgres_url, tmp_path / f"bound{i}.log", "--seeks-per-minute", "3").launch() for i in range(2)]
    clients: list[httpx.Client] = []
    try:
        for server in servers:
            server.wait_ready()
        clients = [servers[i % 2].client() for i in range(10)]
        codes: list[int] = [0] * len(clients)
        start = threading.Barrier(len(clients))

        def ask(i: int) -> None:
            start.wait()
            body = {"game": ("classic", "kids", "pokemon")[i % 3], "players": 2 + i % 2, "name": f"g{i}"}
            codes[i] = clients[i].post("/api/quick-play", json=body).status_code

        threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(clients))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(codes) == [201] * 3 + [429] * 7, codes
    finally:
        for client in clients:
            client.close()
        for s in servers:
            if s.proc is not None and s.proc.poll() is None:
                s.stop()
