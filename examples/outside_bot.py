#!/usr/bin/env python3
"""An outside bot for splendor's line protocol (docs/bots.md), in plain Python with no import of splendor.

It buys (or catches, or moves) when it can, preferring the card with the most points, and otherwise takes
three tokens. Run it in the arena:

    splendor arena --game classic --bots "cmd:python3 examples/outside_bot.py,greedy" --games 10
"""

import json
import random
import sys


def choose(view, legal, rng):
    progress = [a for a in legal if a.split()[0] in ("buy", "catch", "move", "evolve")]
    if progress:

        def points(text):
            words = text.split()
            if words[0] in ("buy", "catch") and "." in words[-1]:
                tier, slot = words[-1].split(".")
                card = view["market"][tier][int(slot) - 1]
                return card["points"] if card else 0
            return 0

        return max(progress, key=lambda a: (points(a), rng.random()))
    takes = [a for a in legal if a.startswith("take") and len(a.split()) == 4]
    return rng.choice(takes or legal)


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            rng.seed(message.get("seed", 0))
            reply = {"type": "ready", "name": "example"}
        elif message["type"] == "decide":
            reply = {"type": "action", "action": choose(message["view"], message["legal"], rng)}
        else:
            break
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
