"""A game at the terminal: people type actions in the notation, bots answer on their own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from splendor.bots.base import Bot, decide, make_bot
from splendor.core.errors import IllegalAction
from splendor.core.game import Game
from splendor.terminal.draw import draw

HUMAN = "human"


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: a display name, and ``human`` or a bot's name."""

    name: str
    kind: str
    named: bool = False

    @classmethod
    def parse(cls, spec: str, index: int) -> Seat:
        """``human``, ``greedy``, or ``name:kind`` such as ``me:human``."""
        spec = spec.strip()
        if not spec:
            raise ValueError(f"seat {index} is empty; give human or a bot name")
        name, _, kind = spec.partition(":") if ":" in spec else ("", "", spec)
        kind = kind.strip().lower()
        if kind != HUMAN:
            make_bot(kind)  # raises ValueError naming the known bots
        if name.strip():
            return cls(name=name.strip(), kind=kind, named=True)
        return cls(name=f"{kind} {index}" if kind != HUMAN else f"player {index}", kind=kind)


class Quit(Exception):
    """The person at the keyboard left the game."""


def play_terminal(game: Game, seats: list[Seat], console: Console, ask: Callable[[str], str],
                  seed: int = 0) -> Game:
    """Play ``game`` to its end or until a person quits (raises `Quit`); returns the game."""
    bots: dict[int, Bot] = {s: make_bot(seat.kind, seed=seed * 16 + s)
                            for s, seat in enumerate(seats) if seat.kind != HUMAN}
    names = [seat.name for seat in seats]
    drawn_at = hinted_at = -1           # len(history) when the table was last drawn / choices last listed
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        if seat in bots:
            action = decide(bots[seat], game)
            game.apply(action)
            console.print(f"[cyan]{names[seat]}[/] (seat {seat}): {action}")
            continue
        view = game.view(seat)
        if drawn_at != len(game.history):
            console.print(draw(view, names))
            drawn_at = len(game.history)
        if view["decision"] != "action" and hinted_at != len(game.history):
            console.print(f"[bold]Choose ({view['decision']}):[/] " + " | ".join(view["legal_actions"]),
                          highlight=False)
            hinted_at = len(game.history)
        prompt = f"{names[seat]} (seat {seat}, {view['decision']}) > "
        try:
            line = ask(prompt)
        except EOFError:
            raise Quit from None
        command = line.strip().lower()
        if not command:
            continue
        if command in ("quit", "exit"):
            raise Quit
        if command == "help":
            console.print(type(game).notation_help, markup=False)
            console.print("Other commands: moves (list legal actions), board (draw the table again), quit.")
            continue
        if command in ("moves", "legal"):
            console.print("Legal now: " + " | ".join(a.text for a in game.legal_actions()), markup=False)
            continue
        if command in ("board", "show"):
            drawn_at = -1
            continue
        try:
            game.apply(line)
        except IllegalAction as e:
            console.print(f"[red]Not allowed:[/] {e}", markup=True, highlight=False)
            console.print("Type 'moves' to list what is legal, or 'help' for the notation.")
    return game


def describe_result(game: Game, names: list[str]) -> str:
    """The end of a game in words."""
    result = game.result
    scores = ", ".join(f"{names[s]} {p}" for s, p in enumerate(result["scores"]))
    if result["status"] == "truncated":
        return f"The game stopped at its turn cap with no winner. Points: {scores}."
    if result["status"] == "stalled":
        return f"No seat could act for a whole round, so the game ended there with no winner. Points: {scores}."
    winners = " and ".join(names[w] for w in result["winners"])
    verb = "share the victory" if result["status"] == "shared" else "wins"
    text = f"{winners} {verb}. Points: {scores}."
    if "tie_break" in result:
        text += f" ({result['tie_break']}.)"
    return text


def save_record(game: Game, path: str | Path) -> Path:
    """Write the game's record as text; returns the path written."""
    target = Path(path).expanduser()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(game.record.to_text(), encoding="utf-8")
    return target
