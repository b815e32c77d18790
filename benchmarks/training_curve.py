"""Draw the expert level's learning curves from the shipped weights (each holds the curve of the run that made
it): per generation of self-play, the held-out log-loss and the score of the search with the new weights
against the search with the hand-made evaluation (equal iterations), with its 95% Wilson interval.

    .venv/bin/python benchmarks/training_curve.py            # writes docs/expert-training.png

Needs matplotlib (the ``learn`` extra).
"""

from __future__ import annotations

import json
from pathlib import Path

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ModuleNotFoundError as missing:  # the learn extra, as every command that needs one says
    raise SystemExit(
        f"benchmarks/training_curve.py needs the learn extra ({missing.name} is not installed): "
        "pip install 'splendor[learn]'"
    ) from None

from splendor.arena.standings import wilson
from splendor.search.learning.training import GAMES, WEIGHTS_DIR

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "expert-training.png"


def main() -> None:
    # the learned evaluations' runs (weights/<game>.json); the policies' and the network's files beside them
    # keep curves of their own
    runs = [json.loads(path.read_text()) for game in GAMES if (path := WEIGHTS_DIR / f"{game}.json").exists()]
    if not runs:
        raise SystemExit(f"no learned evaluation's weights in {WEIGHTS_DIR}")
    fig, (score_ax, loss_ax) = plt.subplots(1, 2, figsize=(10, 4))
    for run in runs:
        curve = run["curve"]
        games = [0] + [c["games"] for c in curve]
        scores = [0.5] + [c["score_vs_hand"] for c in curve]
        low = [0.5] + [wilson(c["score_vs_hand"] * c["match_games"], c["match_games"])[0] for c in curve]
        high = [0.5] + [wilson(c["score_vs_hand"] * c["match_games"], c["match_games"])[1] for c in curve]
        (line,) = score_ax.plot(games, scores, marker="o", label=run["game"])
        score_ax.fill_between(games, low, high, color=line.get_color(), alpha=0.15)
        loss_ax.plot(games[1:], [c["held_out_log_loss"] for c in curve], marker="o", label=run["game"])
    score_ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    score_ax.set(
        xlabel="self-play games",
        ylabel="score against the hand-made evaluation",
        title="Strength (equal iterations, 95% interval)",
    )
    loss_ax.set(xlabel="self-play games", ylabel="log-loss on held-out positions", title="Fit")
    for ax in (score_ax, loss_ax):
        ax.legend()
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(OUT, dpi=110)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
