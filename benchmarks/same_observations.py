"""Are the observations written in compiled code still the view-based ones? The long run of the differential test.

For each game and player count this plays ``--games`` games in the compiled engine (random legal actions from a
seeded numpy Generator, most games leaning to buys so that they end by the points, every tenth cut short by a
small turn cap) and at every step, the ended state included, compares for every seat and for a spectator the
compiled observation with ``splendor.envs.observe.observe(game.view(seat))`` of the same game as the reference
engine holds it, exactly. Each game's observations are also written in one batch and compared row by row, and at
every tenth step every hidden part is dealt anew (``determinize``) and each seat's vector must stay the same.

It prints, per game and player count, the games (and how they ended), the steps (by the decision due, "none" once
over), the observations and redeals checked, the differences found (each with its first differing fields) and the
time taken; the exit status is 1 when any differ.
``--speed`` prints the nanoseconds of one compiled observation instead (a loop inside compiled code, over 16
states that stay in the caches and over 1,024 that do not).

One checking function per game family, in ``CHECKERS`` by game name: ``check_market`` for classic and Pokémon,
``check_kids`` for Kids (its three variants in turn, and its compact action index: every index once per board,
the legal ones at every step, against ``splendor.envs.actions.ActionIndex``).

    python benchmarks/same_observations.py --games 1000
    python benchmarks/same_observations.py --games 200 --only pokemon --players 4 --jobs 2
    python benchmarks/same_observations.py --speed
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import numpy as np
from numba import njit

import splendor.compiled as compiled
from splendor.compiled import kids
from splendor.compiled import market as m
from splendor.core.errors import IllegalAction
from splendor.envs.actions import ActionIndex
from splendor.envs.observe import layout, observe

GAMES = ("classic", "pokemon", "kids")
PLAYERS = (2, 3, 4)
MAX_TURNS = 400
CAPPED_EVERY = 10
"""Every tenth game is played at random under a cap of 20 to 60 turns, so that the capped ending is seen."""
REDEAL_EVERY = 10
SHOWN = 5  # differences printed at most per game and player count


@dataclass
class Checked:
    """What one run of a checker saw: games by how they ended, steps, observations compared, differences."""

    ends: Counter[str] = field(default_factory=Counter)
    decisions: Counter[str] = field(default_factory=Counter)
    steps: int = 0
    observations: int = 0
    redeals: int = 0
    compact: int = 0  # Kids: the compact legal actions checked
    differences: list[str] = field(default_factory=list)

    def add(self, other: Checked) -> None:
        self.ends.update(other.ends)
        self.decisions.update(other.decisions)
        self.steps += other.steps
        self.observations += other.observations
        self.redeals += other.redeals
        self.compact += other.compact
        self.differences += other.differences


def _where(name: str, got: np.ndarray, want: np.ndarray) -> str:
    """The first fields of the layout where two observations differ, with both values."""
    if got.shape != want.shape:
        return f"sizes {got.shape} and {want.shape}"
    found: list[str] = []
    at = 0
    for f in layout(name):
        for i in range(at, at + f.size):
            if got[i] != want[i] and len(found) < 3:
                found.append(f"{f.name}[{i - at}]: {got[i]!r} for {want[i]!r}")
        at += f.size
    return "; ".join(found)


# ----------------------------------------------------------------------------- the card-market games


def check_market(name: str, players: int, numbers: range) -> Checked:
    """Games ``numbers`` of classic or Pokémon at ``players``: compiled observations against the views' ones."""
    checked = Checked()
    out = np.empty(int(m.OBSERVATION_SIZE.max()), dtype=np.float32)

    def mine(state: np.ndarray, viewer: int) -> np.ndarray:
        out.fill(np.nan)  # observe_into must write every value
        m.observe_into(state, viewer, out)
        return out[: int(m.OBSERVATION_SIZE[state[m.KIND]])].copy()

    for number in numbers:
        seed = 100_000 * players + number
        rng = np.random.default_rng(seed)
        capped = number % CAPPED_EVERY == CAPPED_EVERY - 1
        buy_chance = 0.0 if capped else (number % 5) / 4
        game = compiled.new_game(name, players=players, seed=seed, max_turns=20 + number % 41 if capped else MAX_TURNS)
        kind = int(game.state[m.KIND])
        states, viewers, rows = [], [], []
        step = 0
        while True:
            ref = game.to_reference()
            for viewer in [*range(players), -1]:
                got = mine(game.state, viewer)
                want = observe(ref.view(None if viewer < 0 else viewer))
                checked.observations += 1
                if not np.array_equal(got, want):
                    checked.differences.append(
                        f"{name} {players}p game {number} (seed {seed}) step {step} seat {viewer}: "
                        + _where(name, got, want)
                    )
                states.append(game.state.copy())
                viewers.append(viewer)
                rows.append(got)
            if step % REDEAL_EVERY == REDEAL_EVERY // 2:
                for seat in range(players):
                    twin = compiled.from_reference(ref.determinize(seat, random.Random(step)))
                    checked.redeals += 1
                    if not np.array_equal(mine(twin.state, seat), mine(game.state, seat)):
                        checked.differences.append(
                            f"{name} {players}p game {number} (seed {seed}) step {step} seat {seat}: a redeal "
                            "changes the observation"
                        )
            checked.steps += 1
            checked.decisions[ref.view(None)["decision"]] += 1
            if game.is_over:
                break
            legal = np.flatnonzero(game.legal_mask())
            buys = legal[(legal >= m.BUY) & (legal < m.RETURN[kind])]
            game.step(int(rng.choice(buys if len(buys) and rng.random() < buy_chance else legal)))
            step += 1
        s = game.state
        checked.ends["capped" if s[m.CAPPED] else "stalled" if s[m.STALLED] else "points"] += 1
        batch = np.full((len(states), len(rows[0])), np.nan, dtype=np.float32)
        m.batch_observe(np.array(states), np.array(viewers, dtype=np.int64), batch)
        if not np.array_equal(batch, np.array(rows)):
            checked.differences.append(f"{name} {players}p game {number} (seed {seed}): the batch differs")
    return checked


@njit
def _observe_many(states: np.ndarray, viewers: np.ndarray, out: np.ndarray, calls: int) -> float:
    """``calls`` market observations, one state after another, into the same ``out``."""
    total = 0.0
    for k in range(calls):
        i = k % states.shape[0]
        m.observe_into(states[i], viewers[i], out)
        total += out[k % 9]  # read, so that no call is left out
    return total


def market_speed(name: str, players: int, games: int) -> float:
    """Nanoseconds of one ``observe_into``, in a loop inside compiled code over ``games`` states (one a game, each
    from a different random game at a random step), for the seat in turn: few states lie in the caches, as the
    state a learner has just stepped does; a thousand are read from memory, as a batch is."""
    rng = np.random.default_rng(games)
    states = []
    for seed in range(games):
        game = compiled.new_game(name, players=players, seed=seed, max_turns=MAX_TURNS)
        for _ in range(int(rng.integers(0, 120))):
            if game.is_over:
                break
            game.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))
        states.append(game.state.copy())
    rows = np.array(states)
    viewers = np.arange(len(rows), dtype=np.int64) % players
    out = np.empty(int(m.OBSERVATION_SIZE.max()), dtype=np.float32)
    _observe_many(rows, viewers, out, 10)  # compile
    calls, best = 500_000, float("inf")
    for _ in range(7):  # the least of several runs: the others were slowed by whatever else ran
        start = time.process_time()
        _observe_many(rows, viewers, out, calls)
        best = min(best, time.process_time() - start)
    return best / calls * 1e9


# ----------------------------------------------------------------------------- Splendor Kids

KIDS_VARIANTS: tuple[dict[str, bool], ...] = ({}, {"short": True}, {"mysteries": True})
"""Kids' games turn through the full game, the short game and the Mysteries, by their numbers."""


def check_kids(name: str, players: int, numbers: range) -> Checked:
    """Games ``numbers`` of Kids at ``players``: compiled observations against the views' ones, and the compact
    action index (``compact_legal_into``, ``own_index``) against ``ActionIndex`` — every compact index once per
    board met, the legal ones at every step."""
    checked = Checked()
    out = np.empty(kids.OBSERVATION_SIZE, dtype=np.float32)
    legal = np.empty(kids.MAX_LEGAL, dtype=np.int64)
    boards_seen: set[tuple[int, ...]] = set()

    def mine(state: np.ndarray, viewer: int) -> np.ndarray:
        out.fill(np.nan)  # observe_into must write every value
        kids.observe_into(state, viewer, out)
        return out.copy()

    for number in numbers:
        seed = 100_000 * players + number
        rng = np.random.default_rng(seed)
        capped = number % CAPPED_EVERY == CAPPED_EVERY - 1
        move_chance = 0.0 if capped else (number % 5) / 4
        options = KIDS_VARIANTS[number % len(KIDS_VARIANTS)]
        game = compiled.new_game(
            name, players=players, seed=seed, max_turns=4 + number % 41 if capped else MAX_TURNS, **options
        )
        s = game.state
        where = f"{name} {players}p game {number} (seed {seed}, {options or 'full game'})"
        index = ActionIndex(game.to_reference())
        board = (int(s[kids.SHORT]), *(int(x) for x in s[kids.SIDE_AT : kids.SIDE_AT + s[kids.SECTIONS_N]]))
        if board not in boards_seen:
            boards_seen.add(board)
            for c in range(-1, kids.COMPACT_COUNT + 1):
                try:
                    own = index.action(c).index
                except IllegalAction:
                    own = -1
                if kids.own_index(s, c) != own:
                    checked.differences.append(f"{where}: compact index {c} is {kids.own_index(s, c)}, not {own}")
        states, viewers, rows = [], [], []
        step = 0
        while True:
            ref = game.to_reference()
            for viewer in [*range(players), -1]:
                got = mine(s, viewer)
                want = observe(ref.view(None if viewer < 0 else viewer))
                checked.observations += 1
                if not np.array_equal(got, want):
                    checked.differences.append(f"{where} step {step} seat {viewer}: " + _where(name, got, want))
                states.append(s.copy())
                viewers.append(viewer)
                rows.append(got)
            n = kids.compact_legal_into(s, legal)
            checked.compact += 1
            expected = [] if ref.is_over else sorted(index.index(a) for a in ref.legal_actions())
            if legal[:n].tolist() != expected:
                checked.differences.append(f"{where} step {step}: the compact legal actions differ")
            elif any(kids.own_index(s, int(c)) != index.action(int(c)).index for c in legal[:n]):
                checked.differences.append(f"{where} step {step}: a compact index names another action")
            if step % REDEAL_EVERY == REDEAL_EVERY // 2:
                for seat in range(players):
                    twin = compiled.from_reference(ref.determinize(seat, random.Random(step)))
                    checked.redeals += 1
                    if not np.array_equal(mine(twin.state, seat), mine(s, seat)):
                        checked.differences.append(f"{where} step {step} seat {seat}: a redeal changes the observation")
            checked.steps += 1
            checked.decisions[ref.view(None)["decision"]] += 1
            if game.is_over:
                break
            moves = legal[:n][legal[:n] >= kids.MOVE_BASE]
            pick = moves if len(moves) and rng.random() < move_chance else legal[:n]
            game.step(kids.own_index(s, int(rng.choice(pick))))
            step += 1
        checked.ends["capped" if s[kids.CAPPED] else "the Palace"] += 1
        batch = np.full((len(states), kids.OBSERVATION_SIZE), np.nan, dtype=np.float32)
        kids.batch_observe(np.array(states), np.array(viewers, dtype=np.int64), batch)
        if not np.array_equal(batch, np.array(rows)):
            checked.differences.append(f"{where}: the batch differs")
    return checked


@njit
def _observe_many_kids(states: np.ndarray, viewers: np.ndarray, out: np.ndarray, calls: int) -> float:
    """``calls`` Kids observations, one state after another, into the same ``out``."""
    total = 0.0
    for c in range(calls):
        i = c % states.shape[0]
        kids.observe_into(states[i], viewers[i], out)
        total += out[c % 9]
    return total


def kids_speed(name: str, players: int, games: int) -> float:
    """Nanoseconds of one Kids ``observe_into``, measured as ``market_speed`` measures it (the three variants in
    turn)."""
    rng = np.random.default_rng(games)
    states = []
    for seed in range(games):
        options = KIDS_VARIANTS[seed % len(KIDS_VARIANTS)]
        game = compiled.new_game(name, players=players, seed=seed, max_turns=MAX_TURNS, **options)
        for _ in range(int(rng.integers(0, 120))):
            if game.is_over:
                break
            game.step(int(rng.choice(game.legal_indices())))
        states.append(game.state.copy())
    rows = np.array(states)
    viewers = np.arange(len(rows), dtype=np.int64) % players
    out = np.empty(kids.OBSERVATION_SIZE, dtype=np.float32)
    _observe_many_kids(rows, viewers, out, 10)  # compile
    calls, best = 500_000, float("inf")
    for _ in range(7):
        start = time.process_time()
        _observe_many_kids(rows, viewers, out, calls)
        best = min(best, time.process_time() - start)
    return best / calls * 1e9


# ----------------------------------------------------------------------------- the games

CHECKERS: dict[str, Callable[[str, int, range], Checked]] = {
    "classic": check_market,
    "pokemon": check_market,
    "kids": check_kids,
}
"""The checking function of each game: (game, players, game numbers) → what it checked."""
SPEEDS: dict[str, Callable[[str, int, int], float]] = {
    "classic": market_speed,
    "pokemon": market_speed,
    "kids": kids_speed,
}
"""The speed measurement of each game: (game, players, states cycled through) → nanoseconds per observation."""
SPEED_STATES = (16, 1024)


def _run(task: tuple[str, int, range]) -> Checked:
    name, players, numbers = task
    return CHECKERS[name](name, players, numbers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per game and player count")
    parser.add_argument("--only", nargs="*", default=list(CHECKERS), choices=list(CHECKERS))
    parser.add_argument("--players", nargs="*", type=int, default=list(PLAYERS), choices=PLAYERS)
    parser.add_argument("--jobs", type=int, default=1, help="processes checking at once")
    parser.add_argument("--speed", action="store_true", help="print the nanoseconds of one observation instead")
    args = parser.parse_args()
    if args.speed:
        for name in args.only:
            for players in args.players:
                speeds = [f"{SPEEDS[name](name, players, n):.0f} ns over {n:,} states" for n in SPEED_STATES]
                print(f"{name} {players} players: one observation {', '.join(speeds)}", flush=True)
        return
    differ = 0
    began = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for name in args.only:
            for players in args.players:
                start = time.perf_counter()
                share = -(-args.games // args.jobs)
                tasks = [(name, players, range(i, min(i + share, args.games))) for i in range(0, args.games, share)]
                checked = Checked()
                for part in pool.map(_run, tasks):
                    checked.add(part)
                ends = ", ".join(f"{n} {how}" for how, n in sorted(checked.ends.items()))
                decisions = ", ".join(f"{n:,} {what}" for what, n in sorted(checked.decisions.items()))
                print(
                    f"{name} {players} players: {args.games} games ({ends}), {checked.steps:,} steps ({decisions}), "
                    f"{checked.observations:,} observations"
                    + (f", {checked.compact:,} compact legal action lists" if checked.compact else "")
                    + f" and {checked.redeals:,} redeals checked, "
                    f"{len(checked.differences)} differ, {time.perf_counter() - start:.0f} s",
                    flush=True,
                )
                for line in checked.differences[:SHOWN]:
                    print("  " + line)
                differ += len(checked.differences)
    print(f"all: {differ} differences, {time.perf_counter() - began:.0f} s")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
