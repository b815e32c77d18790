"""A learned policy as plain NumPy: a small multilayer perceptron read from one ``.npz`` file, played without
PyTorch.

A policy file holds what is needed to play it and to refuse it where it does not belong: a format version, the
game it was trained on, what the first layer reads, the activation between layers, and the layers themselves
(``weight_0``, ``bias_0``, ``weight_1``, …; weight ``k`` has shape (inputs, outputs), so a layer is
``x @ weight + bias``). The first layer reads the game's observation vector (`splendor.envs.observe`, 469 values
in classic, or its first 465, without the turn order, as a policy trained before it was added), followed, when its
``inputs`` say so, by the legal mask as 0/1 and what each card still needs
(`splendor.bots.learned_inputs`); the last writes one logit per action of the game's learning index (77 in
classic). A classic policy may also hold a scorer (``scorer_weight_k``, ``scorer_bias_k``): a small perceptron
applied to each action's `splendor.bots.learned_inputs.action_features`, whose one output is added to that
action's logit. Playing masks the illegal actions and takes the most likely legal one, so a policy plays the same
move in the same position, every time.

``examples/ppo_classic.py`` trains one with PyTorch and writes it with `save_policy`; the bot that plays it from a
seat's view is `splendor.envs.learned_bot.LearnedBot` (spec ``learned``: the shipped model of the game;
``learned:PATH.npz``: a file), in the rl layer because the observation vector is built there.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> policy = Policy("classic", "relu", [rng.normal(size=(469, 8)), rng.normal(size=(8, 77))],
...                 [np.zeros(8), np.zeros(77)])
>>> mask = np.zeros(77, dtype=bool); mask[[3, 40]] = True
>>> policy.act(np.zeros(469, dtype=np.float32), mask) in (3, 40)
True
"""

from __future__ import annotations

import zipfile
import zlib
from functools import cache
from pathlib import Path

import numpy as np

from splendor.bots.learned_inputs import ACTION_FEATURES, INPUTS, NEEDS_SIZE, action_features, features

FORMAT = 2
"""The version of the policy file's layout that `save_policy` writes: 2 may hold a scorer (``scorer_shapes``,
``scorer_weight_k``, ``scorer_bias_k``); 1, which cannot, is still read. A file of any other version is refused,
so that a reader never plays a file it half understands."""

READABLE_FORMATS = (1, 2)
"""The formats `load_policy` reads: this one, and 1 (a policy without a scorer)."""

ACTIVATIONS = ("relu", "tanh")
"""The activations a hidden layer may use."""

SHIPPED = {"classic": Path(__file__).with_name("weights") / "ppo_classic.npz"}
"""The policy shipped for each game (``learned`` seats it): trained by ``examples/ppo_classic.py``."""

OBSERVATION_SIZES = {"classic": 469, "pokemon": 1068, "kids": 1317}
"""How many values a game's observation has (`splendor.envs.observe.size`, written here: bots sit under envs)."""

ORDER_SIZE = 4
"""The values of the observation's last field, the turn order (`splendor.envs.observe.ORDER`), which observation
layout 2 added. A policy whose first layer reads the observation without it (layout 1: 465 values in classic, as
the shipped classic policy was trained) is played on the observation's first values alone."""

ACTION_COUNTS = {"classic": 77, "pokemon": 525, "kids": 42198}
"""How many actions a game's learning index has (`splendor.envs.actions.action_count`)."""


class Policy:
    """A multilayer perceptron from a game's observation to one logit per action of that game; in classic, it may
    also have a scorer: one small perceptron applied to each action's `action_features`, its one output added to
    that action's logit, so that what it learns of buying one card slot, or of one take, holds for every other."""

    def __init__(
        self,
        game: str,
        activation: str,
        weights: list[np.ndarray],
        biases: list[np.ndarray],
        inputs: str = "observation",
        scorer_weights: list[np.ndarray] | None = None,
        scorer_biases: list[np.ndarray] | None = None,
    ) -> None:
        """Checks that the layers chain from the game's observation (and mask) to its actions, and the scorer's
        (when given) from the action features to one value (`ValueError` otherwise)."""
        if game not in OBSERVATION_SIZES:
            raise ValueError(f"a policy plays one of {', '.join(OBSERVATION_SIZES)}, not {game!r}")
        if activation not in ACTIVATIONS:
            raise ValueError(f"the activation is one of {', '.join(ACTIVATIONS)}, not {activation!r}")
        if inputs not in INPUTS:
            raise ValueError(f"the inputs are one of {', '.join(INPUTS)}, not {inputs!r}")
        if inputs == "observation+mask+needs" and game != "classic":
            raise ValueError("what the cards need is read from classic's observation alone")
        self.reads_mask = inputs != "observation"
        extra = (ACTION_COUNTS[game] if self.reads_mask else 0) + (
            NEEDS_SIZE if inputs == "observation+mask+needs" else 0
        )
        full = OBSERVATION_SIZES[game]
        layout_1 = bool(weights) and weights[0].ndim == 2 and weights[0].shape[0] == full - ORDER_SIZE + extra
        self.observation_size = full - ORDER_SIZE if layout_1 else full
        """How many of the observation's values the first layer reads: all, or all but the turn order."""
        why = f"{game} has {ACTION_COUNTS[game]} actions"
        _check_chain("layer", weights, biases, self.observation_size + extra, ACTION_COUNTS[game], why)
        if (scorer_weights is None) != (scorer_biases is None):
            raise ValueError("a scorer has both weights and biases, or is not given")
        if scorer_weights is not None and scorer_biases is not None:
            if game != "classic":
                raise ValueError("what each action would do is read from classic's observation alone")
            _check_chain("scorer layer", scorer_weights, scorer_biases, len(ACTION_FEATURES), 1, "it scores one value")
        self.game = game
        self.activation = activation
        self.inputs = inputs
        self.weights = [np.ascontiguousarray(w, dtype=np.float32) for w in weights]
        self.biases = [np.ascontiguousarray(b, dtype=np.float32) for b in biases]
        self.scorer_weights = [np.ascontiguousarray(w, dtype=np.float32) for w in scorer_weights or []]
        self.scorer_biases = [np.ascontiguousarray(b, dtype=np.float32) for b in scorer_biases or []]

    @property
    def shapes(self) -> list[tuple[int, int]]:
        """Each layer's (inputs, outputs)."""
        return [(int(w.shape[0]), int(w.shape[1])) for w in self.weights]

    @property
    def scorer_shapes(self) -> list[tuple[int, int]]:
        """Each of the scorer's layers' (inputs, outputs); none when the policy has no scorer."""
        return [(int(w.shape[0]), int(w.shape[1])) for w in self.scorer_weights]

    def _perceptron(self, x: np.ndarray, weights: list[np.ndarray], biases: list[np.ndarray]) -> np.ndarray:
        last = len(weights) - 1
        for k, (w, b) in enumerate(zip(weights, biases)):
            x = x @ w + b
            if k < last:
                x = np.maximum(x, 0.0) if self.activation == "relu" else np.tanh(x)
        return x

    def logits(self, observations: np.ndarray, masks: np.ndarray | None = None) -> np.ndarray:
        """The logits of one observation (shape (actions,)) or of a batch of them (shape (n, actions)); a policy
        that reads the legal mask needs ``masks`` too (the same leading shape)."""
        read = np.asarray(observations)[..., : self.observation_size]
        x = self._perceptron(features(self.inputs, read, masks), self.weights, self.biases)
        if self.scorer_weights:
            scored = self._perceptron(action_features(observations), self.scorer_weights, self.scorer_biases)
            x = x + scored[..., 0]
        return x

    def act(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """The most likely legal action (the lowest index among equals); ``mask`` marks the legal ones."""
        mask = np.asarray(mask, dtype=bool)
        if not mask.any():
            raise ValueError("no action is legal: there is nothing to choose")
        logits = self.logits(observation, mask)
        return int(np.argmax(np.where(mask, logits, -np.inf)))


def _check_chain(
    name: str, weights: list[np.ndarray], biases: list[np.ndarray], width: int, out: int, why: str
) -> None:
    """``ValueError`` unless the layers chain from ``width`` values to ``out`` (``why`` says why that many)."""
    if not weights or len(weights) != len(biases):
        raise ValueError(f"a policy's {name}s are one or more, each a weight and a bias")
    for k, (w, b) in enumerate(zip(weights, biases)):
        if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
            raise ValueError(
                f"{name} {k} has weight {w.shape} and bias {b.shape}: it must read {width} values "
                "(a weight (inputs, outputs), a bias (outputs,))"
            )
        width = w.shape[1]
    if width != out:
        raise ValueError(f"the last {name} writes {width} values, but {why}")


def save_policy(policy: Policy, path: str | Path) -> None:
    """Write ``policy`` to one ``.npz`` file that `load_policy` reads back."""
    arrays: dict[str, np.ndarray] = {
        "format": np.array(FORMAT, dtype=np.int64),
        "game": np.array(policy.game),
        "activation": np.array(policy.activation),
        "inputs": np.array(policy.inputs),
        "shapes": np.array(policy.shapes, dtype=np.int64),
    }
    for k, (w, b) in enumerate(zip(policy.weights, policy.biases)):
        arrays[f"weight_{k}"] = w
        arrays[f"bias_{k}"] = b
    if policy.scorer_weights:
        arrays["scorer_shapes"] = np.array(policy.scorer_shapes, dtype=np.int64)
        for k, (w, b) in enumerate(zip(policy.scorer_weights, policy.scorer_biases)):
            arrays[f"scorer_weight_{k}"] = w
            arrays[f"scorer_bias_{k}"] = b
    with open(path, "wb") as f:
        np.savez_compressed(f, allow_pickle=False, **arrays)


def load_policy(path: str | Path, game: str | None = None) -> Policy:
    """The policy in the file at ``path``; ``ValueError`` says plainly what is wrong with a file that is missing,
    is not a policy file, is of another format, was trained on another game than ``game`` (when given), or whose
    layers do not have the shapes it declares."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no learned policy at {path}")
    try:
        loaded = np.load(path, allow_pickle=False)
        if not isinstance(loaded, np.lib.npyio.NpzFile):
            raise ValueError("it holds one array, not the named arrays of a .npz")
        with loaded as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as e:
        raise ValueError(f"{path} is not a policy file (.npz): {e}") from None
    missing = [name for name in ("format", "game", "inputs", "activation", "shapes") if name not in arrays]
    if missing:
        raise ValueError(f"{path} is not a policy file: it lacks {', '.join(missing)}")
    version = arrays["format"]
    if version.shape != () or version.dtype.kind not in "iu" or int(version) not in READABLE_FORMATS:
        raise ValueError(
            f"{path} is a policy file of format {version}; this version reads formats "
            f"{', '.join(map(str, READABLE_FORMATS))}"
        )
    scorer_parts = [name for name in arrays if name.startswith("scorer_")]
    if scorer_parts and int(version) < 2:
        raise ValueError(f"{path} is of format {int(version)}, which has no scorer, yet it holds one")
    if scorer_parts and "scorer_shapes" not in arrays:
        raise ValueError(f"{path} holds a scorer's layers but not their scorer_shapes")
    trained_on = str(arrays["game"])
    if game is not None and trained_on != game:
        raise ValueError(f"{path} was trained on {trained_on}, not {game}")
    weights, biases = _layers(path, arrays, "")
    scorer_weights, scorer_biases = _layers(path, arrays, "scorer_") if "scorer_shapes" in arrays else (None, None)
    try:
        return Policy(
            trained_on, str(arrays["activation"]), weights, biases, str(arrays["inputs"]), scorer_weights, scorer_biases
        )
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None


def _layers(path: Path, arrays: dict[str, np.ndarray], prefix: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The weights and biases of the layers a policy file declares in ``{prefix}shapes`` (``ValueError`` when
    one is missing or of another shape)."""
    shapes = arrays[f"{prefix}shapes"]
    if shapes.ndim != 2 or shapes.shape[1] != 2:
        raise ValueError(f"{path}: its {prefix}shapes are not one (inputs, outputs) pair a layer")
    weights, biases = [], []
    for k, (inputs, outputs) in enumerate(shapes.tolist()):
        w, b = arrays.get(f"{prefix}weight_{k}"), arrays.get(f"{prefix}bias_{k}")
        if w is None or b is None:
            raise ValueError(f"{path} declares {len(shapes)} {prefix}layers but lacks {prefix}layer {k}")
        if w.shape != (inputs, outputs) or b.shape != (outputs,):
            raise ValueError(
                f"{path}: {prefix}layer {k} has weight {w.shape}, bias {b.shape}, not ({inputs}, {outputs})"
            )
        weights.append(w)
        biases.append(b)
    return weights, biases


@cache
def shipped_policy(game: str) -> Policy:
    """The policy shipped for ``game`` (read once); ``ValueError`` when none is shipped for it."""
    if game not in SHIPPED:
        raise ValueError(f"no learned policy is shipped for {game}: only for {', '.join(SHIPPED)}")
    return load_policy(SHIPPED[game], game)
