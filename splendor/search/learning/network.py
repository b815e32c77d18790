"""A learned policy and value network for classic and Pokémon, evaluated in compiled code inside the search.

What the linear evaluation (``features``) and the linear policy (``policy``) cannot learn, a small network can: how
the cards on display, the nobles and every seat's hand bear on each other. The network sees a position from the
seat to move (``inputs_into``): that seat's observation, exactly as the environments give it
(``splendor.compiled.market.observe_into``, docs/rl.md), each seat's hand-made features (``features.FEATURES``,
from the seat to move round the table, padded to four) and the stage of the game. Two hidden layers of rectified
units lead to two heads:

- **value**: one logit per seat, from the seat to move round the table; their softmax over the seats present is
  each seat's share of the win (a value per seat, not only "me against the best other"). A network may start its
  value from the learned evaluation (``progress``: each seat's logit is its learned progress, from the features
  among its inputs, plus what the head adds), so that the head learns only a correction to an estimate that is
  already good, where on its own it fits the few thousand games it has seen (docs/bots.md);
- **policy**: one logit per action of the game (``market.ACTION_COUNT``); their softmax over the legal actions is
  the priors the search's PUCT explores by.

It is trained with PyTorch (``network_training``, ``splendor train-network``) and ships as NumPy arrays
(``weights/<game>_network.npz``), evaluated here without PyTorch, one position at a time, in float32 as it was
trained (a float32 layer costs half a float64 one: its weights fit the processor's cache and twice as many go
through one vector instruction; the search evaluates a network at every new leaf). A shipped file carries fixed
inputs and PyTorch's outputs on them (``probe``), so that a test holds this evaluation to PyTorch's without PyTorch
installed.

    >>> NO_NETWORK.hidden.shape
    (0, 0)
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

import numpy as np
from numba import njit

from splendor.compiled import market as m
from splendor.compiled.market.observe import OBSERVATION_SIZE, ORDER, observe_into
from splendor.search.learning.features import FEATURE_COUNT, FEATURES, features_seen_into, stage

OBSERVATION_READ = OBSERVATION_SIZE - ORDER
"""The part of the observation the network reads, by ``[game kind]``: all but its last field, the turn order
(observation layout 1, which the shipped weights were trained on: 465 values in classic)."""

INPUT_SIZE = OBSERVATION_READ + m.MAX_SEATS * FEATURE_COUNT + 1
"""The network's inputs by ``[game kind]``: the observation read, each seat's features, the stage (514 in
classic)."""

OBSERVATION_ROOM = int(OBSERVATION_SIZE.max())
"""The float32 scratch an observation needs, in either game."""

INPUT_ROOM = int(INPUT_SIZE.max())
"""The scratch the inputs need, in either game."""


class Network(NamedTuple):
    """The network's weights, float32 (`as_compiled`), as the compiled code reads them, each matrix inputs ×
    outputs (PyTorch's transposed): two hidden layers (``hidden``: inputs × units, ``hidden_bias``; ``deep``:
    units × units, ``deep_bias``), the value head (``value``: units × 4, ``value_bias``), the policy head
    (``policy``: units × actions, ``policy_bias``), and the learned evaluation the value starts from
    (``progress``: its early and late weights, 2 × ``FEATURE_COUNT``; 0 × 0 for a value of the head alone)."""

    hidden: np.ndarray
    hidden_bias: np.ndarray
    deep: np.ndarray
    deep_bias: np.ndarray
    value: np.ndarray
    value_bias: np.ndarray
    policy: np.ndarray
    policy_bias: np.ndarray
    progress: np.ndarray


LAYERS = Network._fields
"""The arrays of a network, in the order of ``Network`` (and of a weights file)."""


def as_compiled(net: Network) -> Network:
    """``net`` with float32 arrays laid out in rows, as the compiled code reads them (each kind of array a single
    type, so the search is compiled once); ``net`` itself when it is so already."""
    if all(a.dtype == np.float32 and a.flags.c_contiguous for a in net):
        return net
    return Network(*(np.ascontiguousarray(a, dtype=np.float32) for a in net))


NO_NETWORK = as_compiled(Network(*(np.zeros(0) if name.endswith("_bias") else np.zeros((0, 0)) for name in LAYERS)))
"""No network: the search scores and explores as it would without one."""

LOGIT_BOUND = 30.0
"""The bound on a policy logit's distance from the best one before ``exp`` (a prior stays positive)."""


@njit(cache=True)
def inputs_into(s: np.ndarray, viewer: int, observation: np.ndarray, seat: np.ndarray, out: np.ndarray) -> None:
    """``out[:INPUT_SIZE[kind]]`` := the network's inputs for ``viewer`` (float32 or float64): its observation
    (``observation`` is float32 scratch of ``OBSERVATION_ROOM``), each seat's features as ``viewer`` sees them,
    from ``viewer`` round the table (``seat`` is scratch of ``FEATURE_COUNT``; an absent seat's are zeros), the
    stage. Nothing the viewer cannot see goes in: the inputs are the same in every deal of what is hidden from
    it."""
    kind, players = s[m.KIND], s[m.PLAYERS]
    size = OBSERVATION_READ[kind]
    observe_into(s, viewer, observation)
    for i in range(size):
        out[i] = observation[i]
    at = size
    for k in range(m.MAX_SEATS):
        if k < players:
            features_seen_into(s, (viewer + k) % players, viewer, seat)
            for i in range(FEATURE_COUNT):
                out[at + i] = seat[i]
        else:
            for i in range(FEATURE_COUNT):
                out[at + i] = 0.0
        at += FEATURE_COUNT
    out[at] = stage(s)


@njit(cache=True)
def _layer(weights: np.ndarray, bias: np.ndarray, x: np.ndarray, out: np.ndarray, rectify: bool) -> None:
    """``out`` := x[:inputs] @ weights + bias (``weights``: inputs × outputs), rectified if ``rectify``. Written
    as a sum of the weights' rows for the nonzero inputs, which vectorises without reordering a sum's terms and
    skips the zeros most of an observation and half of a rectified layer are."""
    units = weights.shape[1]
    for j in range(units):
        out[j] = bias[j]
    for i in range(weights.shape[0]):
        v = x[i]
        if v != 0.0:
            for j in range(units):
                out[j] += v * weights[i, j]
    if rectify:
        for j in range(units):
            if out[j] < 0.0:
                out[j] = 0.0


@njit(cache=True)
def forward_into(
    net: Network,
    x: np.ndarray,
    hidden: np.ndarray,
    deep: np.ndarray,
    value: np.ndarray,
    policy: np.ndarray,
    with_policy: bool = True,
) -> None:
    """The network on inputs ``x``: ``value`` := the 4 seat logits, ``policy`` := the action logits unless not
    ``with_policy`` (a leaf whose priors are not kept needs its value alone); ``hidden`` and ``deep`` are
    scratch of the layers' width."""
    _layer(net.hidden, net.hidden_bias, x, hidden, True)
    _layer(net.deep, net.deep_bias, hidden, deep, True)
    _layer(net.value, net.value_bias, deep, value, False)
    if net.progress.shape[0] > 0:
        _add_progress(net.progress, x, net.hidden.shape[0], value)
    if with_policy:
        _layer(net.policy, net.policy_bias, deep, policy, False)


@njit(cache=True)
def _add_progress(weights: np.ndarray, x: np.ndarray, inputs: int, value: np.ndarray) -> None:
    """``value[k]`` += the k-th seat's learned progress (``features.learned_progress``) from the features among
    the ``inputs`` ``x``: the seats' features and then the stage end them (``inputs_into``)."""
    t = x[inputs - 1]
    at = inputs - 1 - m.MAX_SEATS * FEATURE_COUNT
    for k in range(m.MAX_SEATS):
        total = 0.0
        for i in range(FEATURE_COUNT):
            total += (weights[0, i] + weights[1, i] * t) * x[at + k * FEATURE_COUNT + i]
        value[k] += total


@njit(cache=True)
def seat_values_into(s: np.ndarray, viewer: int, logits: np.ndarray, out: np.ndarray) -> None:
    """``out[p]`` := seat p's share of the win: the softmax of the value logits over the seats present (logit k
    is the k-th seat from ``viewer``)."""
    players = s[m.PLAYERS]
    top = -math.inf
    for k in range(players):
        top = max(top, logits[k])
    total = 0.0
    for k in range(players):
        total += math.exp(logits[k] - top)
    for k in range(players):
        out[(viewer + k) % players] = math.exp(logits[k] - top) / total


@njit(cache=True)
def priors_into(logits: np.ndarray, legal: np.ndarray, count: int, out: np.ndarray) -> None:
    """``out[i]`` := the unnormalised prior of ``legal[i]``: the exp of its logit less the best legal one's."""
    top = -math.inf
    for i in range(count):
        top = max(top, logits[legal[i]])
    for i in range(count):
        out[i] = math.exp(max(logits[legal[i]] - top, -LOGIT_BOUND))


class Scratch(NamedTuple):
    """The arrays one evaluation writes into (allocated once a search): float32 from ``inputs`` on, as the
    network's weights are."""

    observation: np.ndarray
    seat: np.ndarray
    inputs: np.ndarray
    hidden: np.ndarray
    deep: np.ndarray
    value: np.ndarray
    policy: np.ndarray


@njit(cache=True)
def scratch(net: Network) -> Scratch:
    """Scratch sized for ``net`` (for ``NO_NETWORK``, empty layers)."""
    return Scratch(
        np.zeros(OBSERVATION_ROOM, dtype=np.float32),
        np.zeros(FEATURE_COUNT, dtype=np.float64),
        np.zeros(INPUT_ROOM, dtype=np.float32),
        np.zeros(net.hidden.shape[1], dtype=np.float32),
        np.zeros(net.deep.shape[1], dtype=np.float32),
        np.zeros(m.MAX_SEATS, dtype=np.float32),
        np.zeros(max(net.policy.shape[1], 1), dtype=np.float32),
    )


@njit(cache=True)
def evaluate_into(s: np.ndarray, net: Network, work: Scratch, with_policy: bool = True) -> None:
    """The network on the position ``s`` from the seat to move: ``work.value`` := the seat logits,
    ``work.policy`` := the action logits (unless not ``with_policy``)."""
    inputs_into(s, s[m.SEAT], work.observation, work.seat, work.inputs)
    forward_into(net, work.inputs, work.hidden, work.deep, work.value, work.policy, with_policy)


def evaluate(net: Network, state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each seat's share of the win (by seat) and the action logits of ``net`` on compiled ``state`` (from the
    seat to move): the compiled evaluation, for tests and tools."""
    net = as_compiled(net)
    work = scratch(net)
    evaluate_into(state, net, work)
    values = np.zeros(int(state[m.PLAYERS]))
    seat_values_into(state, int(state[m.SEAT]), work.value, values)
    return values, work.policy[: int(m.ACTION_COUNT[state[m.KIND]])].astype(np.float64)


def forward(net: Network, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The value and policy logits of ``net`` on each row of inputs ``x`` (the compiled layers, row by row, in
    float32 as the search evaluates them)."""
    net = as_compiled(net)
    values = np.zeros((len(x), m.MAX_SEATS), dtype=np.float32)
    policies = np.zeros((len(x), net.policy.shape[1]), dtype=np.float32)
    hidden, deep = np.zeros(net.hidden.shape[1], dtype=np.float32), np.zeros(net.deep.shape[1], dtype=np.float32)
    for i, row in enumerate(np.asarray(x, dtype=np.float32)):
        forward_into(net, np.ascontiguousarray(row), hidden, deep, values[i], policies[i])
    return values.astype(np.float64), policies.astype(np.float64)


# ----------------------------------------------------------------------------- the shipped weights

WEIGHTS_DIR = Path(__file__).with_name("weights")
"""Where the shipped networks live: ``weights/<game>_network.npz``."""

KIND_OF = {"classic": m.CLASSIC, "pokemon": m.POKEMON}
"""The compiled game kind of each game with a network."""


def network_path(game: str) -> Path:
    """Where ``game``'s shipped network lives."""
    return WEIGHTS_DIR / f"{game}_network.npz"


def save_network(path: Path, net: Network, meta: dict[str, Any], probe: np.ndarray, outputs: np.ndarray) -> None:
    """Write ``net`` (as float32), its description ``meta`` (JSON: game, features, training, curve), the fixed
    inputs ``probe`` and the trainer's outputs on them (value logits then policy logits, a row each)."""
    arrays = {name: np.asarray(a, dtype=np.float32) for name, a in zip(LAYERS, net, strict=True)}
    with written(path) as out:
        np.savez_compressed(
            out,
            allow_pickle=False,
            meta=np.array(json.dumps(meta)),
            probe=np.asarray(probe, dtype=np.float32),
            outputs=np.asarray(outputs, dtype=np.float32),
            **arrays,
        )


@contextlib.contextmanager
def written(path: Path) -> Iterator[BinaryIO]:
    """A file to write ``path``'s new content into: it replaces ``path`` only once it is whole, so that a run
    stopped while writing leaves the old file (or none), never a part of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    try:
        with part.open("wb") as out:
            yield out
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)


class Loaded(NamedTuple):
    """A network read from its file: the weights, its description, and the probe with the trainer's outputs."""

    net: Network
    meta: dict[str, Any]
    probe: np.ndarray
    outputs: np.ndarray


def load_network(path: Path, game: str) -> Loaded:
    """The network in ``path``, for ``game``; `FileNotFoundError` naming the file when it is missing, and
    `ValueError` when it is of another game, of other features, of the wrong shapes or not finite."""
    if not path.exists():
        raise FileNotFoundError(f"the network of {game} needs its weights, and {path} is missing")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {  # a file from before ``progress`` values by the head alone
                name: np.array(data[name], dtype=np.float32)
                if name in data.files or name != "progress"
                else np.zeros((0, 0), dtype=np.float32)
                for name in LAYERS
            }
            meta = json.loads(str(data["meta"]))
            probe, outputs = np.array(data["probe"]), np.array(data["outputs"])
    except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile) as e:
        raise ValueError(f"{path} is not a network's weights ({type(e).__name__}: {e})") from None
    if not isinstance(meta, dict):
        raise ValueError(f"{path} is not a network's weights (its description is not a record)")
    for name, a in arrays.items():
        if a.ndim != (1 if name.endswith("_bias") else 2):
            raise ValueError(f"{path}: {name} has {a.ndim} dimensions")
    if meta.get("game") != game:
        raise ValueError(f"{path} is a network of {meta.get('game')!r}, not of {game!r}")
    if meta.get("features") != list(FEATURES):
        raise ValueError(f"{path} was trained on other features ({meta.get('features')}); retrain it")
    net = as_compiled(Network(**arrays))
    kind = KIND_OF[game]
    units, deep = net.hidden.shape[1], net.deep.shape[1]
    actions = int(m.ACTION_COUNT[kind])
    expected = {
        "hidden": (int(INPUT_SIZE[kind]), units),
        "hidden_bias": (units,),
        "deep": (units, deep),
        "deep_bias": (deep,),
        "value": (deep, m.MAX_SEATS),
        "value_bias": (m.MAX_SEATS,),
        "policy": (deep, actions),
        "policy_bias": (actions,),
        "progress": (2, FEATURE_COUNT) if net.progress.size else (0, 0),
    }
    for name, shape in expected.items():
        got = getattr(net, name).shape
        if got != shape:
            raise ValueError(f"{path}: {name} is {got}, where a network of {game} has {shape}")
        if not np.isfinite(getattr(net, name)).all():
            raise ValueError(f"{path}: {name} holds a number that is not finite")
    rows = probe.shape[0] if probe.ndim == 2 else -1
    if probe.shape != (rows, expected["hidden"][0]) or outputs.shape != (rows, m.MAX_SEATS + actions):
        raise ValueError(f"{path}: its probe is {probe.shape} and its outputs {outputs.shape}, which do not match")
    return Loaded(net, meta, probe, outputs)


_shipped: dict[str, Network] = {}


def shipped_network(game: str) -> Network:
    """The shipped network of ``game``, loaded once; `ValueError` for a game without one, `FileNotFoundError`
    naming the file when it is missing."""
    if game not in KIND_OF:
        raise ValueError(f"{game!r} has no network; the games with one are {', '.join(KIND_OF)}")
    if game not in _shipped:
        _shipped[game] = load_network(network_path(game), game).net
    return _shipped[game]
