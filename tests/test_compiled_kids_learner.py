"""Splendor Kids for learners in compiled code is the Python one, exactly: at every step of games played by the
compiled engine, every seat's observation (``observe_into``) is bit for bit ``observe(game.view(seat))``, the
compact legal actions are ``ActionIndex``'s, and each compact index names the same action of the game's own index;
the observation shows nothing hidden (a redeal of the City stack and the face-down Village tiles leaves it as it
was). A short run here; ``benchmarks/same_observations.py --only kids --games N`` plays it long."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import splendor.compiled as compiled
from splendor.compiled import kids as k
from splendor.compiled.kids.observe import ROADS_AT, SEATS_AT, SPACES_AT
from splendor.core.errors import IllegalAction
from splendor.envs.actions import ActionIndex
from splendor.envs.observe import layout, observe, size
from splendor.search.kids_compiled import determinize_into

VARIANTS: dict[str, dict[str, Any]] = {"plain": {}, "short": {"short": True}, "mysteries": {"mysteries": True}}
MYSTERIES_SEEDS = {2: 221, 3: 307, 4: 403}
"""Games of the Mysteries whose random play meets the Marketplace, the Thief and a Drought; between them they turn
up every kind of Village tile (the Queen's Gem held in two)."""
GARBAGE = np.float32(np.nan)  # what a buffer holds before an observation is written: a value left unwritten shows


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal bit for bit (so -0.0 and 0.0 differ, and a NaN left unwritten is caught)."""
    same_kind = a.dtype == b.dtype == np.float32 and a.shape == b.shape
    return same_kind and bool((a.view(np.uint32) == b.view(np.uint32)).all())


def check_every_compact_index(s: np.ndarray, index: ActionIndex) -> None:
    """Every integer of the compact index, and some beyond it, turn into the game's own index as ``ActionIndex``
    turns them (-1 exactly where it refuses one)."""
    for c in [-5, -1, *range(k.COMPACT_COUNT), k.COMPACT_COUNT, k.COMPACT_COUNT + 7]:
        try:
            expected = index.action(c).index
        except IllegalAction:
            expected = -1
        assert k.own_index(s, c) == expected, c


def play_and_compare(
    players: int, seed: int, options: dict[str, Any], max_turns: int | None = None, every_index: bool = False
) -> set[str]:
    """Play one game with the compiled engine by random legal actions (a seeded numpy Generator) and compare at
    every step, the ended state included (with ``every_index``, every compact index on its board too); returns
    the decisions met, to show what the games covered."""
    game = compiled.new_game(
        "kids", players=players, seed=seed, max_turns=max_turns, first_player=seed % players, **options
    )
    s = game.state
    rng, pick_viewer = np.random.default_rng(seed), np.random.default_rng(seed + 1)
    out = np.empty(k.OBSERVATION_SIZE + 3, dtype=np.float32)
    own = np.empty(k.MAX_LEGAL, dtype=np.int64)
    legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
    seen: set[str] = set()
    rows: list[np.ndarray] = []
    viewers: list[int] = []
    expected_rows: list[np.ndarray] = []
    index = ActionIndex(game.to_reference())
    if every_index:
        check_every_compact_index(s, index)
    while True:
        reference = game.to_reference()
        step = int(k.phase(s))
        seen.add("action" if step == k.ACTION else k.STEP_NAMES[step])
        viewers.append(int(pick_viewer.integers(players)))
        for seat in [*range(players), *([None] if len(rows) % 7 == 0 else [])]:
            out[:] = GARBAGE
            k.observe_into(s, -1 if seat is None else seat, out)
            expected = observe(reference.view(seat))
            assert same_bits(out[: k.OBSERVATION_SIZE], expected), (reference.record, seat)
            assert np.isnan(out[k.OBSERVATION_SIZE :]).all()  # nothing written past the vector
            if seat == viewers[-1]:
                expected_rows.append(expected)
        rows.append(s.copy())
        n = k.compact_legal_into(s, legal)
        assert legal[:n].tolist() == (
            [] if reference.is_over else sorted(index.index(a) for a in reference.legal_actions())
        ), reference.record
        for c in legal[:n]:
            assert k.own_index(s, int(c)) == index.action(int(c)).index
        if reference.is_over:
            break
        m = k.legal_into(s, own)
        assert n == m
        k.step(s, int(own[rng.integers(m)]))
    batch = np.full((len(rows), k.OBSERVATION_SIZE), GARBAGE, dtype=np.float32)
    k.batch_observe(np.array(rows), np.array(viewers, dtype=np.int64), batch)
    for row, expected in zip(batch, expected_rows, strict=True):
        assert same_bits(row, expected)
    if reference.truncated:
        seen.add("capped")
    return seen


def test_the_compiled_layout_is_the_documented_one() -> None:
    starts, at = {}, 0
    for field in layout("kids"):
        starts[field.name] = at
        at += field.size
    assert k.OBSERVATION_SIZE == size("kids") == at
    assert (starts["space_0"], starts["road_1"], starts["seat_0_at"]) == (SPACES_AT, ROADS_AT, SEATS_AT)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_observations_and_compact_actions_equal_the_reference_at_every_step(players: int, variant: str) -> None:
    seed = MYSTERIES_SEEDS[players] if variant == "mysteries" else 100 * players
    seen = play_and_compare(players, seed, VARIANTS[variant], every_index=True)
    seen |= play_and_compare(players, 7, VARIANTS[variant], max_turns=4 * players)
    assert {"action", "return", "medal", "over", "capped"} <= seen, seen
    if variant == "mysteries":
        assert {"city", "thief", "drought"} <= seen, seen


def test_on_a_chosen_or_transcribed_board_too() -> None:
    from splendor.games.kids.board import side_data

    transcribed = [dict(side_data("A1-front"), title="Copied"), "A2-back", "A3-front"]
    for board in (["A1-back", "A2-front", "A3-back"], transcribed):
        assert "over" in play_and_compare(3, 5, {"mysteries": True, "board": board}, max_turns=12, every_index=True)


def test_a_redeal_of_what_is_hidden_leaves_every_seat_s_observation_as_it_was() -> None:
    rng = np.random.default_rng(3)
    deal = np.empty(1, dtype=np.uint64)
    deal[0] = np.uint64(11)
    legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
    seen, here = np.empty(k.OBSERVATION_SIZE, np.float32), np.empty(k.OBSERVATION_SIZE, np.float32)
    redealt = np.empty(k.STATE_SIZE, dtype=np.int64)
    pool = np.empty(k.VILLAGE_ROOM, dtype=np.int64)
    changed = 0
    for players in (2, 3, 4):
        game = compiled.new_game("kids", players=players, seed=players, mysteries=True)
        s = game.state
        while k.phase(s) != k.OVER:
            for _ in range(3):
                determinize_into(s, deal, redealt, pool)
                changed += int(not np.array_equal(redealt, s))
                for seat in range(players):
                    k.observe_into(s, seat, seen)
                    k.observe_into(redealt, seat, here)
                    assert same_bits(seen, here)
            n = k.legal_into(s, legal)
            k.step(s, int(legal[rng.integers(n)]))
    assert changed > 100  # the redeals did deal something else
