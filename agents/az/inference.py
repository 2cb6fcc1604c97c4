"""How an az network is run in play: the module as trained (`"torch"`) or a faster CPU copy (`"fast"`).

The fast copy is the same network with its weights in channels-last memory order (the layout oneDNN's convolutions
work in, so no reorder around each of the ten convolutions), traced and frozen by TorchScript (convolutions fused
with their ReLUs, no Python between the layers). It gives the trained module's outputs within float tolerance
(`TOLERANCE`; checked when it is made, on random inputs of two shapes, and by the tests on real positions for every
shipped network). TorchScript is deprecated in torch 2.x; where tracing fails, the fast copy is the channels-last
copy run eagerly.

Measured on one core (`python -m benchmarks.az_speed`, the forward pass by batch size, both paths in the same run on
a loaded machine): 3-36 % less time per batch of 8 to 128 positions than the module as trained (8 % at the median),
27-70 % less at batch 1 and 11-19 % less at 512; the figures are in `benchmarks/results/az_speed.json`. Two other
paths, timed on the same machine, are not used: numpy im2col + one float32 matmul per convolution (OpenBLAS' sgemm
of a convolution's shape alone took longer than oneDNN's whole convolution, which already runs its AVX-512 brgemm
kernels), and channels-last alone, untraced (1-8 % less time at batches of 8 and 16, where the traced copy saved
8-18 % in the same runs).

`"auto"` (the default of `AZAgent`) is the fast copy for networks with the az trunk (stem, slot and context layers:
`AZNet`, `QueenAZNet`) whose check passes, else the module as trained. The choice never depends on timings, so the
same seed gives the same game on every run. Torch is imported only when a network is run, so that checking an agent
spec stays free of it.
"""

from __future__ import annotations

import copy
import warnings
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import torch

    from .features import Inputs

INFERENCE = ("auto", "fast", "torch")
#: Largest difference allowed between the fast copy's raw outputs and the trained module's (absolute and relative).
TOLERANCE = 1e-4


class FastNetwork:
    """A network's channels-last, traced and frozen copy with the trained module's `run`."""

    def __init__(self, net: torch.nn.Module):
        import torch

        self.net = net
        example = example_inputs(net, batch=3, kingdoms=2, line=2)
        fast = copy.deepcopy(net).eval().to(memory_format=torch.channels_last)
        self.traced = True
        try:
            with torch.no_grad(), warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                warnings.simplefilter("ignore", torch.jit.TracerWarning)
                fast = torch.jit.freeze(torch.jit.trace(fast, example).eval())
        except Exception:  # tracing is best effort: any failure leaves the eager channels-last copy
            self.traced = False
        self.module = fast
        for shape in ((3, 2, 2), (5, 4, 4)):
            difference = max_difference(net, fast, example_inputs(net, *shape))
            if difference > TOLERANCE:
                raise ValueError(f"the fast copy differs from the network by {difference:.2g} (allowed {TOLERANCE})")

    def __call__(self, planes: torch.Tensor, lines: torch.Tensor, extras: torch.Tensor) -> Any:
        return self.module(planes, lines, extras)

    def run(self, inputs: Inputs) -> Any:
        """(logits, win probabilities, margins in points), numpy: the trained module's `run` over the fast copy."""
        return type(self.net).run(self, inputs)


def knows(net: Any) -> bool:
    """Whether `net` has the az trunk the fast copy is made for (its layers give the input shapes)."""
    import torch

    return isinstance(net, torch.nn.Module) and all(hasattr(net, name) for name in ("frame", "stem", "slot", "context"))


def example_inputs(net: Any, batch: int, kingdoms: int, line: int, seed: int = 0
                   ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Random (planes, lines, extras) of the shapes `net` takes: `batch` positions, `kingdoms` kingdoms, `line`
    dominoes per line."""
    import torch

    g = torch.Generator().manual_seed(seed)
    s = net.frame
    extras = net.context[0].in_features - net.slot[-2].out_features
    return (torch.rand(batch, kingdoms, net.stem.in_channels, s, s, generator=g),
            torch.rand(batch, 2 * line, net.slot[0].in_features, generator=g),
            torch.rand(batch, extras, generator=g))


def max_difference(net: Any, other: Any, inputs: tuple[torch.Tensor, ...]) -> float:
    """Largest |a - b| / (1 + |a|) between the raw outputs of `net` and `other` on `inputs`."""
    import torch

    with torch.inference_mode():
        return max(float(((a - b).abs() / (1 + a.abs())).max()) for a, b in zip(net(*inputs), other(*inputs),
                                                                                 strict=True))


def inference_network(net: Any, inference: str = "auto") -> Any:
    """`net` run as `inference` says ("auto", "fast" or "torch"; see the module docstring): an object with the
    network's `run`. "fast" raises ValueError for a network it does not know or whose fast copy differs."""
    if inference not in INFERENCE:
        raise ValueError(f"inference must be one of {', '.join(INFERENCE)}, got {inference!r}")
    if inference == "torch":
        return net
    if not knows(net):
        if inference == "fast":
            raise ValueError(f"no fast inference for {type(net).__name__}: it has no az trunk")
        return net
    try:
        return FastNetwork(net)
    except ValueError:
        if inference == "fast":
            raise
        return net
