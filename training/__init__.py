"""Training scripts: self-play MaskablePPO on the batched vector env, and evaluation against baselines."""
