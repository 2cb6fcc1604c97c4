"""A tree search compiled with numba end to end: simulations cost microseconds, not milliseconds."""
