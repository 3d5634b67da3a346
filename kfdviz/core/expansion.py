"""Kernel expansions f(x) = sum_i alpha_i k(z_i, x) + b, and their fast evaluation.

Every feature the papers' algorithms produce (KPCA with its centring, oriented KPCA, KFD, KOC) is
such an expansion, so one evaluator serves every level-set picture. On a regular 2-D grid the
Gaussian kernel factorizes, exp(-((gx - z1)^2 + (gy - z2)^2)/c) = exp(-(gx - z1)^2/c) exp(-(gy - z2)^2/c),
and the whole grid is one matrix product B diag(alpha) A' instead of (grid x centers) exponentials.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .kernels import Kernel, chunk_rows


@dataclass(frozen=True)
class Expansion:
    """k features f_j(x) = sum_i coef[i, j] k(centers[i], x) + offset[j]."""

    kernel: Kernel
    centers: np.ndarray  # (m, d)
    coef: np.ndarray  # (m, k)
    offset: np.ndarray  # (k,)

    def __post_init__(self):
        coef = np.asarray(self.coef, dtype=float)
        if coef.ndim == 1:
            coef = coef[:, None]
        offset = np.broadcast_to(np.asarray(self.offset, dtype=float), (coef.shape[1],)).copy()
        object.__setattr__(self, "coef", coef)
        object.__setattr__(self, "offset", offset)
        object.__setattr__(self, "centers", np.asarray(self.centers, dtype=float))

    @property
    def n_features(self) -> int:
        return self.coef.shape[1]

    def select(self, columns) -> Expansion:
        """The sub-expansion of the given feature columns."""
        columns = np.atleast_1d(columns)
        return Expansion(self.kernel, self.centers, self.coef[:, columns], self.offset[columns])

    def evaluate(
        self,
        X: np.ndarray,
        *,
        check_cancel: Callable[[], None] | None = None,
    ) -> np.ndarray:
        """Feature values of shape (len(X), k), computed in memory-bounded row chunks."""
        X = np.asarray(X, dtype=float)
        out = np.empty((X.shape[0], self.n_features))
        step = chunk_rows(X.shape[0], self.centers.shape[0])
        for start in range(0, X.shape[0], step):
            if check_cancel is not None:
                check_cancel()
            block = self.kernel(X[start : start + step], self.centers, cache=False)
            out[start : start + step] = block @ self.coef
        out += self.offset
        return out

    def evaluate_grid(
        self,
        xs: np.ndarray,
        ys: np.ndarray,
        *,
        check_cancel: Callable[[], None] | None = None,
    ) -> np.ndarray:
        """Values on the regular grid xs x ys of 2-D input: shape (k, len(ys), len(xs)).

        Row-major: ``out[j, b, a]`` is feature j at (xs[a], ys[b]), the layout an image of the
        plane wants (rows go along y).
        """
        xs = np.asarray(xs, dtype=float)
        ys = np.asarray(ys, dtype=float)
        if self.centers.shape[1] != 2:
            raise ValueError(
                f"Grid evaluation needs 2-D input, but the expansion lives in "
                f"{self.centers.shape[1]} dimensions."
            )
        if self.kernel.name == "rbf":
            return self._rbf_grid(xs, ys)
        gx, gy = np.meshgrid(xs, ys)
        points = np.column_stack([gx.ravel(), gy.ravel()])
        values = self.evaluate(points, check_cancel=check_cancel)
        return values.T.reshape(self.n_features, ys.size, xs.size)

    def _rbf_grid(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        c = self.kernel.width
        z1, z2 = self.centers[:, 0], self.centers[:, 1]
        A = np.exp(-((xs[:, None] - z1[None, :]) ** 2) / c)  # (nx, m)
        B = np.exp(-((ys[:, None] - z2[None, :]) ** 2) / c)  # (ny, m)
        out = np.empty((self.n_features, ys.size, xs.size))
        for j in range(self.n_features):
            out[j] = (B * self.coef[:, j]) @ A.T + self.offset[j]
        return out
