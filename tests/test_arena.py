"""The arena: seats rotated, standings and ratings, outside bots and their forfeits (the same results on every
back end, Ray included, are tests/test_workers.py's)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

import splendor
from splendor.arena import play_match, schedule, standings
from splendor.arena.match import MatchResult
from splendor.arena.standings import wilson
from splendor.bots import Decision
from splendor.bots.external import ExternalBot
from tests.outside_bots import outside_bot, telling_its_end

SPLENDOR = str(Path(sys.executable).parent / "splendor")
EXAMPLE = f"{sys.executable} {Path(__file__).parent.parent / 'examples' / 'outside_bot.py'}"


def test_seats_and_first_player_rotate_over_each_deal() -> None:
    matches = schedule("classic", 3, ["a", "b", "c"], 6, seed=10)
    assert [m.bots for m in matches[:3]] == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert [m.seed for m in matches] == [10, 10, 10, 11, 11, 11]
    for bot in "abc":
        assert sorted(m.bots.index(bot) for m in matches[:3]) == [0, 1, 2]


def test_a_bot_entered_twice_is_told_apart() -> None:
    matches = schedule("classic", 2, ["greedy", "greedy"], 2, seed=0)
    assert matches[0].names == ("greedy#1", "greedy#2") and matches[1].names == ("greedy#2", "greedy#1")


def test_wilson_interval() -> None:
    low, high = wilson(95, 100)
    assert 0.88 < low < 0.9 < 0.95 < high < 0.98
    assert wilson(0, 0) == (0.0, 1.0)


def test_standings_count_wins_and_rate_the_winner_higher() -> None:
    matches = schedule("classic", 2, ["greedy", "random"], 6, seed=3)
    results = [play_match(m) for m in matches]
    table = {s.bot: s for s in standings(results, ["greedy", "random"])}
    assert table["greedy"].games == table["random"].games == 6
    assert table["greedy"].wins == 6 and table["greedy"].rating > table["random"].rating


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (
            'time.sleep(3); print(json.dumps({"type": "action", "action": m["legal"][0]}), flush=True)',
            "no answer within",
        ),
        ('print(json.dumps({"type": "action", "action": "buy 9.9"}), flush=True)', "not one of the legal actions"),
        ('print("hello", flush=True)', "not JSON"),
        ("sys.exit(1)", "closed its output"),
        ('raise KeyError("no such move")', "the end of its standard error: \"KeyError: 'no such move'\""),
        (  # the answer twice: the second is a line nobody asked for, never the next decision's answer
            'print(json.dumps({"type": "action", "action": m["legal"][0]}) + "\\n" + json.dumps({"type": "action", '
            '"action": m["legal"][0]}), flush=True)',
            "not asked for",
        ),
        (  # the answer twice in two writes, the second 20 ms after: caught as surely as in one
            'a = json.dumps({"type": "action", "action": m["legal"][0]}); print(a, flush=True); time.sleep(0.02); '
            "print(a, flush=True)",
            "not asked for",
        ),
        ('sys.stdout.write("x" * (1 << 20) + "x\\n"); sys.stdout.flush()', "over 1048576 bytes"),
        ('sys.stdout.buffer.write(b"\\xff\\xfe\\n"); sys.stdout.flush()', "not JSON"),  # at once, not a timeout
        ('print(json.dumps({"type": "action", "action": "take g b w"}), flush=True)', "as listed"),
    ],
)
def test_an_outside_bot_that_fails_forfeits_with_the_reason_and_the_arena_goes_on(
    tmp_path: Path, body: str, reason: str
) -> None:
    program = outside_bot(tmp_path, body)
    matches = schedule("classic", 2, [f"cmd:{program}", "greedy"], 2, seed=1, move_time=1.0)
    results = [play_match(m) for m in matches]
    assert all(r.status == "forfeit" for r in results)
    for r in results:
        assert r.forfeit is not None and reason in r.forfeit["reason"]
        assert r.winners == (1 - r.forfeit["seat"],)
        notes = splendor.Record.from_text(r.record).notes
        assert reason in notes["forfeit"]["reason"]


def test_a_bot_that_never_says_it_is_ready_forfeits_for_the_start_not_a_decision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from splendor.bots import external

    monkeypatch.setattr(external, "START_TIMEOUT", 0.5)
    program = outside_bot(tmp_path, 'print(json.dumps({"type": "action", "action": m["legal"][0]}), flush=True)',
                       start="time.sleep(3)")  # fmt: skip
    [result] = [play_match(m) for m in schedule("classic", 2, [f"cmd:{program}", "greedy"], 1, seed=1)]
    assert result.forfeit is not None and result.forfeit["reason"].startswith("no answer to the start within 0.5 s")


def test_a_forfeit_is_told_to_every_outside_bot_in_the_end_message(tmp_path: Path) -> None:
    program, log = telling_its_end(tmp_path, 'print(json.dumps({"type": "action", "action": "buy 9.9"}), flush=True)')
    [result] = [play_match(m) for m in schedule("classic", 2, [f"cmd:{program}", "greedy"], 1, seed=1)]
    end = json.loads(log.read_text())["result"]
    assert end["status"] == result.status == "forfeit" and end["winners"] == [1]
    assert "not one of the legal actions" in end["forfeit"]["reason"] and end["forfeit"]["seat"] == 0


def test_an_outside_bots_seed_tells_nothing_of_the_deal(tmp_path: Path) -> None:
    # A seed derived from the game's let a bot rebuild the deal, decks and all: it is drawn afresh every game.
    log = tmp_path / "seeds.txt"
    program = outside_bot(
        tmp_path,
        'print(json.dumps({"type": "action", "action": m["legal"][0]}), flush=True)',
        start=f"open({str(log)!r}, 'a').write(str(m['seed']) + ' ')",
    )
    match = schedule("classic", 2, [f"cmd:{program}", "greedy"], 1, seed=37, move_time=5.0)[0]
    for _ in range(2):
        play_match(replace(match, options={"max_turns": 1}))
    first, second = (int(x) for x in log.read_text().split())
    assert first != second and match.bot_seeds[0] not in (first, second)
    kept = splendor.Record.from_text(play_match(replace(match, options={"max_turns": 1})).record).notes
    assert kept["outside_seeds"] == [int(log.read_text().split()[2]), None]  # the record says what it was given


def test_a_wrapped_outside_bot_is_stopped_with_all_it_started(tmp_path: Path) -> None:
    pids = tmp_path / "pids.txt"
    child = tmp_path / "child.py"
    child.write_text(
        textwrap.dedent(f"""
        import os, sys, time
        open({str(pids)!r}, "w").write(str(os.getpid()))
        print('{{"type": "ready"}}', flush=True)
        time.sleep(600)  # never answers a decision, never exits
        """)
    )
    wrapper = tmp_path / "wrapper.sh"
    wrapper.write_text(f"{sys.executable} {child}\n")  # no exec: the bot is the shell's child
    match = schedule("classic", 2, [f"cmd:bash {wrapper}", "greedy"], 1, seed=1, move_time=0.5)[0]
    assert play_match(match).status == "forfeit"
    pid = int(pids.read_text())
    deadline = time.monotonic() + 10
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(pid)


@pytest.mark.skipif(sys.platform != "linux", reason="the bot shrinks its pipe with Linux's F_SETPIPE_SZ")
def test_a_bot_that_reads_no_more_forfeits_within_its_time_though_its_input_is_full(tmp_path: Path) -> None:
    """An outside-bot author's find: a bot that shrank its input pipe to a page and read no more held the arena
    for ever, the decision's write blocking before its time limit began (a Kids decision is some 8 KB)."""
    script = tmp_path / "small_pipe.py"
    script.write_text(
        textwrap.dedent("""
        import fcntl, json, sys, time
        sys.stdin.buffer.raw.readline()  # the start, read past no further
        fcntl.fcntl(0, 1031, 4096)  # F_SETPIPE_SZ: its input holds a page
        print(json.dumps({"type": "ready"}), flush=True)
        time.sleep(600)
        """)
    )
    match = schedule("kids", 2, [f"cmd:{sys.executable} {script}", "greedy"], 1, seed=1, move_time=1.0)[0]
    played: list[MatchResult] = []
    game = threading.Thread(target=lambda: played.append(play_match(match)), daemon=True)
    game.start()
    game.join(30)  # held for ever before the fix: the test says so rather than hang
    assert played, "the game never ended"
    forfeit = played[0].forfeit
    assert forfeit is not None and "did not read its input within 1 s" in forfeit["reason"]


def test_a_bot_that_exits_is_said_to_at_once_though_a_child_holds_its_output(tmp_path: Path) -> None:
    """An outside-bot author's find: a script that started a helper and then crashed was said to be late, at the end
    of its time limit, its last words lost, since the helper held its output open."""
    script = tmp_path / "crashing.sh"
    script.write_text(
        "sleep 600 &\n"
        'read -r line; echo \'{"type": "ready"}\'\n'
        "read -r line; echo 'crashing: the model file is missing' >&2; exit 3\n"
    )
    match = schedule("classic", 2, [f"cmd:bash {script}", "greedy"], 1, seed=1, move_time=20.0)[0]
    began = time.monotonic()
    result = play_match(match)
    assert time.monotonic() - began < 10
    assert result.forfeit is not None and "exited (code 3)" in result.forfeit["reason"]
    assert "the model file is missing" in result.forfeit["reason"]


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (a killed one waiting for its parent to reap it, a zombie, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_the_example_outside_bot_plays_whole_games() -> None:
    results = [play_match(m) for m in schedule("classic", 2, [f"cmd:{EXAMPLE}", "random"], 2, seed=2)]
    assert all(r.status in ("won", "shared") and r.forfeit is None for r in results)
    assert splendor.replay(results[0].record).is_over


def test_an_outside_bot_is_shown_only_its_seats_view() -> None:
    g = splendor.new_game("classic", players=2, seed=1)
    g.apply("reserve deck 1")
    from splendor.bots import decision_for

    decision = decision_for(g)
    assert isinstance(decision, Decision) and decision.view["seats"][0]["reserved"] == [{"hidden": True, "tier": 1}]
    bot = ExternalBot(EXAMPLE)
    try:
        assert bot.choose(decision) in decision.legal
    finally:
        bot.finish({})


def test_arena_command_end_to_end(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            SPLENDOR,
            "arena",
            "--bots",
            f"greedy,cmd:{EXAMPLE}",
            "--games",
            "4",
            "--seed",
            "3",
            "--backend",
            "local",
            "--out",
            str(tmp_path),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["games"] == 4 and {s["bot"] for s in summary["standings"]} == {"greedy", f"cmd:{EXAMPLE}"}
    assert len(list((tmp_path / "records").glob("*.record"))) == 4
    assert json.loads((tmp_path / "summary.json").read_text()) == summary


def test_the_arenas_standings_keep_names_and_numbers_when_piped_and_forfeits_are_words(tmp_path: Path) -> None:
    """Piped (80 columns), an outside program's command line took the table's width and every number came out
    empty; too narrow for the table, each bot is a line. A forfeit's reason quoting "[/]" crashed the command."""
    crashing = outside_bot(tmp_path, 'raise KeyError("[/] [info]")')
    env = {"COLUMNS": "80", "PATH": "/usr/bin:/bin", "TERM": "dumb"}
    command = [SPLENDOR, "arena", "--games", "2", "--seed", "3", "--backend", "local", "--bots"]
    out = subprocess.run(
        [*command, f"cmd:{EXAMPLE},greedy"], capture_output=True, text=True, timeout=300, env=env
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    # the outside bot's seed is drawn afresh for each game (docs/bots.md), so its games may be won or shared
    assert re.search(r"greedy: games 2, wins \d, shared \d, win rate [\d.]+%, 95% interval [\d.]+%–[\d.]+%, rating "
                     r"\d+, forfeits 0", text), text  # fmt: skip
    assert f"cmd:{EXAMPLE}: games 2" in text
    short = subprocess.run([*command, "greedy,random"], capture_output=True, text=True, timeout=300, env=env)
    assert "┃ bot    ┃ games ┃" in short.stdout  # a table where it fits
    crashed = subprocess.run([*command, f"cmd:{crashing},greedy"], capture_output=True, text=True, timeout=300, env=env)
    assert crashed.returncode == 0, crashed.stderr
    assert "KeyError: '[/] [info]'" in " ".join(crashed.stdout.split())


def test_hint_command(tmp_path: Path) -> None:
    g = splendor.new_game("classic", players=2, seed=6)
    g.apply("take w b g")
    path = tmp_path / "g.record"
    path.write_text(g.record.to_text())
    out = subprocess.run(
        [SPLENDOR, "hint", str(path), "--iterations", "80"], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    said = re.search(
        r"Seat 1 should play (.+?) \(estimated win chance (\d+)%, the expert level, 80 iterations\)",
        " ".join(out.stdout.split()),
    )
    assert said is not None, out.stdout
    assert said.group(1) in [a.text for a in g.legal_actions()] and 0 <= int(said.group(2)) <= 100


def test_without_a_selector_for_pipes_a_bots_standard_error_is_still_read_to_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where a pipe cannot be watched (Windows), the reader reads on to the end: a full pipe would stop the bot."""
    import selectors

    def refuse(*_args: object, **_kw: object) -> None:
        raise ValueError("no selector for a pipe")

    monkeypatch.setattr(selectors.DefaultSelector, "register", refuse)
    program = outside_bot(
        tmp_path, 'sys.stderr.write("x" * 200000 + "\\nlast words\\n"); sys.stderr.flush(); sys.exit(1)'
    )
    [result] = [play_match(m) for m in schedule("classic", 2, [f"cmd:{program}", "greedy"], 1, seed=1)]
    assert result.forfeit is not None and "'last words'" in result.forfeit["reason"]


def test_an_arenas_records_folder_that_cannot_be_made_is_said_before_any_game(tmp_path: Path) -> None:
    """The folder was made after the tournament: a path that could not be one lost every game with a traceback."""
    (tmp_path / "afile").write_text("")
    command = [SPLENDOR, "arena", "--games", "2", "--backend", "local", "--bots", "greedy,random"]
    out = subprocess.run([*command, "--out", str(tmp_path / "afile")], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "could not keep the records" in out.stderr and "Traceback" not in out.stderr
    for bad in (["--workers", "0"], ["--move-time", "0"]):
        refused = subprocess.run([*command, *bad], capture_output=True, text=True, timeout=120)
        assert refused.returncode == 2 and "Invalid value" in refused.stderr, bad
    gap = subprocess.run([*command[:-1], "greedy,,random"], capture_output=True, text=True, timeout=120)
    assert gap.returncode == 2 and "empty place" in gap.stderr  # it had played greedy against random, two seats


def test_what_an_arena_or_a_ladder_cannot_play_or_keep_is_said_before_any_game(tmp_path: Path) -> None:
    """A tournament organiser's finds: a bot that does not play the game, a seed below zero or --players 0 were
    found in a worker's first game (and hung the process back end), a ladder's --out after its games, a reused
    --out mixed the runs' records, and --help hid the engines of a search bot (Rich read them as markup)."""
    arena = [SPLENDOR, "arena", "--games", "2", "--backend", "process", "--workers", "2"]
    for extra, said in [
        (["--game", "pokemon", "--bots", "greedy,policy:greedy"], "the greedy policy plays classic only"),
        (["--game", "kids", "--bots", "learned,greedy"], "no learned policy is shipped for kids"),
        (["--bots", "random,greedy", "--seed=-1"], "the seed is a whole number of zero or more"),
        (["--bots", "random,greedy", "--players", "0"], "a game has 2 to 4 players, not 0"),
        (["--bots", "random,greedy", "--backend", "local"], "2 workers need the process back end"),
        (["--bots", "random,greedy", "--address", "ray://head:10001"], "an address is a Ray cluster's"),
    ]:
        refused = subprocess.run([*arena, *extra], capture_output=True, text=True, timeout=60)
        assert refused.returncode == 2 and said in " ".join(refused.stderr.split()), (extra, refused.stderr)
        assert "Traceback" not in refused.stderr
    local = [SPLENDOR, "arena", "--backend", "local", "--bots", "random,greedy"]
    odd = subprocess.run([*local, "--games", "3"], capture_output=True, text=True, timeout=60)
    assert odd.returncode == 0 and "not quite balanced" in " ".join(odd.stderr.split())
    odd = subprocess.run([*local, "--games", "3", "--json"], capture_output=True, text=True, timeout=60)
    assert json.loads(odd.stdout)["games"] == 3  # the note on standard error: the JSON stays JSON
    first = subprocess.run([*local, "--games", "2", "--out", str(tmp_path / "run")], capture_output=True, text=True)
    assert (tmp_path / "run" / "summary.json").is_file()
    assert first.returncode == 0 and len(list((tmp_path / "run" / "records").iterdir())) == 2
    again = subprocess.run([*local, "--games", "2", "--out", str(tmp_path / "run")], capture_output=True, text=True)
    assert again.returncode == 2 and "holds another run's records" in " ".join(again.stderr.split())
    ladder = [SPLENDOR, "ladder", "--bots", "random,greedy", "--games", "2", "--backend", "local"]
    negative = subprocess.run([*ladder, "--seed=-1"], capture_output=True, text=True, timeout=60)
    assert negative.returncode == 2 and "the seed is a whole number of zero or more" in negative.stderr
    for out, said in [(tmp_path, "it is a folder"), (tmp_path / "nowhere" / "x.json", "no such folder")]:
        refused = subprocess.run([*ladder, "--out", str(out)], capture_output=True, text=True, timeout=60)
        assert refused.returncode == 2 and said in " ".join(refused.stderr.split()), (out, refused.stderr)
        assert "Traceback" not in refused.stderr
    helped = subprocess.run(
        [SPLENDOR, "arena", "--help"], capture_output=True, text=True, env={**os.environ, "COLUMNS": "300"}
    )
    assert "[@compiled|reference]" in helped.stdout


def test_an_arena_stopped_keeps_the_records_of_the_games_it_finished(tmp_path: Path) -> None:
    """A tournament organiser's find: the records were written after the last game, so a run stopped (Ctrl-C,
    SIGTERM, a failure) kept none of the games it had played."""
    import signal

    command = [SPLENDOR, "arena", "--backend", "local", "--bots", "ismcts:3000,greedy", "--games", "1000"]
    run = subprocess.Popen([*command, "--out", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    records = tmp_path / "records"
    deadline = time.monotonic() + 120
    try:
        while not (records.is_dir() and len(list(records.iterdir())) >= 2):
            assert time.monotonic() < deadline and run.poll() is None, "no game ended"
            time.sleep(0.05)
        run.send_signal(signal.SIGTERM)
        run.wait(timeout=60)
    finally:
        run.kill()
    assert run.returncode == 128 + signal.SIGTERM  # ended as terminated, not as interrupted (130; a code review's)
    kept = sorted(records.iterdir())
    assert len(kept) >= 2 and not (tmp_path / "summary.json").exists()
    assert all(splendor.replay(path.read_text(encoding="utf-8")).is_over for path in kept)


def test_a_bot_command_that_cannot_be_read_or_run_is_said_in_its_words(tmp_path: Path) -> None:
    """An outside-bot author's finds: an unclosed quote was a bare "No closing quotation", and a folder given as the
    program "Permission denied"."""
    from splendor.bots import make_bot

    with pytest.raises(ValueError, match=r"cmd:python3 'my bot\.py: No closing quotation"):
        make_bot("cmd:python3 'my bot.py")
    [result] = [play_match(m) for m in schedule("classic", 2, [f"cmd:{tmp_path}", "greedy"], 1, seed=1)]
    assert result.forfeit is not None and result.forfeit["reason"].endswith(f"{tmp_path} is a folder")
