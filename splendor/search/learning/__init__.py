"""What the expert level learned by self-play, for classic and Pokémon: its evaluation of positions (the features,
``features``, and the training that fits their weights, ``training``, ``splendor train``), its policy, the priors
its search explores by (the actions' features, ``policy``, and the expert iteration that fits them to the search's
visits, ``policy_training``, ``splendor train-policy``), and the shipped weights (``weights/<game>.json``,
``weights/<game>_policy.json``)."""
