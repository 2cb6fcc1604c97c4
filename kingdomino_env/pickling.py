"""Pickling of immutable objects that cache values derived from their fields.

Workers are sent such objects by a pool's feeder thread while the main thread may go on filling their caches; a
pickler walking the live `__dict__` then fails with "dictionary changed size during iteration".
"""

from __future__ import annotations


class PickledAsSnapshot:
    """Mixin: pickle a copy of the instance's `__dict__` taken in one step (its fields, and the caches filled by
    then), which no other thread can change while it is written."""

    def __getstate__(self) -> dict[str, object]:
        return self.__dict__.copy()
