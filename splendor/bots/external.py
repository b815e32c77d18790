"""Outside bots: a program that speaks JSON lines on its standard input and output (as UCI does for chess).

The protocol, version 1 (one JSON object a line; see ``docs/bots.md`` and ``examples/outside_bot.py``):

- to the bot, once: ``{"type": "start", "protocol": 1, "game": "classic", "players": 2, "seat": 0}``;
  the bot answers ``{"type": "ready", "name": "my bot"}``.
- to the bot, at each of its decisions: ``{"type": "decide", "seat": 0, "view": {...}, "legal": ["take w b g",
  ...], "time_limit": 5.0}``; the bot answers ``{"type": "action", "action": "take w b g"}`` within
  ``time_limit`` seconds.
- to the bot, at the end: ``{"type": "end", "result": {...}}``; then its input closes and it should exit.

A bot that answers late, with something that is not a legal action (its text exactly as ``legal`` lists it, spaces
around it aside), with malformed JSON, with a line over a mebibyte, with a line it was not asked for, or not at all
(it crashed or closed its output) forfeits: `Forfeit` says why, and the arena records it and goes on. The ``seed``
of the start is the bot's own, drawn afresh for each game: it tells nothing of the deal. The program runs in a
process group of its own, stopped whole at the end (a wrapper's children too); of what it writes on its standard
error only the last line is kept, quoted when it crashes.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import queue
import secrets
import selectors
import shlex
import signal
import subprocess
import threading
import time
from typing import Any

from splendor.bots.base import Decision, Forfeit
from splendor.core import workers
from splendor.core.actions import Action

PROTOCOL = 1
START_TIMEOUT = 10.0
MAX_LINE = 1 << 20
"""The longest line a bot may send (bytes): a longer one forfeits, and nothing more of it is read."""
SHOWN = 200
"""The most characters of a bot's answer a forfeit's reason quotes."""
MAX_UNREAD = 4 * MAX_LINE
"""The most a bot may have sent that was not yet read as an answer (bytes): past it, it forfeits (a flood)."""
LAST_WORDS = 2048
"""How much of the end of a bot's standard error is kept, to quote when it crashes (bytes)."""
GRACE = 0.05
"""Seconds after an answer before the next decision is asked, unless they have passed already: what the bot wrote
just after its answer (an answer sent twice, in two writes) reaches the reader by then, and forfeits as unasked."""
END_TIMEOUT = 1.0
"""Seconds the program's input may stay full before the game's end is given up on (it is stopped all the same)."""
EXIT_POLL = 0.2
"""How often a wait for an answer looks whether the program is still running."""
EXIT_GRACE = 0.5
"""Seconds after the program is seen to have exited that what it wrote may still come; then it forfeits as crashed,
though a child it started holds its output open."""
FLOOD = b""
"""What the reader queues when a bot sent more than ``MAX_UNREAD`` (a read never gives empty bytes otherwise)."""


def _shown(text: str) -> str:
    """``text`` cut to ``SHOWN`` characters for a forfeit's reason."""
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


_RUNNING: set[int] = set()
"""The process groups of the programs this process started and has not stopped (each its leader's pid)."""


def stop_every_program() -> None:
    """Kill every program this process started, with all they started: what a worker process stopped mid-cleanup
    does before it ends (`splendor.core.workers.STOP_HOOKS`)."""
    for pid in list(_RUNNING):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if hasattr(os, "killpg"):
                os.killpg(pid, signal.SIGKILL)
            else:
                os.kill(pid, signal.SIGTERM)
        _RUNNING.discard(pid)


workers.STOP_HOOKS.append(stop_every_program)


class ExternalBot:
    """Runs ``program`` (a command line) for one game and asks it for each decision of its seat."""

    def __init__(self, program: str, seed: int = 0, time_limit: float = 5.0) -> None:
        """``seed`` is accepted as every bot's is, and not passed on: the program gets a seed drawn afresh, since
        one derived from the game's would let it work out the deal (the decks' order). ``ValueError`` for a command
        that cannot be read as one (an unclosed quote), named: it had been a bare "No closing quotation"."""
        try:
            words = shlex.split(program)
        except ValueError as e:
            raise ValueError(f"cmd:{program}: {e} (quote a word with spaces as a shell does)") from None
        if not words:
            raise ValueError("cmd: names no program")
        self.program = program
        self.name = f"cmd:{program}"
        self.time_limit = time_limit
        self.seed = secrets.randbits(31)
        self._proc: subprocess.Popen[bytes] | None = None
        self._chunks: queue.Queue[bytes | None] = queue.Queue()  # as the program wrote them; None: it closed
        self._unread = 0  # bytes queued, not yet taken into ``_buffer``
        self._unread_lock = threading.Lock()
        self._buffer = bytearray()  # what was taken from the queue and not yet read as a line
        self._answered_at = 0.0  # when the last answer was read (time.monotonic)
        self.started = False  # whether the program was started, and so given ``seed`` (at its first decision)
        self._errors = b""  # the end of what it wrote on its standard error
        self._errors_done = threading.Event()  # set when its standard error was read to its end, or let go
        self._closing = threading.Event()  # set by close: the standard error's reader lets go
        self._exited_at: float | None = None  # when the program was first seen to have exited (time.monotonic)

    def start(self, game: str, players: int, seat: int) -> None:
        """Start the program for a game of ``game`` for ``players``, its seat ``seat``, and wait for its ready: at its
        first decision, or before it (an environment starts its opponents with the episode, so that one that cannot
        start is said at once, whichever seat moves first). `Forfeit` when it cannot start or does not answer."""
        try:
            self._proc = subprocess.Popen(
                shlex.split(self.program),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # a group of its own: stopped whole, a wrapper's children too
            )
            _RUNNING.add(self._proc.pid)
        except OSError as e:
            if isinstance(e, PermissionError) and os.path.isdir(shlex.split(self.program)[0]):
                raise Forfeit(
                    seat, f"the bot program could not start: {shlex.split(self.program)[0]} is a folder"
                ) from None
            raise Forfeit(seat, f"the bot program could not start: {e}") from None
        self.started = True
        assert self._proc.stdin is not None
        if os.name == "posix":  # written without waiting where a pipe can be watched (Windows' select takes sockets)
            os.set_blocking(self._proc.stdin.fileno(), False)
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()
        self._send(
            {
                "type": "start",
                "protocol": PROTOCOL,
                "game": game,
                "players": players,
                "seat": seat,
                "seed": self.seed,
            },
            seat,
            START_TIMEOUT,
        )
        try:
            reply = self._receive(seat, START_TIMEOUT)
        except Forfeit as f:  # say it was the start a silent program never answered, not a decision
            if not f.reason.startswith("no answer"):
                raise
            raise Forfeit(seat, f'no answer to the start within {START_TIMEOUT:g} s (no {{"type": "ready"}})') from None
        if reply.get("type") != "ready":
            answered = _shown(repr(reply))
            raise Forfeit(seat, f'the bot answered the start with {answered}, not {{"type": "ready"}}')
        name = reply.get("name")
        if isinstance(name, str) and name.strip():
            self.name = f"cmd:{name.strip()[:40]}"

    def _read(self) -> None:
        """Queue what the program writes, as it writes it: two lines written at once arrive together, so a line
        written with an answer is seen before the next decision (`_nothing_unasked`)."""
        assert self._proc is not None and self._proc.stdout is not None
        stream = self._proc.stdout  # held here: read by its number, a closed pipe's could be another game's
        assert isinstance(stream, io.BufferedReader)  # bytes, buffered (Popen's default): read1 gives what came
        while chunk := stream.read1(1 << 16):
            with self._unread_lock:
                self._unread += len(chunk)
                flood = self._unread > MAX_UNREAD
            self._chunks.put(FLOOD if flood else chunk)
            if flood:
                return  # and read no more: the bot forfeits
        self._chunks.put(None)

    def _read_errors(self) -> None:
        """Keep the last ``LAST_WORDS`` bytes the program writes on its standard error (read as it writes, so it
        never waits on a full pipe): a crash's forfeit quotes them, where Python's traceback had been lost. It
        stops at the end of the stream or when the bot is closed (``_closing``): a helper the program started in
        a session of its own may hold the stream open after the program is gone."""
        assert self._proc is not None and self._proc.stderr is not None
        stream = self._proc.stderr
        try:
            waiting = selectors.DefaultSelector()
            try:
                waiting.register(stream, selectors.EVENT_READ)
            except (OSError, ValueError):  # no selector for a pipe (Windows): read it to its end, never leave it full
                waiting.close()
                while chunk := os.read(stream.fileno(), 1 << 16):
                    self._errors = (self._errors + chunk)[-LAST_WORDS:]
                return
            with waiting:
                while not self._closing.is_set():
                    if not waiting.select(timeout=0.1):
                        continue
                    chunk = os.read(stream.fileno(), 1 << 16)
                    if not chunk:
                        break
                    self._errors = (self._errors + chunk)[-LAST_WORDS:]
        except (OSError, ValueError):  # the stream is gone: no more last words
            pass
        finally:
            self._errors_done.set()
            with contextlib.suppress(OSError):
                stream.close()

    def _crashed(self, what: str) -> str:
        """Why a bot that closed ``what`` (or exited) forfeits, with the end of what it said on its standard error."""
        assert self._proc is not None
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=1.0)  # a crashing program's last words come as it exits
        self._errors_done.wait(0.3)  # read by then, unless something else holds the stream open
        said = self._errors.decode("utf-8", errors="replace").strip()
        code = self._proc.poll()
        if code is None or self._exited_at is None:
            reason = f"the bot closed its {what} (it has probably crashed)"
        elif code < 0:
            reason = f"the bot's program was killed (signal {-code})"
        else:
            reason = f"the bot's program exited (code {code})"
        if said:
            reason += f"; the end of its standard error: {said.splitlines()[-1][-SHOWN:]!r}"
        return reason

    def _take(self, seat: int, timeout: float | None) -> bool:
        """Move the next chunk into ``_buffer``, waiting ``timeout`` seconds at most (None: not at all); False when
        none came. Forfeits when the program closed its output or flooded it."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                if deadline is None:
                    chunk = self._chunks.get_nowait()
                else:
                    chunk = self._chunks.get(timeout=max(0.0, min(EXIT_POLL, deadline - time.monotonic())))
                break
            except queue.Empty:
                if deadline is None or time.monotonic() >= deadline:
                    return False
                if self._exited_at is None and self._proc is not None and self._proc.poll() is not None:
                    self._exited_at = time.monotonic()
                if self._exited_at is not None and time.monotonic() - self._exited_at > EXIT_GRACE:
                    # gone, though a child it started holds its output open: its crash is said now, with its
                    # last words, not at the end of the time limit as "no answer"
                    raise Forfeit(seat, self._crashed("output")) from None
        if chunk is None:
            self._chunks.put(None)  # closed for good: said again to whoever reads next
            raise Forfeit(seat, self._crashed("output"))
        if chunk == FLOOD:
            raise Forfeit(seat, f"the bot sent over {MAX_UNREAD} bytes it was not asked for")
        with self._unread_lock:
            self._unread -= len(chunk)
        self._buffer += chunk
        return True

    def _send(self, message: dict[str, Any], seat: int, timeout: float) -> None:
        """Write ``message`` as a line to the program's input within ``timeout`` seconds. A program that stopped
        reading, its pipe full, forfeits: a bot that shrank its pipe and never read again had held a tournament
        for ever, the time limit counting only once the message was written."""
        assert self._proc is not None and self._proc.stdin is not None
        data = memoryview((json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8"))
        stream = self._proc.stdin
        deadline = time.monotonic() + timeout
        try:
            with selectors.DefaultSelector() as waiting:
                try:
                    if not hasattr(os, "get_blocking") or os.get_blocking(stream.fileno()):
                        raise ValueError("written without waiting")  # set in start, where the platform can
                    waiting.register(stream.fileno(), selectors.EVENT_WRITE)
                except (OSError, ValueError):  # no waiting on a pipe here (Windows): written whole, as before
                    with contextlib.suppress(AttributeError):
                        os.set_blocking(stream.fileno(), True)
                    stream.write(data)
                    stream.flush()
                    return
                while data:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise Forfeit(seat, f"the bot did not read its input within {timeout:g} s (its input is full)")
                    if not waiting.select(timeout=left):
                        continue
                    with contextlib.suppress(BlockingIOError):
                        data = data[os.write(stream.fileno(), data) :]
        except (BrokenPipeError, OSError, ValueError):
            raise Forfeit(seat, self._crashed("input")) from None

    def _receive(self, seat: int, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while (end := self._buffer.find(b"\n")) < 0:
            if len(self._buffer) > MAX_LINE:
                raise Forfeit(seat, f"the bot sent a line over {MAX_LINE} bytes")
            left = deadline - time.monotonic()
            if left <= 0 or not self._take(seat, left):
                raise Forfeit(seat, f"no answer within {timeout:g} s")
        if end > MAX_LINE:
            raise Forfeit(seat, f"the bot sent a line over {MAX_LINE} bytes")
        line = self._buffer[:end].decode("utf-8", errors="replace")
        del self._buffer[: end + 1]
        self._answered_at = time.monotonic()
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            raise Forfeit(seat, f"the bot's answer is not JSON: {line.strip()[:80]!r}") from None
        if not isinstance(message, dict):
            raise Forfeit(seat, f"the bot's answer is not a JSON object: {line.strip()[:80]!r}")
        return message

    def _nothing_unasked(self, seat: int) -> None:
        """Forfeit when the bot sent a line since its last answer: one line answers each message, and a line
        left over would be read as the answer to the next decision. What it wrote with its answer, or within
        ``GRACE`` seconds after it, is always seen (the next decision waits until then); a line written later can
        still race the next decision, which the protocol cannot tell apart."""
        wait = self._answered_at + GRACE - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        while self._take(seat, None):
            pass
        if self._buffer.strip():
            extra = self._buffer.decode("utf-8", errors="replace").strip().splitlines()[0]
            raise Forfeit(seat, f"the bot sent a line it was not asked for: {_shown(extra)!r}")
        self._buffer.clear()

    def choose(self, decision: Decision) -> Action:
        if self._proc is None:
            self.start(decision.game, decision.view["players"], decision.seat)
        self._nothing_unasked(decision.seat)
        self._send(
            {
                "type": "decide",
                "seat": decision.seat,
                "view": decision.view,
                "legal": [a.text for a in decision.legal],
                "time_limit": self.time_limit,
            },
            decision.seat,
            self.time_limit,
        )
        reply = self._receive(decision.seat, self.time_limit)
        text = reply.get("action")
        if reply.get("type") != "action" or not isinstance(text, str):
            raise Forfeit(decision.seat, f'the bot answered {_shown(repr(reply))}, not {{"type": "action", ...}}')
        for action in decision.legal:
            if action.text == text.strip():
                return action
        raise Forfeit(
            decision.seat, f"the bot chose {_shown(repr(text))}, which is not one of the legal actions as listed now"
        )

    def finish(self, result: dict[str, Any]) -> None:
        """Tell the program the game is over, and stop it."""
        if self._proc is None:
            return
        if self._proc.poll() is None:
            with contextlib.suppress(Forfeit):  # a program that reads no more is stopped all the same
                self._send({"type": "end", "result": result}, -1, END_TIMEOUT)
        self.close()

    def close(self) -> None:
        """Stop the program: it has a second to exit, then its whole process group is killed (what it started
        goes with it)."""
        if self._proc is None:
            return
        self._closing.set()
        if self._proc.stdin is not None and not self._proc.stdin.closed:
            with contextlib.suppress(OSError):
                self._proc.stdin.close()  # its input ends: a bot reading it exits
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=1.0)
        with contextlib.suppress(ProcessLookupError, PermissionError):  # gone already, with all it started
            if hasattr(os, "killpg"):
                os.killpg(self._proc.pid, signal.SIGKILL)  # the group is the program's (start_new_session)
            else:  # no process groups (Windows): the program alone
                self._proc.kill()
        self._proc.wait()
        _RUNNING.discard(self._proc.pid)
        self._proc = None
