"""The expert level's learned evaluation of classic and Pokémon positions: its features (``features``), the
self-play training that fits their weights (``training``, ``splendor train``), and the shipped weights
(``weights/<game>.json``)."""
