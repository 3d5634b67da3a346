"""scikit-learn estimators for the papers' algorithms."""

from .kpca import KernelPCA, OrientedKernelPCA

__all__ = ["KernelPCA", "OrientedKernelPCA"]
