"""Splendor: Pokémon: the market game with evolution, rare and legendary rows, and an 18-point goal.

Every rule of ``shared/rules/pokemon-rulebook.txt`` and rulings 1-8 and 11-17. A turn is the main action (the
display refilled at once), then any returns down to 10 tokens, then at most one evolution, a decision of its own
(``evolve ID LEVEL.SLOT``, ``evolve ID reserved N`` or ``evolve none``) offered when one is possible, or when the
other seats cannot tell that none is (a card reserved from a deck might be the evolution; ruling 5).
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from splendor.core.actions import Action
from splendor.core.game import Game
from splendor.core.rng import Rng
from splendor.games.market import EXTRA_PHASE, Check, Handler, MarketGame, winners_by
from splendor.games.pokemon import notation
from splendor.games.pokemon.cards import CARDS, PALETTE
from splendor.games.pokemon.notation import ACTIONS, EVOLVE_ACTIONS, EVOLVE_NONE, LAYOUT, LOOKUP, SLOTS_PER_ROW
from splendor.i18n import N_, Message, _

EVOLVE = EXTRA_PHASE  # the seat may evolve one Pokémon, or decline


class PokemonGame(MarketGame):
    """Splendor: Pokémon for 2-4 players.

    >>> import splendor
    >>> g = splendor.new_game("pokemon", players=2, seed=1)
    >>> g.apply("take r b k"); g.current_player
    1
    """

    name = "pokemon"
    title = N_("Splendor: Pokémon")
    actions = ACTIONS
    notation_help = notation.__doc__ or ""
    palette = PALETTE
    layout = LAYOUT
    cards = CARDS
    lookup = LOOKUP
    buy_word = "catch"
    win_points = 18
    tokens_per_colour: ClassVar[dict[int, int]] = {2: 4, 3: 5, 4: 7}
    wild_tokens = 5

    under_tile: list[list[int]]

    def _check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The card games' options, and ``evolve_only_when_open``: the rule of games played before 2026-12-06, kept
        to replay them (``core.record.UPGRADES``), under which a seat was asked whether to evolve only when an
        evolution was open. Recorded only when set. The compiled engine plays today's rule alone, so a bot
        searching such a game may expect a question that does not come; its moves stay legal."""
        legacy = options.pop("evolve_only_when_open", False)
        if not isinstance(legacy, bool):
            raise ValueError("evolve_only_when_open must be true or false")
        kept = super()._check_options(options)
        return {**kept, "evolve_only_when_open": True} if legacy else kept

    def _setup_extra(self, rng: Rng) -> None:
        self.under_tile = [[] for _ in range(self.players)]

    # ----------------------------------------------------------------- evolution

    def _evolutions(self) -> list[Action]:
        """Every evolution open to the seat now, in index order."""
        seat = self.seat
        bon = self.bonuses[seat]
        found = []
        hand = self.reserved[seat]
        for src in self.bought[seat]:
            card = CARDS[src]
            if not card.evolves_to or bon[card.evolve_bonus] < card.evolve_count:
                continue
            row = self.rows[card.row + 1]
            for s in range(SLOTS_PER_ROW):
                if row[s] >= 0 and CARDS[row[s]].name == card.evolves_to:
                    found.append(EVOLVE_ACTIONS[(src, s)])
            for i, cid in enumerate(hand):
                if CARDS[cid].name == card.evolves_to:
                    found.append(EVOLVE_ACTIONS[(src, SLOTS_PER_ROW + i)])
        found.sort(key=lambda a: a.index)
        return found

    def _evolution_may_be_hidden(self) -> bool:
        """Whether, as far as the other seats can tell, the seat may evolve into a card it reserved from a deck: a
        Pokémon of its play area is ready to evolve, and it holds a hidden card of the level that Pokémon evolves
        into. Such a seat is asked whether to evolve whatever the hidden card is: asked only when it can, it would
        tell the table what that card is (ruling 5)."""
        seat = self.seat
        hidden_levels = {CARDS[cid].row for cid in self.reserved[seat] if cid in self.secret}
        if not hidden_levels:
            return False
        bon = self.bonuses[seat]
        return any(
            card.evolves_to and bon[card.evolve_bonus] >= card.evolve_count and card.row + 1 in hidden_levels
            for card in (CARDS[src] for src in self.bought[seat])
        )

    def _after_returns(self) -> None:
        if self._evolutions() or (not self.options.get("evolve_only_when_open") and self._evolution_may_be_hidden()):
            self.phase = EVOLVE
        else:
            self._end_turn()

    def _extra_actions(self) -> list[Action]:
        return self._evolutions() + [EVOLVE_NONE]

    def _extra_phase_problem(self, kind: str) -> Message | None:
        if kind not in ("evolve", "evolve_none"):
            return _("your turn ends with a choice: evolve one Pokémon (see 'moves') or 'evolve none'")
        return None

    def _extra_decision_name(self) -> str:
        return "evolve"

    def _check_evolve(self, args: tuple[int, ...]) -> Message | None:
        problem = self._phase_problem("evolve")
        if problem:
            return problem
        src, target = args
        card = CARDS[src]
        # what the Pokémon itself lacks first: said before the timing, a player learns what to aim for
        if src not in self.bought[self.seat]:
            return _("{pokemon} (card {id}) is not in your play area", pokemon=Message(card.name), id=src)
        have = self.bonuses[self.seat][card.evolve_bonus]
        if have < card.evolve_count:
            return _(
                "{pokemon} evolves with {n} {colour} bonuses from your play area; you have {have} (tokens "
                "do not count)",
                pokemon=Message(card.name),
                n=card.evolve_count,
                colour=PALETTE.word(card.evolve_bonus),
                have=have,
            )
        if self.phase != EVOLVE:
            return _(
                "you may evolve only at the end of your turn, after returning tokens, when an evolution is possible"
            )
        if target < SLOTS_PER_ROW:
            cid = self.rows[card.row + 1][target]
            where = _("at {slot}", slot=LAYOUT.slot_text(card.row + 1, target))
        else:
            hand = self.reserved[self.seat]
            i = target - SLOTS_PER_ROW
            cid = hand[i] if i < len(hand) else -1
            where = _("as your reserved card {number}", number=i + 1)
        if cid < 0 or CARDS[cid].name != card.evolves_to:
            return _(
                "{pokemon} evolves into {into}, and there is no {into} {where}",
                pokemon=Message(card.name),
                into=Message(card.evolves_to),
                where=where,
            )
        return None

    def _do_evolve(self, args: tuple[int, ...]) -> None:
        src, target = args
        seat = self.seat
        old = CARDS[src]
        if target < SLOTS_PER_ROW:
            new_id = self._take_from_row(old.row + 1, target)
        else:
            new_id = self.reserved[seat].pop(target - SLOTS_PER_ROW)
            self.secret.discard(new_id)
        new = CARDS[new_id]
        self.bought[seat].remove(src)
        self.under_tile[seat].append(src)
        self.bought[seat].append(new_id)
        bon = self.bonuses[seat]
        bon[old.bonus] -= old.bonus_count
        bon[new.bonus] += new.bonus_count
        self.points[seat] += new.points - old.points
        self.passes = 0
        self._end_turn()

    def _do_evolve_none(self, args: tuple[int, ...]) -> None:
        self._end_turn()

    def _check_evolve_none(self, args: tuple[int, ...]) -> Message | None:
        problem = self._phase_problem("evolve_none")
        if problem:
            return problem
        if self.phase != EVOLVE:
            return _("there is no evolution to decline now")
        return None

    # ----------------------------------------------------------------- the end

    def _decide_winners(self) -> list[int]:
        return winners_by([(self.points[s], len(self.under_tile[s]), len(self.bought[s])) for s in range(self.players)])

    def pokedex(self, seat: int) -> list[str]:
        """Every Pokémon the seat has caught this game (play area and under the trainer tile), in card order."""
        ids = sorted(self.bought[seat] + self.under_tile[seat])
        return list(dict.fromkeys(CARDS[c].name for c in ids))

    def _result_details(self) -> dict[str, Any]:
        details: dict[str, Any] = {
            "pokedex": [self.pokedex(s) for s in range(self.players)],
            "under_tile": [len(u) for u in self.under_tile],
            "play_area": [len(b) for b in self.bought],
        }
        if self.is_over and self._winners:  # not truncated, not stalled
            top = max(self.points)
            tied = [s for s in range(self.players) if self.points[s] == top]
            if len(tied) > 1:  # the step that decided: the one that left the winners alone, or none (shared)
                under = max(len(self.under_tile[s]) for s in tied)
                tied_under = [s for s in tied if len(self.under_tile[s]) == under]
                if len(tied_under) == 1:
                    details["tie_break"] = N_(
                        "tied on points; the tied player with most cards under the trainer tile wins"
                    )
                elif len(self._winners) == 1:
                    details["tie_break"] = N_(
                        "tied on points and cards under the trainer tile; the tied player with "
                        "most Pokémon in the play area wins"
                    )
                else:
                    details["tie_break"] = N_(
                        "tied on points, cards under the trainer tile and Pokémon in the play "
                        "area: the victory is shared"
                    )
        return details

    # ----------------------------------------------------------------- views and state

    def _card_view(self, cid: int) -> dict[str, Any]:
        c = CARDS[cid]
        level: int | str = int(c.level) if c.level.isdigit() else c.level
        return {
            "id": c.id,
            "tier": level,
            "level": level,
            "name": c.name,
            "dex": c.dex,
            "points": c.points,
            "bonus": PALETTE.names[c.bonus],
            "bonus_count": c.bonus_count,
            "cost": dict(zip(PALETTE.names, c.cost)),
            "evolves_to": c.evolves_to or None,
            "evolve": {PALETTE.names[c.evolve_bonus]: c.evolve_count} if c.evolves_to else {},
        }

    def public_details(self, action: Action, after: Game) -> dict[str, Any]:
        details = super().public_details(action, after)
        if action.kind == "evolve":
            details["card"] = self._card_view(action.args[0])
            details["into"] = self._card_view(cast(PokemonGame, after).bought[self.seat][-1])  # the same game, after
        return details

    def view(self, seat: int | None) -> dict[str, Any]:
        v = self._base_view(seat)
        for s, sv in enumerate(v["seats"]):
            sv["bonuses"].pop("master", None)
            sv["under_tile"] = [self._card_view(c) for c in self.under_tile[s]]
        v["ball_names"] = dict(zip(PALETTE.names, PALETTE.display))
        return v

    def _state(self) -> dict[str, Any]:
        state = super()._state()
        state["under_tile"] = self.under_tile
        return state

    def _restore(self, state: dict[str, Any]) -> None:
        super()._restore(state)
        self.under_tile = [list(x) for x in state["under_tile"]]

    def _copy_state(self, other: Game) -> None:
        super()._copy_state(other)
        o: Any = other
        o.under_tile = [x[:] for x in self.under_tile]

    _checks: ClassVar[dict[str, Check]] = {
        **MarketGame._checks,
        "evolve": _check_evolve,
        "evolve_none": _check_evolve_none,
    }
    _handlers: ClassVar[dict[str, Handler]] = {
        **MarketGame._handlers,
        "evolve": _do_evolve,
        "evolve_none": _do_evolve_none,
    }
