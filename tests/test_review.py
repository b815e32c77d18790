"""The expert's review of a finished game (``splendor.bots.review``, ``splendor review``): the marks by their
thresholds, nothing hidden used, reproducible with a seed, unfinished games refused, the command end to end."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len

import splendor
from splendor.bots import review as reviewing
from splendor.bots.base import Bot, Decision
from splendor.bots.greedy import GreedyBot
from splendor.bots.random import RandomBot
from splendor.bots.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    PLAYED_VISITS,
    NotFinished,
    Review,
    mark_for,
    review,
    review_position,
)
from splendor.core.game import Game
from splendor.core.record import Record
from splendor.games import replay
from splendor.search.reference import SearchResult
from splendor.sim import play_out

SPLENDOR = str(Path(sys.executable).parent / "splendor")
ITERATIONS = 40


def finished(game: str = "classic", players: int = 2, seed: int = 0) -> Game:
    """A short finished game: a greedy bot against random ones."""
    bots: list[Bot] = [GreedyBot(seed=1), *(RandomBot(seed=2 + s) for s in range(players - 1))]
    return play_out(splendor.new_game(game, players=players, seed=seed), bots)


@pytest.fixture(scope="module")
def game() -> Game:
    return finished()


@pytest.fixture(scope="module")
def done(game: Game) -> Review:
    return review(game.record, iterations=ITERATIONS, seed=3)


def run(*args: str, columns: int = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SPLENDOR, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"COLUMNS": str(columns), "PATH": "/usr/bin:/bin", "TERM": "dumb"},
    )


# The marks: the played move's fall below the expert's move, with the search's answer fixed.


def judged(monkeypatch: pytest.MonkeyPatch, fall: float) -> str | None:
    """The mark of a move whose root mean (well visited) is ``fall`` below the preferred move's."""
    start = splendor.new_game("classic", players=2, seed=5)
    legal = start.legal_actions()
    best, played = legal[0], legal[1]

    def fake(position: Decision, rng: random.Random, iterations: int | None) -> SearchResult:
        stats = {best.index: (10 * PLAYED_VISITS, 0.6), played.index: (PLAYED_VISITS, 0.6 - fall)}
        return SearchResult.ranked(position.legal, stats, 11 * PLAYED_VISITS, 0.0)

    monkeypatch.setattr(reviewing, "_search", fake)
    move = review_position(start, played)
    assert (move.best, move.played, move.source) == (best.text, played.text, "root")
    assert move.loss == pytest.approx(max(0.0, fall))
    return move.mark


def test_inaccuracy(monkeypatch: pytest.MonkeyPatch) -> None:
    assert judged(monkeypatch, INACCURACY) == "inaccuracy" == mark_for(MISTAKE - 0.001)
    assert judged(monkeypatch, INACCURACY - 0.01) is None


def test_mistake(monkeypatch: pytest.MonkeyPatch) -> None:
    assert judged(monkeypatch, MISTAKE) == "mistake" == mark_for(BLUNDER - 0.001)


def test_blunder(monkeypatch: pytest.MonkeyPatch) -> None:
    assert judged(monkeypatch, BLUNDER) == "blunder" == mark_for(0.9)


def test_the_preferred_move_loses_nothing_and_a_better_value_is_no_loss(monkeypatch: pytest.MonkeyPatch) -> None:
    assert judged(monkeypatch, -0.2) is None
    start = splendor.new_game("classic", players=2, seed=5)
    assert review_position(start, start.legal_actions()[0], iterations=ITERATIONS).loss >= 0.0


# Nothing hidden: the mover's view is all the review reads.


def test_a_position_reviews_alike_whatever_the_cards_the_mover_could_not_see(game: Game) -> None:
    positions = [replay(game.record, upto=n) for n in (0, 9, 20, 33)]
    sources = set()
    for position in positions:
        seat = position.current_player
        assert seat is not None
        played = game.history[len(position.history)]
        number = len(position.history) + 1
        seen = review_position(position, played, iterations=ITERATIONS, seed=7, number=number)
        sources.add(seen.source)
        for deal in (1, 2):
            other = position.determinize(seat, random.Random(deal))  # every hidden card dealt anew
            assert other.view(seat) == position.view(seat)
            assert other.to_json() != position.to_json()
            assert review_position(other, played, iterations=ITERATIONS, seed=7, number=number) == seen
    assert "after" in sources  # the search of the position after a move peeks at nothing either


# Reproducible, and the shape of what it says.


def test_a_review_is_reproducible_with_its_seed(game: Game, done: Review) -> None:
    assert review(game, iterations=ITERATIONS, seed=3) == done
    assert review(game, iterations=ITERATIONS, seed=4).as_dict() != done.as_dict()


def test_every_move_is_reviewed_and_the_graph_ends_with_the_result(game: Game, done: Review) -> None:
    assert [m.played for m in done.moves] == [a.text for a in game.history]
    assert [m.number for m in done.moves] == list(range(1, len(game.history) + 1))
    winner = game.winners[0]
    assert done.final == [1.0 if s == winner else 0.0 for s in range(2)]
    for m in done.moves:
        assert 0.0 <= m.loss <= 1.0 and m.mark == mark_for(m.loss)
        assert m.chance_after is not None and m.chances[m.seat] == pytest.approx(m.chance_after)
        assert sum(m.chances) == pytest.approx(1.0)  # two seats: shares of one win
    graph = done.graph()
    assert len(graph) == 2 and all(len(line) == len(game.history) + 1 for line in graph)


def test_the_review_names_the_card_each_move_takes_where_everyone_sees_it(game: Game, done: Review) -> None:
    """The review had said "reserves the card at tier 2, slot 3" where the table shows which card that was."""
    at = splendor.replay(game.record, upto=0)
    named = 0
    for m in done.moves:
        for text, card in ((m.played, m.played_card), (m.best, m.best_card)):
            action = at.parse(text)
            seen = action.kind in ("buy", "buy_reserved", "reserve")  # a reserve from a deck stays unnamed
            if text != m.played and action.kind == "buy_reserved":  # a card reserved face down, never bought
                seen = not at.view(None)["seats"][m.seat]["reserved"][action.args[0]].get("hidden")
            assert (card is not None) == seen, (text, card)
            if seen:
                assert card == at.public_details(action, at.after(action))["card"]
                named += 1
        at.apply(m.played)
    assert named > len(done.moves) / 2


def test_with_three_players_the_others_keep_their_last_estimate() -> None:
    three = finished(players=3, seed=4)
    done = review(three, iterations=20)
    previous = done.start
    for m in done.moves[:-1]:
        for s in range(3):
            if s != m.seat:
                assert m.chances[s] == previous[s]
        if m.chance_after is not None:
            assert m.chances[m.seat] == m.chance_after
        previous = m.chances
    assert {m.source for m in done.moves} <= {"root", "after", "pooled", "unknown", "end"}


def test_an_unfinished_game_is_refused() -> None:
    record = finished().record
    partial = Record(record.game, record.players, record.seed, record.options, record.actions[:10])
    with pytest.raises(NotFinished, match="not over"):
        review(partial, iterations=ITERATIONS)
    with pytest.raises(ValueError, match="not over"):
        review(splendor.new_game("kids", players=2, seed=1))


def test_a_game_ended_outside_its_rules_reviews_the_moves_played() -> None:
    """A resigned, aborted or timed-out game (its record's notes say how it ended) is over: nothing hidden is
    still in play, so its moves are reviewed, as the server's records of such games are."""
    record = finished().record
    ending = {"by": "resigned", "seat": 1, "at": 6}
    resigned = Record(record.game, record.players, record.seed, record.options, record.actions[:6], {"ending": ending})
    done = review(resigned, iterations=ITERATIONS)
    assert [m.number for m in done.moves] == [1, 2, 3, 4, 5, 6] and done.result["ending"] == ending
    aborted = Record(record.game, record.players, record.seed, record.options, [], {"ending": {"by": "aborted"}})
    empty = review(aborted, iterations=ITERATIONS)
    assert empty.moves == [] and empty.graph() == [[0.5], [0.5]]


def test_a_game_a_bot_forfeited_reviews_the_moves_played() -> None:
    """The arena's, the terminal's and simulate's records keep a bot's forfeit as ``forfeit``, not the server's
    ``ending``: the review had refused them as "not over", where replay and resume took them as ended."""
    record = finished().record
    forfeit = {"seat": 0, "bot": "cmd:x", "reason": "late"}
    forfeited = Record(
        record.game, record.players, record.seed, record.options, record.actions[:4], {"forfeit": forfeit}
    )
    done = review(forfeited, iterations=ITERATIONS)
    assert [m.number for m in done.moves] == [1, 2, 3, 4] and done.result["ending"] == {"by": "forfeit", **forfeit}


def test_a_review_made_a_move_at_a_time_is_the_review(game: Game, done: Review) -> None:
    """The server reviews a game a move at a time in its workers (`review_move`) and assembles them."""
    moves = [reviewing.review_move(game.record.to_text(), n, ITERATIONS, 3) for n in range(len(game.history), 0, -1)]
    assembled = reviewing.assemble(game.record, moves[::-1], ITERATIONS, 3)
    assert assembled.as_dict() == done.as_dict()


def test_a_kids_game_is_reviewed_too() -> None:
    kids = finished("kids", seed=2)
    done = review(kids, iterations=10)
    assert len(done.moves) == len(kids.history) and all(0 <= c <= 1 for c in done.final)


# The command.


@pytest.fixture(scope="module")
def saved(game: Game, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("review") / "game.record"
    path.write_text(game.record.to_text(), encoding="utf-8")
    return path


def test_the_review_command_prints_the_moves_marks_and_graph(saved: Path, game: Game) -> None:
    out = run("review", str(saved), "--iterations", "50", "--lang", "en")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Win chance, move by move" in text and "Inaccuracies" in text
    assert f"{len(game.history)} " in text
    assert any(spark in text for spark in "▁▂▃▄▅▆▇█")
    assert "wins" in text  # the result


def test_the_review_command_cuts_nothing_on_a_terminal_of_80_columns(saved: Path, game: Game) -> None:
    """A newcomer's review at 80 columns cut the expert's move to "(78…" and a Kids move to "4…"."""
    out = run("review", str(saved), "--iterations", "50", "--lang", "en", columns=80)
    assert out.returncode == 0, out.stderr
    assert "…" not in out.stdout
    text = " ".join(out.stdout.split())
    for number, action in enumerate(game.record.actions, 1):
        assert f" {number}. seat " in text and action in text
    graph = [line for line in out.stdout.splitlines() if any(spark in line for spark in "▁▂▃▄▅▆▇█")]
    assert len(graph) == game.players and all(line.rstrip().endswith("%") for line in graph)  # a line each


def test_the_review_of_a_game_a_person_resigned_ends_saying_so_and_its_graph_fits_wide_names(
    game: Game, tmp_path: Path
) -> None:
    """A server's record of a resigned game: the review crashed at its last line. A Chinese name takes two cells a
    character, and the graph's lines wrapped at 80 columns."""
    rec = Record(game.name, game.players, game.seed, game.record.options, game.record.actions[:12])
    rec.notes = {
        "seats": [
            {"seat": 0, "kind": "human", "name": "张伟张伟张伟张伟张伟"},
            {"seat": 1, "kind": "human", "name": "bob"},
        ],
        "ending": {"by": "resigned", "seat": 0, "at": 12},
    }
    path = tmp_path / "resigned.record"
    path.write_text(rec.to_text(), encoding="utf-8")
    out = run("review", str(path), "--iterations", "5", "--lang", "en", columns=80)
    assert out.returncode == 0, out.stderr
    assert "张伟张伟张伟张伟张伟 resigned: bob wins." in " ".join(out.stdout.split())
    graph = [line for line in out.stdout.splitlines() if any(spark in line for spark in "▁▂▃▄▅▆▇█")]
    assert len(graph) == 2 and all(line.rstrip().endswith("%") and cell_len(line) <= 80 for line in graph), graph


def test_the_review_command_as_json_is_the_review(saved: Path, game: Game) -> None:
    out = run("review", str(saved), "--iterations", "50", "--seed", "2", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data == json.loads(json.dumps(review(game.record, iterations=50, seed=2).as_dict()))
    assert data["thresholds"] == {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER}
    assert len(data["moves"]) == len(game.history) and len(data["graph"]) == 2
    assert all(len(line) == len(game.history) + 1 for line in data["graph"])
    assert set(data["moves"][0]) == {
        "number",
        "seat",
        "played",
        "best",
        "chance_before",
        "chance_after",
        "loss",
        "mark",
        "source",
        "visits",
        "chances",
        "played_card",
        "best_card",
    }
    assert {row["seat"] for row in data["summary"]} == {0, 1}


def test_the_review_command_refuses_what_it_cannot_review(tmp_path: Path, game: Game) -> None:
    missing = run("review", str(tmp_path / "nothing.record"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    garbage = tmp_path / "garbage.record"
    garbage.write_text("not a record\n", encoding="utf-8")
    assert run("review", str(garbage)).returncode == 2
    unfinished = tmp_path / "unfinished.record"
    record = game.record
    unfinished.write_text(
        Record(record.game, record.players, record.seed, record.options, record.actions[:5]).to_text(), encoding="utf-8"
    )
    out = run("review", str(unfinished), "--lang", "en")
    assert out.returncode == 2 and "not over" in out.stderr


def test_a_played_move_must_be_legal_where_it_is_reviewed() -> None:
    start = splendor.new_game("classic", players=2, seed=5)
    with pytest.raises(ValueError):
        review_position(start, "buy 1.1")  # nothing is affordable at the start
