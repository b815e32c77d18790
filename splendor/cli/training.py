"""``splendor train``, ``train-policy`` and ``train-network``: the expert's evaluation, policy and network learned
by self-play."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from splendor.cli.base import app, console, fail
from splendor.core.workers import Workers, ray_session

SelfPlayWorkers = Annotated[int, typer.Option(min=1, help="Self-play's workers: processes, or Ray tasks at once")]
SelfPlayBackend = Annotated[str, typer.Option(help="Where self-play runs: local, process or ray")]
RayAddress = Annotated[str | None, typer.Option(help="A running Ray cluster's address, with --backend ray")]


@contextmanager
def _workers(count: int, backend: str, address: str | None) -> Iterator[Workers]:
    """Where a training command's self-play runs, with Ray up for the whole run on the ray back end (one start,
    not one a generation); a clear error for an unknown back end or Ray missing."""
    try:
        where = Workers(count, backend, address)
    except ValueError as e:
        raise fail(str(e)) from None
    with ExitStack() as up:
        try:
            up.enter_context(ray_session(where))
        except RuntimeError as e:
            raise fail(str(e)) from None
        yield where


@app.command()
def train(
    game: Annotated[str, typer.Option(help="classic or pokemon")] = "classic",
    generations: Annotated[int, typer.Option(min=1, help="Rounds of self-play and fitting")] = 4,
    games: Annotated[int, typer.Option(min=2, help="Self-play games per generation")] = 500,
    seed: Annotated[int, typer.Option(help="Seed of the whole run")] = 1,
    iterations: Annotated[int, typer.Option(min=1, help="Search iterations a move in self-play")] = 1500,
    match_games: Annotated[int, typer.Option(min=2, help="Games of each generation's match")] = 80,
    players: Annotated[int, typer.Option(min=2, max=4, help="Players at each self-play game")] = 2,
    workers: SelfPlayWorkers = 1,
    backend: SelfPlayBackend = "process",
    address: RayAddress = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Where to write the weights (default: runs/<game>-<n>p.json; the shipped ones, which the expert "
            "plays with, are the package's search/learning/weights/<game>.json: give that path, in a checkout, to "
            "replace them)"
        ),
    ] = None,
) -> None:
    """Learn the expert level's evaluation by self-play (docs/bots.md): writes the weights and the curve. The levels
    use two-player weights at every count; weights of three or four are for measuring (benchmarks/lone_seat.py)."""
    from splendor.search.learning.training import GAMES
    from splendor.search.learning.training import train as run

    if game not in GAMES:
        raise fail(f"the learned evaluation is trained for {', '.join(GAMES)}, not {game!r}")
    if players > 2 and match_games % players:
        raise fail(f"--match-games plays whole deals, from every seat: {match_games} games for {players} players")
    with _workers(workers, backend, address) as where:
        result = run(
            game,
            generations=generations,
            games=games,
            seed=seed,
            iterations=iterations,
            match_games=match_games,
            workers=where,
            report=lambda line: console.print(line, markup=False),
            players=players,
        )
    path = _write_run(result, out if out is not None else Path(f"runs/{game}-{players}p.json"))
    console.print(f"Weights and learning curve in {path}")


def _write_run(result: dict[str, Any], path: Path) -> Path:
    """Write a training run's result (its weights and curve) as JSON to ``path``; a clear error if it cannot."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    except OSError as e:
        raise fail(str(e)) from None
    return path


@app.command("train-policy")
def train_policy(
    game: Annotated[str, typer.Option(help="classic or pokemon")] = "classic",
    generations: Annotated[int, typer.Option(min=1, help="Rounds of self-play and fitting")] = 1,
    games: Annotated[int, typer.Option(min=2, help="Self-play games per generation")] = 120,
    seed: Annotated[int, typer.Option(help="Seed of the whole run")] = 1,
    iterations: Annotated[int, typer.Option(min=1, help="Search iterations a move in self-play")] = 8000,
    match_games: Annotated[int, typer.Option(min=2, help="Games of each generation's match")] = 100,
    match_iterations: Annotated[
        int | None, typer.Option(min=1, help="Search iterations a move in the matches (default: as self-play)")
    ] = None,
    workers: SelfPlayWorkers = 1,
    backend: SelfPlayBackend = "process",
    address: RayAddress = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Where to write the policy (default: runs/<game>_policy.json; the shipped one is "
            "the package's search/learning/weights/<game>_policy.json: give that path, in a checkout, to replace it)"
        ),
    ] = None,
) -> None:
    """Learn the expert level's policy, the priors its search explores by, from its own search (docs/bots.md):
    writes the weights and the curve."""
    from splendor.search.learning.policy_training import train_policy as run
    from splendor.search.learning.training import GAMES

    if game not in GAMES:
        raise fail(f"the learned policy is trained for {', '.join(GAMES)}, not {game!r}")
    with _workers(workers, backend, address) as where:
        result = run(
            game,
            generations=generations,
            games=games,
            seed=seed,
            iterations=iterations,
            match_games=match_games,
            match_iterations=match_iterations,
            workers=where,
            report=lambda line: console.print(line, markup=False),
        )
    path = _write_run(result, out if out is not None else Path(f"runs/{game}_policy.json"))
    console.print(f"Policy and learning curve in {path}")


@app.command("train-network")
def train_network(
    game: Annotated[str, typer.Option(help="classic or pokemon")] = "classic",
    generations: Annotated[int, typer.Option(min=1, help="Rounds of self-play and fitting")] = 2,
    games: Annotated[int, typer.Option(min=2, help="Self-play games per generation")] = 200,
    players: Annotated[int, typer.Option(min=2, max=4, help="Players at each self-play game")] = 2,
    seed: Annotated[int, typer.Option(help="Seed of the whole run")] = 1,
    iterations: Annotated[int, typer.Option(min=1, help="Search iterations a move in self-play")] = 4000,
    match_games: Annotated[int, typer.Option(min=0, help="Games of each generation's match (2 players)")] = 100,
    match_iterations: Annotated[
        int | None, typer.Option(min=1, help="Search iterations a move in the matches (default: as self-play)")
    ] = None,
    epochs: Annotated[int, typer.Option(min=1, help="Passes over the games at each fit")] = 30,
    workers: SelfPlayWorkers = 1,
    backend: SelfPlayBackend = "process",
    address: RayAddress = None,
    run: Annotated[
        Path | None, typer.Option(help="Folder of the run's games, to go on where a stopped run stopped")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Where to write the network (default: runs/<game>_network.npz; the shipped one is "
            "the package's search/learning/weights/<game>_network.npz: give that path, in a checkout, to replace it)"
        ),
    ] = None,
    value_from_evaluation: Annotated[
        bool, typer.Option(help="Start the value from the learned evaluation; the head learns a correction")
    ] = False,
    device: Annotated[
        str,
        typer.Option(
            help="Where each fit runs: cpu, cuda, or auto (the GPU when PyTorch sees one). A GPU gives the same "
            "network up to floating-point noise; the shipped ones are fitted on the CPU"
        ),
    ] = "cpu",
) -> None:
    """Learn the expert's policy and value network by self-play (docs/bots.md; needs PyTorch, the learn
    extra): writes the network, its learning curve and its probe."""
    from splendor.search.learning.network import save_network
    from splendor.search.learning.network_training import train_network as run_training

    folder = run if run is not None else Path(f"runs/network-{game}-{players}p-seed{seed}")
    try:
        with _workers(workers, backend, address) as where:
            net, meta, probe, outputs = run_training(
                game,
                folder,
                generations=generations,
                games=games,
                players=players,
                seed=seed,
                iterations=iterations,
                match_games=match_games,
                match_iterations=match_iterations,
                workers=where,
                epochs=epochs,
                report=lambda line: console.print(line, markup=False),
                from_evaluation=value_from_evaluation,
                device=device,
            )
    except ModuleNotFoundError as e:
        if e.name != "torch":
            raise
        raise fail(f"training the network needs PyTorch ({e}); pip install 'splendor[learn]'") from None
    except ValueError as e:
        raise fail(str(e)) from None
    path = out if out is not None else Path(f"runs/{game}_network.npz")
    try:
        save_network(path, net, meta, probe, outputs)
    except OSError as e:
        raise fail(str(e)) from None
    console.print(f"Network and learning curve in {path}; the run's games in {folder}")
