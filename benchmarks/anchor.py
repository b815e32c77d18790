"""The project's bots against the strongest public Splendor AI: cestpasphoto's pretrained AlphaZero (AZG).

The anchor plays as an outside program: its repository is fetched apart (never copied into the project), it
runs in its own virtual environment (``.venv-anchor``: torch, onnxruntime, numba and the project), and the
adapter that seats it in our engine is the shared one (``../shared/anchors/azg/``: ``match.py`` and
``azg_seat.py``, which see only the anchor's seat's view). This script sets that up, runs the match in slices
over worker processes (game ``i`` deals seed ``seed * 100003 + i // N`` with ``N`` players; with two, AZG sits in
seat ``i % 2``, with three or four our bot sits in seat ``i % N`` and AZG in every other: every deal is played from
every seat), and writes the table with 95% Wilson intervals.

    python benchmarks/anchor.py setup                        # the anchor's venv (a few minutes, once)
    AZG_DIR=/path/to/alpha-zero-general \\
    python benchmarks/anchor.py match --bot ismcts:expert --games 200 --sims 400 --seed 2 --workers 2 \\
        --out runs/expert-vs-azg400
    python benchmarks/anchor.py match --players 3 --bot ismcts:expert --games 198 --sims 800 --seed 5 \\
        --out runs/3p-expert-vs-azg800       # our bot in one seat, AZG's 3-player network in the other two
    python benchmarks/anchor.py table runs/expert-vs-azg400 runs/hard-vs-azg400

``AZG_DIR`` defaults to ``<tempdir>/anchors/alpha-zero-general``, as the adapter's. Each worker loads the
anchor (about 45 s of Numba compilation) and then plays its slice one game at a time; our bot's seconds a
move are wall-clock, so run the match on an otherwise idle machine with at most one worker a core.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv-anchor"
ADAPTER = ROOT.parent / "shared" / "anchors" / "azg"
PACKAGES = [
    "numpy==2.4.6",
    "numba==0.68.1",
    "onnx==1.23.2",
    "onnxruntime==1.32.0",
    "torch==2.13.0",
    "colorama==0.4.6",
    "tqdm==4.70.1",
]
"""The anchor's dependencies, as its README asks (CPU torch; no torchvision, which would pull CUDA in)."""


def wilson(k: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of ``k`` successes in ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def setup() -> None:
    """Make ``.venv-anchor`` with the anchor's dependencies and the project (editable)."""
    if not (VENV / "bin" / "python").exists():
        venv.create(VENV, with_pip=True)
    pip = [str(VENV / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    subprocess.run(pip + PACKAGES, check=True)
    subprocess.run(pip + ["-e", str(ROOT)], check=True)
    print(f"{VENV} is ready; fetch cestpasphoto/alpha-zero-general and point AZG_DIR at it")


def anchor_dir() -> Path:
    return Path(os.environ.get("AZG_DIR", Path(tempfile.gettempdir()) / "anchors" / "alpha-zero-general"))


def match(bot: str, games: int, sims: int, seed: int, workers: int, out: Path, start: int, players: int = 2) -> None:
    """Play games ``start`` .. ``start + games - 1`` of ``players`` seats in ``workers`` slices, one process each."""
    python = VENV / "bin" / "python"
    azg = anchor_dir()
    if not python.exists():
        sys.exit(f"no {VENV}: run `python benchmarks/anchor.py setup` first")
    if not (azg / "splendor" / "pretrained_2players.pt").exists():
        sys.exit(f"no anchor at {azg}: fetch cestpasphoto/alpha-zero-general there or set AZG_DIR")
    if not (ADAPTER / "match.py").exists():
        sys.exit(f"no adapter at {ADAPTER}")
    env = dict(os.environ, AZG_DIR=str(azg), PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1")
    out.mkdir(parents=True, exist_ok=True)
    per = math.ceil(games / workers)
    jobs = []
    for w in range(workers):
        first = start + w * per
        count = min(per, start + games - first)
        if count <= 0:
            break
        part = out / f"part-{first:04d}"
        log = open(out / f"part-{first:04d}.log", "w")  # noqa: SIM115 (the process writes it; closed when it ends)
        jobs.append(
            (
                subprocess.Popen(
                    [
                        str(python),
                        str(ADAPTER / "match.py"),
                        "--games",
                        str(count),
                        "--start",
                        str(first),
                        "--sims",
                        str(sims),
                        "--opponent",
                        bot,
                        "--seed",
                        str(seed),
                        "--out",
                        str(part),
                        "--players",
                        str(players),
                    ],
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                ),
                log,
            )
        )
    failed = 0
    for proc, log in jobs:
        failed += proc.wait() != 0
        log.close()
    print(table([out]))
    if failed:
        sys.exit(f"{failed} worker(s) failed: see {out}/part-*.log")


def games_of(run: Path) -> list[dict]:
    """Every game of a run (all its parts), by index."""
    found = {}
    for path in sorted(run.glob("**/games.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                g = json.loads(line)
                found[g["index"]] = g
    return [found[i] for i in sorted(found)]


def share_of(game: dict) -> float:
    """Our bot's share of a game's victory: 1 for a sole win, 1/k for a victory shared by k seats, else 0."""
    if "opp_share" in game:
        return float(game["opp_share"])
    return {"opp_win": 1.0, "shared": 0.5}.get(game["result"], 0.0)  # 2 players: a shared victory is the two seats'


def table(runs: list[Path]) -> str:
    """The markdown table of the runs, from the project bot's side: its sole wins (with their 95% Wilson
    interval), losses and shared victories, its score (its share of the victories: a victory shared by k seats
    counts 1/k) against par (1/N with N players), and both sides' seconds a move."""
    lines = [
        "| our bot | players | AZG sims | games | won | lost | shared | win rate (95% Wilson) | score (par) | "
        "our s/move | AZG s/move |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        games = [g for g in games_of(run) if g["clean"]]
        if not games:
            lines.append(f"| {run.name} | | | 0 | | | | | | | |")
            continue
        n = len(games)
        players = int(games[0].get("players", 2))
        won = sum(g["result"] == "opp_win" for g in games)
        lost = sum(g["result"] == "azg_win" for g in games)
        shared = n - won - lost
        lo, hi = wilson(won, n)
        moves = sum(sum(g["opp_decisions"].values()) for g in games)
        ours = sum(g["opp_s_per_move"] * sum(g["opp_decisions"].values()) for g in games) / max(1, moves)
        azg_moves = sum(g["azg_main_moves"] for g in games)
        theirs = sum(g["azg_s_per_main_move"] * g["azg_main_moves"] for g in games) / max(1, azg_moves)
        summary = next(iter(sorted(run.glob("**/summary.json"))), None)
        meta = json.loads(summary.read_text()) if summary else {}
        bot, sims = meta.get("opponent", run.name), meta.get("azg_sims", "?")
        score = sum(share_of(g) for g in games) / n
        lines.append(
            f"| `{bot}` | {players} | {sims} | {n} | **{won}** | {lost} | {shared} | {won / n:.1%} "
            f"({lo:.1%}–{hi:.1%}) | {score:.1%} ({1 / players:.0%}) | {ours:.2f} | {theirs:.3f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("setup", help="make the anchor's venv")
    m = sub.add_parser("match", help="play the match")
    m.add_argument("--bot", default="ismcts:expert")
    m.add_argument("--games", type=int, default=200)
    m.add_argument("--start", type=int, default=0)
    m.add_argument("--sims", type=int, default=400)
    m.add_argument("--seed", type=int, default=2)
    m.add_argument("--workers", type=int, default=2)
    m.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="our bot in one seat, AZG in the others")
    m.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("table", help="the table of finished runs")
    t.add_argument("runs", type=Path, nargs="+")
    args = parser.parse_args()
    if args.command == "setup":
        setup()
    elif args.command == "match":
        match(args.bot, args.games, args.sims, args.seed, args.workers, args.out, args.start, args.players)
    else:
        print(table(args.runs))


if __name__ == "__main__":
    main()
