"""The two-class KFD direction after one point moved, from the factor of the N before the move.

Moving training point j (every point a center, Z = X) changes the Gram matrix in row and column j
only: K' = K + e_j u' + u e_j', u the change of K's column j with its j-th entry halved (the
diagonal entry lies in both). :mod:`.incremental` derives from it the rank-4 change of the
within-class scatter, N' = N + A B' + B A' with A = [e_j, u] and B = K P [u, e_j] + A G / 2
(P the within-class centring, G = [u, e_j]' P [u, e_j]). Written N' = N + U C U' with
U = [A, B] (m x 4) and C = [[0, I], [I, 0]] (C^-1 = C), the Sherman-Morrison-Woodbury identity
gives the new direction from the Cholesky factor L of R = N + mu I before the move:

    (R + U C U')^-1 d' = R^-1 d' - R^-1 U (C + U' R^-1 U)^-1 U' R^-1 d',

five triangular solve pairs and a 4 x 4 system: O(m^2) instead of forming N' (m^3) and
factoring it (m^3 / 3). Since u is the change from the factored data (not from the previous
move), every position of the same dragged point is one rank-4 correction of the same factor,
and the round-off does not accumulate over a drag. The identity loses accuracy when the 4 x 4
capacitance matrix is ill-conditioned, so :meth:`MovedPoint.solve` checks the residual of the
new system (one product with N, O(m^2)) and returns None when it is not small; the caller then
factors N' afresh.
"""

from __future__ import annotations

import numpy as np
from scipy import linalg

from .kernels import Kernel

# Residual ||(N' + mu I) a - d'|| above this multiple of eps (||N' + mu I|| ||a|| + ||d'||):
# the correction is refused (a backward-stable solve's residual is a small multiple of eps).
RESIDUAL_FACTOR = 1e4


class MovedPoint:
    """Directions (N' + mu I)^-1 d' after moves of one point, from the factor before them.

    ``X`` are the training points as factored (every point a center), ``y_index`` their labels
    in {0, 1}, ``K`` = k(X, X), ``N`` the within-class scatter, ``mu`` the regularization.
    """

    def __init__(self, kern: Kernel, X, y_index, K, N, mu: float):
        self.kern = kern
        self.X = np.array(X, dtype=float, copy=True)
        self.K = np.asarray(K, dtype=float)
        self.N = np.asarray(N, dtype=float)
        self.mu = float(mu)
        y_index = np.asarray(y_index)
        self.onehot = np.zeros((y_index.size, 2))
        self.onehot[np.arange(y_index.size), y_index] = 1.0
        self.spread = self.onehot / self.onehot.sum(axis=0)  # Y D^-1
        R = self.N + self.mu * np.eye(self.N.shape[0])
        self.factor = linalg.cho_factor(R, lower=True, check_finite=False)

    def _centred(self, V: np.ndarray) -> np.ndarray:  # P V: each column minus its class means
        return V - self.onehot @ (self.spread.T @ V)

    def change(self, j: int, x_new) -> np.ndarray:
        """u: the change of K's column j when point j moves to ``x_new`` (j-th entry halved)."""
        X_new = self.X.copy()
        X_new[j] = np.asarray(x_new, dtype=float)
        column = self.kern(X_new, X_new[j : j + 1], cache=False)[:, 0]
        u = column - self.K[:, j]
        u[j] *= 0.5
        return u

    def solve(self, j: int, x_new) -> tuple[np.ndarray, np.ndarray] | None:
        """(a, d'): the unnormalized direction a = (N' + mu I)^-1 d' with point j at ``x_new``,
        and the new mean difference d'; None where the correction is not accurate enough."""
        n = self.K.shape[0]
        u = self.change(j, x_new)
        e = np.zeros(n)
        e[j] = 1.0
        W = np.column_stack([u, e])
        PW = self._centred(W)
        A = np.column_stack([e, u])
        G = W.T @ PW
        G = 0.5 * (G + G.T)
        B = self.K @ PW + 0.5 * (A @ G)
        U = np.column_stack([A, B])
        # d' = (M') [-1, 1] with M' = M + e (u' Y D^-1) + u (e' Y D^-1).
        sign = np.array([-1.0, 1.0])
        d_new = (
            self.K @ (self.spread @ sign)
            + e * (u @ self.spread @ sign)
            + u * (self.spread[j] @ sign)
        )
        solved = linalg.cho_solve(self.factor, np.column_stack([d_new, U]), check_finite=False)
        Rd, RU = solved[:, 0], solved[:, 1:]
        C = np.block([[np.zeros((2, 2)), np.eye(2)], [np.eye(2), np.zeros((2, 2))]])
        S = C + U.T @ RU
        try:
            a = Rd - RU @ np.linalg.solve(S, U.T @ Rd)
        except np.linalg.LinAlgError:
            return None
        # The residual of the moved system, N' a = N a + U C U' a: one product with N.
        residual = self.N @ a + U @ (C @ (U.T @ a)) + self.mu * a - d_new
        scale = (np.linalg.norm(self.N, 1) + 4 * np.abs(U).sum() + self.mu) * np.abs(a).sum()
        scale += np.abs(d_new).sum()
        if (
            not np.all(np.isfinite(a))
            or np.abs(residual).sum() > RESIDUAL_FACTOR * np.finfo(float).eps * scale
        ):
            return None
        return a, d_new


__all__ = ["RESIDUAL_FACTOR", "MovedPoint"]
