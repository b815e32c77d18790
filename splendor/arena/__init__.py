"""Tournaments between bots, with ratings: in one process, in several, or on a Ray cluster.

``run_tournament(schedule(...), backend="process")`` plays the games; every game is a pure function of its
`Match` (game, options, seed, bots and their seeds), so the same seeds give the same results on every back end.
"""

from splendor.arena.backends import BACKENDS, run_matches
from splendor.arena.match import Match, MatchResult, play_match
from splendor.arena.schedule import schedule
from splendor.arena.standings import Standing, standings

__all__ = ["BACKENDS", "Match", "MatchResult", "Standing", "play_match", "run_matches", "schedule", "standings"]
