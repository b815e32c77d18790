"""The greedy bot: a sensible one-move heuristic, the floor that the search bot must clear.

For the card-market games it buys the best card it can afford (points first, then what the card's bonus does
for nobles and for the cards it wants next), otherwise takes the tokens that bring its target cards closest,
reserves a strong card it is far from, and returns the tokens it needs least. In Splendor Kids it plans the
cheapest route to the Palace (villages and cities make a road cheaper), moves along it when it can pay, and
otherwise collects toward its next road. It reads only the seat's view.
"""

from __future__ import annotations

import random
from typing import Any

from splendor.bots.base import Decision
from splendor.core.actions import Action


class MarketPlanner:
    """Scores a market game's actions from one seat's view."""

    def __init__(self, decision: Decision) -> None:
        v = decision.view
        self.view = v
        self.colours = list(v["supply"])  # palette order, wild last
        self.plain = self.colours[:-1]
        me = v["seats"][decision.seat]
        self.tokens = [me["tokens"][c] for c in self.colours]
        self.bonuses = [me["bonuses"].get(c, 0) for c in self.plain]
        self.points = me["points"]
        self.reserved = me["reserved"]
        self.play_area: list[dict[str, Any]] = me["cards"]
        self.evolution_wanted = {c["evolves_to"]: c for c in self.play_area if c.get("evolves_to")}
        self.market: dict[str, list[Any]] = v["market"]
        self.nobles = v.get("nobles", [])
        self.win = v["points_to_win"]
        self.visible = [c for row in self.market.values() for c in row if c] + [
            c for c in self.reserved if not c.get("hidden")
        ]
        self.demand = self._colour_demand()
        ranked = sorted(self.visible, key=lambda c: -self.target_score(c))
        self.targets = ranked[:2]

    # -- what a card is worth to this seat
    def _colour_demand(self) -> list[float]:
        demand = [0.0] * len(self.plain)
        for card in self.visible:
            for i, c in enumerate(self.plain):
                demand[i] += max(0, card["cost"].get(c, 0) - self.bonuses[i])
        total = sum(demand) or 1.0
        return [d / total for d in demand]

    def need(self, card: dict[str, Any], extra: list[int] | None = None) -> int:
        """Tokens still missing to buy ``card`` after bonuses, tokens (plus ``extra``) and wild tokens."""
        tok = self.tokens if extra is None else [a + b for a, b in zip(self.tokens, extra)]
        short = 0
        for i, c in enumerate(self.plain):
            short += max(0, card["cost"].get(c, 0) - self.bonuses[i] - tok[i])
        wild_cost = card["cost"].get(self.colours[-1], 0)
        if wild_cost:
            short += max(0, wild_cost - tok[-1])
            return short
        return max(0, short - tok[-1])

    def card_value(self, card: dict[str, Any]) -> float:
        value = float(card["points"])
        colour = card["bonus"]
        if colour in self.plain:
            i = self.plain.index(colour)
            count = card.get("bonus_count", 1)
            for noble in self.nobles:
                req = noble["requires"].get(colour, 0)
                if req > self.bonuses[i]:
                    missing = sum(max(0, r - self.bonuses[self.plain.index(c)]) for c, r in noble["requires"].items())
                    value += 3.0 * count / (missing + 1)
            if card.get("evolves_to"):
                value += 0.5  # a stepping stone to more points
            if card.get("name") in self.evolution_wanted:
                source = self.evolution_wanted[card["name"]]
                ((colour_needed, count),) = source["evolve"].items()
                missing = max(0, count - self.bonuses[self.plain.index(colour_needed)])
                value += (card["points"] - source["points"]) / (1 + missing)
            early = max(0.0, 1.0 - self.points / self.win)
            value += 1.5 * early * count * self.demand[i] * len(self.plain)
        return value

    def target_score(self, card: dict[str, Any]) -> float:
        return self.card_value(card) / (1 + self.need(card)) ** 1.3

    # -- scoring each action
    def score(self, action: Action) -> float:
        kind, args = action.kind, action.args
        if kind in ("buy", "buy_reserved"):
            card = self._card_of(kind, args)
            spent = sum(max(0, card["cost"].get(c, 0) - self.bonuses[i]) for i, c in enumerate(self.plain))
            return 100 + 10 * card["points"] + 3 * self.card_value(card) - 0.2 * spent
        if kind in ("take", "take2"):
            gained = [0] * len(self.colours)
            for c in args:
                gained[c] += 1
            if kind == "take2":
                gained[args[0]] += 1
            s = 0.0
            for weight, card in zip((1.0, 0.5), self.targets):
                s += weight * (self.need(card) - self.need(card, gained)) * (1 + self.card_value(card))
            s += 0.1 * sum(self.demand[c] for c in args)
            over = sum(self.tokens) + sum(gained) - 10
            return s - (0.6 * over if over > 0 else 0) + 0.01 * sum(gained)
        if kind in ("reserve", "reserve_deck"):
            gold = 0.6 if self.view["supply"][self.colours[-1]] > 0 and sum(self.tokens) < 10 else 0.0
            if kind == "reserve_deck":
                return gold - 0.8
            card = self.market[self._row_label(args[0])][args[1]]
            far = self.need(card)
            if card.get("name") in self.evolution_wanted:
                return gold + 0.5 + self.card_value(card)
            return gold + (0.4 * self.card_value(card) if card["points"] >= 3 and far >= 3 else -0.5)
        if kind == "return":
            c = args[0]
            if c == len(self.colours) - 1:
                return -5.0  # keep wild tokens
            taken = [0] * len(self.colours)
            taken[c] = -1
            loss = sum(w * (self.need(card, taken) - self.need(card)) for w, card in zip((1.0, 0.5), self.targets))
            return -loss - self.demand[c] + 0.05 * self.tokens[c]
        if kind == "evolve":
            source = next(c for c in self.play_area if c["id"] == args[0])
            target = self._evolution_target(source, args[1])
            return 200 + 10 * (target["points"] - source["points"]) + target["bonus_count"]
        return 0.0  # noble, declining to evolve, pass: any is fine

    def _evolution_target(self, source: dict[str, Any], target: int) -> dict[str, Any]:
        if target < 4:
            card: dict[str, Any] = self.market[str(int(source["level"]) + 1)][target]
            return card
        reserved: dict[str, Any] = self.reserved[target - 4]
        return reserved

    def _row_label(self, row: int) -> str:
        return list(self.market)[row]

    def _card_of(self, kind: str, args: tuple[int, ...]) -> dict[str, Any]:
        if kind == "buy_reserved":
            card: dict[str, Any] = self.reserved[args[0]]
            return card
        row_card: dict[str, Any] = self.market[self._row_label(args[0])][args[1]]
        return row_card


KIDS_COLOURS = ("black", "red", "green", "brown", "blue")
TOKEN_KEYS = KIDS_COLOURS + ("gold", "treasure")


class KidsPlanner:
    """Scores Splendor Kids actions from one traveler's view: a cheapest route, and tokens toward it."""

    def __init__(self, decision: Decision) -> None:
        v = decision.view
        self.view = v
        self.seat = decision.seat
        me = v["seats"][decision.seat]
        self.me = me
        self.tokens = [me["tokens"][c] for c in KIDS_COLOURS]
        self.wild = me["tokens"]["gold"] + me["treasure"]
        self.tiles = [sum(1 for t in me["city_tiles"] if t["colour"] == c and t["active"]) for c in KIDS_COLOURS]
        board = v["board"]
        self.kind = {s["id"]: s["kind"] for s in board["spaces"]}
        self.roads = {r["number"]: r for r in board["roads"]}
        self.out: dict[str, list[dict[str, Any]]] = {}
        for r in board["roads"]:
            self.out.setdefault(r["from"], []).append(r)
        self.dist = self._distances()
        self.route = self._route(me["space"])

    def _distances(self) -> dict[str, float]:
        """Estimated resources still to pay from each space to the Palace (villages and cities discount)."""
        dist: dict[str, float] = {}

        def d(space: str) -> float:
            if space in dist:
                return dist[space]
            if self.kind[space] == "palace":
                dist[space] = 0.0
                return 0.0
            best = min((self._road_cost(r) + d(r["to"]) for r in self.out.get(space, [])), default=99.0)
            dist[space] = best
            return best

        for space in self.kind:
            d(space)
        return dist

    def _road_cost(self, road: dict[str, Any]) -> float:
        bonus = {"village": 2.0, "city": 1.0}.get(self.kind[road["to"]], 0.0)
        return len(road["cost"]) + 1.0 - bonus

    def _route(self, space: str) -> list[dict[str, Any]]:
        route = []
        while self.kind.get(space) != "palace" and self.out.get(space):
            road = min(self.out[space], key=lambda r: self._road_cost(r) + self.dist[r["to"]])
            route.append(road)
            space = road["to"]
        return route

    def _short(self, road: dict[str, Any], extra: list[int] | None = None) -> int:
        have = [t + k + (extra[i] if extra else 0) for i, (t, k) in enumerate(zip(self.tokens, self.tiles))]
        need = 0
        for i, c in enumerate(KIDS_COLOURS):
            need += max(0, road["cost"].count(c) - have[i])
        return need

    def _need_weights(self) -> list[float]:
        weights = [0.0] * 5
        for w, road in zip((1.0, 0.6, 0.3), self.route):
            for c in road["cost"]:
                weights[KIDS_COLOURS.index(c)] += w
        return weights

    def score(self, action: Action) -> float:
        kind, args = action.kind, action.args
        if kind == "move":
            road = self.roads[args[0]]
            progress = self.dist[self.me["space"]] - self.dist[road["to"]]
            words = action.text.split(" pay ", 1)[1].split()
            spent = sum(2.0 if w == "y" else 2.5 if w == "t" else 0.6 if w.startswith("tile:") else 1.0 for w in words)
            return 50 + 5 * progress - spent
        if kind in ("take", "take2", "take_gold"):
            gained = [0] * 5
            for c in args:
                gained[c] += 2 if kind == "take2" else 1
            s = 0.0
            for w, road in zip((1.0, 0.5), self.route):
                before = max(0, self._short(road) - self.wild)
                after = max(0, self._short(road, gained) - self.wild - (1 if kind == "take_gold" else 0))
                s += w * (before - after)
            weights = self._need_weights()
            s += 0.1 * sum(weights[c] * gained[c] for c in range(5))
            over = self.me["purse_total"] + (1 if kind == "take_gold" else sum(gained)) - 8
            return s - (0.8 * over if over > 0 else 0) + (0.3 if kind == "take_gold" else 0)
        if kind in ("return", "discard", "give"):
            c = args[0]
            if c >= 5:
                return -5.0 - c  # keep gold and the Treasure
            keep = self._need_weights()[c] / (1 + self.tokens[c])
            if kind == "give":
                behind = self.dist.get(self.view["seats"][args[1]]["space"], 0.0)
                return -keep + 0.01 * behind
            return -keep
        if kind == "city_market":
            colour = self.view["marketplace"][args[0]]
            return 1.0 + self._need_weights()[KIDS_COLOURS.index(colour)]
        if kind == "city_stack":
            return 1.0
        return 0.0  # medal, pass


class GreedyBot:
    """Greedy by a one-move heuristic; ties broken by a seeded random choice."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, decision: Decision) -> Action:
        if len(decision.legal) == 1:
            return decision.legal[0]
        planner: MarketPlanner | KidsPlanner = (
            KidsPlanner(decision) if decision.game == "kids" else MarketPlanner(decision)
        )
        best: list[Action] = []
        best_score = float("-inf")
        for action in decision.legal:
            s = planner.score(action)
            if s > best_score + 1e-9:
                best, best_score = [action], s
            elif abs(s - best_score) <= 1e-9:
                best.append(action)
        return best[self._rng.randrange(len(best))]
