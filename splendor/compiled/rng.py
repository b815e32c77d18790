"""SplitMix64 in compiled code: the same stream as ``splendor.core.rng.Rng``, so a compiled game deals exactly the
cards the reference engine deals from the same seed.

The generator's whole state is one unsigned 64-bit integer, kept in a one-element ``uint64`` array so that compiled
functions can advance it in place (``rng = np.array([seed], dtype=np.uint64)``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

_GOLDEN = uint64(0x9E3779B97F4A7C15)
_MIX1 = uint64(0xBF58476D1CE4E5B9)
_MIX2 = uint64(0x94D049BB133111EB)
_MASK = uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def next64(rng: np.ndarray) -> np.uint64:
    """The next 64-bit output (``Rng.next64``)."""
    s = rng[0] + _GOLDEN
    rng[0] = s
    z = (s ^ (s >> uint64(30))) * _MIX1
    z = (z ^ (z >> uint64(27))) * _MIX2
    out: np.uint64 = z ^ (z >> uint64(31))
    return out


@njit(cache=True)
def below(rng: np.ndarray, n: int) -> int:
    """A uniform integer in ``range(n)`` by rejection, exactly as ``Rng.below``."""
    bound = uint64(n)
    limit = _MASK - ((_MASK % bound) + uint64(1)) % bound
    while True:
        x = next64(rng)
        if x <= limit:
            return int(x % bound)


@njit(cache=True)
def shuffle(rng: np.ndarray, items: np.ndarray, length: int) -> None:
    """Fisher–Yates over ``items[:length]``, exactly as ``Rng.shuffle``."""
    for i in range(length - 1, 0, -1):
        j = below(rng, i + 1)
        t = items[i]
        items[i] = items[j]
        items[j] = t


_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True)
def uniform(rng: np.ndarray) -> float:
    """A uniform float in [0, 1) from the top 53 bits of the next output (for bots' policies; the rules draw only
    with ``below`` and ``shuffle``)."""
    return float(next64(rng) >> uint64(11)) * _UNIT
