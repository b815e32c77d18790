"""The board's picture: on every board of shipped sides, no banner covers another banner, a space, its name, its
pawns or its Village tile's name, and no two spaces' marks overlap (boxes measured as the picture draws them)."""

from __future__ import annotations

import itertools

import pytest

import splendor
from splendor.games.kids.board import SECTIONS, SIDES
from splendor.games.kids.svg import _overlap, banner_boxes, space_boxes, svg

BOARDS = [[f"{s}-{side}" for s, side in zip(sections, sides)]
          for sections in (SECTIONS, ("A1", "A3")) for sides in itertools.product(SIDES, repeat=len(sections))]


@pytest.mark.parametrize("language", ["en", "sl", "ko", "zh"])
@pytest.mark.parametrize("sides", BOARDS, ids=lambda b: "+".join(b))
def test_no_label_on_the_board_overlaps_another(sides: list[str], language: str) -> None:
    """In every language: the Port's and the Palace's names and the Village tiles' are said in it."""
    view = splendor.new_game("kids", players=4, seed=1, board=sides, short=len(sides) == 2,
                             mysteries=len(sides) == 3).view(None)
    banners = list(banner_boxes(view, language).values())
    spaces = list(space_boxes(view, language).values())
    assert len(banners) == len(view["board"]["roads"])
    for a, b in itertools.combinations(banners, 2):
        assert _overlap(a, b, 0) == 0, (a, b)
    for banner in banners:
        for marks in spaces:
            assert all(_overlap(banner, mark, 0) == 0 for mark in marks), (banner, marks)
    for one, other in itertools.combinations(spaces, 2):
        assert all(_overlap(a, b, 0) == 0 for a in one for b in other), (one, other)


def test_the_picture_says_the_games_words_in_its_language_and_keeps_the_places_names() -> None:
    view = splendor.new_game("kids", players=2, seed=1, board=BOARDS[0], mysteries=True).view(None)
    picture = svg(view, language="zh")
    assert "港口" in picture and "璀璨宫殿" in picture and "本版图由 splendor 项目设计" in picture
    assert "The Port" not in picture and "Palace of Splendor" not in picture
    assert view["board"]["spaces"][1]["name"] in picture          # a place keeps its own name


def test_the_picture_draws_each_banner_where_it_was_placed() -> None:
    view = splendor.new_game("kids", players=2, seed=1, board=BOARDS[0], mysteries=True).view(None)
    picture = svg(view)
    for number, (x, y, w, _) in banner_boxes(view).items():
        assert f'data-road="{number}"' in picture
        assert f'<rect x="{x}" y="{y}" width="{w}" height="20"' in picture
