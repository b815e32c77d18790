"""Outside bots: a program that speaks JSON lines on its standard input and output (as UCI does for chess).

The protocol, version 1 (one JSON object a line; see ``docs/bots.md`` and ``examples/outside_bot.py``):

- to the bot, once: ``{"type": "start", "protocol": 1, "game": "classic", "players": 2, "seat": 0}``;
  the bot answers ``{"type": "ready", "name": "my bot"}``.
- to the bot, at each of its decisions: ``{"type": "decide", "seat": 0, "view": {...}, "legal": ["take w b g",
  ...], "time_limit": 5.0}``; the bot answers ``{"type": "action", "action": "take w b g"}`` within
  ``time_limit`` seconds.
- to the bot, at the end: ``{"type": "end", "result": {...}}``; then its input closes and it should exit.

A bot that answers late, with something that is not a legal action, with malformed JSON, or not at all (it
crashed or closed its output) forfeits: `Forfeit` says why, and the arena records it and goes on.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
from typing import Any

from splendor.bots.base import Decision, Forfeit
from splendor.core.actions import Action

PROTOCOL = 1
START_TIMEOUT = 10.0


class ExternalBot:
    """Runs ``program`` (a command line) for one game and asks it for each decision of its seat."""

    def __init__(self, program: str, seed: int = 0, time_limit: float = 5.0) -> None:
        self.program = program
        self.name = f"cmd:{program}"
        self.time_limit = time_limit
        self.seed = seed
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()

    def _start(self, decision: Decision) -> None:
        try:
            self._proc = subprocess.Popen(
                shlex.split(self.program),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as e:
            raise Forfeit(decision.seat, f"the bot program could not start: {e}") from None
        threading.Thread(target=self._read, daemon=True).start()
        self._send(
            {
                "type": "start",
                "protocol": PROTOCOL,
                "game": decision.game,
                "players": decision.view["players"],
                "seat": decision.seat,
                "seed": self.seed,
            },
            decision.seat,
        )
        reply = self._receive(decision.seat, START_TIMEOUT)
        if reply.get("type") != "ready":
            raise Forfeit(decision.seat, f'the bot answered the start with {reply!r}, not {{"type": "ready"}}')
        name = reply.get("name")
        if isinstance(name, str) and name.strip():
            self.name = f"cmd:{name.strip()[:40]}"

    def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        for line in self._proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _send(self, message: dict[str, Any], seat: int) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise Forfeit(seat, "the bot closed its input (it has probably crashed)") from None

    def _receive(self, seat: int, timeout: float) -> dict[str, Any]:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise Forfeit(seat, f"no answer within {timeout:g} s") from None
        if line is None:
            raise Forfeit(seat, "the bot closed its output (it has probably crashed)")
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            raise Forfeit(seat, f"the bot's answer is not JSON: {line.strip()[:80]!r}") from None
        if not isinstance(message, dict):
            raise Forfeit(seat, f"the bot's answer is not a JSON object: {line.strip()[:80]!r}")
        return message

    def choose(self, decision: Decision) -> Action:
        if self._proc is None:
            self._start(decision)
        self._send(
            {
                "type": "decide",
                "seat": decision.seat,
                "view": decision.view,
                "legal": [a.text for a in decision.legal],
                "time_limit": self.time_limit,
            },
            decision.seat,
        )
        reply = self._receive(decision.seat, self.time_limit)
        text = reply.get("action")
        if reply.get("type") != "action" or not isinstance(text, str):
            raise Forfeit(decision.seat, f'the bot answered {reply!r}, not {{"type": "action", ...}}')
        for action in decision.legal:
            if action.text == text.strip():
                return action
        raise Forfeit(decision.seat, f"the bot chose {text!r}, which is not a legal action now")

    def finish(self, result: dict[str, Any]) -> None:
        """Tell the program the game is over, and stop it."""
        if self._proc is None:
            return
        try:
            if self._proc.poll() is None and self._proc.stdin is not None:
                self._proc.stdin.write(json.dumps({"type": "end", "result": result}) + "\n")
                self._proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        self.close()

    def close(self) -> None:
        """Stop the program (at once if it does not exit within a second)."""
        if self._proc is None:
            return
        try:
            self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._proc = None
