"""scikit-learn estimators for the papers' algorithms."""

__all__: list[str] = []
