"""scikit-learn estimators for the papers' algorithms."""

from .kfd import KernelFisherDiscriminant
from .koc import KernelOrthogonalCentroid
from .kpca import KernelPCA, OrientedKernelPCA
from .novelty import KernelPCANoveltyDetector

__all__ = [
    "KernelFisherDiscriminant",
    "KernelOrthogonalCentroid",
    "KernelPCA",
    "KernelPCANoveltyDetector",
    "OrientedKernelPCA",
]
