"""The search: information-set Monte Carlo tree search over the engines, under the bots.

It sits above the engines (``splendor.core``, ``splendor.games``, ``splendor.compiled``) and below the bots: the
bots' ``SearchBot`` is its front door. One module an idea:

- ``levels``: the levels, one ``Level`` record per game and level (budgets and how each searches);
- ``searcher``: a search by level or budget, on the compiled engine where it can, else on the reference one;
- ``reference``: the readable statement of the algorithm, in Python over the reference engine;
- ``compiled``: the same tree walk in compiled code (Numba) over the compiled engine's flat states;
- ``priors``: the priors of the actions' kinds, for both;
- each game's knowledge, readable and compiled side by side: ``market`` / ``market_compiled`` (classic and
  Pokémon), ``kids`` / ``kids_compiled``, and ``plan`` (the Kids expert's exact plan of each traveler's race);
  ``knowledge`` finds the readable one by game; ``values`` turns results and progress into shares of the win;
- ``learning``: the expert's learned evaluation of the card games (features, self-play training, weights).
"""
