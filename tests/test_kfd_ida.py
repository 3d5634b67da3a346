"""The regularized KFD on the papers' benchmark data, under the papers' protocol.

TPAMI Table 1 / the 1999 table report KFD test errors of 10.8 % (banana), 1.5 % (ringnorm),
2.6 % (twonorm) and 9.9 % (waveform), averaged over 100 realizations with parameters chosen by
5-fold cross-validation on the first five. The data folder holds the first ten realizations
(twonorm: one); we follow the same protocol on them and ask for the papers' numbers within one
percentage point.
"""

import numpy as np
import pytest

from kfdviz import KernelFisherDiscriminant
from kfdviz.experiments.ida_protocol import PAPER_KFD_ERROR, run_protocol

pytestmark = [pytest.mark.slow, pytest.mark.shared_data]

# Widths scale with the squared distances: 2-D banana vs the 20/21-D sets.
GRIDS = {
    "banana": {"width": list(np.logspace(-1, 2.5, 8)), "mu": list(np.logspace(-6, 0, 7))},
    "ringnorm": {"width": list(np.logspace(0, 3, 8)), "mu": list(np.logspace(-6, 0, 7))},
    "twonorm": {"width": list(np.logspace(0, 3, 8)), "mu": list(np.logspace(-6, 0, 7))},
    "waveform": {"width": list(np.logspace(0, 3, 8)), "mu": list(np.logspace(-6, 0, 7))},
}


@pytest.mark.parametrize("dataset", sorted(GRIDS))
def test_kfd_matches_the_papers_table(ida_dir, dataset):
    result = run_protocol(
        ida_dir, dataset, KernelFisherDiscriminant(threshold="prior"), GRIDS[dataset]
    )
    paper = PAPER_KFD_ERROR[dataset]
    assert len(result.cv_choices) == min(5, result.realizations.size)
    assert abs(result.mean_error - paper) <= 1.0, (
        f"{dataset}: {result.mean_error:.2f} % over {result.realizations.size} realizations "
        f"with {result.params}, paper {paper} %"
    )
