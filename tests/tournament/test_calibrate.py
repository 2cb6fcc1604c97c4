"""The anchors' frozen ratings hold only while the anchors play as they did when calibrated: the table keeps a
digest of their moves in fixed positions (`calibrate.behaviour_digest`), and these tests compare it with their play
now."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from kingdomino_env import core
from tournament.calibrate import PROBES, behaviour_digest, probe_positions
from tournament.standard import VARIANTS, anchor_entry


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_variants_anchors_play_as_they_did_when_calibrated(name):
    frozen = anchor_entry(name).get("behaviour")
    assert frozen == behaviour_digest(VARIANTS[name]), (
        f"the anchors of {name} play differently from their calibration, so their frozen ratings no longer hold: "
        f"run `python -m tournament.calibrate --variant {name}`, then rate the variant's cards again")


def test_the_probes_are_fixed_decisions_with_a_choice():
    var = VARIANTS["queendomino-2p"]
    first, again = probe_positions(var), probe_positions(var)
    assert len(first) == PROBES
    for a, b in zip(first, again, strict=True):
        assert core.legal_action_mask(a)[0].sum() > 1 and not a.is_over[0]
        assert np.array_equal(core.legal_action_mask(a), core.legal_action_mask(b)) and a.n_steps[0] == b.n_steps[0]
    assert len({int(s.n_steps[0]) for s in first}) == PROBES


def test_the_digest_changes_when_an_anchor_plays_differently():
    var = VARIANTS["2p"]
    swapped = dataclasses.replace(var, anchors=tuple("gprd" if s == "greedy" else s for s in var.anchors))
    assert behaviour_digest(swapped) != behaviour_digest(var)
