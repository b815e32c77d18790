"""A learned policy as plain NumPy: a small multilayer perceptron read from one ``.npz`` file, played without
PyTorch.

A policy file holds what is needed to play it and to refuse it where it does not belong: a format version, the
game it was trained on, what the first layer reads, the activation between layers, and the layers themselves
(``weight_0``, ``bias_0``, ``weight_1``, …; weight ``k`` has shape (inputs, outputs), so a layer is
``x @ weight + bias``). The first layer reads the game's observation vector (`splendor.envs.observe`, 465 values
in classic), followed, when its ``inputs`` are ``observation+mask``, by the legal mask as 0/1 (77 more in
classic: which cards the seat can afford is then read, not inferred); the last writes one logit per action of the
game's learning index (77 in classic). Playing masks the illegal actions and takes the most likely legal one, so a
policy plays the same move in the same position, every time.

``examples/ppo_classic.py`` trains one with PyTorch and writes it with `save_policy`; the bot that plays it from a
seat's view is `splendor.envs.learned_bot.LearnedBot` (spec ``learned``: the shipped model of the game;
``learned:PATH.npz``: a file), in the rl layer because the observation vector is built there.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> policy = Policy("classic", "relu", [rng.normal(size=(465, 8)), rng.normal(size=(8, 77))],
...                 [np.zeros(8), np.zeros(77)])
>>> mask = np.zeros(77, dtype=bool); mask[[3, 40]] = True
>>> policy.act(np.zeros(465, dtype=np.float32), mask) in (3, 40)
True
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

FORMAT = 1
"""The version of the policy file's layout; a file of another version is refused."""

ACTIVATIONS = ("relu", "tanh")
"""The activations a hidden layer may use."""

INPUTS = ("observation", "observation+mask", "observation+mask+needs")
"""What the first layer reads: the observation; or it followed by the legal mask (0/1); or those followed by what
each card still needs (`needs`, classic only)."""

_MARKET = [18 + 12 * slot for slot in range(12)]
"""Where each face-up card of classic's observation starts (docs/rl.md: 12 values a card, after 18 of header)."""
_RESERVED = [213 + 17 * r + 5 for r in range(3)]
"""Where the card of each of the viewer's reserved places starts (after its present, face down and tier values)."""
_VIEWER, _OTHER = 197, 264
"""Where the viewer's seat and the next seat's start (present, points, 6 tokens, 5 bonuses, …)."""
NEEDS_SIZE = 15 * 6 + 12
"""How many values `needs` adds."""


def needs(observations: np.ndarray) -> np.ndarray:
    """What the cards still need, read from classic observations (one, or a batch): for each face-up card and
    each of the viewer's reserved cards, the tokens of each colour the viewer lacks after its bonuses and tokens
    (/ 7) and the total it lacks after its gold (/ 15, at most 1); then for each face-up card the total the next
    seat lacks. All of it is arithmetic on the observation (counts come back as the value × its bound), so the
    network need not learn to subtract; an absent card needs nothing."""
    obs = np.asarray(observations, dtype=np.float32)
    counts = np.rint(obs * 7.0)

    def lacking(seat: int, starts: list[int]) -> tuple[np.ndarray, np.ndarray]:
        cards = np.stack([counts[..., at + 7 : at + 12] for at in starts], axis=-2)
        present = np.stack([obs[..., at] for at in starts], axis=-1)
        short = np.maximum(cards - counts[..., None, seat + 8 : seat + 13] - counts[..., None, seat + 2 : seat + 7], 0)
        total = np.maximum(short.sum(axis=-1) - counts[..., None, seat + 7], 0)
        return short * present[..., None], np.minimum(total, 15.0) / 15.0 * present

    short, total = lacking(_VIEWER, _MARKET + _RESERVED)
    _, other = lacking(_OTHER, _MARKET)
    mine = np.concatenate([short / 7.0, total[..., None]], axis=-1)
    return np.concatenate([mine.reshape(*mine.shape[:-2], -1), other], axis=-1).astype(np.float32)


def features(inputs: str, observations: np.ndarray, masks: np.ndarray | None) -> np.ndarray:
    """What a policy's first layer reads (`INPUTS`), from observations and their legal masks (one or a batch)."""
    x = np.asarray(observations, dtype=np.float32)
    if inputs == "observation":
        return x
    if masks is None:
        raise ValueError("this policy reads the legal mask beside the observation: give it")
    parts = [x, np.asarray(masks, dtype=np.float32)]
    if inputs == "observation+mask+needs":
        parts.append(needs(x))
    return np.concatenate(parts, axis=-1)


SHIPPED = {"classic": Path(__file__).with_name("weights") / "ppo_classic.npz"}
"""The policy shipped for each game (``learned`` seats it): trained by ``examples/ppo_classic.py``."""

OBSERVATION_SIZES = {"classic": 465, "pokemon": 1064, "kids": 1313}
"""How many values a game's observation has (`splendor.envs.observe.size`, written here: bots sit under envs)."""

ACTION_COUNTS = {"classic": 77, "pokemon": 525, "kids": 42198}
"""How many actions a game's learning index has (`splendor.envs.actions.action_count`)."""


class Policy:
    """A multilayer perceptron from a game's observation to one logit per action of that game."""

    def __init__(
        self,
        game: str,
        activation: str,
        weights: list[np.ndarray],
        biases: list[np.ndarray],
        inputs: str = "observation",
    ) -> None:
        """Checks that the layers chain from the game's observation (and mask) to its actions (`ValueError`
        otherwise)."""
        if game not in OBSERVATION_SIZES:
            raise ValueError(f"a policy plays one of {', '.join(OBSERVATION_SIZES)}, not {game!r}")
        if activation not in ACTIVATIONS:
            raise ValueError(f"the activation is one of {', '.join(ACTIVATIONS)}, not {activation!r}")
        if inputs not in INPUTS:
            raise ValueError(f"the inputs are one of {', '.join(INPUTS)}, not {inputs!r}")
        if not weights or len(weights) != len(biases):
            raise ValueError("a policy has one or more layers, each a weight and a bias")
        if inputs == "observation+mask+needs" and game != "classic":
            raise ValueError("what the cards need is read from classic's observation alone")
        self.reads_mask = inputs != "observation"
        width = OBSERVATION_SIZES[game] + (ACTION_COUNTS[game] if self.reads_mask else 0)
        width += NEEDS_SIZE if inputs == "observation+mask+needs" else 0
        for k, (w, b) in enumerate(zip(weights, biases)):
            if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
                raise ValueError(
                    f"layer {k} has weight {w.shape} and bias {b.shape}: it must read {width} values "
                    "(a weight (inputs, outputs), a bias (outputs,))"
                )
            width = w.shape[1]
        if width != ACTION_COUNTS[game]:
            raise ValueError(f"the last layer writes {width} logits, but {game} has {ACTION_COUNTS[game]} actions")
        self.game = game
        self.activation = activation
        self.inputs = inputs
        self.weights = [np.ascontiguousarray(w, dtype=np.float32) for w in weights]
        self.biases = [np.ascontiguousarray(b, dtype=np.float32) for b in biases]

    @property
    def shapes(self) -> list[tuple[int, int]]:
        """Each layer's (inputs, outputs)."""
        return [(int(w.shape[0]), int(w.shape[1])) for w in self.weights]

    def logits(self, observations: np.ndarray, masks: np.ndarray | None = None) -> np.ndarray:
        """The logits of one observation (shape (actions,)) or of a batch of them (shape (n, actions)); a policy
        that reads the legal mask needs ``masks`` too (the same leading shape)."""
        x = features(self.inputs, observations, masks)
        last = len(self.weights) - 1
        for k, (w, b) in enumerate(zip(self.weights, self.biases)):
            x = x @ w + b
            if k < last:
                x = np.maximum(x, 0.0) if self.activation == "relu" else np.tanh(x)
        return x

    def act(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """The most likely legal action (the lowest index among equals); ``mask`` marks the legal ones."""
        mask = np.asarray(mask, dtype=bool)
        if not mask.any():
            raise ValueError("no action is legal: there is nothing to choose")
        logits = self.logits(observation, mask)
        return int(np.argmax(np.where(mask, logits, -np.inf)))


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
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError) as e:
        raise ValueError(f"{path} is not a policy file (.npz): {e}") from None
    missing = [name for name in ("format", "game", "inputs", "activation", "shapes") if name not in arrays]
    if missing:
        raise ValueError(f"{path} is not a policy file: it lacks {', '.join(missing)}")
    if arrays["format"].shape != () or int(arrays["format"]) != FORMAT:
        raise ValueError(f"{path} is a policy file of format {arrays['format']}, not {FORMAT}")
    trained_on = str(arrays["game"])
    if game is not None and trained_on != game:
        raise ValueError(f"{path} was trained on {trained_on}, not {game}")
    shapes = arrays["shapes"]
    if shapes.ndim != 2 or shapes.shape[1] != 2:
        raise ValueError(f"{path}: its shapes are not one (inputs, outputs) pair a layer")
    weights, biases = [], []
    for k, (inputs, outputs) in enumerate(shapes.tolist()):
        w, b = arrays.get(f"weight_{k}"), arrays.get(f"bias_{k}")
        if w is None or b is None:
            raise ValueError(f"{path} declares {len(shapes)} layers but lacks layer {k}")
        if w.shape != (inputs, outputs) or b.shape != (outputs,):
            raise ValueError(f"{path}: layer {k} has weight {w.shape}, bias {b.shape}, not ({inputs}, {outputs})")
        weights.append(w)
        biases.append(b)
    try:
        return Policy(trained_on, str(arrays["activation"]), weights, biases, str(arrays["inputs"]))
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None


@cache
def shipped_policy(game: str) -> Policy:
    """The policy shipped for ``game`` (read once); ``ValueError`` when none is shipped for it."""
    if game not in SHIPPED:
        raise ValueError(f"no learned policy is shipped for {game}: only for {', '.join(SHIPPED)}")
    return load_policy(SHIPPED[game], game)
