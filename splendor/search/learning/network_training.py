"""Training the policy and value network by self-play (classic and Pokémon): ``splendor train-network``.

Expert iteration as AlphaZero does it, on the compiled engine: the expert plays itself (generation 1 with its
learned evaluation and the kinds' priors; each later generation guided by the network trained so far); at every
decision with a choice, in the main turn or in giving tokens back, the position's inputs (``network.inputs_into``,
from the seat to move) are kept with the share of the search's visits each action received (the policy's target)
and, once the game ends, every seat's share of the win (the value's target). PyTorch fits the network to all the
games so far (``fit_network``): cross-entropy of the policy's softmax over the legal actions against the visit
shares, plus cross-entropy of the value's softmax over the seats against the result. Each generation ends with a
match of the expert guided by the new network against today's expert (equal iterations, each deal from both
seats): its score and the held-out losses make the learning curve.

Everything is seeded: the same command gives the same games, and the same network up to floating-point noise
between machines (PyTorch runs deterministically, on one thread). A run keeps each generation's games in its
folder (``--run``), so a run stopped midway goes on where it stopped when started again with the same command.
PyTorch is needed here only: ``pip install 'splendor[learn]'``. The fit runs on the CPU unless a GPU is asked for
(``--device cuda``, or ``auto``: the GPU when PyTorch sees one); on a GPU it gives the same network up to
floating-point noise, not bit for bit, so the shipped networks are fitted on the CPU.

    splendor train-network --game classic --generations 2 --games 200 --iterations 4000 --seed 1
"""

from __future__ import annotations

import copy
import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from splendor.compiled import market as m
from splendor.compiled import new_game
from splendor.core.workers import ONE_PROCESS, Workers, spread
from splendor.search.learning import network as nn
from splendor.search.learning.features import FEATURE_COUNT, FEATURES
from splendor.search.learning.policy import NO_POLICY
from splendor.search.learning.policy_training import expert_searcher
from splendor.search.learning.training import GAMES, choose, learned_weights, match, searched

NETWORK_MIX = 0.5
"""The share of a value that is the network's value of the new leaf, the rest the playout's end (``Settings.mix``),
in self-play and matches with a network."""

ROUNDS = 60
"""The rounds after which a self-play game is stopped (ruling 4's turn cap; a game of the expert lasts about 30):
a network that has not learned yet can lead the search into taking and giving back tokens forever. A stopped game
names no winner, and its decisions are left out of the data."""

SEARCHED_SHARE = 0.5
"""How much of a position's value target is the search's own estimate of it, the rest the game's result (as
AlphaZero's successors mix a bootstrapped value with the outcome): every position of a game shares one result,
so a network fitted to results alone learns each game by heart from a few hundred games; the search's estimate
differs from position to position. The seat to move's share is its root value (the visits' mean); the others
share the rest in proportion to their results (evenly where those are all 0)."""

PROBE_ROWS = 8
"""Positions kept in a network's file with the trainer's outputs on them (``network.Loaded.probe``)."""

PARTS = 8
"""The parts a generation's games are dealt into, for the processes to share: a fixed number, so that the games
come back in the same order, and the same network is fitted, whatever the number of processes."""

PATIENCE = 3
"""Epochs without a better held-out loss after which a fit stops (and keeps its best epoch's weights)."""

DEVICES = ("cpu", "cuda", "auto")
"""Where a fit may run: the CPU (the default, and the shipped networks'), the GPU, or the GPU when one is present."""


def fitting_device(asked: str) -> str:
    """The PyTorch device a fit runs on, for ``asked`` (one of ``DEVICES``): ``auto`` is ``cuda`` when PyTorch sees
    a GPU and ``cpu`` otherwise; `ValueError` for ``cuda`` where there is none, or for a name not in ``DEVICES``.

    >>> fitting_device("cpu")
    'cpu'
    """
    if asked not in DEVICES:
        raise ValueError(f"unknown device {asked!r}; a fit runs on {', '.join(DEVICES)}")
    if asked == "cpu":
        return "cpu"
    import torch

    if torch.cuda.is_available():
        return "cuda"
    if asked == "cuda":
        raise ValueError("--device cuda: PyTorch sees no GPU here (torch.cuda.is_available() is false)")
    return "cpu"


@dataclass
class Samples:
    """Decisions of self-play: the inputs from the seat to move, the legal actions, the visit shares (by action),
    every seat's share of the win from the seat to move round the table (padded to four), and the search's value
    of the position for the seat to move (the root's visits' mean value: with three or four players the search
    values each seat by its share of every seat's progress, ``Settings.shares``, so that it is a share of the win
    as the value head's are). ``stopped``: the games stopped at the
    turn cap, left out."""

    inputs: list[np.ndarray] = field(default_factory=list)
    legal: list[np.ndarray] = field(default_factory=list)
    visits: list[np.ndarray] = field(default_factory=list)
    values: list[np.ndarray] = field(default_factory=list)
    searched: list[float] = field(default_factory=list)
    stopped: int = 0

    def extend(self, other: Samples) -> None:
        self.inputs += other.inputs
        self.legal += other.legal
        self.visits += other.visits
        self.values += other.values
        self.searched += other.searched
        self.stopped += other.stopped

    def __len__(self) -> int:
        return len(self.inputs)

    def arrays(self) -> dict[str, np.ndarray]:
        """The samples stacked, as ``save`` writes them."""
        return {
            "inputs": np.array(self.inputs, dtype=np.float32),
            "legal": np.array(self.legal, dtype=np.bool_),
            "visits": np.array(self.visits, dtype=np.float32),
            "values": np.array(self.values, dtype=np.float32),
            "searched": np.array(self.searched, dtype=np.float32),
        }

    def save(self, path: Path) -> None:
        with nn.written(path) as out:  # whole or not at all: a stopped run goes on from its last whole file
            np.savez_compressed(out, allow_pickle=False, stopped=np.array(self.stopped), **self.arrays())

    @classmethod
    def load(cls, path: Path) -> Samples:
        with np.load(path, allow_pickle=False) as data:
            inputs, legal, visits, values = (list(data[name]) for name in ("inputs", "legal", "visits", "values"))
            return cls(inputs, legal, visits, values, [float(v) for v in data["searched"]], int(data["stopped"]))


def play(game: str, players: int, seed: int, searcher: dict[str, Any], sampled_moves: int, record: Samples) -> None:
    """Play one game of ``players`` dealt from ``seed``, every seat searching with ``searcher`` (keyword arguments
    of ``training.searched``), the first ``sampled_moves`` main decisions of each seat drawn in proportion to the
    visits; every decision with a choice in the main turn or in giving tokens back is added to ``record``."""
    fast = new_game(game, players=players, seed=seed, max_turns=ROUNDS * players)
    rng = np.random.default_rng(seed)
    state = fast.state
    kind = int(state[m.KIND])
    actions = int(m.ACTION_COUNT[kind])
    observation = np.zeros(nn.OBSERVATION_ROOM, dtype=np.float32)
    seat_features = np.zeros(FEATURE_COUNT)
    inputs = np.zeros(nn.INPUT_ROOM)
    taken: list[tuple[int, np.ndarray, np.ndarray, np.ndarray, float]] = []
    main_moves = [0] * players
    while not fast.is_over:
        legal = fast.legal_indices()
        if len(legal) == 1:
            fast.step(int(legal[0]))
            continue
        seat, phase = int(state[m.SEAT]), state[m.PHASE]
        found, _ = searched(state, seat, int(rng.integers(1 << 62)), **searcher)
        if phase in (m.MAIN, m.RETURN_PHASE):
            visits = np.zeros(actions, dtype=np.float32)
            worth = 0.0
            for a, (n, q) in found.items():
                visits[a] = n
                worth += n * q
            if visits.sum() > 0:
                mask = np.zeros(actions, dtype=np.bool_)
                mask[legal] = True
                nn.inputs_into(state, seat, observation, seat_features, inputs)
                x = inputs[: nn.INPUT_SIZE[kind]].astype(np.float32)
                taken.append((seat, x, mask, visits / visits.sum(), worth / float(visits.sum())))
        main = phase == m.MAIN
        action = choose(found, rng, main and main_moves[seat] < sampled_moves)
        main_moves[seat] += main
        fast.step(action)
    winners = fast.winners
    if not winners:  # stopped at the cap, or stalled (ruling 4)
        record.stopped += 1
        return
    shares = [(1.0 / len(winners) if p in winners else 0.0) if winners else 1.0 / players for p in range(players)]
    for seat, x, mask, visits, worth in taken:
        value = np.zeros(m.MAX_SEATS, dtype=np.float32)
        for k in range(players):
            value[k] = shares[(seat + k) % players]
        record.inputs.append(x)
        record.legal.append(mask)
        record.visits.append(visits)
        record.values.append(value)
        record.searched.append(worth)


def _self_play_chunk(args: tuple[str, int, list[int], dict[str, Any], int]) -> Samples:
    game, players, seeds, searcher, sampled = args
    out = Samples()
    for seed in seeds:
        play(game, players, seed, searcher, sampled, out)
    return out


def _model(inputs: int, units: int, deep: int, actions: int) -> Any:
    """The network's layers in PyTorch, by name (``hidden``, ``deep``, ``value``, ``policy``); ``_forward``
    runs them. A dictionary of modules, not a subclass, so that the module types without PyTorch installed."""
    from torch import nn as tnn

    return tnn.ModuleDict(
        {
            "hidden": tnn.Linear(inputs, units),
            "deep": tnn.Linear(units, deep),
            "value": tnn.Linear(deep, m.MAX_SEATS),
            "policy": tnn.Linear(deep, actions),
        }
    )


def _forward(model: Any, inputs: Any, mean: Any, std: Any, progress: Any = None) -> tuple[Any, Any]:
    """The value and policy logits of ``model`` (``_model``) on ``inputs``, standardised by ``mean`` and ``std``;
    with ``progress`` (the learned evaluation's weights, 2 × features), each seat's learned progress is added to
    its value logit, as ``network.forward_into`` adds it."""
    import torch

    h = torch.relu(model["deep"](torch.relu(model["hidden"]((inputs - mean) / std))))
    value = model["value"](h)
    if progress is not None:
        stage = inputs[:, -1:]
        weights = progress[0][None, :] + progress[1][None, :] * stage
        seats = inputs[:, -1 - m.MAX_SEATS * FEATURE_COUNT : -1].reshape(-1, m.MAX_SEATS, FEATURE_COUNT)
        value = value + (seats * weights[:, None, :]).sum(dim=2)
    return value, model["policy"](h)


def _losses(model: Any, batch: dict[str, Any], mean: Any, std: Any, progress: Any = None) -> tuple[Any, Any]:
    """The mean policy and value cross-entropies of ``model`` on ``batch`` (tensors)."""
    import torch

    value_logits, policy_logits = _forward(model, batch["inputs"], mean, std, progress)
    policy_logits = policy_logits.masked_fill(~batch["legal"], -1e9)
    policy = -(batch["visits"] * torch.log_softmax(policy_logits, dim=1)).sum(dim=1).mean()
    value_logits = value_logits.masked_fill(~batch["present"], -1e9)
    value = -(batch["values"] * torch.log_softmax(value_logits, dim=1)).sum(dim=1).mean()
    return policy, value


def _tensors(samples: Samples, device: str) -> dict[str, Any]:
    import torch

    arrays = samples.arrays()
    players = arrays["inputs"][:, :3].argmax(axis=1) + 2  # the observation's players one-hot
    present = np.arange(m.MAX_SEATS)[None, :] < players[:, None]
    arrays["values"] = value_targets(arrays["values"], arrays["searched"], present)
    out = {name: torch.from_numpy(a).to(device) for name, a in arrays.items() if name != "searched"}
    out["present"] = torch.from_numpy(present).to(device)
    return out


def value_targets(results: np.ndarray, searched: np.ndarray, present: np.ndarray) -> np.ndarray:
    """The value head's targets: ``SEARCHED_SHARE`` of the search's estimate, the rest the ``results`` (rows from
    the seat to move round the table). The estimate gives the seat to move its root value and the other seats
    present the rest, in proportion to their results (evenly where those are all 0).

    >>> value_targets(np.array([[0.0, 1, 0, 0]]), np.array([0.6]), np.array([[True, True, False, False]]))
    array([[0.3, 0.7, 0. , 0. ]], dtype=float32)
    """
    others = results.copy()
    others[:, 0] = 0.0
    others[~present] = 0.0
    total = others.sum(axis=1, keepdims=True)
    even = (present & (np.arange(m.MAX_SEATS) > 0)).astype(np.float64)
    even /= even.sum(axis=1, keepdims=True)
    split = np.where(total > 0, others / np.where(total > 0, total, 1.0), even)
    estimate = split * (1.0 - searched[:, None])
    estimate[:, 0] = searched
    targets: np.ndarray = (SEARCHED_SHARE * estimate + (1.0 - SEARCHED_SHARE) * results).astype(np.float32)
    return targets


def fit_network(
    samples: Samples,
    held_out: Samples,
    kind: int,
    seed: int,
    units: int = 256,
    deep: int = 128,
    epochs: int = 30,
    batch: int = 256,
    report: Callable[[str], None] = print,
    progress: np.ndarray | None = None,
    device: str = "cpu",
) -> tuple[nn.Network, dict[str, float], np.ndarray, np.ndarray]:
    """Fit a network to ``samples`` with PyTorch (AdamW, on one thread, deterministic from ``seed``), keeping the
    epoch with the lowest held-out loss (``PATIENCE``); returns it in the compiled layout (the inputs'
    standardisation folded into its first layer), its held-out losses and epoch, and held-out inputs with
    PyTorch's outputs on them (value logits then policy logits), for the file's probe. With ``progress`` (the
    learned evaluation's weights) the value starts from the learned evaluation (``network.Network.progress``):
    its head starts at zero, so that the first epoch starts from that evaluation, and learns a correction.
    ``device``: one of ``DEVICES`` (``fitting_device``); the batches are drawn in the same order on every device."""
    if not len(samples) or not len(held_out):
        raise ValueError("no decisions to fit the network to")
    where = fitting_device(device)
    if where == "cuda":  # cuBLAS is deterministic only with a fixed workspace, set before it starts
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    data, test = _tensors(samples, where), _tensors(held_out, where)
    mean = data["inputs"].mean(dim=0)
    std = data["inputs"].std(dim=0).clamp_min(0.1)  # an input nearly constant in the games is not blown up
    actions = int(m.ACTION_COUNT[kind])
    model = _model(int(nn.INPUT_SIZE[kind]), units, deep, actions).to(where)  # made on the CPU: same start
    fixed = None if progress is None else torch.tensor(progress, dtype=torch.float32, device=where)
    if fixed is not None:
        torch.nn.init.zeros_(model["value"].weight)
        torch.nn.init.zeros_(model["value"].bias)
    optimiser = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-2)
    count = len(samples)
    generator = torch.Generator().manual_seed(seed)
    best, best_epoch, best_state = math.inf, 0, copy.deepcopy(model.state_dict())
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(count, generator=generator).to(where)  # drawn on the CPU: same order
        for start in range(0, count, batch):
            rows = order[start : start + batch]
            policy, value = _losses(model, {k: v[rows] for k, v in data.items()}, mean, std, fixed)
            optimiser.zero_grad()
            (policy + value).backward()
            optimiser.step()
        model.eval()
        with torch.no_grad():
            policy, value = _losses(model, test, mean, std, fixed)
        losses = {"policy_loss": round(float(policy), 4), "value_loss": round(float(value), 4)}
        report(json.dumps({"epoch": epoch + 1, **losses}))
        if float(policy + value) < best:
            best, best_epoch, best_state = float(policy + value), epoch + 1, copy.deepcopy(model.state_dict())
        elif epoch + 1 - best_epoch >= PATIENCE:
            break
    model.load_state_dict(best_state)  # the epoch that did best on the held-out games
    model.eval()
    model.cpu()  # the file's weights and probe are read on the CPU, as the compiled search reads them
    test = {name: tensor.cpu() for name, tensor in test.items()}
    mean, std = mean.cpu(), std.cpu()
    fixed = None if fixed is None else fixed.cpu()
    with torch.no_grad():
        policy, value = _losses(model, test, mean, std, fixed)
        probe = test["inputs"][:PROBE_ROWS]
        value_logits, policy_logits = _forward(model, probe, mean, std, fixed)
        outputs = torch.cat([value_logits, policy_logits], dim=1).numpy()
        # the standardisation folded in: W·((x − mean)/std) + b = (W/std)·x + (b − (W/std)·mean)
        hidden = (model["hidden"].weight / std).double()
        hidden_bias = model["hidden"].bias.double() - hidden @ mean.double()
        net = nn.Network(  # folded in float64, then float32 as it is evaluated
            hidden.T.contiguous().numpy(),
            hidden_bias.numpy(),
            model["deep"].weight.double().T.contiguous().numpy(),
            model["deep"].bias.double().numpy(),
            model["value"].weight.double().T.contiguous().numpy(),
            model["value"].bias.double().numpy(),
            model["policy"].weight.double().T.contiguous().numpy(),
            model["policy"].bias.double().numpy(),
            np.zeros((0, 0)) if progress is None else np.asarray(progress, dtype=np.float64),
        )
        net = nn.as_compiled(net)
    losses = {"policy_loss": round(float(policy), 4), "value_loss": round(float(value), 4), "epoch": best_epoch}
    return net, losses, probe.numpy(), outputs


def _self_play(
    game: str, players: int, seeds: list[int], searcher: dict[str, Any], sampled: int, workers: Workers
) -> Samples:
    chunks = [(game, players, seeds[i::PARTS], searcher, sampled) for i in range(PARTS)]
    out = Samples()
    for part in spread(_self_play_chunk, chunks, workers):
        out.extend(part)
    return out


def train_network(
    game: str,
    run: Path,
    generations: int = 2,
    games: int = 200,
    players: int = 2,
    seed: int = 1,
    iterations: int = 4000,
    match_games: int = 100,
    match_iterations: int | None = None,
    workers: Workers = ONE_PROCESS,
    sampled_moves: int = 4,
    units: int = 256,
    deep: int = 128,
    epochs: int = 30,
    report: Callable[[str], None] = print,
    from_evaluation: bool = False,
    device: str = "cpu",
) -> tuple[nn.Network, dict[str, Any], np.ndarray, np.ndarray]:
    """Run the expert-iteration loop for the network, keeping each generation's games in ``run`` (a generation
    whose games are there already is not played again); returns the last network, its description (what
    ``network.save_network`` writes: the features, the training's settings, the learning curve), and its probe.
    With ``from_evaluation`` each network's value starts from the shipped learned evaluation of ``game``
    (``fit_network``'s ``progress``). ``device``: where each fit runs (``fitting_device``; a run may go on on
    another device, its games being the same)."""
    if game not in GAMES:
        raise ValueError(f"the network is trained for {', '.join(GAMES)}, not {game!r}")
    if players == 2 and match_games == 1:
        raise ValueError("a match needs at least two games (each deal is played from both seats)")
    import torch  # noqa: F401 (fail here, before any game is played, when PyTorch is missing)

    where = fitting_device(device)  # and here when the GPU asked for is not there

    kind = nn.KIND_OF[game]
    settings = {
        "game": game,
        "players": players,
        "games": games,
        "seed": seed,
        "iterations": iterations,
        "sampled_moves": sampled_moves,
        "units": units,
        "deep": deep,
        "epochs": epochs,
        "mix": NETWORK_MIX,
    }
    if from_evaluation:  # named only when asked, so that the runs before it go on with their own settings
        settings["value_from"] = "learned evaluation"
    progress = learned_weights(game) if from_evaluation else None
    run.mkdir(parents=True, exist_ok=True)
    kept = run / "settings.json"
    if kept.exists() and json.loads(kept.read_text(encoding="utf-8")) != settings:
        raise ValueError(f"{run} holds a run with other settings ({kept}); name another folder to start afresh")
    kept.write_text(json.dumps(settings, indent=1) + "\n", encoding="utf-8")
    versus = expert_searcher(game, match_iterations or iterations, NO_POLICY)
    data, held_out = Samples(), Samples()
    net = nn.NO_NETWORK
    curve: list[dict[str, Any]] = []
    probe = outputs = np.zeros((0, 0))
    started = time.perf_counter()
    for generation in range(generations):
        searcher = {**expert_searcher(game, iterations, NO_POLICY), "shares": players > 2}
        if generation > 0:
            searcher = {**searcher, "network": net, "mix": NETWORK_MIX}
        base = seed * 7_919 + generation * 100_000
        for name, seeds, into in (
            ("games", list(range(base, base + games)), data),
            ("held-out", [base - 1 - i for i in range(max(2, games // 10))], held_out),
        ):
            path = run / f"generation-{generation + 1}-{name}.npz"
            if path.exists():
                part = Samples.load(path)
            else:
                part = _self_play(game, players, seeds, searcher, sampled_moves, workers)
                part.save(path)
            into.extend(part)
        net, losses, probe, outputs = fit_network(
            data, held_out, kind, seed + generation, units, deep, epochs, report=report, progress=progress, device=where
        )
        entry: dict[str, Any] = {
            "generation": generation + 1,
            "games": games * (generation + 1),
            "decisions": len(data),
            "stopped_games": data.stopped,
            **{f"held_out_{k}": v for k, v in losses.items()},
        }
        if players == 2 and match_games:
            guided = {**versus, "network": net, "mix": NETWORK_MIX}
            entry["score_vs_expert"] = round(match(game, guided, versus, match_games, seed + generation, workers), 4)
            entry["match_games"] = match_games
            entry["match_iterations"] = match_iterations or iterations
        entry["minutes"] = round((time.perf_counter() - started) / 60, 2)
        curve.append(entry)
        report(json.dumps(entry))
    meta = {
        "game": game,
        "features": list(FEATURES),
        "inputs": int(nn.INPUT_SIZE[kind]),
        "trained": {**settings, "generations": generations, "match_games": match_games, "device": where},
        "curve": curve,
    }
    return net, meta, probe, outputs
