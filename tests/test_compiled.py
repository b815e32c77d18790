"""The compiled engine is the reference engine, faster: the same deals, the same legal actions and the same state
after every action, compared side by side (a short run here; ``benchmarks/compiled.py --compare`` runs it long)."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import splendor
import splendor.compiled as compiled
from splendor.bots import decide, make_bot
from splendor.core.actions import Action
from splendor.core.game import Game

Policy = Callable[[Game, list[Action], random.Random], Action]


def uniform(game: Game, legal: list[Action], rng: random.Random) -> Action:
    return legal[rng.randrange(len(legal))]


def buy_first(game: Game, legal: list[Action], rng: random.Random) -> Action:
    buys = [a for a in legal if a.kind in ("buy", "buy_reserved", "evolve", "move")]
    return (buys or legal)[rng.randrange(len(buys or legal))]


def compare(reference: Game, policy: Policy, rng: random.Random, steps: int = 10_000) -> int:
    """Play ``reference`` on by ``policy`` while a compiled twin follows; assert that they agree at every step
    (legal actions, the whole state, the outcome). Returns the steps compared."""
    fast = compiled.from_reference(reference)
    assert fast.to_reference().to_json() == reference.to_json()
    n = 0
    while not reference.is_over and n < steps:
        legal = reference.legal_actions()
        assert np.flatnonzero(fast.legal_mask()).tolist() == [a.index for a in legal], reference.record
        action = policy(reference, legal, rng)
        reference.apply(action)
        fast.step(action.index)
        assert fast.to_reference().to_json() == reference.to_json(), reference.record
        n += 1
    assert fast.is_over == reference.is_over and fast.winners == reference.winners
    assert fast.scores == reference.scores and fast.current_player == reference.current_player
    return n


GAMES = compiled.COVERED
KIDS_VARIANTS: list[dict[str, object]] = [{}, {"mysteries": True}, {"short": True}]


def variants(name: str, seed: int) -> dict[str, object]:
    """The options of a game to compare: Kids turns through the full game, the Mysteries and the short game."""
    return KIDS_VARIANTS[seed % 3] if name == "kids" else {}


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("first_player", [0, "random"])
def test_a_compiled_game_is_dealt_exactly_as_the_reference_deals_it(
    name: str, players: int, first_player: int | str
) -> None:
    for seed in [0, 1, 2**40 + 7, 2**62 + 5] + list(range(3, 30)):
        options = variants(name, seed)
        reference = splendor.new_game(name, players=players, seed=seed, first_player=first_player, **options)
        fast = compiled.new_game(name, players=players, seed=seed, first_player=first_player, **options)
        assert fast.to_reference().to_json() == reference.to_json()


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("policy", [uniform, buy_first], ids=["random", "buyfirst"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_and_buy_first_games_agree_at_every_step(name: str, policy: Policy, players: int) -> None:
    steps = sum(
        compare(
            splendor.new_game(name, players=players, seed=seed, **variants(name, seed)), policy, random.Random(seed)
        )
        for seed in range(20)
    )
    assert steps > 20 * 20  # whole games: 20 decisions each at the very least


@pytest.mark.parametrize("name", GAMES)
def test_greedy_bots_games_agree_at_every_step(name: str) -> None:
    for seed in range(5):
        bots = [make_bot("greedy", seed=seed * 10 + s) for s in range(3)]

        def greedy(game: Game, legal: list[Action], rng: random.Random) -> Action:
            return decide(bots[game.current_player], game)  # type: ignore[index]  # noqa: B023 (used in this round only)

        compare(splendor.new_game(name, players=3, seed=seed, **variants(name, seed)), greedy, random.Random(seed))


def test_pokemon_evolutions_are_offered_and_made_the_same_way() -> None:
    evolutions = 0
    for seed in range(40):
        reference = splendor.new_game("pokemon", players=2, seed=seed)
        compare(reference, buy_first, random.Random(seed))
        evolutions += sum(1 for a in reference.history if a.kind == "evolve")
    assert evolutions > 20  # the comparison did meet evolutions, from the display and the hand


def test_a_deck_reserved_card_that_might_be_an_evolution_asks_to_evolve_the_same_way() -> None:
    """Ruling 5: a seat holding a hidden card of the level its ready Pokémon evolves into is asked whether to evolve,
    whatever the card is (tests/pokemon/test_rulings.py)."""
    from splendor.games.pokemon.cards import CARDS
    from tests.pokemon.test_rulings import ready_bulbasaur

    def reserve_first(game: Game, legal: list[Action], rng: random.Random) -> Action:
        wanted = [a for a in legal if a.text == "reserve deck 2"] if game.history == [] else []
        return (wanted or legal)[rng.randrange(len(wanted or legal))]

    for on_top in (
        next(c.id for c in CARDS if c.name == "Ivysaur"),
        next(c.id for c in CARDS if c.row == 1 and c.name != "Ivysaur"),
    ):
        for seed in range(3):
            reference = ready_bulbasaur(on_top)
            compare(reference, reserve_first, random.Random(seed), steps=40)
            assert reference.history[1].kind.startswith("evolve")


@pytest.mark.parametrize("name", GAMES)
def test_turn_caps_and_stalls_end_the_same_way(name: str) -> None:
    for seed in range(10):
        compare(
            splendor.new_game(name, players=2, seed=seed, max_turns=7 + seed, **variants(name, seed)),
            uniform,
            random.Random(seed),
        )
    if name != "classic":
        return
    from tests.classic.positions import new
    from tests.classic.test_rulings import _stuck, _stuck_with_a_noble_due, _stuck_with_three_nobles_due

    stuck = new(2)
    _stuck(stuck)
    compare(stuck, uniform, random.Random(0))
    assert stuck.status == "stalled"
    won = new(2)
    _stuck_with_a_noble_due(won)
    compare(won, uniform, random.Random(0))
    assert won.winners == [0]
    later = new(2)
    _stuck_with_three_nobles_due(later)
    compare(later, uniform, random.Random(0))
    assert later.winners == [0]


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(GAMES),
    seed=st.integers(0, 2**62),
    players=st.integers(2, 4),
    prefix=st.integers(0, 150),
    cap=st.none() | st.integers(1, 60),
)
def test_from_any_reachable_state_the_engines_agree(
    name: str, seed: int, players: int, prefix: int, cap: int | None
) -> None:
    reference = splendor.new_game(
        name, players=players, seed=seed, max_turns=cap, first_player="random", **variants(name, seed)
    )
    rng = random.Random(seed)
    for _ in range(prefix):
        if reference.is_over:
            break
        reference.apply(buy_first(reference, reference.legal_actions(), rng))
    compare(reference, uniform, rng, steps=40)


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_index_is_refused_and_changes_nothing(name: str) -> None:
    fast = compiled.new_game(name, players=2, seed=3)
    before = fast.state.copy()
    for index in (45, 60, 68, fast.num_actions - 1, -1, fast.num_actions, 10**9, True):
        with pytest.raises(splendor.IllegalAction):
            fast.step(index)  # type: ignore[arg-type]
    assert np.array_equal(fast.state, before) and fast.history == []


def test_a_clone_is_independent() -> None:
    fast = compiled.new_game("classic", players=2, seed=3)
    twin = fast.clone()
    twin.step(0)
    assert fast.history == [] and not np.array_equal(fast.state, twin.state)


@pytest.mark.parametrize("name", GAMES)
def test_playouts_are_deterministic_and_play_whole_games(name: str) -> None:
    for policy in compiled.POLICIES:
        a = compiled.playouts(name, players=3, games=50, seed=9, policy=policy)
        assert a == compiled.playouts(name, players=3, games=50, seed=9, policy=policy)
        assert 50 * 20 < a < 50 * 2000
    assert compiled.playouts(name, players=2, games=20, seed=1, max_turns=4) <= 20 * 4 * 6


def test_bad_requests_are_a_clear_error() -> None:
    with pytest.raises(ValueError, match="plays classic, pokemon, kids, not 'chess'"):
        compiled.playouts("chess")
    with pytest.raises(ValueError, match="policy"):
        compiled.playouts("classic", policy="smart")
    with pytest.raises(ValueError, match="cannot be short"):
        compiled.playouts("kids", short=True, mysteries=True)
    with pytest.raises(ValueError, match="give no board"):
        compiled.playouts("kids", board=["A1-front", "A2-front", "A3-back"])


def test_kids_on_a_chosen_or_transcribed_board_plays_as_the_reference() -> None:
    from splendor.games.kids.board import side_data

    chosen = ["A1-back", "A2-front", "A3-back"]
    transcribed = [dict(side_data("A1-front"), title="Copied")] + ["A2-back", "A3-front"]
    for board in (chosen, transcribed):
        for seed in range(4):
            reference = splendor.new_game("kids", players=3, seed=seed, mysteries=True, board=board)
            assert (
                compiled.new_game("kids", players=3, seed=seed, mysteries=True, board=board).to_reference().to_json()
                == reference.to_json()
            )
            compare(reference, buy_first, random.Random(seed))


def test_kids_legal_moves_fill_the_room_a_board_may_ask_and_agree_with_the_reference() -> None:
    # Six roads of all five colours from one space: the most a checked board may offer (board.MOVES_ROOM).
    from splendor.games.kids.board import MOVES_ROOM, RESOURCES, parse_side
    from tests.kids.positions import TEST_A1, give_tiles, give_tokens, with_rainbow_roads

    board = [parse_side(TEST_A1), parse_side(with_rainbow_roads(6))]
    reference = splendor.new_game("kids", players=2, seed=1, short=True, board=board)
    reference.space[0] = "A3.gate"
    give_tokens(reference, 0, black=1, red=1, green=1, brown=1, blue=1, gold=3)  # type: ignore[arg-type]
    give_tiles(reference, 0, active=tuple(RESOURCES))  # type: ignore[arg-type]
    legal = [a.index for a in reference.legal_actions()]
    assert 1000 < len(legal) <= MOVES_ROOM
    assert compiled.from_reference(reference).legal_indices().tolist() == legal


def test_kids_villages_city_tiles_and_medals_are_met_in_the_comparison() -> None:
    """The comparison reaches every Mysteries tile, the Marketplace, the Thief's gift, a Drought's discards and
    the Medals, not only takes and moves."""
    kinds: set[str] = set()
    for seed in range(40):
        reference = splendor.new_game("kids", players=3, seed=seed, mysteries=True)
        compare(reference, buy_first, random.Random(seed))
        kinds.update(a.kind for a in reference.history)
        kinds.update(f"tile:{t}" for t in reference.flipped.values())  # type: ignore[attr-defined]
    assert {"give", "discard", "return", "city_stack", "city_market", "medal"} <= kinds
    assert {"tile:tornado", "tile:treasure", "tile:drought", "tile:thief", "tile:queens_gem"} <= kinds


@pytest.mark.parametrize("name", GAMES)
def test_a_batch_plays_each_of_its_games_exactly_as_a_single_game(name: str) -> None:
    seeds = list(range(100, 116))
    options = {"mysteries": True} if name == "kids" else {}
    batch = compiled.Batch(name, games=16, players=3, **options)
    batch.reset(seeds)
    singles = [compiled.new_game(name, players=3, seed=s, **options) for s in seeds]
    rng = random.Random(5)
    while not batch.over().all():
        masks = batch.masks()
        actions = []
        for game, mask in zip(singles, masks):
            assert np.array_equal(mask, game.legal_mask())
            legal = np.flatnonzero(mask)
            actions.append(int(legal[rng.randrange(len(legal))]) if len(legal) and rng.random() < 0.9 else -1)
        batch.step(actions)
        for game, action in zip(singles, actions):
            if action >= 0:
                game.step(action)
        for i, game in enumerate(singles):
            assert np.array_equal(batch.states[i], game.state)
    before = batch.states.copy()
    with pytest.raises(splendor.IllegalAction, match="game 0"):
        batch.step([0] * 16)
    assert np.array_equal(batch.states, before)


def test_a_step_never_trusts_a_mask_of_an_earlier_state() -> None:
    game, rng, checked = compiled.new_game("pokemon", players=2, seed=11), random.Random(3), 0
    while not game.is_over and checked < 20:
        before = game.legal_mask()
        game.step(int(rng.choice(np.flatnonzero(before))))
        now = game.clone().legal_mask()
        stale = np.flatnonzero(before & ~now)
        if len(stale):
            with pytest.raises(splendor.IllegalAction):
                game.step(int(stale[0]))
            checked += 1
    assert checked == 20
