"""scikit-learn estimators for the papers' algorithms."""

from .baselines import (
    LinearDiscriminant,
    LinearPCA,
    OneClassSupportVector,
    SupportVectorClassifier,
    SupportVectorRegressor,
    TruncatedSVDEmbedding,
)
from .kfd import KernelFisherDiscriminant
from .koc import KernelOrthogonalCentroid
from .kpca import KernelPCA, OrientedKernelPCA
from .novelty import KernelPCANoveltyDetector
from .parzen import ParzenNoveltyDetector
from .regression import KernelFisherRegressor

__all__ = [
    "KernelFisherDiscriminant",
    "KernelFisherRegressor",
    "KernelOrthogonalCentroid",
    "KernelPCA",
    "KernelPCANoveltyDetector",
    "LinearDiscriminant",
    "LinearPCA",
    "OneClassSupportVector",
    "OrientedKernelPCA",
    "ParzenNoveltyDetector",
    "SupportVectorClassifier",
    "SupportVectorRegressor",
    "TruncatedSVDEmbedding",
]
