"""Splendor as a Gymnasium environment: one learning seat against the project's bots (or any callable).

``gymnasium.make("splendor/Classic-v0", players=2, opponents=["greedy"])`` (and ``splendor/Pokemon-v0``,
``splendor/Kids-v0``) once ``splendor.envs`` is imported. The observation is the learning seat's view as a
float32 vector (`splendor.envs.observe`); the action is an integer of `splendor.envs.actions.ActionIndex`, with
the legal ones marked in ``info["action_mask"]`` and by ``action_masks()`` (the name sb3-contrib's MaskablePPO
calls). An episode is one game; the learner is asked at each of its decisions (returns, nobles, evolutions
included) and the opponents play in between. At the end the reward is +1 for a win, 0 for a shared victory or a
game with no winner, -1 for a loss (``reward="score"``: the learner's score minus the best other score). A game
that reaches ``max_turns`` is ``truncated``. An illegal action ends the episode as a loss (reward -1,
``info["illegal"]`` says why): a learner that follows the mask never plays one. An opponent that fails (an outside
program that forfeits, a function that answers with no legal action) loses the game, as in the arena: the episode
ends there, ``info["forfeit"]`` says which seat and why, and the learner is rewarded as one of the winners. Outside
programs start with the episode: one that cannot start, or any forfeit before the learner's first decision, is
raised by ``reset``. An outside program is told each game's end and stopped then (and by ``close()``).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from splendor.bots.base import Bot, Forfeit, decide, ending, finish_bots, make_bot
from splendor.bots.external import ExternalBot
from splendor.core.actions import Action
from splendor.core.errors import IllegalAction
from splendor.core.game import Game
from splendor.envs.actions import ActionIndex
from splendor.envs.observe import observe, size
from splendor.envs.result import check_max_turns, outcome, player_count
from splendor.envs.text import table_text
from splendor.games import GAMES, new_game
from splendor.i18n import Message

Opponent = str | Bot | Callable[[dict[str, Any], list[str]], str]
"""A bot's spec (``"greedy"``, ``"ismcts:easy"``), a bot, or a function of (view, legal action texts) → text."""

REWARDS = ("win", "score")


class SplendorEnv(gymnasium.Env[np.ndarray, int]):
    """One game of ``game`` for ``players`` seats: the learner at ``seat``, ``opponents`` at the others in order."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012  # Gymnasium's Env declares it so

    def __init__(
        self,
        game: str = "classic",
        players: int = 2,
        opponents: Sequence[Opponent] | None = None,
        seat: int | None = 0,
        reward: str = "win",
        max_turns: int | None = 200,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; the games are {', '.join(sorted(GAMES))}")
        players = player_count(players)
        check_max_turns(players, max_turns)
        if seat is not None:
            place = None if isinstance(seat, bool) or not hasattr(seat, "__index__") else operator.index(seat)
            if place is None or not 0 <= place < players:
                raise ValueError(f"the learner's seat is 0 to {players - 1} or None (drawn each game), not {seat!r}")
            seat = place
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is 'ansi' or None, not {render_mode!r}")
        if opponents is None or isinstance(opponents, str):  # one spec: every other seat plays it
            opponents = [opponents or "greedy"] * (players - 1)
        # the vectorised environments' policies by their names there ("playout"), as their bot specs
        opponents = [f"policy:{o}" if isinstance(o, str) and o in ("playout", "buyfirst") else o for o in opponents]
        if len(opponents) != players - 1:
            raise ValueError(f"{players} players need {players - 1} opponents, not {len(opponents)}")
        for o in opponents:
            if isinstance(o, str):
                make_bot(o)  # a clear error now for an unknown spec
        self.game_name, self.players, self.reward_kind = game, players, reward
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        """The learner's seat in this episode: ``fixed_seat``, or (None) drawn by each ``reset``."""
        self.opponent_specs, self.max_turns, self.options = opponents, max_turns, options
        self.render_mode = render_mode
        self.game: Game = new_game(game, players=players, seed=0, max_turns=max_turns, **options)
        self.index = ActionIndex(self.game)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(size(game),), dtype=np.float32)
        self.action_space = spaces.Discrete(self.index.size)  # type: ignore[assignment]  # its values: NumPy ints
        self._opponents: dict[int, Callable[[Game], Action]] = {}
        self._bots: dict[int, Bot] = {}  # this game's bots made from specs, by seat: outside programs are told its end
        self._forfeit: dict[str, Any] | None = None
        self._ended = True  # until reset()
        self._mask, self._mask_of = np.zeros(self.index.size, dtype=bool), -1

    # ----------------------------------------------------------------- the Gymnasium protocol

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._finish()
        game_seed = int(self.np_random.integers(0, 2**31 - 1))
        if self.fixed_seat is None:  # drawn after the deal, so that a fixed seat's episodes stay as they were
            self.seat = int(self.np_random.integers(0, self.players))
        self.game = new_game(
            self.game_name, players=self.players, seed=game_seed, max_turns=self.max_turns, **self.options
        )
        self.index = ActionIndex(self.game)  # Kids: the roads of this game's board
        self._mask_of = -1
        others = [s for s in range(self.players) if s != self.seat]
        self._bots, self._forfeit = {}, None
        self._opponents = {
            s: self._opponent(spec, s, game_seed * 8 + s) for s, spec in zip(others, self.opponent_specs)
        }
        self._start_programs()
        self._play_opponents()
        if self._forfeit is not None:  # before the learner's first move: no episode to play, and nothing to learn
            self._ended = True
            self._finish()
            raise Forfeit(self._forfeit["seat"], self._forfeit["reason"])
        self._ended = self.game.is_over
        if self._ended:
            self._finish()
        return self._seen()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._ended:
            raise RuntimeError("the episode has ended: call reset() to start the next one")
        try:
            chosen = self.index.action(action)
            self.game.apply(chosen)
        except IllegalAction as e:
            observation, info = self._seen()
            info["illegal"] = str(e)
            self._ended = True
            self._finish({"seat": self.seat, "bot": "the learner", "reason": str(e)})  # it lost: they are told so
            return observation, -1.0, True, False, info
        self._play_opponents()
        over = self.game.is_over or self._forfeit is not None
        truncated = over and self.game.status == "truncated"
        reward = self._final_reward() if over else 0.0
        self._ended = over
        observation, info = self._seen()
        if over:
            self._finish()
        return observation, reward, over and not truncated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as a boolean vector over the action space (the one ``info`` carries)."""
        if self._mask_of != len(self.game.history):  # a game only grows until reset() forgets it
            self._mask, self._mask_of = self.index.mask(self.game), len(self.game.history)
        return self._mask

    def render(self) -> str | None:
        return table_text(self.game, self.seat) if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Stop this game's outside programs, if it is still going on."""
        self._finish()
        super().close()

    # ----------------------------------------------------------------- the parts

    def _opponent(self, spec: Opponent, seat: int, seed: int) -> Callable[[Game], Action]:
        if isinstance(spec, str):
            bot = make_bot(spec, seed=seed)
            self._bots[seat] = bot
            return lambda game: decide(bot, game)
        if hasattr(spec, "choose"):
            return lambda game: decide(spec, game)  # type: ignore[arg-type]  # a Bot: hasattr narrows nothing

        def ask(game: Game) -> Action:
            seat = game.current_player
            assert seat is not None
            answer = spec(game.view(seat), [a.text for a in game.legal_actions()])
            why: Message | str | None
            try:
                action = game.parse(answer)  # an action of the game, written well
                why = game.why_illegal(action)  # and legal now
            except IllegalAction as e:
                why = e.reason
            if why is not None:
                raise Forfeit(seat, f"the function answered {answer!r}: {why}")
            return action

        return ask

    def _play_opponents(self) -> None:
        """The opponents' decisions until the learner's, or the end; an opponent's failure ends the game as its
        forfeit."""
        try:
            while not self.game.is_over and self.game.current_player != self.seat:
                seat = self.game.current_player
                assert seat is not None
                self.game.apply(self._opponents[seat](self.game))
        except Forfeit as f:
            self._forfeit = {"seat": f.seat, "bot": self._name(f.seat), "reason": f.reason}
        except BaseException:  # a bot object's own error: raised, and this game is over, never played on
            self._ended = True
            self._finish()
            raise

    def _start_programs(self) -> None:
        """Start this game's outside programs now, with the episode: one that cannot start forfeits here, raised by
        ``reset`` whichever seat moves first (started at its first decision, it had forfeited in the learner's first
        step when the learner moved first, a free win every episode for a mistyped ``cmd:``)."""
        try:
            for seat, bot in self._bots.items():
                if isinstance(bot, ExternalBot):
                    bot.start(self.game.name, self.players, seat)
        except Forfeit as f:
            self._forfeit = {"seat": f.seat, "bot": self._name(f.seat), "reason": f.reason}

    def _name(self, seat: int) -> str:
        """The opponent of ``seat`` as the settings named it: its spec, a bot's name, a function's."""
        spec = self.opponent_specs[seat - (seat > self.seat)]
        if isinstance(spec, str):
            return spec
        return str(getattr(spec, "name", None) or getattr(spec, "__name__", None) or type(spec).__name__)

    def _finish(self, forfeit: dict[str, Any] | None = None) -> None:
        """Tell this game's outside programs how it ended (``forfeit``: the learner's, by an illegal action; else
        the game's own end or an opponent's forfeit), and stop them (once: a finished bot is let go)."""
        bots, self._bots = list(self._bots.values()), {}
        if any(hasattr(bot, "finish") for bot in bots):
            finish_bots(bots, ending(self.game, forfeit or self._forfeit))

    def _seen(self) -> tuple[np.ndarray, dict[str, Any]]:
        """The learner's observation and the info beside it, from one view of the game as it is now."""
        view = self.game.view(self.seat)
        info: dict[str, Any] = {
            "action_mask": self.action_masks().copy(),
            "view": view,
            "status": self.game.status,
            "seat": self.seat,
        }
        if self._forfeit is not None:
            info["status"], info["forfeit"] = "forfeit", self._forfeit
            info["action_mask"] = np.zeros_like(info["action_mask"])  # the game is over: nothing is legal
        return observe(view), info

    def _final_reward(self) -> float:
        if self._forfeit is not None:  # the seats that did not fail share the win
            winners = ending(self.game, self._forfeit)["winners"]
            return 1.0 if winners == [self.seat] else 0.0
        if self.reward_kind == "score":
            scores = self.game.scores
            return float(scores[self.seat] - max(s for i, s in enumerate(scores) if i != self.seat))
        return outcome(self.game, self.seat)
