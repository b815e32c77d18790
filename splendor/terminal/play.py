"""A game at the terminal: people type actions in the notation, bots answer on their own."""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from splendor.bots.base import BOT_SPECS, BOTS, Bot, Forfeit, decide, ending, finish_bots, make_bot
from splendor.bots.hint import hint
from splendor.bots.review import percent
from splendor.core.errors import IllegalAction
from splendor.core.game import Game
from splendor.core.record import ABANDONED, ABORTED, EXPIRED, FORFEIT, NO_START, RESIGNED, TIME, ending_in_notes
from splendor.games import replay as replay_record
from splendor.games.kids.game import DROUGHT_LIMIT, PURSE_LIMIT
from splendor.games.market import TOKEN_LIMIT
from splendor.i18n import N_, SOURCE_LANGUAGE, Listing, Message, _, translate
from splendor.terminal.draw import choices, draw, labelled
from splendor.terminal.moves import what_happened
from splendor.terminal.typed import in_notation, is_yes

HUMAN = "human"
# A common turn of each game, in its own notation (the same in every language).
EXAMPLES = {
    "classic": "'take w b g', 'buy 1.2'",
    "pokemon": "'take r b k', 'catch 2.1'",
    "kids": "'take k r g', 'move 3'",
}


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: a display name, and ``human`` or a bot's name."""

    name: str
    kind: str
    named: bool = False

    @classmethod
    def parse(cls, spec: str, index: int) -> Seat:
        """``human``, a bot's spec (``greedy``, ``ismcts:expert``, ``cmd:./mybot``), or ``name:kind`` such as
        ``me:human`` or ``bob:ismcts:hard``: a spec whose whole text is a bot is that bot, unnamed.

        >>> Seat.parse("ismcts:expert", 1).kind, Seat.parse("me:human", 0).name
        ('ismcts:expert', 'me')
        """
        spec = spec.strip()
        if not spec:
            raise ValueError(f"seat {index} is empty; give human or a bot name")
        name, kind = "", spec
        first, colon, rest = spec.partition(":")
        whole_bot = bool(colon) and rest.strip().lower() != HUMAN and _is_bot(spec)
        if colon and not whole_bot:  # cmd:human is a player called cmd
            name, kind = first, rest.strip()
        if kind.lower() == HUMAN:
            kind = HUMAN
        elif not whole_bot:  # a whole spec was made once already
            try:
                make_bot(kind)  # raises ValueError naming the known bots
            except ValueError as e:
                if name.strip().lower() in BOTS:
                    make_bot(spec)  # a bot's spec misspelt (ismcts:wizard): its own error names the whole of it
                if str(e).startswith("unknown bot"):  # a seat may be a person too ('humna' had listed bots alone)
                    raise ValueError(
                        f"unknown seat {kind!r}; a seat is human, a bot ({BOT_SPECS}), or name:human, name:BOT"
                    ) from None
                raise
        if name.strip():
            return cls(name=name.strip(), kind=kind, named=True)
        return cls(name=f"{kind} {index}" if kind != HUMAN else f"player {index}", kind=kind)


def parse_seats(specs: str) -> list[Seat]:
    """The seats of ``--seats``, comma-separated, each as `Seat.parse` reads it. Two seats given one name are
    refused: the moves said and the record could not tell them apart, and in Pokémon both would claim one Pokédex.

    >>> [s.name for s in parse_seats("me:human,greedy")]
    ['me', 'greedy 1']
    """
    seats = [Seat.parse(spec, i) for i, spec in enumerate(specs.split(","))]
    seen: dict[str, int] = {}
    for i, seat in enumerate(seats):  # a name given, or one a seat is called by without one ('greedy 1')
        first = seen.setdefault(seat.name.casefold(), i)
        if first != i:
            raise ValueError(f"seat {i}'s name {seat.name!r} is seat {first}'s already; give each seat its own name")
    return seats


@contextmanager
def _while(console: Console, words: str) -> Iterator[None]:
    """``words`` said while what is inside runs: a spinner in a terminal, a line in a terminal that draws none
    (TERM=dumb: 16 s had passed in silence), nothing in a pipe."""
    if console.is_terminal and console.is_dumb_terminal:
        console.print(words, markup=False, highlight=False)
        yield
        return
    with console.status(words):
        yield


def _thinking(say: Callable[[Message], str], name: str, bot: Bot) -> str:
    """What a person waiting on ``bot`` is told: it thinks, and, before the compiled search is loaded in this
    program, that its first search may take a while (compiling it, the first time on a machine: a minute had passed
    in silence)."""
    if bot.name.startswith("ismcts") and "splendor.search.compiled" not in sys.modules:
        return say(
            _(
                "{name} is thinking… (the first search loads the compiled search: up to a minute the first "
                "time on this machine)",
                name=name,
            )
        )
    return say(_("{name} is thinking…", name=name))


def _is_bot(spec: str) -> bool:
    """Whether ``spec`` is a bot's spec as it stands (``make_bot`` reads a bot's program or level with its case)."""
    try:
        make_bot(spec)
    except ValueError:
        return False
    return True


# What 'help' shows: each kind of action in words, and how it is typed (the notation is the same in every
# language). The full notation, with the action index, is each game's notation module's documentation.
HELP: dict[str, tuple[tuple[str, str], ...]] = {
    "classic": (
        (N_("take 3 tokens of different colours"), "take w b g"),
        (N_("take 2 tokens of one colour (4 or more in the supply)"), "take r r"),
        (N_("take fewer colours (only when fewer than 3 are left)"), "take w b"),
        (N_("reserve a face-up card, tier.slot"), "reserve 2.3"),
        (N_("reserve the top card of a tier's deck"), "reserve deck 2"),
        (N_("buy a face-up card, tier.slot"), "buy 1.4"),
        (N_("buy one of your reserved cards"), "buy reserved 1"),
        (N_("return a token (when holding more than 10)"), "return y"),
        (N_("choose a noble (when several may visit)"), "noble 7"),
        (N_("pass (only when nothing else is legal)"), "pass"),
        (N_("Colours: w white, b blue, g green, r red, k black, y gold. Tiers 1-3, slots 1-4 from the left."), ""),
    ),
    "pokemon": (
        (N_("take 3 balls of different colours"), "take r b k"),
        (N_("take 2 balls of one colour (4 or more in the supply)"), "take y y"),
        (N_("take fewer colours (only when fewer than 3 are left)"), "take r b"),
        (N_("reserve a face-up card, level.slot"), "reserve 2.3"),
        (N_("reserve the top card of a level's deck"), "reserve deck 2"),
        (N_("catch a face-up Pokémon"), "catch 1.4, catch rare, catch legendary"),
        (N_("catch one of your reserved Pokémon"), "catch reserved 1"),
        (N_("return a ball (when holding more than 10)"), "return m"),
        (
            N_("evolve the Pokémon #ID into the card at level.slot, or into a reserved card"),
            "evolve 12 2.3, evolve 12 reserved 1",
        ),
        (N_("do not evolve"), "evolve none"),
        (N_("pass (only when nothing else is legal)"), "pass"),
        (
            N_(
                "Balls: r Poké Ball (red), b Great Ball (blue), k Ultra Ball (black), p Heal Ball (pink), y Quick Ball "
                "(yellow), m Master Ball. #ID is the number written [#ID] beside a Pokémon of yours that can evolve "
                "(under your seat, and all of them with 'board'), not its Pokédex number."
            ),
            "",
        ),
    ),
    "kids": (
        (N_("take 3 resources of different colours"), "take k r g"),
        (N_("take 2 of one resource (2 or more in the supply)"), "take h h"),
        (N_("take 1 gold coin"), "take y"),
        (N_("move along road N (say how you pay when there are several ways)"), "move 7, move 7 pay k k r tile:h"),
        (N_("return a token (purse over 8)"), "return h"),
        (N_("discard a token (Drought)"), "discard k"),
        (N_("give a token to a traveler (Kind-Hearted Thief)"), "give r to 2"),
        (N_("take the top City tile, or one from the Marketplace"), "city stack, city market 2"),
        (N_("choose a Queen's Medal"), "medal 3"),
        (N_("pass (in the Palace, or when nothing else is legal)"), "pass"),
        (
            N_(
                "Resources: k mushroom, r apple, g cabbage, h hazelnut, b water; y gold coin, t the Treasure. "
                "tile:h pays with an active hazelnut City tile."
            ),
            "",
        ),
    ),
}


def help_table(game: str, language: str = SOURCE_LANGUAGE) -> Group:
    """The actions of ``game`` and how each is typed, in ``language``: a table whose columns wrap in place at any
    width (a line of fixed columns had wrapped back to the screen's left edge at 80 columns), then the notes."""
    table = Table(box=None, show_header=False, padding=(0, 1, 0, 2))
    table.add_column(no_wrap=True, max_width=40)
    table.add_column(ratio=1)
    notes = []
    for words, typed in HELP[game]:
        said = translate(Message(words), language)
        if typed:
            table.add_row(Text(typed), Text(said))
        else:
            notes.append(Text(said))
    return Group(table, *notes)


# Each kind of decision a seat may face, as the prompt names it.
DECISIONS = {
    "action": N_("your action"),
    "return": N_("tokens to return"),
    "noble": N_("which noble visits"),
    "evolve": N_("whether to evolve"),
    "drought": N_("tokens to discard in the Drought"),
    "thief": N_("whom to give a token"),
    "city": N_("which City tile"),
    "medal": N_("which Queen's Medal"),
}


NO_EVOLUTION = _(
    "None of your Pokémon can evolve now. You are asked anyway, so that the others cannot tell what you reserved "
    "from a deck."
)
"""Said when a seat is asked whether to evolve and cannot (``PokemonGame._evolution_may_be_hidden``)."""


def decision_words(decision: str) -> Message:
    return Message(DECISIONS.get(decision, decision))


class Quit(Exception):
    """The person at the keyboard left the game."""


def play_terminal(
    game: Game,
    seats: list[Seat],
    console: Console,
    ask: Callable[[str], str],
    seed: int = 0,
    language: str = SOURCE_LANGUAGE,
) -> Game:
    """Play ``game`` to its end or until a person quits (raises `Quit`) or a bot forfeits (raises `Forfeit`: it
    loses, the others share the win); returns the game. Its outside programs are told how it ended and stopped.
    Everything is said in ``language``; actions are typed in the game's notation, the same in every language."""

    def say(message: Message) -> str:
        return translate(message, language)

    bots: dict[int, Bot] = {
        s: make_bot(seat.kind, seed=seed * 16 + s) for s, seat in enumerate(seats) if seat.kind != HUMAN
    }
    names = [seat.name for seat in seats]
    forfeit: dict[str, Any] | None = None
    try:
        _play_turns(game, seats, bots, names, console, ask, seed, say, language)
    except Forfeit as f:
        forfeit = {"seat": f.seat, "bot": names[f.seat], "reason": f.reason}
        raise
    finally:  # an outside program is told how the game ended and stopped, whatever ended it
        finish_bots(bots.values(), ending(game, forfeit))
    return game


def _play_turns(
    game: Game,
    seats: list[Seat],
    bots: dict[int, Bot],
    names: list[str],
    console: Console,
    ask: Callable[[str], str],
    seed: int,
    say: Callable[[Message], str],
    language: str,
) -> None:
    """The turns of `play_terminal`, until the game ends, a person quits (`Quit`) or a bot forfeits (`Forfeit`)."""
    drawn_at = hinted_at = -1  # len(history) when the table was last drawn / choices last listed
    whole = True  # the next table drawn shows all of the board: the first, and on 'board'
    said: list[tuple[int, str]] = []  # each action as it was said (markup), with its seat
    heard = {s: 0 for s in range(len(seats)) if s not in bots}  # a person's: len(said) when they last acted
    # A bot's move is said under the table drawn for the next person ("Since your last turn"), once: said as it was
    # played too, it came twice a turn, and a small terminal lost the table's top to it. Bots among themselves are
    # said as they play. ``shown``: how many of ``said`` are on the screen.
    shown = 0

    def line_of(seat: int, action: str, before: Game, after: Game) -> str:
        where = say(_("seat {seat}", seat=seat))  # the line as the language writes it ("bob（座位 1）：take k k")
        line = escape(say(_("{player} ({seat}): {action}", player="\x00", seat=where, action="\x01")))
        said = f"{escape(action)}{_happened(before, after, say)}"
        return line.replace("\x00", f"[cyan]{escape(names[seat])}[/]").replace("\x01", said)

    def tell(seat: int, action: str, before: Game) -> None:
        nonlocal shown
        said.append((seat, line_of(seat, action, before, game)))
        if seat not in bots or not heard:
            console.print(said[-1][1], highlight=False)
            shown = len(said)

    # Going on with a game (--resume): what the others did since the person to move last acted, as if heard.
    recent, own = _recent(game, set(heard))
    for n, mover, before, after in recent:
        said.append((mover, line_of(mover, after.history[n].text, before, after)))
    if own:  # left mid-turn (a noble to choose, a gift to give): what this turn did so far, which asks it
        console.print(Text(say(_("Your turn so far:")), style="bold"))
        for n, mover, before, after in own:
            console.print(f"  {line_of(mover, after.history[n].text, before, after)}", highlight=False)

    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        if seat in bots:
            if heard:  # a person waits: said while the bot thinks (a spinner in a terminal, nothing in a pipe)
                with _while(console, _thinking(say, names[seat], bots[seat])):
                    action = decide(bots[seat], game)
            else:
                action = decide(bots[seat], game)
            before = game.clone()
            game.apply(action)
            tell(seat, str(action), before)
            continue
        view = game.view(seat)
        if drawn_at != len(game.history):
            _table_and_since(console, draw(view, names, language, whole=whole), _since(said[heard[seat] :], seat, say))
            drawn_at, whole = len(game.history), False
            shown = len(said)
        if view["decision"] != "action" and hinted_at != len(game.history):
            choose = say(_("Choose ({decision}):", decision=decision_words(view["decision"])))
            console.print(choices(choose, view["legal_actions"]))
            if view["decision"] in ("return", "drought"):
                console.print(say(_returning(view, seat)), highlight=False)
            if view["decision"] == "evolve" and view["legal_actions"] == ["evolve none"]:  # ruling 5
                console.print(say(NO_EVOLUTION), highlight=False)
            hinted_at = len(game.history)
        prompt = say(
            _(
                "{name} (seat {seat}, {decision}) > ",
                name=names[seat],
                seat=seat,
                decision=decision_words(view["decision"]),
            )
        )
        try:
            line = ask(prompt)
        except EOFError:
            raise Quit from None
        command = line.strip().lower()
        if not command:
            continue
        if command in ("quit", "exit"):
            if _leave(ask, say):
                raise Quit
            console.print(say(_("Playing on.")))
            continue
        if command in ("help", "?"):
            console.print(help_table(game.name, language))
            console.print(
                say(
                    _(
                        "Other commands: moves (list legal actions), hint (the expert bot's advice), "
                        "board (draw the whole table again), quit."
                    )
                )
            )
            continue
        if command == "hint":
            with _while(console, say(_("The expert bot is thinking…"))):  # a few seconds, said
                advice = hint(game, seed=seed * 16 + seat)
            console.print(
                say(
                    _(
                        "The expert bot would play {action} (estimated chance of winning {chance}%).",
                        action=advice["action"],
                        chance=percent(advice["win_chance"]),
                    )
                ),
                markup=False,
                highlight=False,
            )
            continue
        if command in ("moves", "legal"):
            console.print(choices(say(_("Legal now:")), [a.text for a in game.legal_actions()]))
            continue
        if command in ("board", "show"):
            drawn_at, whole = -1, True
            continue
        try:
            before = game.clone()
            game.apply(in_notation(line, game.name, language))  # its tokens named in the player's words too
            tell(seat, game.history[-1].text, before)  # the action as the notation writes it, then what it did
            heard[seat] = len(said)
        except IllegalAction as e:
            refused = labelled(say(_("Not allowed:")))  # a full-width colon holds its own space
            console.print(f"[red]{escape(refused)}[/]{escape(e.explain(language))}", markup=True, highlight=False)
            console.print(say(_("Type 'moves' to list what is legal, or 'help' for the notation.")))
    for _seat, line in said[shown:]:  # the moves that ended the game, after the last table drawn
        console.print(line, highlight=False)


Played = tuple[int, int, Game, Game]
"""An action of a game's history: its index, its seat, the game before it and the game after it."""


def _recent(game: Game, people: set[int]) -> tuple[list[Played], list[Played]]:
    """For a game gone on with (``--resume``), a person's seat to move: the others' actions since that seat last
    acted (at most `SINCE_SHOWN`), and the seat's own actions of the turn it left unfinished (a record saved at a
    noble's choice or a Thief's gift: the buy or the road that asks it), else none."""
    seat = game.current_player
    if not game.history or seat not in people:
        return [], []
    at = replay_record(game.record, upto=0)
    recent: deque[Played] = deque(maxlen=SINCE_SHOWN)
    own: list[Played] = []
    for n, action in enumerate(game.history):  # once through: the last few kept, from the seat's own action on
        mover = at.current_player
        assert mover is not None  # (an action was played: a seat was to move)
        before = at.clone()
        at.apply(action)
        if mover == seat:
            recent.clear()
            own.append((n, mover, before, at.clone()))
        else:
            recent.append((n, mover, before, at.clone()))
            own.clear()
    return list(recent), own


SINCE_SHOWN = 12
"""The most of the other seats' actions a game gone on with (``--resume``) says before its first table: a game of
four's round with villages fits."""


def _since(lines: list[tuple[int, str]], seat: int, say: Callable[[Message], str]) -> Group | None:
    """The other seats' actions since ``seat`` last acted (every one: the bots' moves are said here only, none as
    they are played), or None when there are none."""
    others = [line for s, line in lines if s != seat]
    if not others:
        return None
    heading = Text(say(_("Since your last turn:")), style="bold")
    return Group(heading, *(Text.from_markup(f"  {line}") for line in others))  # a line names its seat in colour


def _table_and_since(console: Console, table: RenderableType, since: Group | None) -> None:
    """The table drawn for a person's turn, with what the others did since their last: under the table, next to
    the prompt, where both fit on the screen (the table, some 30 lines, had pushed them off above it); above it on
    a terminal too short for both, so that the table stays whole on the screen (at 80x24 a round of four had
    pushed off the market's top rows, the rare Pokémon, the header saying the final round, even your purse)."""
    if since is None:
        console.print(table)
        return
    if console.is_terminal and _lines(console, table) + _lines(console, since) + 2 > console.height:
        console.print(since, highlight=False)
        console.print(table)
    else:
        console.print(table)
        console.print(since, highlight=False)


def _lines(console: Console, shown: RenderableType) -> int:
    """How many lines of ``console`` ``shown`` takes (measured on a terminal alone: a pipe has no screen)."""
    return len(console.render_lines(shown, console.options, pad=False))


def _returning(view: dict[str, Any], seat: int) -> Message:
    """How many tokens a seat holds and must give back, as the web table says it."""
    me = view["seats"][seat]
    if view["game"] == "kids" and view["decision"] == "drought":  # ruling 24: a purse of more than 5 discards to 5
        held = me["purse_total"]
        return _(
            "The Drought: every purse of more than 5 tokens discards down to 5. Yours holds {held}: discard {n}, "
            "one at a time.",
            held=held,
            n=held - DROUGHT_LIMIT,
        )
    if view["game"] == "kids":
        held = me["purse_total"]
        return _(
            "Your purse holds {held} tokens, 8 at most: return {n}, one at a time.", held=held, n=held - PURSE_LIMIT
        )
    held = sum(me["tokens"].values())
    if view["game"] == "pokemon":
        return _("You hold {held} balls, 10 at most: return {n}, one at a time.", held=held, n=held - TOKEN_LIMIT)
    return _("You hold {held} tokens, 10 at most: return {n}, one at a time.", held=held, n=held - TOKEN_LIMIT)


def _leave(ask: Callable[[str], str], say: Callable[[Message], str]) -> bool:
    """Whether the person who typed quit means it, so that a slip of the keys does not end the game (a game left
    goes on only from a saved record). The end of the input leaves."""
    try:
        answer = ask(say(_("Leave this game? You can save it and go on later. [y/N] ")))  # one line at 80 columns
    except EOFError:
        return True
    return is_yes(answer, say)


def _happened(before: Game, after: Game, say: Callable[[Message], str]) -> str:
    """What the last action did beyond its notation (`moves.what_happened`), after a dash; empty when nothing."""
    said = what_happened(before, after.history[-1], after)
    return " — " + "; ".join(escape(say(m)) for m in said) if said else ""


ENDINGS = {
    "truncated": N_("The game stopped at its turn cap with no winner. Points: {scores}."),
    "stalled": N_("No seat could act for a whole round, so the game ended there with no winner. Points: {scores}."),
    "shared": N_("{players} share the victory. Points: {scores}."),
    "won": N_("{player} wins. Points: {scores}."),
}
"""How a card game ended, by its result's status, with every seat's points."""
KIDS_ENDINGS = {
    "truncated": N_("The game stopped at its turn cap with no winner. In the Palace of Splendor: {travelers}."),
    "stalled": N_(
        "No seat could act for a whole round, so the game ended there with no winner. In the Palace of Splendor: "
        "{travelers}."
    ),
    "shared": N_("{players} share the victory. In the Palace of Splendor: {travelers}."),
    "won": N_("{player} wins. In the Palace of Splendor: {travelers}."),
}
"""How a Kids game ended: it has no points, only who reached the Palace (and its Queen's Medal)."""


def describe_ending(ending: dict[str, Any], names: list[str]) -> Message:
    """How a game ended outside its rules, as a server's record keeps it (``notes["ending"]``: ``by`` and the
    ``seat`` that left), in the words the web table says it in."""
    seat = ending.get("seat")
    player = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    others = Listing(n for i, n in enumerate(names) if i != seat)
    by = ending.get("by")
    if by == ABORTED:
        return _("{player} aborted the game: no winner, not rated.", player=player)
    if by == NO_START:
        return _(
            "{player} did not make a first move in time: the game is called off, no winner, not rated.", player=player
        )
    if by == EXPIRED:
        return _("Nobody took the open seats in time: the game expired, no winner, not rated.")
    if by == ABANDONED:
        return _(
            "{player} left the game without a move for weeks: it was called off as abandoned, no winner, not rated.",
            player=player,
        )
    if by == FORFEIT:  # a bot's, kept by the arena, the terminal or simulate
        reason = str(ending.get("reason") or "")
        if len(names) == 2:
            return _(
                "{player} loses by forfeit ({reason}): {winner} wins.", player=player, reason=reason, winner=others
            )
        return _(
            "{player} loses by forfeit ({reason}): {players} share the victory.",
            player=player,
            reason=reason,
            players=others,
        )
    if by == RESIGNED:
        return _("{player} resigned: {winner} wins.", player=player, winner=others)
    if by == TIME:
        return _("{player} ran out of time: {winner} wins.", player=player, winner=others)
    return _("{player} did not move in time and lost the game.", player=player)


def describe_result(
    game: Game, names: list[str], language: str = SOURCE_LANGUAGE, notes: dict[str, Any] | None = None
) -> str:
    """The end of a game in words, in ``language``: by its rules, or as a record's ``notes`` keep it when it ended
    outside them (the server's ``ending``: a resignation, a clock, an abort; the arena's and the terminal's
    ``forfeit`` of a bot); an unfinished game without either says so."""
    if not game.is_over:
        ending = ending_in_notes(notes or {})
        if ending is not None:
            return translate(describe_ending(ending, names), language)
        return translate(_("The game is not over."), language)
    result = game.result
    winners = result["winners"]
    if game.name == "kids":
        medals = result.get("medals") or [None] * len(names)
        travelers = [
            names[s]
            if medals[s] is None
            else _("{traveler} (Queen's Medal {medal})", traveler=names[s], medal=medals[s])
            for s, there in enumerate(result["in_palace"])
            if there
        ]
        text = Message(
            KIDS_ENDINGS[result["status"]],
            players=Listing(names[w] for w in winners),
            player=names[winners[0]] if winners else "",
            travelers=Listing(travelers) if travelers else _("nobody"),
        )
    else:
        text = Message(
            ENDINGS[result["status"]],
            players=Listing(names[w] for w in winners),
            player=names[winners[0]] if winners else "",
            scores=", ".join(f"{names[s]} {p}" for s, p in enumerate(result["scores"])),
        )
    said = translate(text, language)
    if "tie_break" in result:
        rule: Message = Message(result["tie_break"])
        counted = _tie_counts(result)
        if counted:  # the counts that decided (they had gone unsaid)
            rule = _("{rule}: {counts}", rule=rule, counts=", ".join(f"{names[s]} {n}" for s, n in counted))
        said += f" ({translate(rule, language)}.)"
    return said


def _tie_counts(result: dict[str, Any]) -> list[tuple[int, int]]:
    """The seats a tie on points was broken among, each with its count that broke it, by the rules' own steps:
    classic's development cards; Pokémon's cards under the trainer tile, then, among those tied on these too, its
    Pokémon in the play area; none for a game without such counts (Kids)."""
    if "cards_bought" not in result and "under_tile" not in result:
        return []
    top = max(result["scores"])
    tied = [s for s, points in enumerate(result["scores"]) if points == top]
    if "cards_bought" in result:
        return [(s, result["cards_bought"][s]) for s in tied]
    under = result["under_tile"]
    most = max(under[s] for s in tied)
    still = [s for s in tied if under[s] == most]
    if len(still) == 1:  # the tile decided
        return [(s, under[s]) for s in tied]
    return [(s, result["play_area"][s]) for s in still]


def seat_names(notes: dict[str, Any], players: int, language: str = SOURCE_LANGUAGE) -> list[str]:
    """Each seat's name as a record's notes keep it (``seats``: the terminal's and the server's records; ``bots``:
    the arena's and simulate's), else "seat N"; for `splendor replay` and `splendor review`, which had said "seat 1
    wins" of a game ann won. Two seats of one name are told apart by their seat number.

    >>> seat_names({"bots": ["greedy", "greedy", "random"]}, 3)
    ['greedy 0', 'greedy 1', 'random']
    >>> seat_names({"bots": ["greedy", "greedy", "greedy 1"]}, 3)
    ['greedy 0', 'greedy 1 1', 'greedy 1 2']
    """
    kept = {s.get("seat"): s for s in notes.get("seats") or [] if isinstance(s, dict)}
    bots = notes.get("bots")  # the arena's and simulate's records: each seat's bot, in seat order
    names = []
    for seat in range(players):
        entry = kept.get(seat, {})
        name = entry.get("name") or entry.get("bot")
        if not name and isinstance(bots, list) and seat < len(bots) and isinstance(bots[seat], str):
            name = bots[seat]
        if not name and "server_game" in notes:  # a person the server's table called by the seat's number
            name = translate(_("Player {number}", number=seat + 1), language)
        names.append(str(name) if name else translate(_("seat {seat}", seat=seat), language))
    # two seats of one name (simulate's "greedy" against "greedy") are told apart by their seat, as the terminal names
    # its bots ("greedy 1"): "greedy wins. Points: greedy 15, greedy 15" had not said which
    while len(set(names)) < len(names):  # ("greedy", "greedy", "greedy 1": until none is the same)
        names = [f"{name} {seat}" if names.count(name) > 1 else name for seat, name in enumerate(names)]
    return names


SEATED_FROM_A_RECORD = ("random", "greedy", "ismcts", "policy", "learned")
"""The bots a record's notes may seat by themselves: those this program has within itself (``learned`` with its
shipped weights only). Any other (an outside program, a file to load: a PPO model is unpickled) is named again with
``--seats``: a record is shared, and must never start a program or load a file of its sender's choosing."""


def seats_from_notes(notes: dict[str, Any], players: int) -> list[Seat]:
    """The seats a record's notes keep (`seat_notes`), to go on with its game as it was seated; ``ValueError`` when
    the record does not say who sat where (a record of ``simulate``, of another program), names a bot unknown here,
    or names a bot that is not within this program (`SEATED_FROM_A_RECORD`): such a seat is named with ``--seats``.

    >>> notes = {"seats": seat_notes([Seat("ann", HUMAN, True), Seat("greedy 1", "greedy")])}
    >>> [(s.name, s.kind, s.named) for s in seats_from_notes(notes, 2)]
    [('ann', 'human', True), ('greedy 1', 'greedy', False)]
    """
    kept = {s.get("seat"): s for s in notes.get("seats") or [] if isinstance(s, dict)}
    seats = []
    for i in range(players):
        entry = kept.get(i)
        if entry is None:
            raise ValueError(f"the record does not say who played seat {i}; name every seat with --seats")
        name = entry.get("name")
        if entry.get("kind") == HUMAN:
            default = f"player {i}"
            name = name if isinstance(name, str) and name.strip() else default
            seats.append(Seat(name=name, kind=HUMAN, named=name != default))
            continue
        spec = entry.get("bot")
        kind, _colon, arg = spec.strip().partition(":") if isinstance(spec, str) else ("", "", "")
        within = kind.lower() in SEATED_FROM_A_RECORD and not (kind.lower() == "learned" and arg)
        if not isinstance(spec, str) or not within or not _is_bot(spec):  # checked within before anything is built
            raise ValueError(
                f"seat {i}'s bot {spec!r} is not one a record may seat (a record never starts a program or loads a "
                "file); name every seat with --seats"
            )
        default = f"{spec} {i}"
        name = name if isinstance(name, str) and name.strip() else default
        seats.append(Seat(name=name, kind=spec, named=name != default))
    return seats


def seat_notes(seats: list[Seat]) -> list[dict[str, Any]]:
    """The seats as a record's notes keep them, as the server's do: number, kind, bot and name."""
    return [
        {
            "seat": i,
            "kind": HUMAN if s.kind == HUMAN else "bot",
            "bot": None if s.kind == HUMAN else s.kind,
            "name": s.name,
        }
        for i, s in enumerate(seats)
    ]
