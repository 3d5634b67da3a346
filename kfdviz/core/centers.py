"""Choosing the expansion points z_1..z_m of TPAMI eq. (13): training on a subset."""

from __future__ import annotations

import numpy as np
from sklearn.utils import check_random_state

CENTER_METHODS = ("random", "kmeans")


def choose_centers(
    X: np.ndarray,
    n_centers: int | None,
    method: str = "random",
    random_state=None,
    *,
    y: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray | None]:
    """Return (Z, index) with Z the m expansion points; index into X, or None for k-means centres.

    ``n_centers=None`` or ``>= len(X)`` keeps every training point (eq. 4). With ``y`` given, a
    random subset is stratified so that each class keeps at least one expansion point.
    """
    n = X.shape[0]
    if n_centers is None or n_centers >= n:
        return X, np.arange(n)
    if n_centers < 1:
        raise ValueError(f"n_centers must be at least 1, got {n_centers}.")
    rng = check_random_state(random_state)
    if method == "random":
        if y is None:
            index = np.sort(rng.choice(n, size=n_centers, replace=False))
        else:
            index = _stratified_subset(y, n_centers, rng)
        return X[index], index
    if method == "kmeans":
        # Imported here: sklearn.cluster costs ~0.6 s of start-up and most fits never need it.
        from sklearn.cluster import KMeans, kmeans_plusplus

        if n > 20 * n_centers:
            # Seeding alone is k-means' expensive part on large n; a few Lloyd steps suffice here.
            init, _ = kmeans_plusplus(X, n_centers, random_state=rng)
            km = KMeans(n_centers, init=init, n_init=1, max_iter=20, random_state=rng)
        else:
            km = KMeans(n_centers, n_init=1, random_state=rng)
        Z = km.fit(X).cluster_centers_
        return Z, None
    raise ValueError(f"Unknown centers={method!r}: choose one of {', '.join(CENTER_METHODS)}.")


def _stratified_subset(y: np.ndarray, m: int, rng: np.random.RandomState) -> np.ndarray:
    classes, inverse = np.unique(y, return_inverse=True)
    if m < classes.size:
        # Fewer centers than classes: plain random choice is all we can do.
        return np.sort(rng.choice(y.size, size=m, replace=False))
    counts = np.bincount(inverse)
    share = np.maximum(1, np.floor(m * counts / y.size)).astype(int)
    while share.sum() > m:
        share[np.argmax(share)] -= 1
    while share.sum() < m:
        room = counts - share
        share[np.argmax(room)] += 1
    picks = [
        rng.choice(np.flatnonzero(inverse == k), size=s, replace=False) for k, s in enumerate(share)
    ]
    return np.sort(np.concatenate(picks))
