"""The terminal's table fits a terminal of 80 columns and 24 lines: the table is drawn again at every turn of a
person, and a taller one left its top (the market, the board) above the screen."""

from __future__ import annotations

import pytest
from rich.console import Console

import splendor
from splendor.bots import decide, make_bot
from splendor.core import Game
from splendor.i18n import _, translate
from splendor.terminal.draw import KIDS_ICONS, LETTERS, draw
from tests.test_cli import run


def _played(game: str, players: int, actions: int, seed: int = 5) -> Game:
    g = splendor.new_game(game, players=players, seed=seed)
    bots = [make_bot("greedy", seed=i) for i in range(players)]
    for _step in range(actions):
        g.apply(decide(bots[g.current_player], g))
    return g


def _lines(g: Game, seat: int | None = 0, language: str = "en", *, whole: bool = False) -> list[str]:
    console = Console(width=80, record=True, file=open("/dev/null", "w"))  # noqa: SIM115 (closed with the console)
    console.print(draw(g.view(seat), [f"player {i}" for i in range(g.players)], language, whole=whole))
    console.file.close()
    return [line.rstrip() for line in console.export_text().splitlines()]


@pytest.mark.parametrize("language", ["en", "sl", "ko", "zh"])
@pytest.mark.parametrize(("players", "actions", "most"), [(2, 30, 12), (4, 60, 16)])
def test_a_classic_table_fits_80_columns_with_each_market_row_on_one_line(
    players: int, actions: int, most: int, language: str
) -> None:
    """Boxed, the table of two took 29 lines at 80 columns and of four 34: a market row wrapped to two lines, and
    each box's rules took a line of their own."""
    g = _played("classic", players, actions)
    lines = _lines(g, language=language)
    assert len(lines) <= most, "\n".join(lines)
    rows = [line for line in lines if line[:1] in "123" and line.count("+") == 4]
    assert len(rows) == 3, "\n".join(lines)  # each tier's four cards on one line
    for noble in g.view(0)["nobles"]:  # a noble is never cut in two where the line wraps
        named = translate(_("noble {number} ({points}★):", number=noble["id"], points=noble["points"]), language)
        needs = " ".join(f"{n}{LETTERS[colour]}" for colour, n in noble["requires"].items() if n)
        assert any(f"{named} {needs}" in line for line in lines), "\n".join(lines)


def test_pokemons_display_takes_three_lines_a_level_at_80_columns() -> None:
    """A card of the display is its name; its points, bonus and cost; what it evolves into. Boxed, with the
    Pokédex's 'No.' and the word 'cost' in every cell, the display alone took 33 lines at 80 columns."""
    lines = _lines(_played("pokemon", 2, 40))
    top = next(i for i, line in enumerate(lines) if line.startswith("level"))
    end = next(i for i, line in enumerate(lines) if line.startswith("Supply:"))
    assert end - top <= 10, "\n".join(lines)  # the heading and three lines for each of the three levels
    assert lines[top - 2].startswith("rare (") and lines[top - 1].startswith("legendary (")
    assert all(len(line) <= 80 for line in lines)


def test_a_kids_turn_shows_where_the_travelers_stand_and_board_shows_it_all() -> None:
    """The whole board is some 75 lines; drawn at every turn, an 80x24 terminal showed its lowest quarter. A turn
    shows the places where the travelers stand, with their roads; the whole board is drawn at the game's first
    table, at 'board', and in a replay."""
    g = _played("kids", 4, 21)
    turn, whole = _lines(g), _lines(g, whole=True)
    assert len(turn) <= 20 < 60 < len(whole), "\n".join(turn)
    view = g.view(0)
    names = {sp["id"]: sp["name"] for sp in view["board"]["spaces"]}
    for sv in view["seats"]:
        assert any(names[sv["space"]] in line and "◉" in line for line in turn)
    assert any("Palace of Splendor" in line and "PALACE" in line for line in whole)
    assert not any("PALACE" in line for line in turn)


def test_each_kids_road_from_here_says_the_roads_one_step_further() -> None:
    """A child plans a road ahead: each road the traveler to move may take is followed by the roads from where it
    ends, with their resources."""
    g = splendor.new_game("kids", players=2, seed=3)
    view = g.view(0)
    roads = view["board"]["roads"]
    here = view["seats"][0]["space"]
    lines = _lines(g)
    for road in (r for r in roads if r["from"] == here):
        at = next(i for i, line in enumerate(lines) if line.startswith(f"  road {road['number']} → "))
        onward = [r["number"] for r in roads if r["from"] == road["to"]]
        assert lines[at + 1].lstrip().startswith("then:")
        assert [f"road {n} →" in lines[at + 1] for n in onward] == [True] * len(onward)
        kind = next(sp["kind"] for sp in view["board"]["spaces"] if sp["id"] == road["to"])
        assert lines[at].startswith(f"  road {road['number']} → {KIDS_ICONS[kind][0]} ")  # a village: another turn


def test_the_kids_game_draws_the_whole_board_first_and_again_at_board() -> None:
    out = run(
        "play", "--game", "kids", "--seats", "human,greedy", "--seed", "3", stdin="take k r g\nboard\nquit\ny\n\n"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("♛ PALACE") == 2, out.stdout  # the first table, and 'board'; not the turn between
    assert out.stdout.count("Where the travelers stand") == 1


def test_white_and_black_tokens_differ_by_more_than_their_letter() -> None:
    """Both were white letters on a dark grey; white is now a light chip and black a dark one."""
    from rich.style import Style

    from splendor.terminal.draw import STYLES

    def lightness(style: str) -> float:
        colour = Style.parse(style).bgcolor
        assert colour is not None
        return sum(colour.get_truecolor()) / 3

    assert lightness(STYLES["white"]) - lightness(STYLES["black"]) > 128


def test_a_pokemon_in_a_play_area_is_never_cut_in_two() -> None:
    """A play area of eleven Pokémon wraps between them: it had wrapped anywhere ('→' at a line's end, 'Gloom 2y'
    on the next)."""
    g = _played("pokemon", 2, 40)
    lines = _lines(g, whole=True)  # every trainer's whole play area ('board')
    for seat in g.view(0)["seats"]:
        for c in (c for c in seat["cards"] if c["evolves_to"]):
            ((colour, n),) = c["evolve"].items()
            whole = f"{c['name']} [#{c['id']}] +{LETTERS[c['bonus']]}"
            assert any(whole in line and f"→ {c['evolves_to']} {n}{LETTERS[colour]}" in line for line in lines), whole


@pytest.mark.parametrize("actions", [20, 40, 60])
def test_a_pokemon_turn_keeps_the_display_on_an_80x24_terminal(actions: int) -> None:
    """A helper playing at 80x24 found the level-3 row, rare and legendary scrolled off from the seventh turn: each
    trainer's whole play area followed the display. A turn draws each trainer on a line (with their reserve), and
    the whole play areas at 'board'."""
    g = _played("pokemon", 2, actions)
    lines = _lines(g)
    assert len(lines) <= 21, "\n".join(lines)
    assert lines[1].startswith("rare (deck ") and lines[2].startswith("legendary (deck ")
    assert len(_lines(g, whole=True)) > len(lines)


def test_the_pokemon_said_ready_to_evolve_are_those_the_rules_let_evolve() -> None:
    """At a turn the seat that reads sees the Pokémon it may evolve at the turn's end (its bonuses suffice and the
    card it becomes is in sight), each with the id an evolution is typed with: every one the rules offer."""
    g = splendor.new_game("pokemon", players=2, seed=4)
    bots = [make_bot("greedy", seed=i) for i in range(2)]
    while g.view(g.current_player)["decision"] != "evolve":
        g.apply(decide(bots[g.current_player], g))
    seat = g.current_player
    offered = {a.split()[1] for a in g.view(seat)["legal_actions"] if a != "evolve none"}
    ready = next(line for line in _lines(g, seat) if "ready to evolve:" in line)
    assert offered and all(f"[#{card}]" in ready for card in offered), (offered, ready)


def test_a_seats_bonuses_are_written_as_a_card_writes_one_apart_from_its_tokens() -> None:
    """'4w 3g 2k 1y 3g 1k': a helper could not tell where a seat's tokens ended and its bonuses began."""
    g = _played("classic", 2, 30)
    seat = g.view(0)["seats"][0]
    line = next(line for line in _lines(g) if line[2:].startswith("0 player 0"))
    bonuses = " ".join(f"+{n}{LETTERS[colour]}" for colour, n in seat["bonuses"].items() if n)
    assert bonuses and bonuses in line, (bonuses, line)


def test_kids_says_its_last_round_once_and_names_the_treasure_and_the_port_once() -> None:
    """A helper's finds at 80x24: 'FINAL ROUND · THE GATES ARE CLOSING: last round'; a Mysteries purse held 't'
    that the legend did not name; Korean drew the port as '⚓ 항구 · 항구'."""
    g = splendor.new_game("kids", players=2, seed=4, mysteries=True)
    bots = [make_bot("greedy", seed=i) for i in range(2)]
    while not g.view(None)["gates_closed"]:
        g.apply(decide(bots[g.current_player], g))
    status = _lines(g)[0]
    assert status.count("last round") == 1 and "FINAL ROUND" not in status, status
    assert "t=Treasure" in " ".join(_lines(g))
    start = splendor.new_game("kids", players=2, seed=4)
    port = next(line for line in _lines(start, language="ko") if "⚓" in line)
    assert port.count("항구") == 1, port


def test_a_move_is_said_in_the_readers_punctuation_and_leaving_asks_on_one_line() -> None:
    """A helper saw 'greedy 1 (座位 1): take k k' beside 'me（座位 0，你的行动）>', and the question to leave wrapped
    its '[y/N]' alone onto a line of its own at 80 columns."""
    out = run("play", "--seats", "me:human,greedy", "--seed", "3", "--lang", "zh", stdin="take w b g\nquit\ny\n\n")
    assert out.returncode == 0, out.stderr
    assert "greedy 1（座位 1）：take" in out.stdout, out.stdout
    english = run("play", "--seats", "me:human,greedy", "--seed", "3", stdin="quit\ny\n\n", columns=80)
    asked = next(line for line in english.stdout.splitlines() if "Leave this game?" in line)
    assert asked.rstrip().endswith("[y/N]") and len(asked.split("> ", 1)[-1]) <= 80, asked


def test_an_environments_text_render_is_the_whole_table() -> None:
    """``render_mode="ansi"`` had become a turn's table (a reviewer's find): a spectator's saw no play area and
    a Kids board only where the travelers stand."""
    from splendor.envs.text import table_text

    assert "PALACE" in table_text(_played("kids", 2, 10), None)
    assert "play area:" in table_text(_played("pokemon", 2, 20), None)


def test_a_road_one_step_further_is_never_cut_in_two() -> None:
    """'then: road 35 → ▣ Guild Hall: g h b · road 36 → ♛ Palace of Splendor: k r' and 'r b b' on the next line, at
    the screen's left edge (a reviewer's find): the roads near the Palace have the longest names."""
    cut, long = [], 0
    for seed in range(1, 7):
        g = splendor.new_game("kids", players=2, seed=seed)
        bots = [make_bot("greedy", seed=seed), make_bot("random", seed=seed)]
        while not g.is_over:
            if g.current_player == 0 and g.view(0)["decision"] == "action":
                for language in ("en", "sl", "ko"):
                    lines = _lines(g, language=language)
                    said = translate(_("Roads from here (used tiles in brackets cannot pay):"), language)
                    heading = lines.index(said)
                    roads = lines[heading + 1 :]
                    cut += [line for line in roads if not line.startswith("  ")]  # a road's words, wrapped
                    long += sum(1 for line in roads if line.startswith("        "))  # a Flow's next line
            g.apply(decide(bots[g.current_player], g))
    assert long and cut == [], (long, cut[:3])


def test_a_seat_named_as_another_is_called_is_refused() -> None:
    out = run("play", "--seats", "greedy 1:human,greedy", "--seed", "1", stdin="quit\ny\n\n")
    assert out.returncode == 2 and "seat 1's name 'greedy 1' is seat 0's already" in out.stderr, out.stderr


@pytest.mark.parametrize("language", ["sl", "ko", "zh"])
def test_a_face_down_village_tile_is_said_in_the_players_language(language: str) -> None:
    """A game owner's find: the Mysteries board said "[face down]" in English in every language."""
    g = splendor.new_game("kids", players=2, seed=1, mysteries=True)
    text = "\n".join(_lines(g, language=language, whole=True))
    face_down = translate(_("face down"), language)
    assert "[face down]" not in text and face_down != "face down" and f"[{face_down}]" in text


def test_a_full_width_colon_holds_its_own_space() -> None:
    """A translation review's find: Chinese read "供应区： 4r", a space after the full-width colon."""
    g = splendor.new_game("classic", players=2, seed=1)
    text = "\n".join(_lines(g, language="zh"))
    assert "供应区：" in text and "供应区： " not in text
    assert " ".join(_lines(g, language="en")).count("Supply: ") == 1


def test_pokemons_rare_and_legendary_rows_are_named_in_the_readers_words_and_as_typed() -> None:
    """A terminal player's find: Slovenian's table called them "rare" and "legendary", in English: the words the
    notation types, which stay beside the reader's own."""
    from rich.console import Console

    view = splendor.new_game("pokemon", players=2, seed=1).view(0)
    for language, rare, legendary in [
        ("sl", "redki [rare] (", "legendarni [legendary] ("),
        ("en", "rare (", "legendary ("),
    ]:
        console = Console(width=80, color_system=None)
        with console.capture() as seen:
            console.print(draw(view, ["a", "b"], language))
        lines = seen.get().splitlines()
        assert any(line.startswith(rare) for line in lines) and any(line.startswith(legendary) for line in lines)
