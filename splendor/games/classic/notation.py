"""Classic Splendor's action notation and its fixed action index (77 actions, any player count).

  action                                         text              index
  take 3 different colours                       take w b g        0-9
  take 2 different (fewer than 3 colours left)   take w b          10-19
  take 1 (fewer than 3 colours left)             take r            20-24
  take 2 of one colour (4+ in the supply)        take r r          25-29
  reserve a face-up card, tier.slot              reserve 2.3       30-33, 35-38, 40-43
  reserve the top card of a tier's deck          reserve deck 2    34, 39, 44
  buy a face-up card, tier.slot                  buy 1.4           45-56
  buy your n-th reserved card                    buy reserved 1    57-59
  return a token (when holding more than 10)     return y          60-65
  choose a noble (when several may visit)        noble 7           66-75
  pass (only when nothing else is legal)         pass              76

Colours: w white, b blue, g green, r red, k black, y gold. Full names are read too (take white blue green),
in any order and case; the canonical text lists colours in this order. Tiers are 1-3, slots 1-4 from the left.
"""

from __future__ import annotations

from splendor.core.actions import ActionTable, number
from splendor.core.errors import IllegalAction
from splendor.games.classic.cards import NOBLES, PALETTE
from splendor.games.market_notation import MarketLayout, MarketLookup, market_action_specs, market_normaliser
from splendor.i18n import _

LAYOUT = MarketLayout(labels=("1", "2", "3"), sizes=(4, 4, 4), reservable=(0, 1, 2))


def _own_verbs(words: list[str]) -> str | None:
    if words[0] != "noble":
        return None
    if len(words) != 2 or (n := number(words[1])) is None or n >= len(NOBLES):
        raise IllegalAction(_("say which noble by its number, e.g. 'noble 3' (0-{last})", last=len(NOBLES) - 1))
    return f"noble {n}"


def _specs() -> list[tuple[str, tuple[int, ...], str]]:
    specs = market_action_specs(PALETTE, LAYOUT, "buy")
    specs += [("noble", (n.id,), f"noble {n.id}") for n in NOBLES]
    specs.append(("pass", (), "pass"))
    return specs


ACTIONS = ActionTable(_specs(), market_normaliser(PALETTE, LAYOUT, "buy", _own_verbs, ("noble",)), "Splendor")
LOOKUP = MarketLookup(ACTIONS, PALETTE, LAYOUT)
NOBLE_ACTIONS = [ACTIONS.get("noble", n.id) for n in NOBLES]
