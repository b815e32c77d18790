"""What a learned policy reads, computed from classic observations with NumPy: the observation itself, the legal
mask, what each card still needs (`needs`), and what each action would do (`action_features`).

All of it is arithmetic on the observation vector (`splendor.envs.observe`, laid out in docs/rl.md: counts come
back as the value × its bound), so a policy reads nothing a seat may not see, and the same function feeds the
network in training (``examples/ppo_classic.py``) and in play (`splendor.bots.learned.Policy`). The network need
not learn to subtract costs from tokens: the arithmetic is done for it, the judgement is left to it.

>>> import numpy as np
>>> action_features(np.zeros((2, 465), dtype=np.float32)).shape
(2, 77, 26)
"""

from __future__ import annotations

from functools import cache

import numpy as np

INPUTS = ("observation", "observation+mask", "observation+mask+needs")
"""What a policy's first layer reads: the observation; or it followed by the legal mask (0/1); or those followed by
what each card still needs (`needs`, classic only)."""

_MARKET = [18 + 12 * slot for slot in range(12)]
"""Where each face-up card of classic's observation starts (docs/rl.md: 12 values a card, after 18 of header)."""
_RESERVED = [213 + 17 * r + 5 for r in range(3)]
"""Where the card of each of the viewer's reserved places starts (after its present, face down and tier values)."""
_NOBLES = [162 + 7 * k for k in range(5)]
"""Where each noble starts (present, points / 3, bonuses required / 4)."""
_VIEWER, _OTHER = 197, 264
"""Where the viewer's seat and the next seat's start (present, points, 6 tokens, 5 bonuses, …)."""
_ROUND, _GOLD_SUPPLY = 3, 14
"""Where the round / 50 and the gold tokens in the supply / 7 are."""
NEEDS_SIZE = 15 * 6 + 12
"""How many values `needs` adds."""

ACTION_FEATURES = (
    "my points / 15",
    "next seat's points / 15",
    "my tokens / 10",
    "round / 50",
    "takes tokens",
    "reserves a face-up card",
    "reserves from a deck",
    "buys",
    "returns a token",
    "chooses a noble, or passes",
    "the card's points / 5",
    "the card's worth / 10: points, and 3 / (bonuses missing + 1) for each noble its colour brings closer",
    "tokens the card still needs after bonuses, tokens and gold / 10",
    "tokens the card costs after bonuses / 10",
    "gold the card takes to buy now / 5",
    "the share of the visible cards' unmet costs in the card's bonus colour",
    "nobles the card's bonus would complete",
    "the visible cards' needs met by the token move, each weighted by worth / (1 + need)^1.3, / 5",
    "needs met for the card of the highest such score / 3",
    "needs met for the card of the second highest / 3",
    "cards the token move makes affordable / 3",
    "tokens gained (returned: negative) / 3",
    "tokens above ten after it / 3",
    "the share of unmet costs in the colours gained",
    "a reserve that brings a gold token with no return forced (gold in the supply, fewer than ten tokens held)",
    "returns gold; and the tokens held of the colour returned / 7",
)
"""What `action_features` gives for each action, in order (0 where it does not apply: a take has no card)."""


@cache
def _kinds() -> dict[str, np.ndarray]:
    """Classic's actions of each kind (take, take2, reserve, reserve_deck, buy, buy_reserved, return, noble, pass),
    in the game's action index; those of a card are in the order of the cards (tier by tier, slot by slot)."""
    from splendor.games.classic.notation import ACTIONS

    kinds: dict[str, list[int]] = {}
    for a in range(len(ACTIONS)):
        kinds.setdefault(ACTIONS[a].kind, []).append(a)
    return {kind: np.array(actions) for kind, actions in kinds.items()}


@cache
def _token_moves() -> tuple[np.ndarray, np.ndarray]:
    """Classic's actions that move tokens (takes and returns), and each one's change to the mover's 6 token counts."""
    from splendor.games.classic.notation import ACTIONS

    moves = np.concatenate([_kinds()[kind] for kind in ("take", "take2", "return")])
    change = np.zeros((len(moves), 6), dtype=np.float32)
    for row, a in enumerate(moves):
        action = ACTIONS[int(a)]
        step = {"take": 1, "take2": 2, "return": -1}[action.kind]
        for colour in action.args:
            change[row, colour] += step
    return moves, change


@cache
def _card_actions() -> tuple[np.ndarray, np.ndarray]:
    """The actions that buy or reserve a visible card, and the card each one is of (0-11 face-up, 12-14 reserved)."""
    kinds = _kinds()
    actions = np.concatenate([kinds["reserve"], kinds["buy"], kinds["buy_reserved"]])
    cards = np.concatenate([np.arange(12), np.arange(12), np.arange(12, 15)])
    return actions, cards


def needs(observations: np.ndarray) -> np.ndarray:
    """What the cards still need, read from classic observations (one, or a batch): for each face-up card and
    each of the viewer's reserved cards, the tokens of each colour the viewer lacks after its bonuses and tokens
    (/ 7) and the total it lacks after its gold (/ 15, at most 1); then for each face-up card the total the next
    seat lacks. An absent card needs nothing."""
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


def action_features(observations: np.ndarray) -> np.ndarray:
    """What each of classic's 77 actions would do, from the viewer's observation (one: shape (77, 26); a batch:
    (n, 77, 26)), the values of `ACTION_FEATURES`: the position's context, the kind of action, the card a buy or
    reserve is of (its points, its worth towards the nobles, what it still needs), and how far a take or a return
    brings the visible cards (face-up and the viewer's reserved) towards being bought. A policy scores every
    action with one small network over these (`splendor.bots.learned.Policy`'s scorer), so what it learns of one
    card slot or one take holds for all of them."""
    obs = np.asarray(observations, dtype=np.float32)
    single = obs.ndim == 1
    obs = obs[None] if single else obs
    n = obs.shape[0]
    counts = np.rint(obs * 7.0)
    starts = _MARKET + _RESERVED
    present = np.stack([obs[:, at] for at in starts], axis=1)  # (n, 15)
    points = np.stack([np.rint(obs[:, at + 1] * 5.0) for at in starts], axis=1)
    bonus = np.stack([obs[:, at + 2 : at + 7] for at in starts], axis=1)  # (n, 15, 5) one-hot
    cost = np.stack([counts[:, at + 7 : at + 12] for at in starts], axis=1)
    tokens = counts[:, _VIEWER + 2 : _VIEWER + 8]  # (n, 6), gold last
    bonuses = counts[:, _VIEWER + 8 : _VIEWER + 13]
    required = np.stack([np.rint(obs[:, at + 2 : at + 7] * 4.0) for at in _NOBLES], axis=1)  # (n, 5 nobles, 5)
    noble_present = np.stack([obs[:, at] for at in _NOBLES], axis=1)
    missing = np.maximum(required - bonuses[:, None], 0).sum(-1)  # (n, 5 nobles)
    wanted = (required > bonuses[:, None]) * noble_present[..., None]  # (n, nobles, colours)
    pull = (wanted * (3.0 / (missing + 1.0))[..., None]).sum(1)  # (n, colours)
    completes = (wanted * (missing == 1)[..., None]).sum(1)
    worth = points + (bonus * pull[:, None]).sum(-1)  # (n, 15)
    unmet = np.maximum(cost - bonuses[:, None], 0)  # (n, 15, 5)
    demand = (unmet * present[..., None]).sum(1)
    demand = demand / np.maximum(demand.sum(-1, keepdims=True), 1.0)

    def need(held: np.ndarray) -> np.ndarray:
        """Tokens each card still needs after ``held`` ((n, 6) or (n, moves, 6)) and gold."""
        costs = unmet if held.ndim == 2 else unmet[:, None]
        short = np.maximum(costs - held[..., None, :5], 0).sum(-1)
        return np.maximum(short - held[..., None, 5], 0)

    need_now = need(tokens)  # (n, 15)
    score = np.where(present > 0, worth / (1.0 + need_now) ** 1.3, -1.0)
    ranked = np.argsort(-score, axis=1, kind="stable")
    rows = np.arange(n)

    f = np.zeros((n, 77, len(ACTION_FEATURES)), dtype=np.float32)
    held = tokens.sum(-1)
    f[:, :, 0] = obs[:, _VIEWER + 1, None]
    f[:, :, 1] = obs[:, _OTHER + 1, None]
    f[:, :, 2] = held[:, None] / 10.0
    f[:, :, 3] = obs[:, _ROUND, None]
    kinds = _kinds()
    for column, of in enumerate(
        (("take", "take2"), ("reserve",), ("reserve_deck",), ("buy", "buy_reserved"), ("return",), ("noble", "pass"))
    ):
        f[:, np.concatenate([kinds[kind] for kind in of]), 4 + column] = 1.0

    acts, cards = _card_actions()
    f[:, acts, 10] = points[:, cards] / 5.0
    f[:, acts, 11] = worth[:, cards] / 10.0
    f[:, acts, 12] = np.minimum(need_now[:, cards], 15.0) / 10.0
    f[:, acts, 13] = unmet.sum(-1)[:, cards] / 10.0
    f[:, acts, 14] = np.maximum(unmet - tokens[:, None, :5], 0).sum(-1)[:, cards] / 5.0
    f[:, acts, 15] = (bonus[:, cards] * demand[:, None]).sum(-1)
    f[:, acts, 16] = (bonus[:, cards] * completes[:, None]).sum(-1)

    moves, change = _token_moves()
    after = tokens[:, None, :] + change[None]  # (n, moves, 6)
    need_after = need(after)  # (n, moves, 15)
    met = (need_now[:, None] - need_after) * present[:, None]
    f[:, moves, 17] = (met * np.maximum(score, 0.0)[:, None]).sum(-1) / 5.0
    f[:, moves, 18] = met[rows, :, ranked[:, 0]] / 3.0
    f[:, moves, 19] = met[rows, :, ranked[:, 1]] / 3.0
    f[:, moves, 20] = ((need_after == 0) & (need_now[:, None] > 0) & (present[:, None] > 0)).sum(-1) / 3.0
    f[:, moves, 21] = change.sum(-1)[None] / 3.0
    f[:, moves, 22] = np.maximum(after.sum(-1) - 10.0, 0.0) / 3.0
    f[:, moves, 23] = (change[None, :, :5] * demand[:, None]).sum(-1)
    reserves = np.concatenate([kinds["reserve"], kinds["reserve_deck"]])
    f[:, reserves, 24] = ((obs[:, _GOLD_SUPPLY] > 0) & (held < 10))[:, None]
    f[:, kinds["return"], 25] = tokens / 7.0
    f[:, kinds["return"][5], 25] += 1.0
    return f[0] if single else f


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
