"""Bots: the Bot protocol and the bots that play through it.

A bot sees what its seat may see (the seat's view and the legal actions) and answers one legal action.
``make_bot("greedy", seed=1)`` builds one by name.
"""

from splendor.bots.base import BOTS, Bot, Decision, Forfeit, decide, decision_for, make_bot

__all__ = ["BOTS", "Bot", "Decision", "Forfeit", "decide", "decision_for", "make_bot"]
