"""The program formulations offer the loss on the residuals ξ (NIPS 2001, Table 1) by name."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_moons

from kfdviz.core.kfd_programs import loss_value
from kfdviz.estimators import registry
from kfdviz.estimators.kfd import PROGRAM_LOSSES, KernelFisherDiscriminant


@pytest.mark.parametrize(
    ("key", "default"), [("kfd-qp", "squared"), ("kfd-sparse", "squared"), ("kfd-lp", "absolute")]
)
def test_program_entries_offer_every_loss(key, default):
    spec = registry.get(key)
    loss = next(p for p in spec.params if p.name == "loss")
    assert set(loss.choices) == set(PROGRAM_LOSSES)
    assert loss.default == default
    assert spec.make({}).loss == default  # the formulation's own loss, as before
    assert "loss" not in {p.name for p in registry.get("kfd").params}


def test_the_chosen_loss_reaches_the_program():
    X, y = make_moons(60, noise=0.2, random_state=0)
    base = {"kernel": "rbf", "width": 0.5, "mu": 0.1}
    fits = {
        loss: registry.get("kfd-qp").make({**base, "loss": loss}).fit(X, y)
        for loss in ("squared", "absolute", "huber")
    }
    direct = KernelFisherDiscriminant(**base, formulation="qp", loss="absolute").fit(X, y)
    np.testing.assert_allclose(
        fits["absolute"].decision_function(X), direct.decision_function(X), atol=1e-6
    )
    # different losses give different discriminants
    d_sq, d_abs = fits["squared"].decision_function(X), fits["absolute"].decision_function(X)
    assert np.max(np.abs(d_sq - d_abs)) > 1e-3 * np.ptp(d_sq)
    # and the program's reported objective is its own loss's: the squared fit's differs
    assert fits["absolute"].objective_ != pytest.approx(fits["squared"].objective_, rel=1e-3)
    assert loss_value(np.array([0.5, -2.0]), "huber") == pytest.approx(0.125 + 1.5)
