"""Kingdomino: its numba kernels (`kernels`), the compiled Full Greedy (`greedy`) and the quest cards (`quests`)."""
