"""Where work runs (`splendor.core.workers`): the arena's games and self-play's pieces, here, in processes or on
Ray, by the same code; a piece's result does not depend on where it ran (issue 35: self-play that scales out on
Ray). The tests on Ray share one Ray, started by `ray_session` as a training run starts it: Ray's start was most
of each test's time."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from splendor.arena import run_matches, schedule, standings
from splendor.core.workers import ONE_PROCESS, Workers, ray_session, spread, unordered
from splendor.search import compiled as cs
from splendor.search.learning import training


def _slow_square(n: int) -> int:
    """Later pieces finish first, so an answer in the order of finishing would be out of order."""
    import time

    time.sleep(0.02 * (5 - n))
    return n * n


@pytest.mark.parametrize("where", [Workers(1, "local"), Workers(3, "process")])
def test_spread_answers_in_the_order_of_the_pieces(where: Workers) -> None:
    assert spread(_slow_square, list(range(5)), where) == [0, 1, 4, 9, 16]
    assert sorted(unordered(_slow_square, [2, 3], where)) == [(0, 4), (1, 9)]


def test_a_place_that_cannot_be_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown back end 'gpu'"):
        Workers(2, "gpu")
    with pytest.raises(ValueError, match="1 or more"):
        Workers(0)
    with pytest.raises(ValueError, match="needs the ray back end"):
        Workers(2, "process", "ray://head:10001")
    # a tournament organiser's find: workers on the local back end were ignored without a word
    with pytest.raises(ValueError, match="one piece after another, in this process: 2 workers need the process"):
        Workers(2, "local")


@pytest.fixture(scope="module")
def ray_up() -> Iterator[None]:
    """One Ray, of two CPUs, for the file's tests on Ray (each spread on it finds it up and leaves it up)."""
    import ray

    with ray_session(Workers(2, "ray")):
        assert ray.is_initialized()
        yield
    assert not ray.is_initialized(), "a Ray started by the session is shut down with it"


def test_the_same_seeds_give_the_same_results_on_every_back_end(ray_up: None) -> None:
    matches = schedule("classic", 2, ["ismcts:12", "greedy"], 4, seed=21, options={"max_turns": 300})
    outcomes = {}
    for backend in ("local", "process", "ray"):
        results = sorted(
            run_matches(matches, backend=backend, workers=None if backend == "local" else 2), key=lambda r: r.index
        )
        outcomes[backend] = [(r.winners, r.scores, r.record) for r in results]
        table = [s.as_dict() for s in standings(results, ["ismcts:12", "greedy"])]
        outcomes[backend + " table"] = json.dumps(table)  # type: ignore[assignment]
    assert outcomes["local"] == outcomes["process"] == outcomes["ray"]
    assert outcomes["local table"] == outcomes["process table"] == outcomes["ray table"]


def test_self_play_on_ray_is_the_self_play_played_here(ray_up: None) -> None:
    searcher = {"iterations": 20, "depth": 8, "weights": cs.NO_WEIGHTS}
    pieces = [("classic", [11 + i], searcher, 2, 2) for i in range(3)]
    here = spread(training._self_play_chunk, pieces, ONE_PROCESS)
    on_ray = spread(training._self_play_chunk, pieces, Workers(2, "ray"))
    for a, b in zip(here, on_ray, strict=True):
        assert len(a) > 0 and a.stages == b.stages
        assert np.array_equal(np.array(a.labels), np.array(b.labels))
        assert np.array_equal(np.array(a.seats), np.array(b.seats))


def test_a_training_command_refuses_an_unknown_back_end_before_it_plays() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "splendor", "train", "--games", "2", "--backend", "cluster"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "unknown back end 'cluster'" in done.stderr


def test_a_stopped_run_drops_the_pieces_not_begun_and_stops_its_workers(tmp_path: Path) -> None:
    """A code review's find: SIGTERM, taken as Ctrl-C, left the process pool whole, and the run played out every
    piece queued (eight of three seconds on two workers) before it stopped. Each piece marks its start: stopped
    while the first ones run, the run begins no more of them (measured by what began, not by the clock, which a
    busy machine stretches)."""
    import signal
    import time

    code = (
        "import pathlib, signal, sys, time\n"
        "from splendor.core.workers import Workers, spread\n"
        "def piece(n):\n"
        f"    pathlib.Path({str(tmp_path)!r}, f'began-{{n}}').touch()\n"
        "    time.sleep(3)\n"
        "signal.signal(signal.SIGTERM, signal.default_int_handler)\n"
        "spread(piece, list(range(8)), Workers(2, 'process'))\n"
    )
    run = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob("began-*")):  # the first pieces run
        assert time.monotonic() < deadline and run.poll() is None, "no piece began"
        time.sleep(0.05)
    run.send_signal(signal.SIGTERM)
    run.wait(timeout=120)
    began = len(list(tmp_path.glob("began-*")))
    # two workers, two pieces running when stopped: a worker had taken the stop for its piece's failure and gone
    # on to the piece queued for it (4 began), and, before that fix, to every piece (8)
    assert began <= 2, f"{began} of 8 pieces began: the queue was played on"
    said = run.stderr.read() if run.stderr else ""
    assert "KeyboardInterrupt" in said and said.count("Traceback") == 1, said  # the parent's alone


def test_a_piece_that_fails_ends_the_run_with_its_error_and_stops_the_other_workers(tmp_path: Path) -> None:
    """A tournament organiser's find: a game that failed in a worker (a bot that does not play that game) left the
    command hung at its end, one run in three, the other workers playing on, then orphaned; each printed a
    traceback of the stop besides."""
    import time

    code = (
        "import pathlib, signal, time\n"
        "from splendor.core.workers import Workers, spread\n"
        "def piece(n):\n"
        f"    pathlib.Path({str(tmp_path)!r}, f'began-{{n}}').touch()\n"
        "    if n == 1:\n"
        "        time.sleep(0.5)\n"
        "        raise ValueError('the greedy policy plays classic only')\n"
        "    time.sleep(30)\n"
        "signal.signal(signal.SIGTERM, signal.default_int_handler)  # as the splendor command takes it\n"
        "spread(piece, list(range(8)), Workers(2, 'process'))\n"
    )
    for _ in range(3):
        for old in tmp_path.glob("began-*"):
            old.unlink()
        start = time.monotonic()
        try:
            run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=90)
        except subprocess.TimeoutExpired:
            raise AssertionError("the run hung after its piece failed") from None
        assert run.returncode == 1 and "ValueError: the greedy policy plays classic only" in run.stderr
        assert "KeyboardInterrupt" not in run.stderr, run.stderr  # the failure's alone, none of the stopped workers
        assert time.monotonic() - start < 25  # not the other worker's 30 s piece played out
        assert len(list(tmp_path.glob("began-*"))) <= 3


def test_a_stopped_run_stops_its_own_workers_and_no_other_child_of_the_process() -> None:
    """A tournament organiser's find: the stop terminated every child of the process (what its caller had started
    too), not only the pool's workers."""
    import multiprocessing
    import time

    other = multiprocessing.Process(target=time.sleep, args=(60,))
    other.start()
    try:
        with pytest.raises(ValueError, match="the greedy policy plays classic only"):
            spread(_fails_after_a_while, [0, 1, 2], Workers(2, "process"))
        deadline = time.monotonic() + 30
        while [child for child in multiprocessing.active_children() if child is not other]:
            assert time.monotonic() < deadline, "the pool's workers were not stopped"
            time.sleep(0.05)
        time.sleep(0.5)  # a stop sent to the caller's child too would have ended it by now
        assert other.is_alive(), "a child the caller started was terminated with the pool's workers"
    finally:
        other.terminate()
        other.join()


def _fails_after_a_while(n: int) -> None:
    import time

    time.sleep(0.3)
    if n == 1:
        raise ValueError("the greedy policy plays classic only")
    time.sleep(30)


def _child_hears_ctrl_c(_piece: int) -> str:
    """What a program started in a worker makes of Ctrl-C: Python takes it as KeyboardInterrupt unless ignored."""
    code = "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_a_program_a_worker_starts_hears_ctrl_c_and_a_stopped_worker_stops_its_programs(tmp_path: Path) -> None:
    """A code review's finds: a worker leaving Ctrl-C to its parent by ignoring it passed the ignoring on to every
    outside bot it started (an ignored signal survives exec); and a stop landing in a game's own cleanup left the
    bot it was stopping running. The worker handles Ctrl-C (reset at exec), and a stopped worker kills every program
    it started before it ends."""
    import time

    from splendor.bots import external
    from splendor.core import workers

    assert spread(_child_hears_ctrl_c, [0, 1], Workers(2, "process")) == ["True", "True"]
    assert external.stop_every_program in workers.STOP_HOOKS
    program = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    external._RUNNING.add(program.pid)
    external.stop_every_program()
    deadline = time.monotonic() + 10
    while program.poll() is None:
        assert time.monotonic() < deadline, "the program runs on"
        time.sleep(0.05)
    assert program.pid not in external._RUNNING
