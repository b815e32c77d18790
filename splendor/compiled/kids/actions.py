"""Splendor Kids' action index as the compiled kernel reads it: the fixed actions' indices (``notation.FIXED``),
the colours of each take, and the payments (``notation.PAYMENTS``) with a sorted key table that finds a
payment's code from its counts. The moves follow the fixed actions: ``MOVE_BASE + road * P_COUNT + code``."""

from __future__ import annotations

import numpy as np

from splendor.games.kids.notation import FIXED_INDEX, MAX_PAY, MAX_SEATS, PAYMENTS, SIZE
from splendor.games.kids.notation import MAX_LEGAL as MAX_LEGAL  # room for any position's legal actions

ACTION_COUNT = SIZE  # the whole action index, moves included

TAKE3_FIRST = FIXED_INDEX[("take", (0, 1, 2))]
TAKE_PAIR_FIRST = FIXED_INDEX[("take", (0, 1))]
TAKE_ONE_FIRST = FIXED_INDEX[("take", (0,))]
TAKE2 = FIXED_INDEX[("take2", (0,))]
TAKE_GOLD = FIXED_INDEX[("take_gold", ())]
RETURN_A = FIXED_INDEX[("return", (0,))]
DISCARD_A = FIXED_INDEX[("discard", (0,))]
GIVE_A = FIXED_INDEX[("give", (0, 0))]  # + colour * 4 + seat
CITY_STACK_A = FIXED_INDEX[("city_stack", ())]
CITY_MARKET_A = FIXED_INDEX[("city_market", (0,))]
MEDAL_A = FIXED_INDEX[("medal", (0,))]
PASS_A = FIXED_INDEX[("pass", ())]
assert FIXED_INDEX[("give", (1, 0))] == GIVE_A + MAX_SEATS and FIXED_INDEX[("give", (0, 1))] == GIVE_A + 1
TAKE_COLOURS = np.full((TAKE_GOLD, 3), -1, dtype=np.int64)  # the colours of each take (two of one: one colour)
for (_kind, _args), _i in FIXED_INDEX.items():
    if _kind in ("take", "take2"):
        TAKE_COLOURS[_i, : len(_args)] = _args

# The payments: each code's counts (tokens per colour, City tiles per colour, gold, Treasures), and a sorted
# key table to find a code from counts (each count at most MAX_PAY, so a count is a digit in base MAX_PAY + 1).
PAY = np.array(PAYMENTS, dtype=np.int64)
PAY_COUNTS = PAY.shape[1]
PAY_BASE = (MAX_PAY + 1) ** np.arange(PAY_COUNTS, dtype=np.int64)
_KEYS = PAY @ PAY_BASE
PAY_ORDER = np.argsort(_KEYS)
PAY_KEYS = _KEYS[PAY_ORDER]
