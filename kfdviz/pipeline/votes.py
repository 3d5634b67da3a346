"""Per-class scores of a one-vs-one voting classifier, continuous, whose argmax is its prediction.

A one-vs-one machine over r classes (libsvm's multi-class SVM) has one decision value f_ij per
pair i < j; a positive value is a vote for i, any other a vote for j. The predicted class has the
most votes, the first of them in class order when several tie. Votes jump where a pairwise value
changes sign, so scores made of vote counts give staircase boundaries on a grid. Here the rule is
written as a formula of sign conditions on the pairwise values and evaluated with continuous
connectives (min for "and", max for "or", negation for "not") on the values themselves:

- "V_c >= m" (class c has at least m votes) holds iff the m-th largest of c's pairwise values
  f_cl is positive, so that order statistic is its score;
- "V_c > V_j" holds iff V_c >= m > V_j for some m in 1..r-1;
- c is predicted iff V_c > V_j for every j before c and V_c >= V_j for every j after c.

Where no pairwise value is exactly zero, each class's score is non-zero and positive exactly for
the predicted class, so its argmax reproduces the prediction and its zero level is the border of
the class's region, which a contour of the continuous score traces with sub-cell accuracy.
"""

from __future__ import annotations

import numpy as np


def pairwise_matrix(pairwise: np.ndarray, n_classes: int) -> np.ndarray:
    """(n, r, r) antisymmetric values F[:, i, j] = f_ij from (n, r(r-1)/2) one-vs-one values.

    The columns of ``pairwise`` are the pairs (0, 1), (0, 2), ..., (0, r-1), (1, 2), ...: the
    order of scikit-learn's ``decision_function_shape="ovo"``.
    """
    pairwise = np.asarray(pairwise, dtype=float)
    r = int(n_classes)
    rows, cols = np.triu_indices(r, k=1)
    if pairwise.ndim != 2 or pairwise.shape[1] != rows.size:
        raise ValueError(
            f"{r} classes have {rows.size} one-vs-one decision values per point; "
            f"got an array of shape {pairwise.shape}"
        )
    F = np.zeros((pairwise.shape[0], r, r))
    F[:, rows, cols] = pairwise
    F[:, cols, rows] = -pairwise
    return F


def vote_scores(pairwise: np.ndarray, n_classes: int) -> np.ndarray:
    """(n, r) continuous scores, positive exactly for the class one-vs-one voting predicts.

    ``pairwise`` holds the decision values in the order :func:`pairwise_matrix` describes.
    """
    F = pairwise_matrix(pairwise, n_classes)
    r = F.shape[1]
    n = F.shape[0]
    # at_least[:, c, m - 1]: positive iff class c has at least m votes (m = 1 .. r - 1).
    others = ~np.eye(r, dtype=bool)
    wins = F[:, others].reshape(n, r, r - 1)
    at_least = -np.sort(-wins, axis=2)
    # more[:, c, j]: positive iff class c has more votes than class j.
    more = np.max(np.minimum(at_least[:, :, None, :], -at_least[:, None, :, :]), axis=3)
    # Class c needs more votes than every class before it and no fewer than every class after.
    before = np.tril(np.ones((r, r), dtype=bool), k=-1)  # before[c, j]: j < c
    condition = np.where(before[None], more, -np.swapaxes(more, 1, 2))
    condition[:, np.arange(r), np.arange(r)] = np.inf
    return condition.min(axis=2)


def score_margins(scores: np.ndarray) -> np.ndarray:
    """Each class's score less the largest other score, (..., r) like ``scores``.

    Positive exactly where the class has the highest score; zero on the border of its region.
    """
    scores = np.asarray(scores, dtype=float)
    r = scores.shape[-1]
    margins = np.empty_like(scores)
    for c in range(r):
        margins[..., c] = scores[..., c] - np.delete(scores, c, axis=-1).max(axis=-1)
    return margins


__all__ = ["pairwise_matrix", "score_margins", "vote_scores"]
