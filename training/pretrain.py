"""Warm start by imitation: train the policy to copy Full Greedy's choices (behaviour cloning).

PPO from scratch spends most of its first millions of steps learning what any greedy player knows (where a domino
scores). Copying Full Greedy first costs minutes: the teacher is the batched greedy kernel, so labelled decisions
come at tens of thousands per second. Games are played by the teacher with a share of random moves (so states off
the teacher's path are seen too); every decision is labelled with the teacher's action. Reinforcement learning
then starts from a policy about as strong as the teacher and has to find what greedy misses.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from kingdomino_env import core
from kingdomino_env.policies import greedy_actions
from kingdomino_env.rules import Rules


@dataclass
class Demonstrations:
    """Decisions of the teacher: observations (N, obs), masks (N, A), actions (N,)."""

    obs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray


def collect(rules: Rules, games: int, seed: int, explore: float = 0.1, batch: int = 1000) -> Demonstrations:
    """Play `games` games with Full Greedy at every seat (a share `explore` of random moves) and keep every
    decision with the greedy action as its label."""
    rng = np.random.default_rng(seed)
    obs, masks, actions = [], [], []
    for start in range(0, games, batch):
        state = core.new_games(rules, rng.integers(2**63, size=min(batch, games - start)))
        while not state.is_over.all():
            live = np.flatnonzero(~state.is_over)
            mask = core.legal_action_mask(state)
            teacher = greedy_actions(state, live, rng)
            obs.append(core.observe(state)[live])
            masks.append(mask[live])
            actions.append(teacher)
            played = np.zeros(state.batch_size, dtype=np.int64)
            played[live] = np.where(rng.random(live.size) < explore,
                                    core.random_legal_actions(mask[live], rng), teacher)
            core.step(state, played)
    return Demonstrations(np.concatenate(obs), np.concatenate(masks), np.concatenate(actions))


def clone(policy: torch.nn.Module, demos: Demonstrations, epochs: int = 5, batch_size: int = 512, lr: float = 1e-3,
          seed: int = 0, progress: bool = False) -> list[float]:
    """Fit a MaskablePPO policy's action distribution to the demonstrations (cross-entropy); returns the mean
    loss of each epoch."""
    generator = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    obs = torch.as_tensor(demos.obs, device=policy.device)
    actions = torch.as_tensor(demos.actions, device=policy.device)
    n = obs.shape[0]
    losses = []
    policy.train()
    for epoch in range(epochs):
        order = torch.randperm(n, generator=generator)
        total = 0.0
        for i in range(0, n, batch_size):
            idx = order[i:i + batch_size]
            dist = policy.get_distribution(obs[idx], action_masks=demos.masks[idx.numpy()])
            loss = -dist.log_prob(actions[idx]).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * idx.numel()
        losses.append(total / n)
        if progress:
            print(f"imitation epoch {epoch + 1}/{epochs}: loss {losses[-1]:.3f}", flush=True)
    policy.set_training_mode(False)
    return losses
