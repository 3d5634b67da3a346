"""Kernel expansions f(x) = sum_i alpha_i k(z_i, x) + b, and their fast evaluation.

Every feature the papers' algorithms produce (KPCA with its centring, oriented KPCA, KFD, KOC) is
such an expansion, so one evaluator serves every level-set picture. On a regular 2-D grid two
kernels have exact fast paths:

- Gaussian: exp(-((gx - z1)^2 + (gy - z2)^2)/c) = exp(-(gx - z1)^2/c) exp(-(gy - z2)^2/c), so the
  whole grid is one matrix product B diag(alpha) A' instead of (grid x centers) exponentials.
- Polynomial and linear: sum_i alpha_i (x.z_i + c)^p is a polynomial of degree p in the grid
  coordinates. Its (p+1) x (p+1) monomial coefficients are summed from the centers once, and the
  grid is two small Vandermonde products. The monomials are taken in box-centred, box-scaled
  coordinates, and a round-off bound decides whether this path is as accurate as the direct sum;
  where it is not (high degrees, heavy cancellation) the direct sum is used.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .kernels import PAIRWISE_CACHE, Kernel, chunk_rows

# Evaluations at at most this many (points x centers) x 8 bytes use the distance cache.
CACHED_BLOCK_BYTES = 32 * 2**20


@dataclass(frozen=True)
class Expansion:
    """k features f_j(x) = sum_i coef[i, j] k(centers[i], x) + offset[j].

    ``centers_are_points``: the centers are (a subset of) the training points, as in every
    kernel expansion of the papers; False for an affine map written over the linear kernel,
    whose centers are directions (they are not drawn as expansion points).
    """

    kernel: Kernel
    centers: np.ndarray  # (m, d)
    coef: np.ndarray  # (m, k)
    offset: np.ndarray  # (k,)
    centers_are_points: bool = True

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
        return Expansion(
            self.kernel,
            self.centers,
            self.coef[:, columns],
            self.offset[columns],
            self.centers_are_points,
        )

    def evaluate(
        self,
        X: np.ndarray,
        *,
        check_cancel: Callable[[], None] | None = None,
    ) -> np.ndarray:
        """Feature values of shape (len(X), k), computed in memory-bounded row chunks."""
        X = np.asarray(X, dtype=float)
        out = np.empty((X.shape[0], self.n_features))
        m = self.centers.shape[0]
        step = chunk_rows(X.shape[0], m)
        # A small set of points (the training points, not a grid) takes its kernel values from
        # the cache, whole: a fit's picture evaluates its expansions there several times
        # (outputs, labels, embedding), and the cache is keyed by content, so the exponentials
        # are computed once and each evaluation multiplies the same values. The matrix is
        # formed a row block at a time (kernels.py) and is at most CACHED_BLOCK_BYTES.
        cache = X.shape[0] * m * 8 <= CACHED_BLOCK_BYTES
        if cache:
            step = X.shape[0]
        for start in range(0, X.shape[0], step):
            if check_cancel is not None:
                check_cancel()
            if cache:
                block = PAIRWISE_CACHE.get(("kernel", self.kernel), X, self.centers, self._block)
            else:
                block = self.kernel(X[start : start + step], self.centers, cache=False)
            out[start : start + step] = block @ self.coef
        out += self.offset
        return out

    def _block(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        return self.kernel(X, Z, cache=True)

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
            return self._rbf_grid(xs, ys, check_cancel)
        fast = self._polynomial_grid(xs, ys)
        if fast is not None:
            return fast
        return self._direct_grid(xs, ys, check_cancel)

    def _direct_grid(self, xs, ys, check_cancel=None) -> np.ndarray:
        """The grid by evaluating every point (the reference the fast paths are checked against)."""
        gx, gy = np.meshgrid(xs, ys)
        points = np.column_stack([gx.ravel(), gy.ravel()])
        values = self.evaluate(points, check_cancel=check_cancel)
        return values.T.reshape(self.n_features, ys.size, xs.size)

    def _rbf_grid(self, xs: np.ndarray, ys: np.ndarray, check_cancel=None) -> np.ndarray:
        c = self.kernel.width
        m = self.centers.shape[0]
        out = np.empty((self.n_features, ys.size, xs.size))
        out[:] = self.offset[:, None, None]
        # Chunks of centers keep the factor matrices A (nx, block) and B (ny, block) bounded.
        step = chunk_rows(m, xs.size + ys.size, factor=2)
        for start in range(0, m, step):
            if check_cancel is not None:
                check_cancel()
            z = self.centers[start : start + step]
            A = np.exp(-((xs[:, None] - z[None, :, 0]) ** 2) / c)  # (nx, block)
            B = np.exp(-((ys[:, None] - z[None, :, 1]) ** 2) / c)  # (ny, block)
            coef = self.coef[start : start + step]
            for (ya, yb), (xa, xb), alive in _live_tiles(A, B):
                At, Bt, ct = A[xa:xb, alive], B[ya:yb, alive], coef[alive]
                for j in range(self.n_features):
                    out[j, ya:yb, xa:xb] += (Bt * ct[:, j]) @ At.T
        return out

    def _polynomial_grid(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray | None:
        """Exact grid values of a polynomial or linear expansion, or None to use the direct sum.

        With u = (gx - x0)/hx and v = (gy - y0)/hy in [-1, 1] (x0, y0 the box centre),
        x.z_i + c = u a_i + v b_i + c_i, a_i = hx z_i1, b_i = hy z_i2, c_i = x0 z_i1 + y0 z_i2 + c,
        and by the multinomial theorem
        sum_i alpha_i (u a_i + v b_i + c_i)^p = sum_{s+t<=p} T[s, t] u^s v^t,
        T[s, t] = p! / (s! t! (p-s-t)!) sum_i alpha_i a_i^s b_i^t c_i^(p-s-t).
        """
        kern = self.kernel
        p, c0 = (1, 0.0) if kern.name == "linear" else (int(kern.degree), float(kern.coef0))
        if p > _MAX_POLY_GRID_DEGREE or xs.size == 0 or ys.size == 0:
            return None
        x0, hx = _centre_and_half_width(xs)
        y0, hy = _centre_and_half_width(ys)
        z1, z2 = self.centers[:, 0], self.centers[:, 1]
        a, b, cc = hx * z1, hy * z2, x0 * z1 + y0 * z2 + c0
        pa, pb, pc = _powers(a, p), _powers(b, p), _powers(cc, p)  # (m, p + 1) each
        T = np.zeros((self.n_features, p + 1, p + 1))
        for s in range(p + 1):
            t = np.arange(p + 1 - s)
            # G[i, t] = b_i^t c_i^(p-s-t), weighted by the multinomial coefficient.
            G = pb[:, t] * pc[:, p - s - t] * _multinomial(p, s, t)
            T[:, s, : p + 1 - s] = (self.coef * pa[:, [s]]).T @ G
        U = _powers((xs - x0) / hx, p)  # (nx, p + 1)
        V = _powers((ys - y0) / hy, p)  # (ny, p + 1)
        out = np.einsum("bt,jst,as->jba", V, T, U, optimize=True)
        if not np.all(np.isfinite(out)):
            return None
        # Round-off of this path is at most about (2p + 8) eps * sum_i |alpha_i| R_i^p with
        # R_i = |a_i| + |b_i| + |c_i| (every term of the expansion above, taken in absolute
        # value, with |u|, |v| <= 1). The direct sum's own round-off is eps * sum_i
        # |alpha_i| |x.z_i + c|^p, estimated at the corners, edge midpoints and centre of the box.
        bound = (np.abs(self.coef).T @ (np.abs(a) + np.abs(b) + np.abs(cc)) ** p) * (
            (2.0 * p + 8.0) * np.finfo(float).eps
        )
        corners_x, corners_y = np.meshgrid([xs.min(), x0, xs.max()], [ys.min(), y0, ys.max()])
        probe = np.column_stack([corners_x.ravel(), corners_y.ravel()])
        direct_scale = (np.abs(probe @ self.centers.T + c0) ** p) @ np.abs(self.coef)  # (9, k)
        direct_err = _DIRECT_ROUNDOFF_FACTOR * np.finfo(float).eps * direct_scale.max(axis=0)
        values = np.abs(out).reshape(self.n_features, -1).max(axis=1)
        if np.any(bound > np.maximum(_POLY_GRID_RTOL * values, direct_err)):
            return None
        out += self.offset[:, None, None]
        return out


# The grid is cut into tiles of this many nodes a side when a narrow kernel leaves most
# (tile, center) pairs without a single nonzero factor.
_TILE = 48
# Tiles are used when they leave at most this fraction of the whole grid's products.
_TILE_WORK = 0.5


def _live_tiles(A: np.ndarray, B: np.ndarray):
    """The grid's tiles, each with the centers that reach it: ((y0, y1), (x0, x1), columns).

    A center's term on a tile is A[x, i] B[y, i]: where its column of A is zero over the tile's
    x nodes, or its column of B over the tile's y nodes, every product is an exact zero (the
    exponential underflowed), so leaving the center out changes no value. A narrow kernel
    reaches few tiles from each center; for a wide one the whole grid is one tile.
    """
    nx, ny, m = A.shape[0], B.shape[0], A.shape[1]
    whole = ((0, ny), (0, nx), slice(None))
    if m == 0 or (nx <= _TILE and ny <= _TILE):
        yield whole
        return
    xcuts = [(a, min(a + _TILE, nx)) for a in range(0, nx, _TILE)]
    ycuts = [(b, min(b + _TILE, ny)) for b in range(0, ny, _TILE)]
    ax = np.array([(A[a:b] != 0).any(axis=0) for a, b in xcuts])  # (tiles along x, m)
    by = np.array([(B[a:b] != 0).any(axis=0) for a, b in ycuts])  # (tiles along y, m)
    counts = by.astype(float) @ ax.astype(float).T  # centers reaching each tile
    width = np.array([b - a for a, b in xcuts], float)
    height = np.array([b - a for a, b in ycuts], float)
    if float(height @ counts @ width) > _TILE_WORK * m * nx * ny:
        yield whole
        return
    for iy, ycut in enumerate(ycuts):
        for ix, xcut in enumerate(xcuts):
            if counts[iy, ix]:
                yield ycut, xcut, by[iy] & ax[ix]


# Above this degree the monomial table is not used (its round-off grows like 3^degree).
_MAX_POLY_GRID_DEGREE = 24
# The polynomial grid path is used when its round-off bound is below this fraction of the largest
# value on the grid, or within _DIRECT_ROUNDOFF_FACTOR x eps of the direct sum's own scale.
_POLY_GRID_RTOL = 1e-11
_DIRECT_ROUNDOFF_FACTOR = 100.0


def _centre_and_half_width(axis: np.ndarray) -> tuple[float, float]:
    lo, hi = float(axis.min()), float(axis.max())
    half = 0.5 * (hi - lo)
    return 0.5 * (lo + hi), (half if half > 0 else 1.0)


def _powers(x: np.ndarray, p: int) -> np.ndarray:
    """x[:, None] ** [0, 1, ..., p] by repeated multiplication (0^0 = 1)."""
    out = np.empty((x.size, p + 1))
    out[:, 0] = 1.0
    for e in range(1, p + 1):
        np.multiply(out[:, e - 1], x, out=out[:, e])
    return out


def _multinomial(p: int, s: int, t: np.ndarray) -> np.ndarray:
    """p! / (s! t! (p - s - t)!) for each t, exactly (integers) then as floats."""
    return np.array([math.comb(p, s) * math.comb(p - s, int(ti)) for ti in t], dtype=float)
