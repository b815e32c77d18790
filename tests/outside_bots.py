"""Outside bots for tests: small programs that speak the line protocol (docs/bots.md), each doing what a test asks
at its decisions."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path


def outside_bot(tmp_path: Path, body: str, start: str = "pass", end: str = "break") -> str:
    """An outside bot's command: at each decision it runs ``body`` (``m`` is the message), at the start ``start``
    before it answers ready, at the end ``end``."""
    script = tmp_path / "bot.py"
    script.write_text(
        textwrap.dedent(f"""
        import json, sys, time
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "start":
        {textwrap.indent(textwrap.dedent(start), "        ")}
                print(json.dumps({{"type": "ready", "name": "test"}}), flush=True)
            elif m["type"] == "decide":
        {textwrap.indent(textwrap.dedent(body), "        ")}
            else:
        {textwrap.indent(textwrap.dedent(end), "        ")}
        """)
    )
    return f"{sys.executable} {script}"


def telling_its_end(tmp_path: Path, body: str) -> tuple[str, Path]:
    """An outside bot's command (``body`` at each decision, as `outside_bot`) that writes the end message it is sent
    to a file, and that file: a test reads what the bot was told of how its game ended."""
    log = tmp_path / "end.json"
    return outside_bot(tmp_path, body, end=f"open({str(log)!r}, 'w').write(json.dumps(m))"), log
