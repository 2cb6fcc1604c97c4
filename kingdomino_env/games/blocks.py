"""Observations declared as named blocks over one flat float32 vector.

A game declares its observation once, as an ordered tuple of `Block`s (name, shape, bounds, the names of the
entries along one axis). `BlockLayout` derives everything else from it: each block's slice and offset, the
vector's size, its bounds (the Gymnasium/PettingZoo Box), and the index of a named feature, which networks use
instead of raw offsets.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Block:
    """One block of an observation: `shape` values, laid out in C order.

    Attributes:
        name: The block's name (`layout.<name>` is its slice).
        shape: The block's shape.
        names: The names of the entries along `axis` (empty when they have none).
        axis: The named axis.
        high: The upper bound of every value (the lower is 0), except the entries named in `highs`.
        highs: `{name along axis: bound}` for entries with their own bound.
        doc: What the block holds.
    """

    name: str
    shape: tuple[int, ...]
    names: tuple[str, ...] = ()
    axis: int = -1
    high: float = 1.0
    highs: Mapping[str, float] = field(default_factory=dict)
    doc: str = ""

    def __post_init__(self) -> None:
        if self.names and len(self.names) != self.shape[self.axis]:
            raise ValueError(f"block {self.name!r}: {len(self.names)} names for an axis of {self.shape[self.axis]}")
        unknown = set(self.highs) - set(self.names)
        if unknown:
            raise ValueError(f"block {self.name!r}: bounds for unknown entries {sorted(unknown)}")

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def bounds(self) -> np.ndarray:
        """(size,) float32 upper bounds of the block's values."""
        high = np.full(self.shape, self.high, dtype=np.float32)
        view = np.moveaxis(high, self.axis, -1)
        for name, bound in self.highs.items():
            view[..., self.names.index(name)] = bound
        return high.ravel()


class BlockLayout:
    """The slices of a vector made of blocks in order: `layout.<block name>` is that block's slice.

    Args:
        blocks: The blocks, in the vector's order; their names must differ.
    """

    def __init__(self, blocks: tuple[Block, ...]):
        self.blocks = blocks
        self.by_name = {block.name: block for block in blocks}
        if len(self.by_name) != len(blocks):
            raise ValueError(f"block names repeat: {[block.name for block in blocks]}")
        self.slices: dict[str, slice] = {}
        start = 0
        for block in blocks:
            self.slices[block.name] = slice(start, start + block.size)
            start += block.size
        self.size = start

    def __getattr__(self, name: str) -> slice:
        slices = self.__dict__.get("slices", {})
        if name in slices:
            return slices[name]
        raise AttributeError(f"no observation block {name!r}; blocks: {', '.join(slices)}")

    def __contains__(self, name: str) -> bool:
        return name in self.slices

    def shape(self, name: str) -> tuple[int, ...]:
        """The shape of a block.

        Args:
            name: The block's name.
        """
        return self.by_name[name].shape

    def feature(self, block: str, name: str) -> int:
        """The index of a named entry along a block's named axis.

        Args:
            block: The block's name.
            name: The entry's name.
        """
        names = self.by_name[block].names
        if name not in names:
            raise ValueError(f"block {block!r} has no entry {name!r}; entries: {', '.join(names)}")
        return names.index(name)

    def unpack(self, obs: np.ndarray, name: str) -> np.ndarray:
        """One block of observations, in its shape.

        Args:
            obs: `(..., size)` observation vectors.
            name: The block's name.

        Returns:
            A `(..., *shape)` view.
        """
        return obs[..., self.slices[name]].reshape(*obs.shape[:-1], *self.by_name[name].shape)

    def bounds(self) -> np.ndarray:
        """(size,) float32 upper bounds of the whole vector (every lower bound is 0)."""
        return np.concatenate([block.bounds() for block in self.blocks]) if self.blocks else np.zeros(0, np.float32)

    def signature(self) -> list[list]:
        """[[name, shape, entry names], ...] (JSON lists): what a model trained on this layout records, so that
        another layout is refused rather than misread."""
        return [[block.name, list(block.shape), list(block.names)] for block in self.blocks]
