"""The ``splendor`` command end to end: the real program, driven through its standard input and output."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import splendor
from splendor.core.record import Record
from splendor.terminal.play import HUMAN, Seat
from tests.outside_bots import outside_bot

SPLENDOR = str(Path(sys.executable).parent / "splendor")


def run(*args: str, stdin: str = "", timeout: float = 120, columns: int = 120) -> subprocess.CompletedProcess[str]:
    """The ``splendor`` command with ``args``, ``stdin`` typed, on a terminal ``columns`` wide."""
    return subprocess.run(
        [SPLENDOR, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={"COLUMNS": str(columns), "PATH": "/usr/bin:/bin", "TERM": "dumb"},
    )


def _random_record(seed: int, players: int = 2, game: str = "classic", **options: object) -> Record:
    g = splendor.new_game(game, players=players, seed=seed, **options)
    rng = random.Random(seed)
    while not g.is_over:
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    return g.record


@pytest.mark.parametrize(
    ("game", "flags"),
    [("classic", []), ("pokemon", []), ("kids", []), ("kids", ["--mysteries"]), ("kids", ["--short"])],
)
def test_play_a_whole_scripted_human_game_on_standard_input(tmp_path: Path, game: str, flags: list[str]) -> None:
    options = {f.removeprefix("--"): True for f in flags}
    expected = _random_record(seed=11, game=game, **options)
    saved = tmp_path / "game.record"
    script = "\n".join(expected.actions) + f"\n{saved}\n"
    out = run(
        "play",
        "--game",
        game,
        "--seats",
        "ann:human,bob:human",
        "--seed",
        "11",
        *flags,
        "--database-url",
        f"sqlite:///{tmp_path}/p.db",
        stdin=script,
    )
    assert out.returncode == 0, out.stderr
    assert "Game over." in out.stdout and "Record saved to" in out.stdout
    assert Record.from_text(saved.read_text()).actions == expected.actions


def test_play_explains_illegal_and_malformed_input_and_asks_again() -> None:
    script = "take w w w\nbuy 9.9\nfly\npass\nmoves\nhelp\ntake w b g\nquit\ny\n\n"
    out = run("play", "--seats", "human,greedy", "--seed", "3", stdin=script)
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "Not allowed: take either up to 3 tokens of different colours, or 2 of one colour" in text
    assert "say which card to buy as tier.slot" in text
    assert "'fly' is not an action" in text
    assert "pass is allowed only when you have no other legal action" in text
    assert "Legal now: take w b g" in text
    assert "reserve deck 3" in text
    assert "greedy 1 (seat 1):" in text
    assert "Game left after" in text
    assert "Traceback" not in out.stdout + out.stderr


def test_the_other_seats_moves_are_said_again_under_the_table_and_your_own_with_its_action() -> None:
    """A Kids board is some 70 lines: the bot's move, said above it, had scrolled off the screen by the prompt. One's
    own action was echoed as "player 0: — receives 1 gold", the action itself unsaid."""
    out = run("play", "--game", "kids", "--seats", "ann:human,greedy", "--seed", "4", stdin="take k r g\nquit\ny\n\n")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    last_table = max(i for i, line in enumerate(lines) if "Splendor Kids" in line)
    after = " ".join(" ".join(lines[last_table:]).split())
    assert re.search(r"Since your last turn: greedy 1 \(seat 1\): \S", after), after
    assert "ann (seat 0): take k r g" in " ".join(out.stdout.split())


def test_a_bots_move_is_said_once_under_the_table_and_a_resumed_game_says_the_moves_before_it(tmp_path: Path) -> None:
    """A terminal player's finds: each bot move was printed twice a turn (as played, and again under the table),
    costing a small terminal the table's top; and a game gone on with (--resume) showed no move before it."""
    saved = tmp_path / "g.record"
    out = run(
        "play", "--seats", "ann:human,greedy", "--seed", "7", "--record", str(saved), stdin="take w b g\nquit\ny\n"
    )
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert text.count("greedy 1 (seat 1): take") == 1 and "Since your last turn: greedy 1 (seat 1): take" in text
    out = run("play", "--resume", str(saved), stdin="quit\ny\n")
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert re.search(
        r"Since your last turn: greedy 1 \(seat 1\): take \S+ \S+ \S+ ann \(seat 0, your action\)", text
    ), text


def _stopped_at_the_prompt(
    folder: Path, signal_number: int, *args: str, times: int = 1, hang_up: str = "taken"
) -> tuple[int, str, str]:
    """``splendor play --seats human,greedy`` with ``args``, run in ``folder``, sent ``signal_number`` (``times``
    over) at the person's second prompt (its input still open, as a person's is): its exit status, output and
    errors. It starts with SIGHUP ``"taken"`` (as a terminal's program does) or ``"ignored"`` (as ``nohup`` starts
    it), whatever the tests' own process does with it: run under ``nohup``, a hang-up test had failed."""
    import signal
    import time

    disposition = {"taken": signal.SIG_DFL, "ignored": signal.SIG_IGN}[hang_up]
    with subprocess.Popen(
        [SPLENDOR, "play", "--seats", "human,greedy", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=folder,
        env={"COLUMNS": "120", "PATH": "/usr/bin:/bin", "TERM": "dumb"},
        preexec_fn=lambda: signal.signal(signal.SIGHUP, disposition),  # (in the child, before it runs splendor)
    ) as program:
        assert program.stdin and program.stdout
        program.stdin.write("take w b g\n")
        program.stdin.flush()
        seen = ""
        while "greedy 1 (seat 1): take" not in seen:  # the bot's move, said just before the prompt: stop it there
            line = program.stdout.readline()
            assert line, seen
            seen += line
        time.sleep(0.5)
        for _ in range(times):  # a closing terminal's hang-ups come close together
            program.send_signal(signal_number)
            time.sleep(0.05)
        out, err = program.communicate(timeout=60)
    return program.returncode, seen + out, err


def test_ctrl_c_leaves_the_game_as_quit_does_and_its_record_is_saved(tmp_path: Path) -> None:
    """A terminal player's find: Ctrl-C ended the program with no word and no record, though --record was given."""
    import signal

    saved = tmp_path / "cc.record"
    status, out, err = _stopped_at_the_prompt(tmp_path, signal.SIGINT, "--seed", "11", "--record", str(saved))
    assert status == 0, err
    assert "Game left after" in out and "Record saved to" in out, out
    assert len(Record.from_text(saved.read_text()).actions) >= 1


def test_sigterm_leaves_the_game_asking_nothing_and_keeps_its_record_in_the_current_folder(tmp_path: Path) -> None:
    """A code review's find: taken as Ctrl-C, SIGTERM left the game waiting on "Save the record to a file" for
    someone who may not be there. Stopped so, it asks nothing and keeps the record beside it, never losing it."""
    import signal

    status, out, _err = _stopped_at_the_prompt(tmp_path, signal.SIGTERM, "--seed", "12")
    assert "Game left after" in out and "Save the record to a file" not in out, out
    kept = tmp_path / "splendor-classic-12.record"
    assert len(Record.from_text(kept.read_text()).actions) >= 1 and str(kept) in " ".join(out.split())
    assert status == 128 + signal.SIGTERM  # a terminal player's find: it ended 0, as if nothing had stopped it


def test_a_terminal_closed_keeps_the_games_record_as_sigterm_does(tmp_path: Path) -> None:
    """A terminal player's find: closing the window (or an ssh connection dropping: SIGHUP) lost the game, with no
    record; SIGTERM kept it. The hang-up saves it as SIGTERM does, saying nothing to a terminal that is gone; and
    the second hang-up a closing terminal sends (a code review's find) no longer cuts the saving short."""
    import signal

    status, _out, err = _stopped_at_the_prompt(tmp_path, signal.SIGHUP, "--seed", "13", times=2)
    kept = tmp_path / "splendor-classic-13.record"
    assert kept.is_file(), err
    assert len(Record.from_text(kept.read_text()).actions) >= 1
    assert status == 128 + signal.SIGHUP


def test_a_game_started_under_nohup_plays_on_through_a_hang_up(tmp_path: Path) -> None:
    """``nohup splendor play ...`` asks that a hang-up be ignored, and it is: the game goes on, here to its input's
    end, where the record is offered as at any end of input (and left unsaved: nothing more was typed)."""
    import signal

    status, out, err = _stopped_at_the_prompt(tmp_path, signal.SIGHUP, "--seed", "13", hang_up="ignored")
    assert status == 0, err
    assert "Game left after" in out and "Save the record to a file" in out and "The record is not saved" in out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("closed", ["at the prompt", "as the game is drawn", "at the save prompt"])
def test_a_terminal_that_fails_before_its_hang_up_keeps_the_games_record(tmp_path: Path, closed: str) -> None:
    """A newcomer's find: a closing window's terminal fails its reads and writes (EIO) some seconds before its
    SIGHUP arrives, and the game had ended there with an error and no record, half the time. Here the terminal's
    other end is closed and no hang-up comes at all: the failed read or write is taken as the hang-up."""
    import os
    import pty
    import select
    import signal

    leader, follower = pty.openpty()
    with subprocess.Popen(
        [SPLENDOR, "play", "--seats", "human,greedy", "--seed", "14"],
        stdin=follower,
        stdout=follower,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env={"COLUMNS": "120", "PATH": "/usr/bin:/bin", "TERM": "dumb"},
    ) as program:
        os.close(follower)
        seen = b""
        os.write(leader, b"take w b g\n" + (b"quit\ny\n" if closed == "at the save prompt" else b""))
        waited = {"at the prompt": b">", "at the save prompt": b"(empty to skip):"}.get(closed)
        while waited is not None and (b"greedy 1 (seat 1): take" not in seen or not seen.rstrip().endswith(waited)):
            ready, _, _ = select.select([leader], [], [], 60)
            assert ready, seen[-400:]
            seen += os.read(leader, 65536)
        os.close(leader)  # the window closed: the next read or write fails, and no SIGHUP comes
        _out, err = program.communicate(timeout=60)
    kept = tmp_path / "splendor-classic-14.record"
    assert kept.is_file(), err
    assert len(Record.from_text(kept.read_text()).actions) >= (0 if closed == "as the game is drawn" else 1)
    assert program.returncode == 128 + signal.SIGHUP, err
    assert b"Traceback" not in err


def test_a_spinner_on_a_real_terminal_does_not_hang_the_console() -> None:
    """A code review's find: while a spinner (a search bot thinking) or a progress bar runs, Rich puts a proxy in
    sys.stdout that writes through the console; the console, writing to whatever sys.stdout was, wrote to the
    proxy, which wrote to the console, for ever: the game hung at the bot's first move on a real terminal."""
    import os
    import pty

    code = (
        "import time; from splendor.cli.base import console, errors\n"
        "with console.status('thinking'):\n    time.sleep(0.6); print('inside')\n"
        "from rich.progress import Progress\n"
        "with Progress(console=errors) as p:\n    p.add_task('x', total=2); time.sleep(0.6); print('beside')\n"
        "print('done')\n"
    )
    leader, follower = pty.openpty()
    with subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env={**os.environ, "TERM": "xterm-256color", "COLUMNS": "80"},
    ) as program:
        os.close(follower)
        seen = b""
        try:
            program.wait(timeout=30)
        finally:
            program.kill()
            with contextlib.suppress(OSError):
                while chunk := os.read(leader, 65536):
                    seen += chunk
            os.close(leader)
    assert program.returncode == 0 and b"done" in seen, seen[-400:]


def test_a_record_left_unsaved_at_the_prompt_says_so(tmp_path: Path) -> None:
    """A newcomer's find: Ctrl-D at "Save the record to a file" ended the program in silence, status 0."""
    for typed in ("quit\ny\n", "quit\ny\n\n"):  # the input's end, or an empty answer
        out = run("play", "--seats", "human,greedy", "--seed", "7", stdin=typed)
        assert out.returncode == 0, out.stderr
        assert out.stdout.rstrip().endswith("The record is not saved."), out.stdout[-300:]


def test_a_record_that_cannot_be_written_is_said_before_the_game_and_at_the_end_asked_again(tmp_path: Path) -> None:
    """A terminal player's finds: --record to a place that cannot be written played a whole game before failing to
    save it; at the end, a path that failed was not asked again, and a file already there was replaced unasked."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    out = run("play", "--seats", "human,greedy", "--record", str(blocker / "x.record"))
    assert out.returncode == 2 and "is a file, not a folder" in " ".join(out.stderr.split()), out  # (lines wrap)
    assert "seats:" not in out.stdout  # before the game
    kept = tmp_path / "kept.record"
    kept.write_text("a record worth keeping")
    fresh = tmp_path / "fresh.record"
    script = f"take w b g\nquit\ny\n{blocker / 'x.record'}\n{kept}\nn\n{fresh}\n"
    out = run("play", "--seats", "human,greedy", "--seed", "7", stdin=script)
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "Could not save the record to" in text and "exists: replace it? [y/N]" in text, text
    assert "is a file, not a folder" in text and "File exists" not in text  # what is wrong, not what the OS says
    assert kept.read_text() == "a record worth keeping" and len(Record.from_text(fresh.read_text()).actions) == 2


@pytest.mark.parametrize(("lang", "typed"), [("sl", "take bela, modra zelena"), ("ko", "take 흰색 파란색 초록색")])
def test_tokens_are_read_by_the_names_a_refusal_lists_in_the_players_language(
    tmp_path: Path, lang: str, typed: str
) -> None:
    """A terminal player's find: "'bela' ni barva; barve so: w (bela), b (modra), ..." refused the very names it
    listed; English names were read, and the notation is one in every language."""
    saved = tmp_path / "g.record"
    out = run(
        "play",
        "--seats",
        "human,greedy",
        "--seed",
        "7",
        "--lang",
        lang,
        "--record",
        str(saved),
        stdin=f"{typed}\nquit\ny\n",
    )
    assert out.returncode == 0, out.stderr
    assert Record.from_text(saved.read_text()).actions[0] == "take w b g"


def test_help_wraps_its_words_in_their_column_on_an_80_column_terminal() -> None:
    """A terminal player's find: at 80 columns a description wrapped back to the screen's left edge ("take 2 tokens
    of one colour (4 or" / "more in the supply)"). Each wraps in its column now, and '?' shows it too."""
    out = run("play", "--seats", "human,greedy", "--seed", "7", stdin="?\nquit\ny\n\n", columns=80)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    first = next(i for i, line in enumerate(lines) if "take 2 tokens of one colour" in line)
    rows = lines[first : next(i for i, line in enumerate(lines) if line.startswith("Colours:"))]
    assert len(rows) >= 8 and all(line.startswith("  ") and len(line) <= 80 for line in rows), rows


def test_saving_never_crashes_on_a_strange_path_nor_removes_a_link_it_checks(tmp_path: Path) -> None:
    """A code review's finds: "~nosuchuser/x" typed at the end raised RuntimeError, losing the record; checking a
    --record that was a link to a missing file removed the link and left a file where it led."""
    from rich.console import Console

    from splendor.terminal.saving import record_problem, save_asking

    game = splendor.new_game("classic", players=2, seed=1)
    game.apply("take w b g")
    answers = iter(["~nosuchuser-of-splendor/x.record", str(tmp_path / "kept.record")])
    with open(os.devnull, "w") as quiet:
        saved = save_asking(game, None, {}, lambda _prompt: next(answers), str, Console(file=quiet))
    assert saved == tmp_path / "kept.record" and saved.exists()  # asked again, not a traceback
    link = tmp_path / "link.record"
    link.symlink_to(tmp_path / "nowhere" / "x.record")
    assert record_problem(link) is None
    assert link.is_symlink() and not (tmp_path / "nowhere").exists()  # the link kept, nothing left where it leads


def test_the_return_prompt_says_how_many_to_give_back_and_which_colours_may_be() -> None:
    """The prompt had listed the returns alone: 12 held and 2 to give back was learned only from a refusal. A word
    that is no colour was answered with the five colours, gold unsaid, though gold may be returned."""
    from splendor.terminal.play import _returning

    g = splendor.new_game("classic", players=2, seed=5)
    rng = random.Random(5)
    while g.view(g.current_player)["decision"] != "return":
        takes = [a for a in g.legal_actions() if a.kind in ("take", "reserve")] or g.legal_actions()
        g.apply(takes[rng.randrange(len(takes))])
    seat = g.current_player
    held = sum(g.view(seat)["seats"][seat]["tokens"].values())
    assert (
        str(_returning(g.view(seat), seat)) == f"You hold {held} tokens, 10 at most: return {held - 10}, one at a time."
    )
    with pytest.raises(splendor.IllegalAction) as refused:
        g.apply("return q")
    assert refused.value.explain("en").endswith("k (black) and y (gold)")


def test_your_pokemon_say_what_they_evolve_into_in_your_play_area() -> None:
    """The rules lay a caught card out with its next stage in sight; the terminal had said it only of the display."""
    from rich.console import Console

    from splendor.bots import decide, make_bot
    from splendor.terminal.draw import LETTERS, draw

    g = splendor.new_game("pokemon", players=2, seed=2)
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    for _ in range(30):
        g.apply(decide(bots[g.current_player], g))
    console = Console(width=300, record=True)
    console.print(draw(g.view(0), ["ann", "bob"], whole=True))  # ('board': each turn lists those ready only)
    areas = [line for line in console.export_text().splitlines() if "play area:" in line]
    evolving = [c for c in g.view(0)["seats"][0]["cards"] if c["evolves_to"]]
    need = "".join(f"{n}{LETTERS[colour]}" for colour, n in evolving[0]["evolve"].items()) if evolving else ""
    assert evolving and f"→ {evolving[0]['evolves_to']} {need}" in areas[0]


def test_a_game_left_and_saved_goes_on_with_resume_to_the_same_end(tmp_path: Path) -> None:
    """Half a game, left and saved; resumed from its record by the same seats, it ends as the whole game would."""
    expected = _random_record(seed=11)
    saved = tmp_path / "half.record"
    half = "\n".join(expected.actions[:20]) + f"\nquit\ny\n{saved}\n"
    out = run("play", "--seats", "ann:human,bob:human", "--seed", "11", stdin=half)
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "Game left after 20 actions." in text and f"splendor play --resume {saved}" in text
    rest = "\n".join(expected.actions[20:]) + "\n"
    out = run("play", "--resume", str(saved), stdin=rest)
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert (
        "Going on after 20 actions." in text and "seats: 0 ann (human), 1 bob (human)" in text and "Game over." in text
    )
    kept = Record.from_text(saved.read_text())  # saved again where it was, without asking
    assert kept.actions == expected.actions and [s["name"] for s in kept.notes["seats"]] == ["ann", "bob"]
    out = run("play", "--resume", str(saved))
    assert out.returncode == 2 and "is over" in out.stderr


def test_resume_refuses_what_the_record_settles_and_a_record_without_its_seats(tmp_path: Path) -> None:
    saved = tmp_path / "g.record"
    out = run("play", "--seats", "human,greedy", "--seed", "3", stdin=f"take w b g\nquit\ny\n{saved}\n")
    assert out.returncode == 0, out.stderr
    out = run("play", "--resume", str(saved), "--game", "kids")
    assert out.returncode == 2 and "leave out --game" in out.stderr
    out = run("play", "--resume", str(saved), "--seats", "human,greedy,greedy")
    assert out.returncode == 2 and "has 2 seats; --seats names 3" in " ".join(out.stderr.split())
    out = run("play", "--resume", str(saved), "--seats", "ismcts:easy,greedy")  # others may take the seats
    assert out.returncode == 0 and "Going on after 2 actions." in out.stdout and "Game over." in out.stdout
    bare = tmp_path / "bare.record"
    bare.write_text(Record(game="classic", players=2, seed=3, actions=["take w b g"]).to_text())
    out = run("play", "--resume", str(bare))
    assert out.returncode == 2 and "does not say who played seat 0" in out.stderr
    out = run("play", "--resume", str(tmp_path / "nowhere.record"))
    assert out.returncode == 2 and "cannot resume" in out.stderr
    # a record is shared: it never starts a program (nor loads a file) of its sender's choosing
    touched = tmp_path / "touched"
    for bot in (f"cmd:touch {touched}", f"CMD:touch {touched}", "ppo:model.zip", "learned:policy.npz"):
        seats = [{"seat": 0, "kind": "human", "name": "ann"}, {"seat": 1, "kind": "bot", "bot": bot, "name": "x"}]
        sent = tmp_path / "sent.record"
        sent.write_text(
            Record(game="classic", players=2, seed=3, actions=["take w b g"], notes={"seats": seats}).to_text()
        )
        out = run("play", "--resume", str(sent), stdin="take w b g\n")
        said = " ".join(out.stderr.split())
        assert out.returncode == 2 and "a record never starts a program or loads a file" in said, out.stderr
    assert not touched.exists()
    seats = [{"seat": 0, "kind": "human", "name": "[/]ann"}, {"seat": 1, "kind": "bot", "bot": "greedy", "name": "g"}]
    sent.write_text(Record(game="classic", players=2, seed=3, actions=["take w b g"], notes={"seats": seats}).to_text())
    out = run("play", "--resume", str(sent), stdin="quit\ny\n")
    assert out.returncode == 0 and "0 [/]ann (human)" in out.stdout, out.stderr  # a name, never markup
    assert "Going on after 1 action." in out.stdout


def test_quit_asks_before_it_leaves_the_game() -> None:
    """A game left cannot be taken up again: quit asks first, and anything but yes plays on."""
    out = run("play", "--seats", "human,greedy", "--seed", "3", stdin="quit\nn\ntake w b g\nquit\ny\n\n")
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert text.count("Leave this game?") == 2
    assert "Playing on." in text and "Game left after 2 actions." in text


def test_hint_in_the_terminal_is_the_expert_bots_move_for_you() -> None:
    out = run("play", "--seats", "human,greedy", "--seed", "3", stdin="hint\nquit\ny\n\n")
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    said = re.search(r"The expert bot would play (.+?) \(estimated chance of winning (\d+)%\)", text)
    assert said is not None, text
    game = splendor.new_game("classic", players=2, seed=3)
    assert said.group(1) in [a.text for a in game.legal_actions()] and 0 <= int(said.group(2)) <= 100


def test_play_against_bots_to_the_end_and_save_the_record(tmp_path: Path) -> None:
    saved = tmp_path / "bots.record"
    out = run("play", "--seats", "greedy,random", "--seed", "5", "--record", str(saved))
    assert out.returncode == 0, out.stderr
    assert "Game over." in out.stdout
    game = splendor.replay(saved.read_text())
    assert game.is_over


def test_a_bots_move_names_the_card_it_bought_and_the_noble_that_visited(tmp_path: Path) -> None:
    """A newcomer saw "ismcts:easy 1 (seat 1): buy 1.2" of a card dealt into that slot a moment before: which card
    it was, and the noble that came, were said nowhere."""
    saved = tmp_path / "g.record"
    out = run("play", "--seats", "greedy,greedy", "--seed", "3", "--record", str(saved))
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    # the card, and what was paid for it (a gold standing in), rather than what it costs
    assert re.search(r"greedy \d \(seat \d\): buy \d\.\d — a tier \d card \((\d★|no points), \w+ bonus\); pays ", text)
    assert re.search(r"; Patron of [\w ,]+ visits \(3★, for bonuses of ", text)
    # the record keeps the names, so its replay says who played each move and who won
    replayed = " ".join(run("replay", str(saved)).stdout.split())
    assert "1. greedy 0: take" in replayed and "2. greedy 1: take" in replayed
    assert re.search(r"greedy \d wins\. Points: greedy 0 \d+, greedy 1 \d+", replayed), replayed


def test_a_kids_game_ends_with_who_reached_the_palace_not_points_and_a_village_gives_another_turn() -> None:
    out = run("play", "--game", "kids", "--seats", "greedy,greedy,greedy", "--seed", "5")
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert re.search(r"move \d+ pay [a-z: ]+ — arrives at [\w' ]+; plays again \(a village\)", text)
    assert "In the Palace of Splendor: greedy 0 (Queen's Medal 1)" in text and "Points:" not in text


def test_a_hint_of_a_finished_game_says_how_to_ask_about_a_position_in_it(tmp_path: Path) -> None:
    path = tmp_path / "g.record"
    path.write_text(_random_record(seed=21).to_text())
    out = run("hint", str(path))
    assert out.returncode == 2 and "--upto N" in " ".join(out.stderr.split())
    assert run("hint", str(path), "--upto", "-1").returncode == 2  # not "all but the last", as Python would read it


def test_an_outside_bot_that_forfeits_in_play_loses_with_its_reason_and_is_stopped(tmp_path: Path) -> None:
    bot = tmp_path / "garbage.py"
    bot.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line)['type'] == 'start':\n"
        "        print(json.dumps({'type': 'ready'}), flush=True)\n"
        "    else:\n"
        "        print('hello I am garbage', flush=True)\n"
    )
    record = tmp_path / "forfeit.record"
    out = run("play", "--seats", f"cmd:{sys.executable} {bot},greedy", "--seed", "1", "--record", str(record))
    assert out.returncode == 0, out.stderr
    said = " ".join(out.stdout.split())  # Rich wraps at 80 columns, where the bot's path puts the break
    assert "loses by forfeit (the bot's answer is not JSON" in said and "greedy 1 wins." in said, out.stdout
    kept = Record.from_text(record.read_text())
    assert kept.notes["forfeit"]["seat"] == 0 and "not JSON" in kept.notes["forfeit"]["reason"]
    running = [c for c in Path("/proc").glob("[0-9]*/cmdline") if _reads(c).find(str(bot).encode()) >= 0]
    assert running == []  # the program was stopped, not left behind


def _reads(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:  # a process that ended meanwhile
        return b""


def test_kids_options_belong_to_kids() -> None:
    out = run("play", "--game", "classic", "--mysteries")
    assert out.returncode == 2 and "--mysteries belongs to Splendor Kids" in out.stderr


def test_play_kids_shows_the_roads_and_what_they_cost() -> None:
    out = run("play", "--game", "kids", "--seats", "human,greedy", "--seed", "1", stdin="quit\ny\n\n")
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "Roads from here" in text and "road 1 →" in text and "not the published board" not in text
    assert "A board of our own design" in text


def test_the_terminal_loads_the_pokedex_store_only_to_open_a_pokedex() -> None:
    """The store (SQLAlchemy, its migrations) took a second of every `splendor play`'s start, in any game."""
    code = (
        "import sys, splendor.cli, splendor.terminal.pokedex as p; "
        "print(sorted({'sqlalchemy', 'alembic'} & set(sys.modules))); "
        "p.prove_profiles('classic', [], None); print(sorted({'sqlalchemy', 'alembic'} & set(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split("\n")[:2] == ["[]", "[]"], done.stdout


def test_play_with_a_bad_seat_is_a_clear_error() -> None:
    out = run("play", "--seats", "human,wizard")
    said = " ".join(out.stderr.split())
    assert out.returncode == 2 and "unknown seat 'wizard'; a seat is human, a bot (random, greedy," in said, said
    out = run("play", "--seats", "human,ismcts:wizard")
    assert out.returncode == 2 and "unknown level 'wizard'" in out.stderr
    out = run("play", "--seats", "human")
    assert out.returncode == 2 and "2 to 4 players" in out.stderr
    out = run("play", "--game", "Pokemon", "--seats", "greedy,greedy", "--seed", "1")  # a game's name in any case
    assert out.returncode == 0 and "Game over." in out.stdout, out.stderr


def test_a_seat_is_a_bots_own_spec_or_a_name_and_its_kind() -> None:
    """The README's `splendor play --seats human,ismcts:expert` seats the expert: a spec whose whole text is a bot
    is that bot (it was read as a seat named 'ismcts' played by an unknown bot 'expert'); otherwise the text before
    the first colon names the seat."""
    expert = Seat.parse("ismcts:expert", 1)
    assert (expert.kind, expert.named) == ("ismcts:expert", False)
    assert Seat.parse("cmd:./MyBot", 1).kind == "cmd:./MyBot"  # a program's path keeps its case
    assert Seat.parse("bob:ismcts:hard", 0) == Seat(name="bob", kind="ismcts:hard", named=True)
    assert Seat.parse("me:Human", 0) == Seat(name="me", kind=HUMAN, named=True)
    assert Seat.parse("greedy:human", 0) == Seat(name="greedy", kind=HUMAN, named=True)  # a player called greedy
    assert Seat.parse("cmd:human", 0) == Seat(name="cmd", kind=HUMAN, named=True)  # not a program called human


def test_simulate_reports_wins_turns_truncation_and_speed_as_json(tmp_path: Path) -> None:
    out = run(
        "simulate",
        "--players",
        "2",
        "--seats",
        "random,greedy",
        "--games",
        "6",
        "--seed",
        "4",
        "--json",
        "--records",
        str(tmp_path),
    )
    assert out.returncode == 0, out.stderr
    figures = json.loads(out.stdout)
    assert figures["games"] == 6 and sum(figures["wins"]) + sum(figures["shared_wins"]) + figures["truncated"] >= 6
    assert figures["wins"][1] >= 5
    assert figures["mean_turns"] > 10 and figures["decisions_per_second"] > 0
    records = sorted(tmp_path.glob("*.record"))
    assert len(records) == 6
    out = run("replay", str(records[0]))
    assert out.returncode == 0 and "The record is complete and legal." in out.stdout


def test_simulate_counts_an_outside_bots_forfeit_and_goes_on(tmp_path: Path) -> None:
    """A bot that fails loses its game, as in the arena, and the run goes on: simulate had stopped at the first
    forfeit with a traceback, losing the games before it, and left the program running."""
    program = outside_bot(tmp_path, 'print(json.dumps({"type": "action", "action": "take w w w"}), flush=True)')
    bot = program.split()[-1]  # the script's path, to find its process
    records = tmp_path / "records"
    seats = f"greedy,cmd:{program}"
    out = run("simulate", "--seats", seats, "--games", "2", "--json", "--records", str(records))
    assert out.returncode == 0, out.stderr
    figures = json.loads(out.stdout)
    assert figures["forfeits"] == [0, 2] and figures["wins"] == [2, 0]
    assert "not one of the legal actions" in figures["forfeit_reasons"][1]
    kept = Record.from_text(sorted(records.glob("*.record"))[0].read_text())
    assert kept.notes["bots"] == ["greedy", f"cmd:{program}"] and kept.notes["forfeit"]["seat"] == 1
    said = " ".join(run("replay", str(sorted(records.glob("*.record"))[0])).stdout.split())
    assert "loses by forfeit" in said and "greedy wins." in said
    running = [c for c in Path("/proc").glob("[0-9]*/cmdline") if _reads(c).find(str(bot).encode()) >= 0]
    assert running == []


def test_simulate_refuses_more_bots_than_seats_an_empty_place_and_a_records_folder_it_cannot_make(
    tmp_path: Path,
) -> None:
    out = run("simulate", "--seats", "random,greedy,greedy", "--players", "2", "--games", "1")
    assert out.returncode == 2 and "3 bots for 2 players" in out.stderr
    out = run("simulate", "--seats", ",greedy", "--games", "1")
    assert out.returncode == 2 and "empty place" in out.stderr
    (tmp_path / "afile").write_text("")
    out = run("simulate", "--games", "1", "--records", str(tmp_path / "afile"))
    assert out.returncode == 2 and "could not keep the records" in out.stderr and "Traceback" not in out.stderr


def test_simulate_table_output() -> None:
    out = run("simulate", "--players", "3", "--seats", "greedy", "--games", "2")
    assert out.returncode == 0, out.stderr
    assert "greedy" in out.stdout and "mean turns" in out.stdout


def test_replay_checks_a_record_and_names_an_illegal_line(tmp_path: Path) -> None:
    rec = _random_record(seed=21)
    good = tmp_path / "good.record"
    good.write_text(rec.to_text())
    out = run("replay", str(good))
    assert out.returncode == 0 and "complete and legal" in out.stdout
    bad = tmp_path / "bad.record"
    bad.write_text(Record(rec.game, rec.players, rec.seed, rec.options, rec.actions[:3] + ["take w w w"]).to_text())
    out = run("replay", str(bad))
    assert out.returncode == 2 and "action 4 of" in out.stderr and "take either up to 3" in out.stderr
    out = run("replay", str(tmp_path / "missing.record"))
    assert out.returncode == 2 and "cannot read" in out.stderr


def test_replay_names_the_seats_says_an_ending_outside_the_rules_and_reads_names_as_words(tmp_path: Path) -> None:
    """A server's record of a game ann resigned: it names its seats and how it ended (a review crashed on it at its
    last line); a name with brackets is words, not markup; notes that are not an object are refused."""
    rec = _random_record(seed=21)
    rec.actions = rec.actions[:12]
    rec.notes = {
        "seats": [{"seat": 0, "kind": "human", "name": "a[b]"}, {"seat": 1, "kind": "bot", "bot": "greedy"}],
        "ending": {"by": "resigned", "seat": 0, "at": 12},
    }
    path = tmp_path / "resigned.record"
    path.write_text(rec.to_text())
    for upto in ([], ["--upto", "12"]):
        out = run("replay", str(path), *upto)
        assert out.returncode == 0, out.stderr
        text = " ".join(out.stdout.split())
        assert "a[b] resigned: greedy wins." in text and "1. a[b]: " in text, upto
        assert "▶ 0 a[b]" in text or "0 a[b]" in text  # the players' table too, the name as it is
    rec.notes = {"forfeit": {"seat": 1, "bot": "cmd:x", "reason": "no answer within 5 s"}}  # play's
    path.write_text(rec.to_text())
    text = " ".join(run("replay", str(path)).stdout.split())
    assert "seat 1 loses by forfeit (no answer within 5 s): seat 0 wins." in text  # said "seat 1 (seat 1) forfeits"
    rec.notes = {"bots": ["greedy", "cmd:x"], "forfeit": {"seat": 1, "bot": "cmd:x", "reason": "late"}}  # the arena's
    path.write_text(rec.to_text())
    text = " ".join(run("replay", str(path)).stdout.split())
    assert "cmd:x loses by forfeit (late): greedy wins." in text and "1. greedy: " in text
    for notes in ('"x"', "[]"):
        bad = tmp_path / "bad.record"
        bad.write_text(rec.to_text().replace('"notes": {', f'"notes": {notes}, "was": {{', 1))
        refused = run("replay", str(bad))
        assert refused.returncode == 2 and "notes must be a JSON object" in " ".join(refused.stderr.split()), notes


def test_replay_calls_a_server_games_unnamed_person_as_its_table_did(tmp_path: Path) -> None:
    """A person the web table called "Player 1" had been "seat 0" in the replay of the record downloaded there."""
    rec = _random_record(seed=21)
    rec.notes = {
        "server_game": "g1",
        "seats": [{"seat": 0, "kind": "human", "name": None}, {"seat": 1, "kind": "bot", "bot": "greedy"}],
    }
    path = tmp_path / "web.record"
    path.write_text(rec.to_text())
    text = " ".join(run("replay", str(path)).stdout.split())
    assert "1. Player 1: " in text and "2. greedy: " in text and "seat 0" not in text


def test_replay_steps_through_on_enter(tmp_path: Path) -> None:
    rec = _random_record(seed=2)
    path = tmp_path / "g.record"
    path.write_text(rec.to_text())
    out = run("replay", str(path), "--step", stdin="\n\nq\n")  # the deal, then actions 1 and 2
    assert out.returncode == 0
    assert "   2. seat 1:" in out.stdout and "   3. seat" not in out.stdout
    assert out.stdout.index("Enter for the first action") < out.stdout.index("   1. seat 0:")  # the deal first
    # the input's end (Ctrl-D, a pipe run dry) stops the replay as q does; it had been "Aborted."
    out = run("replay", str(path), "--step", stdin="\n")
    assert out.returncode == 0 and "   1. seat 0:" in out.stdout and "   2. seat" not in out.stdout
    assert "Aborted" not in out.stdout + out.stderr


def test_bench_prints_decisions_and_games_per_second() -> None:
    out = run("bench", "--seconds", "0.5", "--json")
    assert out.returncode == 0, out.stderr
    figures = json.loads(out.stdout)
    assert figures["decisions_per_second"] > 0 and figures["games"] >= 1


def test_help_everywhere() -> None:
    for cmd in ([], ["play"], ["replay"], ["simulate"], ["bench"]):
        out = run(*cmd, "--help")
        assert out.returncode == 0 and "Usage" in out.stdout


def test_the_list_of_commands_says_each_summary_as_one_sentence() -> None:
    """A docstring's line breaks are not the table's: the ladder's summary had broken after "and one"."""
    out = run("--help")
    assert out.returncode == 0
    assert any("and one strength per bot is fitted" in line for line in out.stdout.splitlines())
    assert "``" not in out.stdout
    said = [line.strip() for line in run("play", "--help").stdout.splitlines()]
    assert not any(line.endswith("A game") for line in said)  # a paragraph is wrapped by the table, not the source
    assert "profile's Pokédex at the end. A game left unfinished" in " ".join(said)


def test_unknown_game_is_a_clear_error() -> None:
    out = run("simulate", "--game", "chess")
    assert out.returncode == 2 and "unknown game 'chess'" in out.stderr


def test_two_seats_given_one_name_are_refused_before_the_game() -> None:
    """The moves said, the record and a Pokémon profile are by name: two seats called 'a' were accepted, and
    told apart only as 'a 0' and 'a 1'. A bot's seat named for its kind stays apart ('greedy 1')."""
    out = run("play", "--seats", "a:human,A:greedy", "--seed", "1", stdin="quit\ny\n\n")
    assert out.returncode == 2 and "seat 1's name 'A' is seat 0's already" in out.stderr, out.stderr
    assert "turn 1" not in out.stdout
    fine = run("play", "--seats", "a:human,greedy,greedy", "--seed", "1", stdin="quit\ny\n\n")
    assert fine.returncode == 0, fine.stderr


def test_a_person_waiting_on_a_bot_is_told_it_thinks_and_that_a_first_search_may_take_a_minute(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A wheel user's find: the first move of a search bot after an install took some 40 s in silence (the search
    compiling). A bot's turn is said while it thinks, in a terminal (a spinner; nothing in a pipe)."""
    from io import StringIO

    from rich.console import Console

    from splendor.bots import make_bot
    from splendor.i18n import translate
    from splendor.terminal.play import Quit, _thinking, play_terminal

    def bob_first(console: Console) -> str:
        """What a person who quits at once is shown of greedy bob's first move."""
        answers = iter(["quit", "y"])
        with pytest.raises(Quit):
            play_terminal(
                splendor.new_game("classic", players=2, seed=3),
                [Seat("bob", "greedy"), Seat("ann", HUMAN)],
                console,
                lambda _prompt: next(answers),
            )
        return console.file.getvalue()  # type: ignore[attr-defined, no-any-return]

    assert "bob is thinking…" in bob_first(Console(file=StringIO(), force_terminal=True, width=100))
    # a terminal that draws no spinner (TERM=dumb) is told in a line (16 s had passed there in silence)
    dumb = Console(file=StringIO(), force_terminal=True, width=100, _environ={"TERM": "dumb"})
    assert "bob is thinking…\n" in bob_first(dumb)
    english = lambda message: translate(message, "en")  # noqa: E731
    monkeypatch.delitem(sys.modules, "splendor.search.compiled", raising=False)  # not loaded yet in this program
    assert "up to a minute" in _thinking(english, "cy", make_bot("ismcts:easy"))
    assert "minute" not in _thinking(english, "cy", make_bot("greedy"))


def test_the_command_says_its_version() -> None:
    """A wheel user's find: `splendor --version` was "No such option"."""
    done = run("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"splendor {splendor.__version__}", done


@pytest.mark.parametrize(("height", "since_first"), [(16, True), (200, False)])
def test_on_a_short_terminal_what_the_others_did_comes_above_the_table_so_the_table_stays_whole(
    height: int, since_first: bool
) -> None:
    """A terminal player's find: at 80x24 with four seats, the others' moves said under the table pushed its top off
    the screen (the market's rows, the header saying the final round, the rare Pokémon). Where both do not fit,
    the moves come first and the table ends next to the prompt; where they do, the moves stay by the prompt."""
    from io import StringIO

    from rich.console import Console

    from splendor.terminal.play import Quit, play_terminal

    console = Console(file=StringIO(), force_terminal=True, color_system=None, width=80, height=height)
    answers = iter(["take w b g", "quit", "y"])
    seats = [Seat("ann", HUMAN), Seat("bob", "greedy"), Seat("cy", "greedy"), Seat("dee", "greedy")]
    with pytest.raises(Quit):
        play_terminal(splendor.new_game("classic", players=4, seed=3), seats, console, lambda _prompt: next(answers))
    said = console.file.getvalue()  # type: ignore[attr-defined]
    second = said.rindex("Supply:")  # the table drawn for ann's second turn
    assert (said.rindex("Since your last turn:") < second) is since_first


def test_a_drought_says_what_it_does_and_how_many_to_discard() -> None:
    """A terminal player's find: the Drought asked only "tokens to discard in the Drought: discard k | discard r |
    ...", with no count (a return says "return 1, one at a time") and no word of what it does (ruling 24)."""
    from io import StringIO

    from rich.console import Console

    from splendor.bots import decide, make_bot
    from splendor.terminal.play import Quit, play_terminal

    g = splendor.new_game("kids", players=3, seed=0, mysteries=True)
    bots = [make_bot("random", seed=i) for i in range(3)]
    while not (g.view(g.current_player)["decision"] == "drought" and g.current_player == 0):  # 91 actions in
        g.apply(decide(bots[g.current_player], g))
    held = g.view(0)["seats"][0]["purse_total"]
    assert held > 5
    console = Console(file=StringIO(), width=200)
    answers = iter(["quit", "y"])
    seats = [Seat("ann", HUMAN), Seat("bob", "random"), Seat("cy", "random")]
    with pytest.raises(Quit):
        play_terminal(g, seats, console, lambda _prompt: next(answers))
    said = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    assert (
        f"every purse of more than 5 tokens discards down to 5. Yours holds {held}: discard {held - 5}, one at a "
        "time." in said
    ), said[-600:]


def test_a_game_resumed_mid_turn_says_what_that_turn_did_so_far(tmp_path: Path) -> None:
    """A terminal player's find: a record saved at a noble's choice (or a Thief's gift) went on with "Going on after
    103 actions" and the choice, not the buy that asked it: the last move was the player's own, which the list of
    the others' moves leaves out."""
    from splendor.bots import decide, make_bot

    g = splendor.new_game("classic", players=2, seed=1)
    bots = [make_bot("random", seed=2 + i) for i in range(2)]
    while g.view(g.current_player)["decision"] != "noble":  # 103 actions in, seat 0 bought and meets two nobles
        g.apply(decide(bots[g.current_player], g))
    assert g.current_player == 0
    bought = g.history[-1].text
    path = tmp_path / "noble.record"
    path.write_text(g.record.to_text())
    out = run("play", "--resume", str(path), "--seats", "human,greedy", stdin="quit\ny\n\n")
    text = " ".join(out.stdout.split())
    assert f"Your turn so far: player 0 (seat 0): {bought}" in text, text[:1500]


def test_a_tie_on_points_says_the_counts_that_broke_it() -> None:
    """A terminal player's find: "(tied on points; the tied player with fewer development cards wins.)" said which
    rule decided, not the counts (20 cards against 22)."""
    from splendor.bots import decide, make_bot
    from splendor.terminal.play import describe_result

    g = splendor.new_game("classic", players=2, seed=6)
    bots = [make_bot("greedy", seed=12 + i) for i in range(2)]
    while not g.is_over:
        g.apply(decide(bots[g.current_player], g))
    cards = g.result["cards_bought"]
    assert g.result["scores"] == [15, 15] and cards[0] < cards[1]
    said = describe_result(g, ["ann", "bob"])
    assert said.endswith(f"fewer development cards wins: ann {cards[0]}, bob {cards[1]}.)"), said


def test_a_misspelt_board_side_lists_the_shipped_ones(tmp_path: Path) -> None:
    """A terminal player's find: --board A1-front,A2-back,A9-front said only that the file A9-front could not be
    read."""
    out = run("play", "--game", "kids", "--seats", "greedy,random", "--board", "A1-front,A2-back,A9-front")
    said = " ".join(out.stderr.split())
    assert out.returncode == 2 and "nor is it a side of the game's boards, which are A1-back, A1-front" in said, said


def test_the_pokedex_of_a_name_no_profile_has_says_so(tmp_path: Path) -> None:
    """A terminal player's find: an unknown name (a typo) showed an empty Pokédex, as if it were one."""
    out = run("pokedex", "nobody", "--database-url", f"sqlite:///{tmp_path}/p.db")
    assert out.returncode == 0 and "No profile is named 'nobody' yet" in " ".join(out.stdout.split())


def test_small_words_of_the_terminal_a_player_met() -> None:
    """A terminal player's finds: a game of bots alone asked to type an action; Chinese's refusal put a space after
    its full-width colon ("不允许： 拿取"); the input's end at the save prompt left the line open."""
    bots = run("play", "--seats", "greedy,random", "--max-turns", "2")
    assert bots.returncode == 0 and "Type an action" not in bots.stdout
    refused = run("play", "--seats", "human,greedy", "--lang", "zh", stdin="take x\nquit\ny\n")
    assert "不允许：'x'" in refused.stdout, refused.stdout[-500:]
    assert refused.stdout.endswith("\n"), refused.stdout[-100:]  # the save prompt's line, ended at the input's end


def test_a_pokemon_tie_broken_on_the_play_area_counts_only_those_tied_on_the_tile_too() -> None:
    """A code review's find: three tied on points, one out on the cards under the trainer tile, the winner decided
    on the play area: its count was listed for all three, as if the one out (9 Pokémon) should have won."""
    from types import SimpleNamespace

    from splendor.terminal.play import describe_result

    game = SimpleNamespace(
        name="pokemon",
        is_over=True,
        result={
            "status": "won",
            "winners": [0],
            "scores": [18, 18, 18],
            "under_tile": [3, 3, 1],
            "play_area": [5, 4, 9],
            "tie_break": "tied on points and cards under the trainer tile; the tied player with most Pokémon in "
            "the play area wins",
        },
    )
    said = describe_result(game, ["ann", "bob", "cy"])  # type: ignore[arg-type]
    assert said.endswith("most Pokémon in the play area wins: ann 5, bob 4.)"), said


def test_replay_says_a_server_game_called_off_as_abandoned() -> None:
    """A server calls off a game left without a move past its limit for abandoned games (docs/server.md); a replay
    of its record says so, not that the seat lost by not moving in time (the words every other ending falls on)."""
    from splendor.terminal.play import describe_ending

    said = str(describe_ending({"by": "abandoned", "seat": 1, "at": 7}, ["ann", "bob"]))
    assert said == "bob left the game without a move for weeks: it was called off as abandoned, no winner, not rated."
