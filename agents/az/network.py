"""The policy/value network of `az` agents: a residual CNN shared by every kingdom, conditioned on the lines and
the variant, with translation-equivariant placement logits.

Each kingdom (S x S frame, `features.PLANES` planes) goes through the same stem and residual blocks; a global
vector (line slots pooled by an MLP, the extras) adds a per-channel bias after the stem, so the map knows the
draft and the variant. Outputs, for the player to move (kingdom 0):

* policy logits in the action layout: 4 per square from a 1x1 convolution of the own map (first square at
  (r, c), direction d: index (r * S + c) * 4 + d), the discard logit from the global vector, and one logit per
  next-line slot scored from that slot's encoding; so the network fits any line size;
* per kingdom a win logit (softmax over the players: the win probabilities) and a margin (own score minus the best
  other, over `MARGIN_SCALE`).

Nothing depends on the player count or the line size; the frame S fixes only the placement logits' count (the
layers themselves are convolutions and pooled vectors, so the weights run on any frame).

`AZNet` plays Kingdomino; `QueenAZNet` plays Queendomino or the Royal Wedding (`queen_features` inputs) and adds
heads for their knight, build, Dragon and PASS actions. Both share `_Trunk` (the parameters' names are those of
the network files). `make_network` makes either by game (`NETWORKS`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import torch
from torch import nn

from kingdomino_env.games.queendomino.kernels import Q_TILE_FEATURES, SLOTS

from . import queen_features
from .features import EXTRAS, PLANES, SLOT_FEATURES
from .inputs import Inputs

#: Margins are predicted divided by this.
MARGIN_SCALE = 30.0


@dataclass(frozen=True)
class NetConfig:
    """Width of the maps (channels), residual blocks, width of the vector parts (hidden)."""

    channels: int = 32
    blocks: int = 4
    hidden: int = 128

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


class _Residual(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.conv2(torch.relu(self.conv1(x))))


class _Trunk(nn.Module):
    """The body every az network shares: slot MLP, context MLP, per-kingdom residual CNN conditioned on the context,
    placement, discard, pick and value heads (their shapes are the game's inputs)."""

    def __init__(self, game: str, frame: int, config: NetConfig, planes: int, slot_features: int, extras: int):
        super().__init__()
        plays = [name for name, net in NETWORKS.items() if isinstance(self, net)]
        if game not in plays:
            raise ValueError(f"{type(self).__name__} plays {' or '.join(plays)}, got {game!r}")
        self.game, self.frame, self.config = game, frame, config
        c, h = config.channels, config.hidden
        self.slot = nn.Sequential(nn.Linear(slot_features, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU())
        self.context = nn.Sequential(nn.Linear(h + extras, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU())
        self.stem = nn.Conv2d(planes, c, 3, padding=1)
        self.condition = nn.Linear(h, c)
        self.body = nn.Sequential(*[_Residual(c) for _ in range(config.blocks)])
        self.place = nn.Conv2d(c, 4, 1)
        self.discard = nn.Sequential(nn.Linear(h + 2 * c, h), nn.ReLU(), nn.Linear(h, 1))
        self.pick = nn.Sequential(nn.Linear(2 * h + 2 * c, h), nn.ReLU(), nn.Linear(h, 1))
        self.value = nn.Sequential(nn.Linear(h + 2 * c, h), nn.ReLU(), nn.Linear(h, 2))

    def trunk(self, planes: torch.Tensor, lines: torch.Tensor, extras: torch.Tensor
              ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """(Kingdomino's policy logits (B, 4 S^2 + 1 + L), win logits (B, K), margins (B, K), the own kingdom's
        map (B, C, S, S), the own context (B, H + 2C)) for the game-specific heads."""
        b, p, n_planes, s, _ = planes.shape
        line = lines.shape[1] // 2
        slots = self.slot(lines)
        g = self.context(torch.cat([slots.sum(dim=1), extras], dim=1))
        x = self.stem(planes.reshape(b * p, n_planes, s, s)).reshape(b, p, -1, s, s)
        x = torch.relu(x + self.condition(g)[:, None, :, None, None])
        x = self.body(x.reshape(b * p, -1, s, s))
        pooled = torch.cat([x.mean(dim=(2, 3)), x.amax(dim=(2, 3))], dim=1).reshape(b, p, -1)
        own = x.reshape(b, p, -1, s, s)[:, 0]
        place = self.place(own).permute(0, 2, 3, 1).reshape(b, 4 * s * s)
        own_context = torch.cat([g, pooled[:, 0]], dim=1)
        discard = self.discard(own_context)
        next_slots = slots[:, line:]
        pick = self.pick(torch.cat([next_slots, own_context[:, None].expand(-1, line, -1)], dim=2)).squeeze(2)
        value = self.value(torch.cat([g[:, None].expand(-1, p, -1), pooled], dim=2))
        return torch.cat([place, discard, pick], dim=1), value[..., 0], value[..., 1], own, own_context

    def run(self, inputs: Inputs) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Evaluate numpy inputs without gradients: (logits, win probabilities, margins in points), numpy."""
        with torch.inference_mode():
            logits, win, margin = self(torch.from_numpy(inputs.planes), torch.from_numpy(inputs.lines),
                                       torch.from_numpy(inputs.extras))
            return logits.numpy(), torch.softmax(win, dim=1).numpy(), margin.numpy() * MARGIN_SCALE


class AZNet(_Trunk):
    """Kingdomino: inputs -> (policy logits (B, 4 S^2 + 1 + L), win logits (B, P), margins (B, P)); kingdoms
    egocentric."""

    def __init__(self, frame: int, config: NetConfig = NetConfig(), game: str = "kingdomino"):
        super().__init__(game, frame, config, PLANES, SLOT_FEATURES, EXTRAS)

    def forward(self, planes: torch.Tensor, lines: torch.Tensor, extras: torch.Tensor
                ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        logits, win, margin, _, _ = self.trunk(planes, lines, extras)
        return logits, win, margin


class QueenAZNet(_Trunk):
    """Queendomino or the Royal Wedding (`game`): the trunk's heads, then, in the core's action layout, a knight
    logit for each square of the domino just placed (a 1x1 convolution of the own map read at that square), a
    build logit per Builders' Board slot and square (the slot's embedding, from its tile and the own context, dotted
    with a 1x1 convolution of the own map), a Dragon logit per slot (from its embedding) and the PASS logit. The
    value heads give one win logit and margin per kingdom (a team's in team games)."""

    def __init__(self, frame: int, config: NetConfig = NetConfig(), game: str = "queendomino"):
        super().__init__(game, frame, config, queen_features.PLANES, queen_features.SLOT_FEATURES,
                         queen_features.EXTRAS)
        c, h = config.channels, config.hidden
        self.knight = nn.Conv2d(c, 1, 1)
        self.build_map = nn.Conv2d(c, c, 1)
        self.tile = nn.Sequential(nn.Linear(Q_TILE_FEATURES + h + 2 * c, h), nn.ReLU(), nn.Linear(h, c))
        self.dragon = nn.Linear(c, 1)
        self.passing = nn.Sequential(nn.Linear(h + 2 * c, h), nn.ReLU(), nn.Linear(h, 1))

    def forward(self, planes: torch.Tensor, lines: torch.Tensor, extras: torch.Tensor
                ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        logits, win, margin, own, own_context = self.trunk(planes, lines, extras)
        b, c = own.shape[:2]
        marks = planes[:, 0, queen_features.MARK_PLANES:queen_features.MARK_PLANES + 2]
        knight = (self.knight(own) * marks).sum(dim=(2, 3))
        board = extras[:, queen_features.BOARD_AT:queen_features.BOARD_AT + queen_features.BOARD_FEATURES]
        board = board.reshape(b, SLOTS, Q_TILE_FEATURES)
        tiles = self.tile(torch.cat([board, own_context[:, None].expand(-1, SLOTS, -1)], dim=2))
        build = torch.einsum("bkc,bcrs->bkrs", tiles, self.build_map(own)) / c ** 0.5
        dragon = self.dragon(tiles).squeeze(2)
        return torch.cat([logits, knight, build.reshape(b, -1), dragon, self.passing(own_context)], dim=1), win, margin


#: The network class of each game: Kingdomino's inputs, or Queendomino's (with their extra heads) in the games with
#: buildings.
NETWORKS: dict[str, type[AZNet] | type[QueenAZNet]] = {"kingdomino": AZNet, "queendomino": QueenAZNet,
                                                       "royal_wedding": QueenAZNet}


def make_network(game: str, frame: int, config: NetConfig = NetConfig()) -> AZNet | QueenAZNet:
    """An untrained network for `game` (a key of `NETWORKS`) on an S = `frame` frame."""
    if game not in NETWORKS:
        raise ValueError(f"game must be one of {', '.join(NETWORKS)}, got {game!r}")
    return NETWORKS[game](frame, config, game)
