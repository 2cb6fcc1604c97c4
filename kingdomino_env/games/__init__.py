"""Pure game logic, per game, with no RL framework: `kingdomino` and `queendomino` (Queendomino and the Royal
Wedding) hold each game's numba kernels and rules data; `board` the kernels both share (placement rule, flood fill,
turn phases), `state` the batched state both use, `dominoes` both games' domino tables (`data/` the shipped CSVs).
`kingdomino_env.core` is the one facade both games are played through."""
