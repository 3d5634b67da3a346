"""Thresholds for a one-dimensional discriminant, and the papers' probabilistic reading of it.

Projections ``z`` of the training points and labels ``s`` in {-1, +1} (the +1 class projects
higher) give an offset b so that sign(z + b) classifies. TPAMI advises estimating b separately from
the direction; eq. (15) is the margin LP, solved by HiGHS.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .highs import quiet_highs

THRESHOLD_NAMES = ("midpoint", "prior", "min-error", "margin-lp")

# eq. (15)'s default C, as 1/(nu*n): at most about a fraction nu of the points may violate the
# margin.
MARGIN_LP_NU = 0.1


def margin_lp_constant(s: np.ndarray, C: float | None = None) -> float:
    """eq. (15)'s trade-off C for labels ``s`` (+-1): ``C`` itself, or 1/(0.1 n) when None.

    The LP is bounded only when C >= 1/(2 m), m the size of the smaller class: otherwise moving
    b towards that class while raising rho (and the smaller class's violations) gains without
    end. Raises ValueError then.
    """
    n = s.size
    m = int(min(np.sum(s > 0), np.sum(s < 0)))
    value = 1.0 / (MARGIN_LP_NU * n) if C is None else float(C)
    if not value * 2 * m >= 1.0:
        given = "the default 1/(0.1 n)" if C is None else f"threshold_C={value:g}"
        raise ValueError(
            f"{given} makes the margin LP (TPAMI eq. 15) unbounded with {m} points in the smaller "
            f"class: it needs threshold_C >= 1/(2 x {m}) = {0.5 / max(m, 1):.3g}. Pass a larger "
            "threshold_C, or use another threshold rule."
        )
    return value


def _class_stats(z: np.ndarray, s: np.ndarray):
    pos, neg = z[s > 0], z[s < 0]
    return pos, neg


def midpoint(z: np.ndarray, s: np.ndarray) -> float:
    pos, neg = _class_stats(z, s)
    return -0.5 * (pos.mean() + neg.mean())


def prior_aware(z: np.ndarray, s: np.ndarray) -> float:
    """Bayes threshold of two 1-D Gaussians with a pooled variance and the class priors."""
    pos, neg = _class_stats(z, s)
    gap = pos.mean() - neg.mean()
    pooled = (((pos - pos.mean()) ** 2).sum() + ((neg - neg.mean()) ** 2).sum()) / max(
        z.size - 2, 1
    )
    if gap <= 0 or pooled <= 0:
        return midpoint(z, s)
    t = 0.5 * (pos.mean() + neg.mean()) + pooled * np.log(neg.size / pos.size) / gap
    return -t


def min_error(z: np.ndarray, s: np.ndarray) -> float:
    """The cut with the fewest training errors; among ties, the one nearest the class midpoint."""
    order = np.argsort(z, kind="stable")
    zs, ss = z[order], s[order]
    # errors when cutting below position i: positives below + negatives at or above
    pos_below = np.concatenate([[0], np.cumsum(ss > 0)])
    neg_above = np.concatenate([[0], np.cumsum((ss < 0)[::-1])])[::-1]
    errors = pos_below + neg_above
    cuts = np.concatenate([[zs[0] - 1.0], 0.5 * (zs[:-1] + zs[1:]), [zs[-1] + 1.0]])
    # Cuts between equal values cannot separate them.
    valid = np.ones(cuts.size, bool)
    valid[1:-1] = zs[:-1] < zs[1:]
    errors = np.where(valid, errors, np.iinfo(np.int64).max)
    best = np.flatnonzero(errors == errors.min())
    mid = -midpoint(z, s)
    choice = best[np.argmin(np.abs(cuts[best] - mid))]
    return -float(cuts[choice])


def margin_lp_optimal_offsets(
    z: np.ndarray, s: np.ndarray, C: float | None = None
) -> tuple[float, float] | None:
    """An interval holding every optimal offset b of eq. (15), or None where it is not known.

    Eliminating xi and rho, eq. (15) maximizes C S_K(b) over b, S_K the sum of the K = 1/C
    smallest margins s_i (z_i + b) (the last one weighted by K's fraction), provided that sum
    is positive (then the K-th smallest margin is, and rho = that margin is feasible). S_K is
    the minimum over t of F+(t) + F-(K - t) + (2t - K) b, F+ and F- the running sums of the
    positives' ascending z and the negatives' ascending -z; its maximizers are the b with
    -2b in the subdifferential of F+(t) + F-(K - t) at t = K/2:

        b in [-(p_(j+1) + q_(j)) / 2, -(p_(j) + q_(j+1)) / 2]   for K/2 = j a whole number,
        b = -(p_(j) + q_(j)) / 2                              otherwise, j = ceil(K/2),

    with p ascending over the positives and q descending over the negatives. The interval is
    returned for K/2 within 1e-3 of a whole number too (the optimum is then nearly flat over
    it, and a solver's tolerance may land anywhere on it). None where the K smallest margins
    sum to zero or less (the classes overlap so much that rho = 0, another branch) or where
    K/2 reaches the smaller class's size. The bounds are exact up to round-off: they are
    order statistics of z, so they move by at most as much as z does.
    """
    z = np.asarray(z, dtype=float)
    K = 1.0 / margin_lp_constant(s, C)
    h = 0.5 * K
    p = np.sort(z[s > 0])
    q = -np.sort(-z[s < 0])
    j_lo, j_hi = int(np.ceil(h - 1e-3)), int(np.ceil(h + 1e-3))
    if j_lo < 1 or j_hi >= min(p.size, q.size):
        return None
    # S_K at the optimum: h units of mass on each side, the pairs p_i - q_i taken in order.
    whole = int(np.floor(h))
    pairs = p[: whole + 1] - q[: whole + 1]
    best = pairs[:whole].sum() + (h - whole) * pairs[whole]
    if not best > 1e-12 * K * max(float(np.max(np.abs(z))), np.finfo(float).tiny):
        return None
    ends = [-(p[a - 1] + q[c - 1]) / 2 for a in (j_lo, j_hi) for c in (j_lo, j_hi)]
    return float(min(ends)), float(max(ends))


def margin_lp(z: np.ndarray, s: np.ndarray, C: float | None = None) -> float:
    """TPAMI eq. (15): max rho - C sum xi  s.t.  s_i (z_i + b) >= rho - xi_i,  rho, xi >= 0.

    ``C`` trades the margin rho against the violations xi (default 1/(0.1 n); it must be at
    least 1/(2 m) for a smaller class of m points, see :func:`margin_lp_constant`). The LP goes to HiGHS through highspy, built column by column
    (rho, b, xi_1..xi_n): a cross-validation solves it once per fit, and scipy's ``linprog``
    spent three times the solver's own time in checking and converting its input.
    """
    import highspy  # a compiled library: loaded when the first margin LP is solved

    n = z.size
    scale = np.std(z) or 1.0
    zn = z / scale  # the LP is scale-invariant in b/scale; normalizing helps the solver
    C = margin_lp_constant(s, C)
    inf = highspy.kHighsInf
    # rows: rho - s_i b - xi_i <= s_i zn_i; columns: rho (1 in every row), b (-s), xi_i (-1 in row i)
    start = np.concatenate([[0, n], 2 * n + np.arange(n + 1)]).astype(np.int32)
    index = np.tile(np.arange(n, dtype=np.int32), 3)
    value = np.concatenate([np.ones(n), -np.asarray(s, dtype=float), -np.ones(n)])
    highs = quiet_highs()
    status = highs.passModel(
        n + 2,
        n,
        3 * n,
        1,  # column-wise matrix
        1,  # minimize -rho + C sum xi
        0.0,
        np.concatenate([[-1.0, 0.0], np.full(n, C)]),
        np.concatenate([[0.0, -inf], np.zeros(n)]),
        np.full(n + 2, inf),
        np.full(n, -inf),
        np.asarray(s * zn, dtype=float),
        start,
        index,
        value,
        np.zeros(n + 2, dtype=np.int32),
    )
    if status != highspy.HighsStatus.kError:
        highs.run()
    if status == highspy.HighsStatus.kError or (
        highs.getModelStatus() != highspy.HighsModelStatus.kOptimal
    ):
        # The LP is always feasible (xi large) and bounded (C >= 1/(2m)): a solver problem.
        raise ValueError(
            "The margin LP threshold (eq. 15) failed: HiGHS ended with "
            f"{highs.modelStatusToString(highs.getModelStatus())}"
        )
    return float(highs.getSolution().col_value[1] * scale)


def fit_threshold(
    name: str, z: np.ndarray, s: np.ndarray, *, margin_C: float | None = None
) -> float:
    """The offset b by rule ``name``; ``margin_C`` is eq. (15)'s C for "margin-lp" (None: default)."""
    if name == "midpoint":
        return midpoint(z, s)
    if name == "prior":
        return prior_aware(z, s)
    if name == "min-error":
        return min_error(z, s)
    if name == "margin-lp":
        return margin_lp(z, s, margin_C)
    raise ValueError(f"Unknown threshold={name!r}: choose one of {', '.join(THRESHOLD_NAMES)}.")


@dataclass(frozen=True)
class GaussianOutputModel:
    """The papers' probabilistic reading of KFD outputs (TPAMI sec. 3), calibrated on training.

    The outputs of each class are modelled as 1-D Gaussians with a pooled variance; the
    posterior is then logistic in the output with slope (m+ - m-) / var. It is centred on the
    classifier's own threshold (output 0), so the most probable class is always the predicted
    one; with the "prior" threshold this is exactly the Bayes posterior.
    """

    slope: float

    @classmethod
    def fit(cls, outputs: np.ndarray, s: np.ndarray) -> GaussianOutputModel:
        pos, neg = outputs[s > 0], outputs[s < 0]
        gap = pos.mean() - neg.mean()
        pooled = (((pos - pos.mean()) ** 2).sum() + ((neg - neg.mean()) ** 2).sum()) / max(
            outputs.size - 2, 1
        )
        # A floor keeps collapsed training outputs (tiny mu) from giving an infinite slope.
        pooled = max(pooled, 1e-6 * max(gap**2, np.finfo(float).tiny))
        return cls(float(max(gap, 0.0) / pooled))

    def posterior_positive(self, outputs: np.ndarray) -> np.ndarray:
        t = self.slope * np.asarray(outputs, dtype=float)
        return 0.5 * (1.0 + np.tanh(0.5 * t))  # the logistic function, without overflow
