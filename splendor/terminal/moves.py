"""What an action did beyond its notation, in words: the card bought, caught or reserved, the noble that visited,
the evolution, where a Kids traveler arrived and what that gave it. The terminal's table says it after each move,
and `splendor replay` after each action, so that a card a bot bought from a slot just refilled is named, not only
its slot. The words are the web table's log's (words.js), from the same messages, so each language has them once.

>>> import splendor
>>> g = splendor.new_game("classic", players=2, seed=1)
>>> after = g.clone(); after.apply("reserve 1.1")
>>> [str(m) for m in what_happened(g, after.history[-1], after)]
['a tier 1 card (no points, red bonus, costs 1 white, 1 red and 3 black)', 'receives 1 gold']
"""

from __future__ import annotations

from typing import Any

from splendor.core.actions import Action
from splendor.core.game import Game
from splendor.games.palettes import PALETTES, TOKENS
from splendor.i18n import N_, Listing, Message, Series, _

VILLAGE_TILES = {
    "Tornado": N_("turns up the Tornado: the Marketplace's tiles are gone for the rest of the game"),
    "Treasure": N_("turns up a Treasure"),
    "Drought": N_("turns up the Drought"),
    "Kind-Hearted Thief": N_("turns up the Kind-Hearted Thief"),
    "Queen's Gem": N_("turns up the Queen's Gem"),
}
"""What turning up each Mysteries village tile is called."""


def token_word(game: str, colour: str) -> Message:
    """One token of ``colour`` as the game's table names it ("Heal Ball", "hazelnut", "white")."""
    return Message(TOKENS[game].word(colour))


def counted(game: str, counts: dict[str, int]) -> Message | Listing:
    """Tokens or bonuses counted by colour name, as the rules' messages count them (`Palette.describe`): "2 white
    and 1 blue", "4 Great Balls"; "nothing" when none."""
    palette = PALETTES[game]
    return palette.describe(tuple(counts.get(name, 0) for name in palette.names))


def card_words(game: str, card: dict[str, Any], cost: bool = True) -> Message:
    """A card as the log names it: "a tier 2 card (1★, blue bonus, costs 3 white)", "Pikachu (level 1, ...)"; a
    rare or a legendary Pokémon as that, never "level rare".

    >>> str(card_words("pokemon", {"name": "Lapras", "level": "rare", "points": 0, "bonus": "red", "bonus_count": 2,
    ...     "cost": {"blue": 2, "black": 3, "master": 1}}))
    'Lapras (rare, no points, double Poké Ball bonus, costs 2 Great Balls, 3 Ultra Balls and 1 Master Ball)'
    """
    bonus = token_word(game, card["bonus"])
    double = card.get("bonus_count", 1) > 1
    worth: list[Message | str] = [
        f"{card['points']}★" if card["points"] else _("no points"),
        _("double {colour} bonus", colour=bonus) if double else _("{colour} bonus", colour=bonus),
    ]
    if cost:
        free = not any(card["cost"].values())
        worth.append(_("free") if free else _("costs {cost}", cost=counted(game, card["cost"])))
    said = Series(worth)
    if game == "pokemon":  # a rare or a legendary Pokémon is that, not "level rare"
        pokemon = Message(card["name"])
        if card["level"] == "rare":
            return _("{pokemon} (rare, {worth})", pokemon=pokemon, worth=said)
        if card["level"] == "legendary":
            return _("{pokemon} (legendary, {worth})", pokemon=pokemon, worth=said)
        return _("{pokemon} (level {level}, {worth})", pokemon=pokemon, level=card["level"], worth=said)
    return _("a tier {tier} card ({worth})", tier=card["tier"], worth=said)


def what_happened(before: Game, action: Action, after: Game) -> list[Message]:
    """What everyone saw ``action`` do, taken in ``before`` and giving ``after``, that its notation does not say;
    nothing hidden (a card reserved from a deck stays unnamed)."""
    game, verb = before.name, action.kind
    d = before.public_details(action, after)
    said: list[Message] = []
    if "into" in d:
        said.append(
            _(
                "{pokemon} evolves into {card}",
                pokemon=Message(d["card"]["name"]),
                card=card_words(game, d["into"], cost=False),
            )
        )
    elif "card" in d:  # what a buy paid is said after it, rather than what the card costs
        said.append(card_words(game, d["card"], cost="paid" not in d))
    if "paid" in d:  # the tokens that changed hands, which the card's cost does not say: a gold standing in
        paid = any(d["paid"].values())  # nothing paid is a phrase of its own, as on the web table
        said.append(_("pays {tokens}", tokens=counted(game, d["paid"])) if paid else _("pays nothing"))
    if "received" in d:
        said.append(_("receives {tokens}", tokens=counted(game, d["received"])))
    for noble in d.get("nobles", []):
        said.append(
            _(
                "{noble} visits ({points}★, for bonuses of {needs})",
                noble=Message(noble["name"]),
                points=noble["points"],
                needs=counted(game, noble["requires"]),
            )
        )
    if "to" in d:
        said.append(_("arrives at {place}", place=Message(d["to"]["name"])))
    if "village_tile" in d:
        said.append(Message(VILLAGE_TILES.get(d["village_tile"], d["village_tile"])))
    if "city_tiles" in d:
        tiles = Listing(_("a City tile ({resource})", resource=token_word(game, c)) for c in d["city_tiles"])
        said.append(_("takes {tiles}", tiles=tiles))
    if "medal" in d and verb != "medal":
        said.append(_("receives Queen's Medal {medal}", medal=d["medal"]))
    if d.get("extra_turn"):
        said.append(_("plays again (a village)"))
    return said
