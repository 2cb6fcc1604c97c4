"""The policy network of trained agents: a small CNN over the kingdom planes beside an MLP over lines and counters.

`KingdominoExtractor` (an SB3 features extractor) cuts the flat observation back into its blocks
(`ObservationLayout`): the observer's kingdom, with the domino to place broadcast as extra channels, goes through
a 3x3 CNN that keeps the S x S map; the opponents' kingdoms go through a shared CNN and are pooled; the lines,
held domino, unseen dominoes and counters go through an MLP whose output also conditions the map. Its output is
[map (C x S x S), vector].

`KingdominoPolicy` (a MaskablePPO policy) reads placement logits straight off that map: a 1x1 convolution gives
4 logits per square, one per direction, in the order of the action layout ((r * S + c) * 4 + d), so placing is
translation-equivariant; discard and pick logits come from the vector part. The value head is an MLP over both.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from kingdomino_env.games.kingdomino.kernels import DOMINO_FEATURES, KINGDOM_PLANES
from kingdomino_env.observation import ObservationLayout
from kingdomino_env.rules import Rules


def rules_for(observation_space: gym.spaces.Box, candidates: list[Rules] | None = None) -> Rules:
    """The variant whose observation size matches `observation_space` (2-4 players, 5x5 or 7x7)."""
    candidates = candidates or [Rules(2), Rules(3), Rules(4), Rules(2, mighty_duel=True),
                                Rules(3, three_player_36=True)]
    for rules in candidates:
        if ObservationLayout(rules).size == observation_space.shape[0]:
            return rules
    raise ValueError(f"no Kingdomino variant has observations of size {observation_space.shape[0]}")


class KingdominoExtractor(BaseFeaturesExtractor):
    """Observation -> [own-kingdom feature map (channels x S x S), vector features]."""

    def __init__(self, observation_space: gym.spaces.Box, channels: int = 32, hidden: int = 128):
        self.rules = rules_for(observation_space)
        self.layout = ObservationLayout(self.rules)
        s = self.rules.frame
        self.channels, self.hidden = channels, hidden
        super().__init__(observation_space, channels * s * s + 2 * hidden)
        rest = self.layout.size - self.layout.kingdoms.stop
        self.vector = nn.Sequential(nn.Linear(rest, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.own_in = nn.Conv2d(KINGDOM_PLANES + DOMINO_FEATURES, channels, 3, padding=1)
        self.condition = nn.Linear(hidden, channels)
        self.own_body = nn.Sequential(nn.ReLU(), nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU())
        self.others = nn.Sequential(nn.Conv2d(KINGDOM_PLANES, channels, 3, padding=1), nn.ReLU(),
                                    nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU())
        self.others_out = nn.Linear(channels, hidden)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        layout, r = self.layout, self.rules
        s = r.frame
        planes = obs[:, layout.kingdoms].reshape(-1, r.players, KINGDOM_PLANES, s, s)
        held = obs[:, layout.held]
        vec = self.vector(obs[:, layout.kingdoms.stop:])
        own = torch.cat([planes[:, 0], held[:, :, None, None].expand(-1, -1, s, s)], dim=1)
        own = self.own_in(own) + self.condition(vec)[:, :, None, None]
        own = self.own_body(own)
        others = self.others(planes[:, 1:].reshape(-1, KINGDOM_PLANES, s, s)).amax(dim=(2, 3))
        others = self.others_out(others).reshape(-1, r.players - 1, self.hidden).amax(dim=1)
        return torch.cat([own.flatten(1), vec, others], dim=1)


class ActionHead(nn.Module):
    """Features -> logits in the action layout: 4 per square from the map, then discard and picks."""

    def __init__(self, channels: int, frame: int, vector: int, extra_actions: int):
        super().__init__()
        self.channels, self.frame = channels, frame
        self.place = nn.Conv2d(channels, 4, 1)
        self.other = nn.Sequential(nn.Linear(vector + channels, vector), nn.ReLU(), nn.Linear(vector, extra_actions))

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        c, s = self.channels, self.frame
        grid = features[:, : c * s * s].reshape(-1, c, s, s)
        place = self.place(grid).permute(0, 2, 3, 1).flatten(1)
        other = self.other(torch.cat([features[:, c * s * s:], grid.amax(dim=(2, 3))], dim=1))
        return torch.cat([place, other], dim=1)


class KingdominoPolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy with `KingdominoExtractor` and the equivariant `ActionHead`."""

    def __init__(self, *args: Any, channels: int = 32, hidden: int = 128, **kwargs: Any):
        kwargs.setdefault("features_extractor_class", KingdominoExtractor)
        kwargs.setdefault("features_extractor_kwargs", {"channels": channels, "hidden": hidden})
        kwargs.setdefault("net_arch", {"pi": [], "vf": [hidden]})
        kwargs.setdefault("share_features_extractor", True)
        self._head = (channels, hidden)
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        channels, hidden = self._head
        extractor: KingdominoExtractor = self.features_extractor
        rules = extractor.rules
        self.action_net = ActionHead(channels, rules.frame, 2 * hidden, 1 + rules.line_size)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)
