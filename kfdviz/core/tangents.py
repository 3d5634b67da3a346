"""One-parameter transformations L_t and the tangent matrices of TPAMI eq. (3).

The tangent covariance sum_x (Phi(x) - Phi(L_t x))(...)' is, in expansion coefficients, T T' with
T_ij = (k(z_i, x_j) - k(z_i, L_t x_j)) / t: a finite difference along the transformation. Dividing
by the step t keeps the regularization mu comparable across steps.

Steps are dimensionless: a rotation by ``step`` radians about ``center``; a translation by
``step`` times the data's spread (the root mean squared deviation from the mean); a scaling by
the factor 1 + step about ``center``.
"""

from __future__ import annotations

import numpy as np

from .kernels import Kernel

TANGENT_NAMES = ("rotation", "translate-x", "translate-y", "scale")


def data_spread(X: np.ndarray) -> float:
    """Root mean squared distance from the mean: the length unit of translation steps."""
    spread = float(np.sqrt(np.mean(np.sum((X - X.mean(axis=0)) ** 2, axis=1))))
    return spread if spread > 0 else 1.0


def check_tangents(tangents, n_dims: int) -> tuple[str, ...]:
    """Normalize a tangent name or list of names; raise a ValueError naming a bad one."""
    if tangents is None:
        return ()
    names = (tangents,) if isinstance(tangents, str) else tuple(tangents)
    for name in names:
        if name not in TANGENT_NAMES:
            raise ValueError(f"Unknown tangent {name!r}: choose from {', '.join(TANGENT_NAMES)}.")
        needed = 2 if name in ("rotation", "translate-y") else 1
        if n_dims < needed:
            raise ValueError(
                f"The {name!r} tangent needs at least {needed} input features, "
                f"got n_features = {n_dims}."
            )
    return names


def transform(
    X: np.ndarray, name: str, step: float, *, center: np.ndarray, spread: float
) -> np.ndarray:
    """L_t X for the named transformation and parameter t = step."""
    X = np.asarray(X, dtype=float)
    out = X.copy()
    if name == "rotation":
        c, s = np.cos(step), np.sin(step)
        dx, dy = X[:, 0] - center[0], X[:, 1] - center[1]
        out[:, 0] = center[0] + c * dx - s * dy
        out[:, 1] = center[1] + s * dx + c * dy
    elif name == "translate-x":
        out[:, 0] += step * spread
    elif name == "translate-y":
        out[:, 1] += step * spread
    elif name == "scale":
        out = center + (1.0 + step) * (X - center)
    else:  # pragma: no cover - names are checked by check_tangents
        raise ValueError(f"Unknown tangent {name!r}")
    return out


def tangent_directions(
    X: np.ndarray, name: str, *, center: np.ndarray, spread: float
) -> np.ndarray:
    """Unit-free derivative d(L_t x)/dt at t = 0, one row per point (for drawing arrows)."""
    X = np.asarray(X, dtype=float)
    D = np.zeros_like(X)
    if name == "rotation":
        D[:, 0] = -(X[:, 1] - center[1])
        D[:, 1] = X[:, 0] - center[0]
    elif name == "translate-x":
        D[:, 0] = spread
    elif name == "translate-y":
        D[:, 1] = spread
    elif name == "scale":
        D = X - center
    return D


def tangent_matrix(
    kernel: Kernel,
    Z: np.ndarray,
    X: np.ndarray,
    names: tuple[str, ...],
    step: float,
    *,
    weights=None,
    center: np.ndarray,
    spread: float,
) -> np.ndarray:
    """[sqrt(w_1) T_1, sqrt(w_2) T_2, ...] so that T T' = sum_l w_l T_l T_l' (eq. 3, weighted)."""
    if not np.isfinite(step) or step == 0:
        raise ValueError(f"tangent_step must be a non-zero finite number, got {step!r}.")
    if weights is None:
        weights = np.ones(len(names))
    weights = np.asarray(weights, dtype=float)
    if weights.shape != (len(names),) or not np.all(np.isfinite(weights) & (weights >= 0)):
        raise ValueError(
            f"tangent_weights must be {len(names)} finite numbers >= 0 (one per tangent), "
            f"got {weights.tolist()}."
        )
    Kzx = kernel(Z, X)
    blocks = []
    for name, w in zip(names, weights, strict=True):
        moved = transform(X, name, step, center=center, spread=spread)
        blocks.append(np.sqrt(w) * (Kzx - kernel(Z, moved, cache=False)) / step)
    return np.hstack(blocks)


def transformed_points(
    X: np.ndarray, names: tuple[str, ...], step: float, *, center: np.ndarray, spread: float
) -> np.ndarray:
    """All L_t x, stacked: the extra expansion points of TPAMI footnote 3."""
    return np.vstack([transform(X, n, step, center=center, spread=spread) for n in names])
