"""Classic Splendor: the market game with nobles and a 15-point goal.

Every rule of the rulebook (``shared/rules/classic-rules-sl.txt``) and rulings 1-10. A turn is the main
action, then any returns down to 10 tokens (one ``return`` action per token), then a noble's visit: automatic
when one noble qualifies, a ``noble N`` decision when several do (ruling 9: checked at the end of every turn).
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from splendor.core.actions import Action
from splendor.core.game import Game
from splendor.core.rng import Rng
from splendor.games.classic import notation
from splendor.games.classic.cards import CARDS, NOBLES, PALETTE
from splendor.games.classic.notation import ACTIONS, LAYOUT, LOOKUP, NOBLE_ACTIONS
from splendor.games.market import EXTRA_PHASE, Check, Handler, MarketGame, winners_by
from splendor.i18n import N_, Message, _

NOBLE = EXTRA_PHASE  # the seat chooses among several nobles that may visit


# The printed tiles' portraits are not this project's to use: a noble is named after the gems it asks for, by
# the bonus colours of its requirement (white, blue, green, red, black = diamond, sapphire, emerald, ruby, onyx).
NOBLE_NAMES: dict[tuple[int, ...], str] = {
    (3, 4): N_("Patron of Rubies and Onyx"),
    (2, 3): N_("Patron of Emeralds and Rubies"),
    (1, 2): N_("Patron of Sapphires and Emeralds"),
    (0, 4): N_("Patron of Diamonds and Onyx"),
    (0, 1): N_("Patron of Diamonds and Sapphires"),
    (2, 3, 4): N_("Patron of Emeralds, Rubies and Onyx"),
    (1, 2, 3): N_("Patron of Sapphires, Emeralds and Rubies"),
    (0, 3, 4): N_("Patron of Diamonds, Rubies and Onyx"),
    (0, 1, 4): N_("Patron of Diamonds, Sapphires and Onyx"),
    (0, 1, 2): N_("Patron of Diamonds, Sapphires and Emeralds"),
}


def noble_name(n: int) -> str:
    """Noble ``n``'s name (English; a message id of the catalogs), after the gems it asks for.

    >>> noble_name(0)
    'Patron of Rubies and Onyx'
    """
    return NOBLE_NAMES[tuple(c for c, v in enumerate(NOBLES[n].requires) if v)]


class ClassicGame(MarketGame):
    """Splendor, the original game, for 2-4 players.

    >>> import splendor
    >>> g = splendor.new_game("classic", players=2, seed=1)
    >>> g.apply("take w b g"); g.current_player
    1
    """

    name = "classic"
    title = N_("Splendor")
    actions = ACTIONS
    notation_help = notation.__doc__ or ""
    palette = PALETTE
    layout = LAYOUT
    cards = CARDS
    lookup = LOOKUP
    win_points = 15
    tokens_per_colour: ClassVar[dict[int, int]] = {2: 4, 3: 5, 4: 7}
    wild_tokens = 5

    nobles: list[int]
    seat_nobles: list[list[int]]

    def _setup_extra(self, rng: Rng) -> None:
        ids = [n.id for n in NOBLES]
        rng.shuffle(ids)
        self.nobles = ids[: self.players + 1]
        self.seat_nobles = [[] for _ in range(self.players)]

    # ----------------------------------------------------------------- nobles

    def _eligible_nobles(self) -> list[int]:
        bon = self.bonuses[self.seat]
        return [n for n in self.nobles if all(b >= r for b, r in zip(bon, NOBLES[n].requires))]

    def _still_to_come(self) -> bool:
        """A noble is due: a seat's bonuses meet one still on display, and it visits at that seat's next turn's end
        (ruling 9), whatever that turn's action; a pass too."""
        return any(
            all(b >= r for b, r in zip(self.bonuses[seat], NOBLES[n].requires))
            for seat in range(self.players)
            for n in self.nobles
        )

    def _after_returns(self) -> None:
        eligible = self._eligible_nobles()
        if len(eligible) > 1:
            self.phase = NOBLE
            return
        if eligible:
            self._visit(eligible[0])
        self._end_turn()

    def _visit(self, noble: int) -> None:
        self.nobles.remove(noble)
        self.seat_nobles[self.seat].append(noble)
        self.points[self.seat] += NOBLES[noble].points

    def _extra_actions(self) -> list[Action]:
        return [NOBLE_ACTIONS[n] for n in sorted(self._eligible_nobles())]

    def _extra_phase_problem(self, kind: str) -> Message | None:
        if kind != "noble":
            return _("several nobles may visit you: choose one with 'noble N' before anything else")
        return None

    def _extra_decision_name(self) -> str:
        return "noble"

    def _check_noble(self, args: tuple[int, ...]) -> Message | None:
        problem = self._phase_problem("noble")
        if problem:
            return problem
        if self.phase != NOBLE:
            return _("a noble is chosen only when several nobles may visit you at the end of your turn")
        n = args[0]
        if n not in self.nobles:
            return _("noble {number} is not on the display", number=n)
        if n not in self._eligible_nobles():
            need = PALETTE.describe(NOBLES[n].requires)
            return _("noble {number} requires card bonuses of {need}; tokens do not count", number=n, need=need)
        return None

    def _do_noble(self, args: tuple[int, ...]) -> None:
        self._visit(args[0])
        self._end_turn()

    # ----------------------------------------------------------------- the end

    def _decide_winners(self) -> list[int]:
        return winners_by([(self.points[s], -len(self.bought[s])) for s in range(self.players)])

    def _result_details(self) -> dict[str, Any]:
        details: dict[str, Any] = {"cards_bought": [len(b) for b in self.bought]}
        if self.is_over and self._winners:  # not truncated, not stalled
            top = max(self.points)
            tied = [s for s in range(self.players) if self.points[s] == top]
            if len(tied) > 1 and len(self._winners) == 1:
                details["tie_break"] = N_("tied on points; the tied player with fewer development cards wins")
            elif len(self._winners) > 1:
                details["tie_break"] = N_("tied on points and on development cards: the victory is shared")
        return details

    # ----------------------------------------------------------------- views and state

    def _card_view(self, cid: int) -> dict[str, Any]:
        c = CARDS[cid]
        return {
            "id": c.id,
            "tier": c.row + 1,
            "points": c.points,
            "bonus": PALETTE.names[c.bonus],
            "cost": dict(zip(PALETTE.names[:5], c.cost)),
        }

    @staticmethod
    def _noble_view(n: int) -> dict[str, Any]:
        noble = NOBLES[n]
        return {
            "id": noble.id,
            "name": noble_name(n),
            "points": noble.points,
            "requires": {g: v for g, v in zip(PALETTE.names, noble.requires) if v},
        }

    def public_details(self, action: Action, after: Game) -> dict[str, Any]:
        details = super().public_details(action, after)
        seat = self.seat
        now = cast(ClassicGame, after).seat_nobles[seat]  # after this action: the same game
        came = [n for n in now if n not in self.seat_nobles[seat]]
        if came:  # chosen, or the one that visits by itself at the end of a turn
            details["nobles"] = [self._noble_view(n) for n in came]
        return details

    def view(self, seat: int | None) -> dict[str, Any]:
        v = self._base_view(seat)
        v["nobles"] = [self._noble_view(n) for n in self.nobles]
        for s, sv in enumerate(v["seats"]):
            sv["nobles"] = [self._noble_view(n) for n in self.seat_nobles[s]]
            sv["bonuses"].pop("gold", None)
        return v

    def _state(self) -> dict[str, Any]:
        state = super()._state()
        state["nobles"] = self.nobles
        state["seat_nobles"] = self.seat_nobles
        return state

    def _restore(self, state: dict[str, Any]) -> None:
        super()._restore(state)
        self.nobles = list(state["nobles"])
        self.seat_nobles = [list(x) for x in state["seat_nobles"]]

    def _copy_state(self, other: Game) -> None:
        super()._copy_state(other)
        o: Any = other
        o.nobles = self.nobles[:]
        o.seat_nobles = [x[:] for x in self.seat_nobles]

    _checks: ClassVar[dict[str, Check]] = {**MarketGame._checks, "noble": _check_noble}
    _handlers: ClassVar[dict[str, Handler]] = {**MarketGame._handlers, "noble": _do_noble}
