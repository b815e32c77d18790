"""Bot leases in the store: one process at a time moves a game's bots; a lease that runs out (its process died)
is taken over; a finished game's lease ends with its last action; the bot sweep finds exactly the games that
wait for a bot nobody moves. On SQLite and on a real PostgreSQL."""

from __future__ import annotations

import time

from sqlalchemy import event

from splendor.store import open_store
from splendor.store.games import GameStore, SeatInfo
from splendor.store.leases import BotLeases

BOTS = [SeatInfo(0, "bot", "greedy", None, None), SeatInfo(1, "bot", "greedy", None, None)]


def test_one_process_holds_a_lease_until_it_runs_out_and_then_another_takes_it_over(database_url: str) -> None:
    store = open_store(database_url)
    try:
        games = GameStore(store)
        games.create("a" * 32, "classic", 2, 1, {}, BOTS, bot_turn=True)
        games.create("b" * 32, "classic", 2, 1, {}, BOTS, bot_turn=False)
        # leases of 3 s: one of 1 s ran out between two lines of this test on a loaded machine (CI-like load)
        first, second = BotLeases(store, "first", 3.0), BotLeases(store, "second", 3.0)
        assert first.waiting() == second.waiting() == ["a" * 32]  # only the game waiting for a bot
        assert first.take("a" * 32) and first.take("a" * 32)  # taken, and kept by its holder
        assert not second.take("a" * 32) and second.waiting() == []
        assert first.renew() == 1
        time.sleep(3.3)  # the first process died
        assert second.waiting() == ["a" * 32] and second.take("a" * 32)
        assert not first.take("a" * 32)
        games.append("a" * 32, 1, 0, "take w b g", "won")  # the game ends: so does its lease
        assert first.take("a" * 32) is False and second.renew() == 0
        games.create("c" * 32, "classic", 2, 1, {}, BOTS, bot_turn=True)
        assert first.take("c" * 32)
        first.release()  # it stops: the others take at once
        assert second.waiting() == ["c" * 32] and second.take("c" * 32)
    finally:
        store.close()


def test_a_lease_surely_held_is_kept_without_asking_the_store(database_url: str) -> None:
    store = open_store(database_url)
    statements: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    try:
        GameStore(store).create("a" * 32, "classic", 2, 1, {}, BOTS, bot_turn=True)
        mine = BotLeases(store, "mine", 30.0)
        assert mine.take("a" * 32)
        asked = len(statements)
        assert mine.take("a" * 32) and len(statements) == asked  # a bot's next move: no statement
        assert mine.renew() == 1 and mine.take("a" * 32) and len(statements) == asked + 1
        mine.release()
        assert mine.take("a" * 32) and len(statements) > asked + 2  # given up: asked again
    finally:
        store.close()
