"""The environment adapters over the batched rules core: `aec` (the PettingZoo AEC env), `solo` (the single-game
Gymnasium env), `vector` (the batched Gymnasium vector env), `sb3` (its Stable-Baselines3 adapter) and `opponents`
(the built-in opponents the single-agent envs play against). The public entry points are re-exported by
`kingdomino_env` and kept at `kingdomino_env.env`, `kingdomino_env.gym_env` and `kingdomino_env.vector_env`."""
