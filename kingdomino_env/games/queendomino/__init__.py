"""Queendomino and the Royal Wedding: their state, deal and core dispatch (`game`), numba kernels (`kernels`),
the compiled greedy (`greedy`) and the building tiles (`buildings`)."""
