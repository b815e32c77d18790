"""The Bot protocol and the registry of bots by name."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from splendor.core.actions import Action, number
from splendor.core.game import Game
from splendor.i18n import N_


@dataclass(frozen=True)
class Decision:
    """What a bot is shown when it must decide: its seat's view and the legal actions, nothing hidden.

    ``sample(rng)`` deals a full state consistent with the view (the engine's ``determinize``), for bots that
    search; the real hidden state is never handed over.
    """

    game: str
    seat: int
    view: dict[str, Any]
    legal: list[Action]
    sample: Callable[[random.Random], Game] | None = field(default=None, compare=False, repr=False)


class Forfeit(Exception):
    """A bot lost its game by failing to answer properly (late, illegal, malformed, or not at all)."""

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(f"seat {seat} forfeits: {reason}")
        self.seat = seat
        self.reason = reason


def ending(game: Game, forfeit: dict[str, Any] | None = None) -> dict[str, Any]:
    """How a game ended, as its bots are told at the end: the game's own result, or after a forfeit (``{"seat",
    "bot", "reason"}``) status ``forfeit``, every other seat a winner, and the forfeit itself."""
    if forfeit is None:
        return dict(game.result)
    winners = [s for s in range(game.players) if s != forfeit["seat"]]
    return {**game.result, "status": "forfeit", "winners": winners, "forfeit": forfeit}


def finish_bots(bots: Any, result: dict[str, Any]) -> None:
    """Tell every bot that has a ``finish`` (an outside program) how the game ended, and let it stop."""
    for bot in bots:
        finish = getattr(bot, "finish", None)
        if finish is not None:
            finish(result)


class Bot(Protocol):
    """Anything with a name that picks one of the legal actions from what its seat may see."""

    name: str

    def choose(self, decision: Decision) -> Action:
        """One action from ``decision.legal``."""
        ...


BOTS: dict[str, str] = {
    "random": "splendor.bots.random:RandomBot",
    "greedy": "splendor.bots.greedy:GreedyBot",
    "ismcts": "splendor.bots.search:SearchBot",
    "cmd": "splendor.bots.external:ExternalBot",
    "ppo": "splendor.envs.ppo_bot:PPOBot",  # a bot of the rl layer, found by name: bots import no env
    "learned": "splendor.envs.learned_bot:LearnedBot",  # the same: it plays a splendor.bots.learned policy
    "policy": "splendor.bots.policy:PolicyBot",
}
BOT_SPECS = (
    "random, greedy, ismcts[:easy|medium|hard|advanced|expert|ITERATIONS][@compiled|reference], "
    "ismcts:LEVEL/SECONDS, cmd:PROGRAM, learned[:POLICY.npz], ppo:MODEL.zip, policy:random|buyfirst|playout|greedy"
)


# A bot's name as players say it (English, and a message of the catalogs that the pages translate).
BOT_NAMES = {
    "random": N_("Random bot"),
    "greedy": N_("Greedy bot"),
    "easy": N_("Easy bot"),
    "medium": N_("Medium bot"),
    "hard": N_("Hard bot"),
    "advanced": N_("Advanced bot"),
    "expert": N_("Expert bot"),
    "cmd": N_("Outside program"),
    "ppo": N_("Learned bot"),
    "learned": N_("Learned bot"),
    "policy": N_("Playout policy"),
}


def bot_display_name(spec: str) -> str:
    """A bot's name as players say it, from its spec.

    >>> bot_display_name("greedy"), bot_display_name("ismcts:hard"), bot_display_name("ismcts:800")
    ('Greedy bot', 'Hard bot', 'Search bot (800 iterations)')
    """
    name, _, arg = spec.strip().partition(":")
    if name.lower() == "ismcts":
        level = (arg.partition("@")[0] or "medium").lower()
        if level.isdigit():
            return f"Search bot ({level} iterations)"
        return BOT_NAMES.get(level, f"{level.capitalize()} bot")
    return BOT_NAMES.get(name.lower(), f"{name.capitalize()} bot")


def bot_for(spec: str, game: str, seed: int = 0) -> Bot:
    """`make_bot`, and refused (``ValueError``) now where the bot does not play ``game``: a bot that plays some
    games alone has a ``check_game(game)`` that says so (``policy:greedy``, ``learned``), where its first decision
    had said it, in a worker, after a tournament began."""
    bot = make_bot(spec, seed)
    check = getattr(bot, "check_game", None)
    if check is not None:
        check(game)
    return bot


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its spec: ``random``, ``greedy``, ``ismcts:hard`` (or ``ismcts:800`` iterations; a search
    runs on the compiled engine where it can, ``ismcts:hard@reference`` forces the Python one; ``ismcts:hard/0.5``
    searches as hard does for half a second a move, by the clock, so not reproducibly), ``cmd:./mybot``
    (an outside program speaking the line protocol), ``learned`` (the policy learned for the game, played with
    NumPy) or ``learned:policy.npz``, ``policy:playout`` (a compiled playout policy: ``random``, ``buyfirst``,
    ``playout``, ``greedy`` in classic, the vectorised environments' opponents). ``ValueError`` names the known bots."""
    name, _, arg = spec.strip().partition(":")
    name = name.lower()
    if name not in BOTS or (name in ("cmd", "ppo", "policy") and not arg) or (name in ("random", "greedy") and arg):
        raise ValueError(f"unknown bot {spec!r}; the bots are {BOT_SPECS}")
    module, _, attr = BOTS[name].partition(":")
    cls = getattr(importlib.import_module(module), attr)
    bot: Bot
    if name == "ismcts":
        level, at, engine = arg.lower().partition("@")
        level = level or "medium"
        engine = engine if at else "auto"
        if engine not in ("compiled", "reference", "auto") or (at and engine == "auto"):
            raise ValueError(f"unknown bot {spec!r}; the bots are {BOT_SPECS}")
        level, slash, limit = level.partition("/")
        seconds = _seconds(limit) if slash else None
        if slash and seconds is None and number(level) is None:
            try:
                float(limit)
            except ValueError:
                pass
            else:  # a number, out of bounds: said so, not as an unknown bot
                raise ValueError(f"{spec!r}: a search bot's time a move is 0.001 to 600 seconds, not {limit}")
        if slash and (seconds is None or number(level) is not None):
            raise ValueError(f"unknown bot {spec!r}; the bots are {BOT_SPECS}")
        iterations = number(level)
        bot = (
            cls(seed=seed, iterations=iterations, engine=engine)
            if iterations is not None
            else cls(seed=seed, level=level, engine=engine, seconds=seconds)
        )
    elif name in ("cmd", "ppo", "learned", "policy"):
        bot = cls(arg, seed=seed)
    else:
        bot = cls(seed=seed)
    return bot


def _seconds(text: str) -> float | None:
    """A time limit of a bot spec (``/0.5``: half a second a move), or None when it is not one."""
    try:
        seconds = float(text)
    except ValueError:
        return None
    return seconds if 0.001 <= seconds <= 600 else None


def decision_for(game: Game) -> Decision:
    """The Decision of the seat that must decide now: its view, the legal actions, and a sampler."""
    seat = game.current_player
    if seat is None:
        raise ValueError("the game is over: nobody has a decision to make")
    return Decision(
        game=game.name,
        seat=seat,
        view=game.view(seat),
        legal=game.legal_actions(),
        sample=lambda rng: game.determinize(seat, rng),
    )


def decide(bot: Bot, game: Game) -> Action:
    """Ask ``bot`` for the current player's action, showing it only that seat's view."""
    decision = decision_for(game)
    action = bot.choose(decision)
    if not isinstance(action, Action) or action not in decision.legal:
        raise ValueError(f"bot {bot.name} chose {action}, which is not legal now")
    return action
