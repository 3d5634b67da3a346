"""Words the window shows: counts ("1 point", "2 points"), the names of parameters' choices."""

from __future__ import annotations

# Friendlier names for choices, where the key alone says little.
CHOICE_LABELS = {
    "rbf": "Gaussian (RBF)",
    "poly": "Polynomial",
    "linear": "Linear",
    "prior": "Bayes (class priors)",
    "midpoint": "Midpoint of class means",
    "min-error": "Fewest training errors",
    "margin-lp": "Margin LP (eq. 15)",
    "identity": "N + μI",
    "gram": "N + μK",
    "ovr": "One-vs-rest",
    "gda": "GDA (nearest class mean)",
    "random": "Random subset",
    "kmeans": "k-means centres",
    "cholesky": "Cholesky (Alg. 2)",
    "gram-schmidt": "Gram–Schmidt (Alg. 3)",
    "rotation": "rotation",
    "translate-x": "x-shift",
    "translate-y": "y-shift",
    "scale": "scaling",
    "squared": "Gaussian (ξ²)",
    "absolute": "Laplacian (|ξ|)",
    "huber": "Huber's robust",
    "epsilon-insensitive": "ε-insensitive",
}


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` with the noun in the number it takes: ``count(1, "point")`` is "1 point"."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


__all__ = ["CHOICE_LABELS", "count"]
