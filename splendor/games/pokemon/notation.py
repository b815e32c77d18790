"""Splendor: Pokémon's action notation and its fixed action index (any player count).

  action                                          text                   index
  take 3 different balls                          take r b k             0-9
  take 2 different (fewer than 3 colours left)    take r b               10-19
  take 1 (fewer than 3 colours left)              take p                 20-24
  take 2 of one colour (4+ in the supply)         take y y               25-29
  reserve a face-up card, level.slot              reserve 2.3            30-33, 35-38, 40-43
  reserve the top card of a level's deck          reserve deck 2         34, 39, 44
  catch a face-up card                            catch 1.4, catch rare, catch legendary   45-58
  catch your n-th reserved card                   catch reserved 1       59-61
  return a token (when holding more than 10)      return m               62-67
  evolve card #ID into the card at level.slot     evolve 12 2.3          68 onward (by card id, then target)
  evolve card #ID into your n-th reserved card    evolve 12 reserved 1
  decline to evolve                               evolve none
  pass (only when nothing else is legal)          pass                   last

Balls: r Poké Ball (red), b Great Ball (blue), k Ultra Ball (black), p Heal Ball (pink), y Quick Ball (yellow),
m Master Ball (wild). Colour names and ball names are read too (take poké great ultra). #ID is the id of a card
in your play area, shown beside it as [#ID]; it is not the Pokémon's National Pokédex number (No. 001).
"""

from __future__ import annotations

from splendor.core.actions import ActionTable, number
from splendor.core.errors import IllegalAction
from splendor.games.market import RESERVE_LIMIT
from splendor.games.market_notation import MarketLayout, MarketLookup, market_action_specs, market_normaliser
from splendor.games.pokemon.cards import CARDS, LEVELS, PALETTE
from splendor.i18n import Message, _

LAYOUT = MarketLayout(labels=LEVELS, sizes=(4, 4, 4, 1, 1), reservable=(0, 1, 2), levels=True)
EVOLVING = tuple(c for c in CARDS if c.evolves_to)
SLOTS_PER_ROW = 4
# An evolution's target: 0-3 a face-up slot of the next level, 4-6 a reserved card.
TARGETS = SLOTS_PER_ROW + RESERVE_LIMIT

_BALL_WORDS = {
    "poké": "r",
    "poke": "r",
    "pokéball": "r",
    "pokeball": "r",
    "great": "b",
    "greatball": "b",
    "ultra": "k",
    "ultraball": "k",
    "heal": "p",
    "healball": "p",
    "quick": "y",
    "quickball": "y",
    "masterball": "m",
}


def target_text(card_row: int, target: int) -> str:
    """How an evolution target is written: ``2.3`` or ``reserved 1``."""
    if target < SLOTS_PER_ROW:
        return f"{LAYOUT.labels[card_row + 1]}.{target + 1}"
    return f"reserved {target - SLOTS_PER_ROW + 1}"


def _own_verbs(words: list[str]) -> str | None:
    words[:] = [_BALL_WORDS.get(w, w) for w in words]
    verb, rest = words[0], words[1:]
    if verb == "reserve" and rest and rest[0] in ("rare", "legendary"):
        raise IllegalAction(_("rare and legendary cards cannot be reserved"))
    if verb != "evolve":
        return None
    if rest == ["none"] or rest == ["no"]:
        return "evolve none"
    usage = _("say 'evolve ID LEVEL.SLOT' (e.g. 'evolve 12 2.3'), 'evolve ID reserved N', or 'evolve none'")
    if len(rest) < 2:
        raise IllegalAction(usage)
    src = rest[0].lstrip("#")
    card_id = number(src)
    if card_id is None or card_id >= len(CARDS):
        raise IllegalAction(
            _(
                "'{word}' is not a card id (a card's id, 0 to {last}, is not its Pokédex number); {usage}",
                word=rest[0],
                last=len(CARDS) - 1,
                usage=usage,
            )
        )
    card = CARDS[card_id]
    if not card.evolves_to:
        raise IllegalAction(
            _(
                "{pokemon} (card {id}) does not evolve: only level 1 and 2 Pokémon do (a card's id is not its "
                "Pokédex number: yours are written [#ID] beside them)",
                pokemon=Message(card.name),
                id=card.id,
            )
        )
    where = rest[1:]
    if len(where) == 1 and "." in where[0]:
        where = where[0].split(".")
    place = number(where[1]) if len(where) == 2 else None
    if place is not None and where[0] in ("reserved", "hand"):
        if 1 <= place <= RESERVE_LIMIT:
            return f"evolve {card.id} reserved {place}"
        raise IllegalAction(usage)  # a reserve holds at most three: not a level's slot either
    if place is not None and 1 <= place <= SLOTS_PER_ROW:
        if where[0] != LAYOUT.labels[card.row + 1]:
            raise IllegalAction(
                _(
                    "{pokemon} evolves into a level {level} card, not one at level {asked}",
                    pokemon=Message(card.name),
                    level=LAYOUT.labels[card.row + 1],
                    asked=where[0],
                )
            )
        return f"evolve {card.id} {where[0]}.{place}"
    raise IllegalAction(usage)


def _specs() -> list[tuple[str, tuple[int, ...], str]]:
    specs = market_action_specs(PALETTE, LAYOUT, "catch")
    for card in EVOLVING:
        for t in range(TARGETS):
            specs.append(("evolve", (card.id, t), f"evolve {card.id} {target_text(card.row, t)}"))
    specs.append(("evolve_none", (), "evolve none"))
    specs.append(("pass", (), "pass"))
    return specs


ACTIONS = ActionTable(
    _specs(), market_normaliser(PALETTE, LAYOUT, "catch", _own_verbs, ("evolve",)), "Splendor: Pokémon"
)
LOOKUP = MarketLookup(ACTIONS, PALETTE, LAYOUT)
EVOLVE_ACTIONS = {(a.args[0], a.args[1]): a for a in ACTIONS if a.kind == "evolve"}
EVOLVE_NONE = ACTIONS.get("evolve_none")
