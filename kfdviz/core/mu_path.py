"""The two-class Rayleigh KFD along mu: one reduction of N serves every mu.

At a fixed kernel and data the two-class KFD direction (TPAMI eq. 11) is
a(mu) = (N + mu I)^-1 d, d the difference of the class means. With the Householder reduction
N = Q T Q' (LAPACK ``sytrd``: Q orthogonal, T tridiagonal),

    (N + mu I)^-1 d = Q (T + mu I)^-1 Q' d,

so after one reduction (about the work of three Cholesky factorizations of N) each mu costs an
O(m) tridiagonal solve and two applications of Q (O(m^2)) instead of a Cholesky factorization
(m^3 / 3) and a condition estimate. T has N's eigenvalues, so the condition number of
N + mu I, (l_max + mu) / (l_min + mu), comes with them exactly.

:class:`TridiagonalN` is that reduction; the cross-validation over mu uses it per fold
(:mod:`kfdviz.experiments.kfd_path`). The window uses the eigendecomposition N = V diag(l) V'
instead (:class:`SpectralN`), the same O(m^2) per mu: it decomposes N in a daemon thread
between fits (once no fit has run for :data:`IDLE_SECONDS`, and only the latest N asked for:
a slider's intermediate widths are not decomposed), and numpy's LAPACK call releases the GIL where scipy's ``sytrd`` wrapper does not
(the window would freeze for the reduction's seconds). A fit asks :func:`closed_form` first;
when no reduction of its N is held, the window's pipeline calls
:func:`reduce_latest_in_background` after the fit's picture is built, and a later fit whose N
is the same array (the fit cache hands out one read-only N per data, labels and kernel:
:mod:`.fit_cache`) gets its direction from the decomposition. Only mu whose condition number
is at most :data:`FAST_CONDITION` take the reduction: that is a hundredth of the bound above
which :func:`kfdviz.core.rayleigh.solve_rayleigh` leaves its Cholesky route, so there the
Cholesky solve would take the same closed form, and the two directions agree up to round-off of
order FAST_CONDITION x unit round-off relative to the direction. Other mu return None and the
fit solves as before.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
from scipy.linalg import eigvalsh_tridiagonal, lapack

from .rayleigh import RayleighSolution

# The Rayleigh engine keeps its Cholesky route up to a condition estimate of 1e10 (a lower
# bound of the true condition number); a factor 100 below it leaves room for round-off in the
# eigenvalues, so every mu taken here is one the engine also solves in closed form.
FAST_CONDITION = 1e8
# Matrices reduced and kept at once (the reduction holds Q's reflectors: m^2 floats each).
KEEP = 2
# Matrices larger than this are not reduced in the background (the reduction's time grows as
# m^3 and would compete with the fits for the cores for seconds).
MAX_BACKGROUND = 4000
# The background reduction starts once no fit has run for this long (the input rests).
IDLE_SECONDS = 0.3


class TridiagonalN:
    """N = Q T Q' for a symmetric N, and (N + mu I)^-1 b for many mu from it."""

    def __init__(self, N: np.ndarray):
        N = np.asarray(N, dtype=float)
        self.m = N.shape[0]
        packed, self.diag, self.offdiag, self.tau, info = lapack.dsytrd(N, lower=1)
        if info != 0:
            raise np.linalg.LinAlgError(f"dsytrd failed (info={info})")
        # The reflectors H(i) act on rows i+1.. (uplo "L"): Q is the product of the n-1
        # reflectors of a QR factorization of the block below the first row (LAPACK dormtr).
        self._reflectors = np.asfortranarray(packed[1:, :-1])
        # N's extreme eigenvalues, by bisection on T (LAPACK stebz): O(m) each.
        self.extreme_eigenvalues = tuple(
            float(eigvalsh_tridiagonal(self.diag, self.offdiag, select="i", select_range=(i, i))[0])
            if self.m > 1
            else float(self.diag[0])
            for i in (0, self.m - 1)
        )

    def condition(self, mu: float) -> float:
        """Condition number of N + mu I (inf where it is not positive definite)."""
        low, high = (value + mu for value in self.extreme_eigenvalues)
        return float(high / low) if low > 0 else float("inf")

    def _apply_q(self, B: np.ndarray, trans: str) -> np.ndarray:
        B = np.array(B, dtype=float, order="F", copy=True)
        if self.m < 2:
            return B
        tail = np.asfortranarray(B[1:])
        lwork = max(1, 64 * tail.shape[1], 64 * tail.shape[0])
        out, _, info = lapack.dormqr("L", trans, self._reflectors, self.tau, tail, lwork)
        if info != 0:
            raise np.linalg.LinAlgError(f"dormqr failed (info={info})")
        B[1:] = out
        return B

    def solve(self, b: np.ndarray, mus: Sequence[float]) -> np.ndarray:
        """Columns (N + mu I)^-1 b, one per mu; every N + mu I must be positive definite."""
        c = self._apply_q(np.asarray(b, dtype=float).reshape(-1, 1), "T")
        Y = np.empty((self.m, len(mus)))
        for j, mu in enumerate(mus):
            if self.m == 1:
                # LAPACK's wrapper takes no empty off-diagonal: the 1 x 1 system directly.
                pivot = self.diag[0] + mu
                y, info = c / pivot, 0 if pivot > 0 else 1
            else:
                *_, y, info = lapack.dptsv(self.diag + mu, self.offdiag, c)
            if info != 0:
                raise np.linalg.LinAlgError(f"T + mu I is not positive definite at mu={mu:g}")
            Y[:, j] = y[:, 0]
        return self._apply_q(Y, "N")


class SpectralN:
    """N = V diag(l) V' for a symmetric N (numpy's ``eigh``), and (N + mu I)^-1 b from it.

    The window's reduction between fits (:func:`reduce_in_background`): numpy's LAPACK calls
    release the GIL, so the window's thread and the fit thread run on while N is decomposed in
    another thread; scipy's ``sytrd`` wrapper (:class:`TridiagonalN`) holds the GIL for the whole
    reduction, which would freeze the window for as long. The decomposition costs a few times
    the tridiagonal reduction alone; each mu then costs two products with V (O(m^2)).
    """

    def __init__(self, N: np.ndarray):
        values, self.vectors = np.linalg.eigh(np.asarray(N, dtype=float))
        self.values = values
        self.m = values.size
        self.extreme_eigenvalues = (float(values[0]), float(values[-1]))

    def condition(self, mu: float) -> float:
        """Condition number of N + mu I (inf where it is not positive definite)."""
        low, high = (value + mu for value in self.extreme_eigenvalues)
        return float(high / low) if low > 0 else float("inf")

    def solve(self, b: np.ndarray, mus: Sequence[float]) -> np.ndarray:
        """Columns (N + mu I)^-1 b, one per mu; every N + mu I must be positive definite."""
        c = self.vectors.T @ np.asarray(b, dtype=float).ravel()
        shifted = self.values[:, None] + np.asarray(mus, dtype=float)[None, :]
        if not np.all(shifted > 0):
            raise np.linalg.LinAlgError("N + mu I is not positive definite")
        return self.vectors @ (c[:, None] / shifted)


@dataclass(frozen=True)
class ClosedForm:
    """The two-class direction at one mu from a reduction: a'(N + mu I)a = 1, value d'a."""

    direction: np.ndarray
    value: float
    condition: float  # of N + mu I, from N's extreme eigenvalues


_held: list[tuple[np.ndarray, TridiagonalN | SpectralN]] = []  # (N, its reduction), newest last
_lock = threading.Lock()
_wake = threading.Condition(_lock)
# The N of the latest closed_form call that found no reduction (weakly: it belongs to the cache).
_unreduced: list = [None]
# The background worker's state: the N it is to reduce next (weakly), whether it is reducing,
# how many fits run now (it waits for none), and the worker thread itself.
_state: dict = {"next": None, "busy": False, "fits": 0, "thread": None}
# Counts for tests and benchmarks: reductions made, and directions taken from one.
stats = {"reductions": 0, "solves": 0}


def reduction(N: np.ndarray) -> TridiagonalN | SpectralN | None:
    """The reduction of this very array ``N`` (identity, not equality), if one is held."""
    with _lock:
        for held, reduced in _held:
            if held is N:
                return reduced
    return None


def keep(N: np.ndarray, reduced: TridiagonalN | SpectralN) -> None:
    """Hold ``reduced`` as the reduction of ``N`` (which must not change: a read-only array)."""
    with _lock:
        others = [(h, r) for h, r in _held if h is not N]
        _held[:] = [*others[len(others) - (KEEP - 1) :], (N, reduced)]
        stats["reductions"] += 1


@contextmanager
def fitting():
    """Marks a fit running: the background reduction starts only while none runs (it would
    compete with the fit for the cores and delay its picture)."""
    with _lock:
        _state["fits"] += 1
    try:
        yield
    finally:
        with _wake:
            _state["fits"] -= 1
            _wake.notify_all()


def _worker() -> None:
    while True:
        with _wake:
            # The latest N asked for, once no fit runs and none has started for a moment.
            while True:
                while _state["next"] is None or _state["fits"] > 0:
                    _wake.wait()
                ref = _state["next"]
                _wake.wait(IDLE_SECONDS)
                if _state["next"] is ref and _state["fits"] == 0:
                    break
            _state["next"] = None
            N = ref()
            _state["busy"] = N is not None
        if N is None:
            continue
        try:
            if reduction(N) is None:
                keep(N, SpectralN(N))
        except (np.linalg.LinAlgError, ValueError):
            pass  # N is not a matrix LAPACK decomposes: the fits keep their Cholesky route
        finally:
            with _wake:
                _state["busy"] = False
                _wake.notify_all()


def reduce_in_background(N: np.ndarray) -> bool:
    """Reduce the read-only ``N`` in the background once no fit has run for
    :data:`IDLE_SECONDS` (a newer N asked for before replaces it: only the latest is reduced),
    unless it is held already or too large (:data:`MAX_BACKGROUND`); True when scheduled."""
    if N.flags.writeable or N.ndim != 2 or N.shape[0] > MAX_BACKGROUND or N.shape[0] < 2:
        return False
    if reduction(N) is not None:
        return False
    with _wake:
        _state["next"] = weakref.ref(N)
        if _state["thread"] is None or not _state["thread"].is_alive():
            _state["thread"] = threading.Thread(target=_worker, name="kfdviz-mu-path", daemon=True)
            _state["thread"].start()
        _wake.notify_all()
    return True


def reduce_latest_in_background() -> bool:
    """:func:`reduce_in_background` for the N of the latest :func:`closed_form` call that found
    no reduction (the fit just made, when the caller fitted one), if it is still alive."""
    ref, _unreduced[0] = _unreduced[0], None
    N = ref() if ref is not None else None
    return reduce_in_background(N) if N is not None else False


def wait(timeout: float | None = None) -> None:
    """Wait until no reduction is scheduled or running (tests and benchmarks); a fit running
    meanwhile delays it."""
    with _wake:
        _wake.wait_for(lambda: _state["next"] is None and not _state["busy"], timeout)


def forget() -> None:
    """Drop the held and scheduled reductions (and reset the counts)."""
    with _wake:
        _state["next"] = None
        _wake.wait_for(lambda: not _state["busy"])
        _held.clear()
        stats["reductions"] = stats["solves"] = 0


def closed_form(N: np.ndarray, d: np.ndarray, mu: float) -> ClosedForm | None:
    """a = (N + mu I)^-1 d scaled to a'(N + mu I)a = 1, from the reduction of ``N`` if one is
    held and N + mu I is well conditioned (:data:`FAST_CONDITION`); None otherwise."""
    reduced = reduction(N)
    if reduced is None:
        _unreduced[0] = weakref.ref(N) if not N.flags.writeable else None
        return None
    if not (np.isfinite(mu) and mu > 0):
        return None
    condition = reduced.condition(float(mu))
    if not condition <= FAST_CONDITION:
        return None
    try:
        a = reduced.solve(d, [float(mu)])[:, 0]
    except np.linalg.LinAlgError:
        return None
    value = float(d @ a)
    if not (np.isfinite(value) and value > 0):
        return None
    stats["solves"] += 1
    return ClosedForm(a / np.sqrt(value), value, condition)


def rayleigh_solution(N: np.ndarray, d: np.ndarray, mu: float) -> RayleighSolution | None:
    """The two-class Rayleigh solution (N + mu I regularized, M = d d') from :func:`closed_form`,
    as :func:`kfdviz.core.rayleigh.solve_rayleigh` reports it; None where there is none."""
    fast = closed_form(N, d, mu)
    if fast is None:
        return None
    return RayleighSolution(
        fast.direction[:, None],
        np.array([fast.value]),
        f"N + μI, μ = {mu:g}",
        fast.condition,
        N.shape[0],
        "closed-form",
    )


__all__ = [
    "FAST_CONDITION",
    "ClosedForm",
    "SpectralN",
    "TridiagonalN",
    "closed_form",
    "fitting",
    "forget",
    "rayleigh_solution",
    "reduce_in_background",
    "reduce_latest_in_background",
    "reduction",
    "wait",
]
