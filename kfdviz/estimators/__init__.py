"""scikit-learn estimators for the papers' algorithms."""

from ._base import LargeFitWarning
from .kfd import KernelFisherDiscriminant
from .koc import KernelOrthogonalCentroid
from .kpca import KernelPCA, OrientedKernelPCA
from .linear import LinearDiscriminant, LinearPCA, TruncatedSVDEmbedding
from .novelty import KernelPCANoveltyDetector
from .parzen import ParzenNoveltyDetector
from .regression import KernelFisherRegressor
from .svm import OneClassSupportVector, SupportVectorClassifier, SupportVectorRegressor

__all__ = [
    "KernelFisherDiscriminant",
    "KernelFisherRegressor",
    "KernelOrthogonalCentroid",
    "KernelPCA",
    "KernelPCANoveltyDetector",
    "LargeFitWarning",
    "LinearDiscriminant",
    "LinearPCA",
    "OneClassSupportVector",
    "OrientedKernelPCA",
    "ParzenNoveltyDetector",
    "SupportVectorClassifier",
    "SupportVectorRegressor",
    "TruncatedSVDEmbedding",
]
