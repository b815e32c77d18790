"""National Pokédex numbers: every Pokémon of Splendor: Pokémon carries its real number (``dex``), never the
project's card id, on the card data, in every card view, in the terminal and on the Pokédex page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import splendor
import splendor.compiled as compiled
from splendor.bots import decide, make_bot
from splendor.games.pokemon.cards import CARDS, evolution_lines
from splendor.games.pokemon.names import NATIONAL_DEX, POKEMON_NAMES
from splendor.terminal.draw import pokemon_card
from tests.market_positions import give_card, give_reserved, place
from tests.pokemon.positions import ids, new

POKEDEX_JS = Path(splendor.__file__).parent / "server" / "web" / "pokedex.js"

KNOWN = {
    "Bulbasaur": 1,
    "Ivysaur": 2,
    "Charmander": 4,
    "Squirtle": 7,
    "Caterpie": 10,
    "Pidgey": 16,
    "Nidoran": 29,
    "Oddish": 43,
    "Abra": 63,
    "Gastly": 92,
    "Haunter": 93,
    "Gengar": 94,
    "Lapras": 131,
    "Eevee": 133,
    "Aerodactyl": 142,
    "Snorlax": 143,
    "Articuno": 144,
    "Dratini": 147,
    "Dragonite": 149,
    "Mewtwo": 150,
    "Mew": 151,
}


@pytest.mark.parametrize(("pokemon", "number"), KNOWN.items())
def test_known_pokemon_carry_their_national_pokedex_number(pokemon: str, number: int) -> None:
    assert {CARDS[c].dex for c in ids(pokemon)} == {number}


def test_every_card_has_a_plausible_number_the_same_for_one_species_distinct_between_species() -> None:
    by_species: dict[str, set[int]] = {}
    for card in CARDS:
        assert 1 <= card.dex <= 1025, card
        by_species.setdefault(card.name, set()).add(card.dex)
    assert all(len(numbers) == 1 for numbers in by_species.values())
    numbers = [next(iter(n)) for n in by_species.values()]
    assert len(by_species) == 55 and len(set(numbers)) == 55
    assert set(NATIONAL_DEX) == set(POKEMON_NAMES) == set(by_species)


def test_each_evolution_is_the_next_number_as_in_the_first_generation() -> None:
    dex = {c.name: c.dex for c in CARDS}
    for card in CARDS:
        if card.evolves_to:
            assert dex[card.evolves_to] == card.dex + 1, card.name


def test_the_pokedex_lines_run_in_national_order() -> None:
    lines = evolution_lines()
    firsts = [NATIONAL_DEX[line[0]] for line in lines[:-2]]
    assert firsts == sorted(firsts)
    for line in lines:
        assert [NATIONAL_DEX[p] for p in line] == sorted(NATIONAL_DEX[p] for p in line)


def _card_views(view: dict[str, Any]) -> list[dict[str, Any]]:
    cards = [c for row in view["market"].values() for c in row if c]
    for sv in view["seats"]:
        cards += sv["cards"] + sv["under_tile"] + sv["reserved"]
    return cards


def _played(seed: int, steps: int, players: int = 2) -> splendor.Game:
    game = splendor.new_game("pokemon", players=players, seed=seed)
    bots = [make_bot("greedy", seed=s + 1) for s in range(players)]
    for _ in range(steps):
        game.apply(decide(bots[game.current_player], game))  # type: ignore[index]
    return game


def test_every_card_view_carries_dex_beside_the_name_and_a_face_down_card_none() -> None:
    g = new()
    secret = ids("Kadabra")[0]
    give_reserved(g, 0, secret, secret=True)
    give_card(g, 0, ids("Gastly")[0])
    for seat in (None, 0, 1):
        for card in _card_views(g.view(seat)):
            if card.get("hidden"):
                assert "dex" not in card and "name" not in card  # a face-down card tells nothing
            else:
                assert card["dex"] == NATIONAL_DEX[card["name"]]
    assert g.view(0)["seats"][0]["reserved"][0]["dex"] == 64
    assert g.view(1)["seats"][0]["reserved"][0] == {"hidden": True, "tier": 2}


def test_an_evolutions_public_details_carry_both_numbers() -> None:
    g = new()
    gastly = ids("Gastly")[0]
    for cid in (gastly, *ids("Weedle")[:2], ids("Dratini")[0]):  # Gastly evolves with 3 black (Ultra Ball) bonuses
        give_card(g, 0, cid)
    place(g, ids("Haunter")[0], 1)
    g.apply("take r b p")
    action = g.parse(f"evolve {gastly} 2.2")
    after = g.clone()
    after.apply(action)
    details = g.public_details(action, after)
    assert (details["card"]["name"], details["card"]["dex"]) == ("Gastly", 92)
    assert (details["into"]["name"], details["into"]["dex"]) == ("Haunter", 93)


@pytest.mark.parametrize("seed", [3, 8])
def test_the_compiled_engine_gives_back_the_same_views_numbers_included(seed: int) -> None:
    game = _played(seed, 60)
    fast = compiled.from_reference(game)
    for seat in (None, 0, 1):
        view = fast.to_reference().view(seat)
        assert view == game.view(seat)
        assert all("dex" in c for c in _card_views(view) if not c.get("hidden"))


def test_the_terminal_shows_the_pokedex_number_and_keeps_the_card_id_only_to_type_an_evolution() -> None:
    from rich.console import Console

    from splendor.terminal.draw import draw

    aerodactyl = next(c for c in CARDS if c.name == "Aerodactyl")
    g = new()
    text = pokemon_card(g._card_view(aerodactyl.id), sep=" · ").plain
    assert text.startswith("142 Aerodactyl") and f"#{aerodactyl.id}" not in text
    assert pokemon_card(g._card_view(ids("Bulbasaur")[0]), sep=" · ", say=str).plain.startswith("001 Bulbasaur")
    gastly, snorlax = ids("Gastly")[1], ids("Snorlax")[0]
    give_card(g, 0, gastly)
    give_card(g, 0, snorlax)
    console = Console(width=400, record=True)
    console.print(draw(g.view(0), ["ann", "bob"], whole=True))  # every trainer's whole play area ('board')
    out = console.export_text()
    assert f"play area: Gastly [#{gastly}]" in out  # what 'evolve ID ...' is typed with
    assert "Snorlax +" in out and f"[#{snorlax}]" not in out
    assert not re.search(r"(?<!\[)#\d+ [A-Z]", out)  # never '#83 Aerodactyl'


def test_the_pokedex_page_knows_the_same_numbers() -> None:
    source = POKEDEX_JS.read_text(encoding="utf-8")
    table = re.search(r"const DEX = \{(.*?)\};", source, re.S)
    assert table, "pokedex.js has no DEX table"
    numbers = {k: int(v) for k, v in re.findall(r"(\w+): (\d+)", table.group(1))}
    assert numbers == NATIONAL_DEX
