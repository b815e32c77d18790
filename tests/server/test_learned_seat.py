"""The learned bot on the server (issue 34, item 4): listed, seated in classic and playing there, refused in the
games it was not trained on, and never chosen by quick play, whose bots play every game."""

from __future__ import annotations

from fastapi.testclient import TestClient

from splendor.server.bots import BOT_GAMES, BOT_RATINGS, SERVER_BOTS, plays
from splendor.server.quick_play import bot_for
from tests.server.conftest import wait_for


def test_the_learned_bot_plays_classic_on_the_server_and_is_refused_elsewhere(app_client: TestClient) -> None:
    c = app_client
    assert "learned" in SERVER_BOTS and "learned" in BOT_RATINGS and BOT_GAMES["learned"] == ("classic",)
    assert {"spec": "learned", "name": "Learned bot", "games": ["classic"]} in c.get("/api/bots").json()["bots"]
    for game in ("pokemon", "kids"):
        r = c.post("/api/games", json={"game": game, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "learned"}]})
        assert r.status_code == 400 and "Player 2's seat: the bot learned plays only Splendor" in r.text
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "learned"}]
    r = c.post("/api/games", json={"game": "kids", "seats": seats}, headers={"accept-language": "sl"})
    assert (
        r.status_code == 400 and "mesto igralca 2: bot learned igra le Splendor" in r.text
    )  # said in the reader's language
    seats = [{"kind": "bot", "bot": "learned"}, {"kind": "bot", "bot": "greedy"}]
    r = c.post("/api/games", json={"game": "classic", "seats": seats, "seed": 5, "options": {"max_turns": 200}})
    assert r.status_code == 201, r.text
    game = r.json()
    assert game["seats"][0]["name"] == "Learned bot"
    wait_for(lambda: c.get(f"/api/games/{game['id']}").json()["view"]["is_over"], 60)
    assert not any(plays("learned", g) for g in ("pokemon", "kids")) and plays("ismcts:easy", "kids")
    assert all(bot_for(rating) != "learned" for rating in range(1300, 2600, 10))
