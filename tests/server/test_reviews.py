"""Reviews on the server (issue 33, item 6): a finished game's review is asked for once, runs in the bot workers
(202 with its progress), is kept (200, served again without a search, by any process: one row however many
computed it), is refused while the game is in play (409: its hidden cards are still in play), one at a time per
client address (429), and answers 204 for a game nobody asked about (404 for one that does not exist). A running
review is claimed in the store: every process answers 202 with its progress and none starts a second copy; a claim
whose process stopped is taken over. The bounds (per process) hold for requests at once."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from splendor.bots.review import review
from splendor.server import Settings, create_app, reviews
from splendor.server.bots import BotPool
from splendor.server.errors import Refused
from splendor.server.reviews import Reviews
from splendor.store import open_store
from splendor.store.games import GameStore, SeatInfo
from splendor.store.models import ReviewRow
from splendor.store.reviews import Claim, ReviewStore
from tests.server.conftest import wait_for

ITERATIONS = 12
GREEDY = {"kind": "bot", "bot": "greedy"}
HUMAN = {"kind": "human", "name": "ann"}


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    return Settings(
        database_url=f"sqlite:///{tmp_path_factory.mktemp('reviews')}/s.db",
        bot_workers=1,
        bot_pause_seconds=0,
        review_iterations=ITERATIONS,
    )


@pytest.fixture(scope="module")
def app_client(settings: Settings) -> Iterator[TestClient]:
    """One server for the module (its workers start once), with reviews of a small budget; each test waits for
    the reviews it starts, so none finds another's running."""
    with TestClient(create_app(settings)) as c:
        yield c


def played(c: TestClient, moves: int) -> dict[str, Any]:
    """A game of a person and a greedy bot after the person's ``moves`` moves, the bot's answer awaited each
    time."""
    game: dict[str, Any] = c.post("/api/games", json={"game": "classic", "seats": [HUMAN, GREEDY]}).json()
    token = game["seats"][0]["token"]

    def my_turn() -> dict[str, Any] | None:
        seen: dict[str, Any] = c.get(
            f"/api/games/{game['id']}", params={"seat": 0}, headers={"x-seat-token": token}
        ).json()
        return seen if seen["view"]["legal_actions"] else None

    for _ in range(moves):
        seen = wait_for(my_turn)
        r = c.post(
            f"/api/games/{game['id']}/actions",
            headers={"x-seat-token": token},
            json={"seat": 0, "action": seen["view"]["legal_actions"][0], "expect": seen["actions"]},
        )
        assert r.status_code == 200, r.text
    wait_for(my_turn)
    return game


def resigned(c: TestClient, moves: int) -> dict[str, Any]:
    """A game that seat 0 resigned after its ``moves`` moves."""
    game = played(c, moves)
    r = c.post(f"/api/games/{game['id']}/seats/0/resign", headers={"x-seat-token": game["seats"][0]["token"]})
    assert r.status_code == 200 and r.json()["over"], r.text
    return game


def reviewed(c: TestClient, url: str) -> dict[str, Any]:
    """The kept review at ``url``, waited for (and for its run to be over in this process)."""
    done: dict[str, Any] = wait_for(lambda: (r := c.get(url)).status_code == 200 and r.json(), seconds=60)
    wait_for(lambda: not c.app.state.reviews.running)  # type: ignore[attr-defined]  # the app's state: untyped
    return done


def test_a_game_in_play_is_refused_a_review_until_it_ends(app_client: TestClient) -> None:
    c = app_client
    game = played(c, 1)
    r = c.post(f"/api/games/{game['id']}/review")
    assert r.status_code == 409 and "not over" in r.json()["detail"], r.text
    assert c.get(f"/api/games/{game['id']}/review").status_code == 204  # nothing was started
    assert c.app.state.reviews.running == {}  # type: ignore[attr-defined]  # the app's state: untyped


def test_a_review_runs_202_then_is_kept_200_and_matches_the_review_of_the_record(app_client: TestClient) -> None:
    c = app_client
    game = resigned(c, 3)
    url = f"/api/games/{game['id']}/review"
    first = c.post(url)
    assert first.status_code == 202, first.text
    total = first.json()["total"]
    assert first.json()["status"] == "running" and total >= 6 and first.json()["done"] < total
    assert c.post(url).status_code in (200, 202)  # asked again while it runs: the same review, none started
    done = reviewed(c, url)
    assert done["status"] == "done" and done["actions"] == total and len(done["moves"]) == total
    record = c.get(f"/api/games/{game['id']}/record").text
    expected = review(record, iterations=ITERATIONS, seed=0).as_dict()
    assert {k: done[k] for k in expected} == expected  # the graph, the marks and the expert's moves, as the command
    assert done["result"]["ending"]["by"] == "resigned"  # a resigned game: the moves that were played


def test_a_game_longer_than_a_reviews_moves_shares_their_budget_among_its_moves(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = app_client
    monkeypatch.setattr(reviews, "REVIEW_MOVES", 4)  # as a game of thousands of actions is against 600
    game = resigned(c, 5)
    url = f"/api/games/{game['id']}/review"
    total = c.post(url).json()["total"]
    assert total > 4
    done = reviewed(c, url)
    shared = max(1, ITERATIONS * 4 // total)
    assert done["iterations"] == shared and len(done["moves"]) == total  # every move, each searched less
    record = c.get(f"/api/games/{game['id']}/record").text
    expected = review(record, iterations=shared, seed=0).as_dict()
    assert {k: done[k] for k in expected} == expected


def test_a_game_too_long_to_replay_for_each_move_is_refused_a_review(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reviews, "REVIEW_MOST", 4)  # as a game of 10,000 actions is against 2,000
    game = resigned(app_client, 5)
    r = app_client.post(f"/api/games/{game['id']}/review")
    assert r.status_code == 409 and "too long to review" in r.json()["detail"], r.text
    assert not app_client.app.state.reviews.running  # type: ignore[attr-defined]  # the app's state: untyped


def test_a_kept_review_is_served_again_without_a_search(
    app_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = app_client
    game = resigned(c, 1)
    url = f"/api/games/{game['id']}/review"
    assert c.post(url).status_code == 202
    kept = reviewed(c, url)

    async def no_search(*_args: Any) -> None:
        raise AssertionError("a kept review is never searched again")

    monkeypatch.setattr(BotPool, "search", no_search)
    for again in (c.post(url), c.get(url)):
        assert again.status_code == 200 and again.json() == kept


def test_one_running_review_per_client_address(app_client: TestClient) -> None:
    c = app_client
    long_one, other = resigned(c, 6), resigned(c, 1)
    assert c.post(f"/api/games/{long_one['id']}/review").status_code == 202
    r = c.post(f"/api/games/{other['id']}/review")
    assert r.status_code == 429 and "still running" in r.json()["detail"], r.text
    assert c.get(f"/api/games/{other['id']}/review").status_code == 204  # refused: nothing started
    reviewed(c, f"/api/games/{long_one['id']}/review")
    assert c.post(f"/api/games/{other['id']}/review").status_code == 202  # the first one done: the next may run
    reviewed(c, f"/api/games/{other['id']}/review")


def test_the_reviews_at_once_are_bounded_for_all_clients(app_client: TestClient) -> None:
    c = app_client
    long_one, other = resigned(c, 6), resigned(c, 1)
    reviews = c.app.state.reviews  # type: ignore[attr-defined]  # the app's state: untyped
    settings = reviews.settings
    reviews.settings = dataclasses.replace(settings, reviews_at_once=1)
    try:
        assert c.post(f"/api/games/{long_one['id']}/review").status_code == 202
        r = c.post(f"/api/games/{other['id']}/review", headers={"x-forwarded-for": "10.0.0.9"})
        # One client address (a forwarded header from an untrusted peer is ignored): the per-client bound says it.
        assert r.status_code == 429
        reviews.running[long_one["id"]].client = "another address"
        r = c.post(f"/api/games/{other['id']}/review")
        assert r.status_code == 503 and "busy" in r.json()["detail"], r.text
        assert c.get(f"/api/games/{other['id']}/review").status_code == 204
    finally:
        reviews.settings = settings
        wait_for(lambda: not reviews.running, seconds=60)


def test_an_unknown_game_has_no_review(app_client: TestClient) -> None:
    for r in (app_client.post("/api/games/" + "0" * 32 + "/review"), app_client.get("/api/games/nosuch/review")):
        assert r.status_code == 404, r.text


def test_two_processes_keep_one_review_of_a_game(database_url: str) -> None:
    store = open_store(database_url)
    try:
        seats = [SeatInfo(0, "bot", "greedy", None, None), SeatInfo(1, "bot", "greedy", None, None)]
        GameStore(store).create("a" * 32, "classic", 2, 1, {}, seats)
        first, second = ReviewStore(store), ReviewStore(store)
        kept = first.put("a" * 32, 4, {"by": "first"})
        again = second.put("a" * 32, 4, {"by": "second"})  # computed too, but the first row stays
        assert kept.body == again.body == {"by": "first"} and second.get("a" * 32) == kept
        assert second.get("b" * 32) is None
    finally:
        store.close()


def test_a_review_running_in_one_process_is_answered_by_another_and_not_started_twice(
    app_client: TestClient, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = app_client
    game = resigned(c, 6)
    search = BotPool.search

    async def slow_search(self: BotPool, *args: Any) -> Any:  # moves slow enough to see the progress in between
        await asyncio.sleep(0.3)
        return await search(self, *args)

    monkeypatch.setattr(BotPool, "search", slow_search)
    url = f"/api/games/{game['id']}/review"
    with TestClient(create_app(settings)) as other:  # a second process over the same store
        assert c.post(url).status_code == 202
        polled = other.get(url)  # the page's poll, reaching the other process
        assert polled.status_code == 202 and polled.json()["status"] == "running", polled.text
        assert polled.json()["total"] == c.get(url).json()["total"]
        asked = other.post(url)  # a second click there: the same review's progress, nothing started
        assert asked.status_code == 202, asked.text
        assert other.app.state.reviews.running == {}  # type: ignore[attr-defined]  # the app's state: untyped
        wait_for(lambda: other.get(url).json()["done"] > 0, seconds=60)  # the owner's progress, seen elsewhere
        done = reviewed(c, url)
        assert other.get(url).json() == done


def test_requests_at_once_cannot_pass_the_bounds_together(app_client: TestClient) -> None:
    c = app_client
    first, second = resigned(c, 2), resigned(c, 2)
    assert c.get(f"/api/games/{first['id']}/review").status_code == 204  # nobody asked yet (the reviews are made)
    reviews: Reviews = c.app.state.reviews  # type: ignore[attr-defined]  # the app's state: untyped
    settings = reviews.settings
    reviews.settings = dataclasses.replace(settings, reviews_at_once=1)

    async def at_once(*asks: tuple[str, str]) -> list[int]:
        answers = await asyncio.gather(*(reviews.start(g, who) for g, who in asks), return_exceptions=True)
        return [a.status if isinstance(a, Refused) else a[0] for a in answers]  # type: ignore[union-attr]  # gathered

    try:
        assert c.portal is not None
        # Two games, two addresses, one review at once: one runs, the other is refused.
        statuses = c.portal.call(at_once, (first["id"], "10.0.0.1"), (second["id"], "10.0.0.2"))
        assert sorted(statuses) == [202, 503], statuses
        assert len(reviews.running) == 1
        refused = (first, second)[statuses.index(503)]
        wait_for(lambda: not reviews.running, seconds=60)
        # One game asked by two addresses at once: one review runs (not one for each), both see it.
        reviews.settings = settings
        runs: list[str] = []
        run = reviews._run

        async def counted(running: Any, record: Any) -> None:
            runs.append(running.game_id)
            await run(running, record)

        reviews._run = counted  # type: ignore[method-assign]  # counting the reviews started
        try:
            assert c.portal.call(at_once, (refused["id"], "10.0.0.3"), (refused["id"], "10.0.0.4")) == [202, 202]
        finally:
            del reviews._run
        assert runs == [refused["id"]]
        reviewed(c, f"/api/games/{refused['id']}/review")
    finally:
        reviews.settings = settings
        wait_for(lambda: not reviews.running, seconds=60)


def test_a_claim_whose_process_stopped_is_taken_over_by_one(database_url: str) -> None:
    store = open_store(database_url)
    game = "c" * 32
    try:
        seats = [SeatInfo(0, "bot", "greedy", None, None), SeatInfo(1, "bot", "greedy", None, None)]
        GameStore(store).create(game, "classic", 2, 1, {}, seats)
        reviews = ReviewStore(store)
        assert reviews.claim(game, 9, "first", 120) is None  # claimed: the first computes
        assert reviews.progress(game, "first", 3)
        held = reviews.claim(game, 9, "second", 120)  # a live claim: the second computes nothing
        assert isinstance(held, Claim) and (held.owner, held.done, held.actions, held.stale) == ("first", 3, 9, False)
        assert reviews.get(game) is None  # running: nothing kept yet
        with store.session() as s:  # the first process stops: no progress for five minutes
            s.get_one(ReviewRow, game).touched = time.time() - 300
        found = reviews.look(game, 120)
        assert isinstance(found, Claim) and found.stale
        assert reviews.claim(game, 9, "second", 120) is None  # taken over
        again = reviews.claim(game, 9, "third", 120)  # once: it is fresh again
        assert isinstance(again, Claim) and (again.owner, again.done, again.stale) == ("second", 0, False)
        assert not reviews.progress(game, "first", 4)  # the stopped one, back, learns it lost the claim
        assert reviews.progress(game, "second", 1)
        kept = reviews.put(game, 9, {"by": "second"})
        assert reviews.get(game) == kept and kept.body == {"by": "second"}
        assert reviews.claim(game, 9, "third", 120) == kept  # kept: nothing to claim
        reviews.release(game, "second")  # a kept review is not dropped
        assert reviews.get(game) == kept
        failed = "d" * 32  # a review that failed: its claim dropped, it may be asked for again
        GameStore(store).create(failed, "classic", 2, 1, {}, seats)
        assert reviews.claim(failed, 5, "first", 120) is None
        reviews.release(failed, "another")  # only its owner drops it
        assert isinstance(reviews.look(failed, 120), Claim)
        reviews.release(failed, "first")
        assert reviews.look(failed, 120) is None
    finally:
        store.close()
