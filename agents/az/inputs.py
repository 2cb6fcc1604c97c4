"""The network inputs' container and the scale shared by the Kingdomino and Queendomino encoders."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Scores are divided by this in the inputs.
SCORE_SCALE = 100.0


@dataclass
class Inputs:
    """A batch of network inputs (numpy float32): per-kingdom planes, line slots and a global vector; their shapes
    are given by the encoder of the game (`features`, `queen_features`)."""

    planes: np.ndarray
    lines: np.ndarray
    extras: np.ndarray

    def __len__(self) -> int:
        return self.planes.shape[0]
