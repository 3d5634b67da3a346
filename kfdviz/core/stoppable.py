"""Solves that a cancel can stop: a cancel check the solvers poll, and a child process for the
solves that cannot poll it often enough.

The caller (the app's fit pipeline) opens a :func:`cancel_scope` around code that may reach a
solver, with its cancel ``check``: a plain callable that raises (any exception) once the work is
to stop. Nothing here knows who raises or why. Inside the scope:

- Solvers with a callback of their own poll the check from it: Clarabel's termination callback
  (once per interior-point iteration) and HiGHS's simplex and IPM interrupt callbacks (every few
  simplex iterations). A cancel then stops the solve at its next iteration; what a solver does
  before its first iteration (HiGHS's presolve and first factorization, Clarabel's setup: seconds
  on a thousand points) still runs to its end.
- With ``isolate=True`` (the caller predicts a long solve) the solve runs in a child process
  instead (:func:`run_isolated`), which is terminated when the check raises: a cancel then takes
  effect within :data:`POLL_SECONDS` whatever the solver is doing, at the price of starting a
  process and copying the solve's arrays to it through shared memory (about 50 ms on 1500 points).

Children come from a fork server where the platform has one (a clean process that imported the
solvers once, so that a child starts in milliseconds), else they are spawned; a process that
runs Qt threads is never forked. The server is started by :func:`prepare`, and the first child
waits until it has imported the solvers (one to a few seconds); a cancel meanwhile returns at
once and the child is ended as soon as it exists. The fork server and multiprocessing's resource
tracker stay until this process ends; every solve's child is ended and joined.

A child never runs the user's ``__main__``: multiprocessing would have each child import the
parent's main script again (so a script without ``if __name__ == "__main__":`` would run once
more per solve); the children of this module are started without it (:func:`_preparation_data`)
and import only what unpickling their call needs, from the package itself.

Without a scope (scripts, notebooks, the command line) every solve runs in the calling thread
and nothing is polled. No Qt here.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import pickle
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from multiprocessing import shared_memory
from typing import Any

from threadpoolctl import threadpool_limits

# How often the parent looks at the cancel check while a child solves.
POLL_SECONDS = 0.02
# How long a terminated child may take to end before it is killed.
TERMINATE_SECONDS = 2.0
# Arrays at least this large (together) go to the child through shared memory, not the pipe.
SHARED_MIN_BYTES = 2**20
# Modules a fork server imports once, so that its children start with the solvers loaded.
# (Each child still runs multiprocessing's import of the main module: nothing for
# ``python -m kfdviz``, the few imports of kfdviz.cli for the ``kfdviz`` script.)
PRELOAD = ("kfdviz.core.kfd_programs", "clarabel", "highspy")


class SolverProcessError(RuntimeError):
    """The child process of an isolated solve ended without an answer (killed, out of memory)."""


@dataclass(frozen=True)
class SolveControl:
    """What a solve inside a :func:`cancel_scope` is told: how to stop, and where to run.

    ``check`` raises once the work is to stop; ``isolate`` asks for a child process;
    ``blas_threads`` is the BLAS thread count the child uses (None: its library's default).
    """

    check: Callable[[], None]
    isolate: bool = False
    blas_threads: int | None = None


_CONTROL: ContextVar[SolveControl | None] = ContextVar("kfdviz_solve_control", default=None)


def cancel_scope(
    check: Callable[[], None] | None, *, isolate: bool = False, blas_threads: int | None = None
) -> _Scope:
    """Let the solves run inside this block be stopped by ``check`` (see the module docstring).

    ``check=None`` opens no scope (everything runs as without one). Scopes are per thread.
    """
    control = None if check is None else SolveControl(check, bool(isolate), blas_threads)
    return _Scope(control)


class _Scope:
    """The context manager of :func:`cancel_scope`.

    A class, not a generator: a caller's profile function that raises at every Python call (a
    cancel that stops code knowing nothing about cancelling) would raise as the generator is
    resumed to leave the block, before its ``finally`` ran, and leave the scope set for whatever
    the thread runs next. ``__enter__`` and ``__exit__`` are never interrupted by such a hook,
    and restoring the variable is a call into C.
    """

    def __init__(self, control: SolveControl | None):
        self._control = control
        self._token = None

    def __enter__(self) -> None:
        if self._control is not None:
            self._token = _CONTROL.set(self._control)

    def __exit__(self, *exc_info) -> bool:
        if self._token is not None:
            token, self._token = self._token, None
            _CONTROL.reset(token)
        return False


def current() -> SolveControl | None:
    """The control of the innermost scope of this thread, or None outside any scope."""
    return _CONTROL.get()


class StopFlag:
    """The scope's check as a yes/no question a solver callback can ask without raising.

    A callback runs inside the solver's native code; an exception raised there would unwind
    through it. :meth:`requested` keeps the check's exception, and :meth:`raise_kept` raises it
    once the solver has returned.
    """

    def __init__(self, check: Callable[[], None]):
        self._check = check
        self.error: BaseException | None = None

    def requested(self) -> bool:
        if self.error is None:
            try:
                self._check()
            except BaseException as exc:  # whatever the check raises is the caller's to see
                self.error = exc
        return self.error is not None

    def raise_kept(self) -> None:
        """Raise the check's exception if a :meth:`requested` found it raising."""
        if self.error is not None:
            raise self.error


def stop_flag() -> StopFlag | None:
    """A :class:`StopFlag` for the current scope's check, or None outside any scope."""
    control = current()
    return None if control is None else StopFlag(control.check)


@contextmanager
def unprofiled() -> Iterator[None]:
    """Suspend this thread's profile function (``sys.setprofile``) for the block.

    A caller may stop code that knows nothing about cancelling by raising from a profile
    function at every Python call. Solver callbacks are Python calls made from native code, and
    the cleanup of a child process must not be cut short; code that polls the cancel check
    itself runs without the profile function.
    """
    previous = sys.getprofile()
    sys.setprofile(None)
    try:
        yield
    finally:
        sys.setprofile(previous)


# -- the child process ---------------------------------------------------------------------------
_CONTEXT = None
# Set on the thread that starts a solver's child, while it starts it.
_STARTING = threading.local()
_MULTIPROCESSING_PREPARATION = None


def _preparation_data(name):
    """multiprocessing's preparation data for a new process, less the parent's main module for a
    solver's child (see the module's docstring); other processes get it unchanged."""
    data = _MULTIPROCESSING_PREPARATION(name)
    if getattr(_STARTING, "solver", False):
        data.pop("init_main_from_path", None)
        data.pop("init_main_from_name", None)
    return data


def _without_main() -> None:
    """Route multiprocessing's preparation data through :func:`_preparation_data` (once)."""
    global _MULTIPROCESSING_PREPARATION
    # The start-up module of multiprocessing's children: needed only once children are made.
    from multiprocessing import spawn

    if _MULTIPROCESSING_PREPARATION is None:
        _MULTIPROCESSING_PREPARATION = spawn.get_preparation_data
        spawn.get_preparation_data = _preparation_data


def _context():
    """A fork server's context where there is one (POSIX), else spawn; never plain fork."""
    global _CONTEXT
    if _CONTEXT is None:
        if "forkserver" in multiprocessing.get_all_start_methods():
            ctx = multiprocessing.get_context("forkserver")
            ctx.set_forkserver_preload(list(PRELOAD))
        else:
            ctx = multiprocessing.get_context("spawn")
        _without_main()
        _CONTEXT = ctx
    return _CONTEXT


def prepare() -> None:
    """Start the fork server now (if the platform has one), so that it has imported the solvers
    by the time a solve needs a child. Returns at once; the server loads in the background."""
    ctx = _context()
    if ctx.get_start_method() == "forkserver":
        # The fork server's own module: needed only where it is the start method (POSIX).
        from multiprocessing import forkserver

        forkserver.ensure_running()


def _send(conn, obj, *, shared: bool = False):
    """Send ``obj`` pickled, its arrays' memory out of band: through the pipe, or with
    ``shared`` (and at least :data:`SHARED_MIN_BYTES`) through one shared-memory block.

    Returns the block (the sender unlinks it once the receiver is done) or None. A pipe moves
    64 KiB per switch between the two processes: on a busy machine 50 MB took seconds that way,
    and a cancel waited for the write; a copy into shared memory takes milliseconds.
    """
    buffers: list[pickle.PickleBuffer] = []
    head = pickle.dumps(obj, protocol=5, buffer_callback=buffers.append)
    raws = [b.raw() for b in buffers]
    sizes = [r.nbytes for r in raws]
    if not shared or sum(sizes) < SHARED_MIN_BYTES:
        conn.send((None, sizes))
        conn.send_bytes(head)
        for r in raws:
            conn.send_bytes(r)
        return None

    block = shared_memory.SharedMemory(create=True, size=sum(sizes))
    try:
        offset = 0
        for r in raws:
            block.buf[offset : offset + r.nbytes] = r
            offset += r.nbytes
        conn.send((block.name, sizes))
        conn.send_bytes(head)
    except BaseException:
        _release(block)
        raise
    return block


def _release(block) -> None:
    """Unmap and remove a shared-memory block made by :func:`_send`."""
    if block is not None:
        block.close()
        block.unlink()


# The shared-memory blocks a child has mapped: its arrays view them until the child ends.
_MAPPED: list = []


def _recv(conn):
    name, sizes = conn.recv()
    head = conn.recv_bytes()
    if name is None:
        buffers = []
        for size in sizes:
            buf = bytearray(size)  # writable, so that the arrays built on it are
            conn.recv_bytes_into(buf)
            buffers.append(buf)
    else:
        block = shared_memory.SharedMemory(name=name)
        _MAPPED.append(block)
        offsets = [0, *itertools.accumulate(sizes)]
        buffers = [block.buf[a:b] for a, b in itertools.pairwise(offsets)]
    return pickle.loads(head, buffers=buffers)


def _child(conn) -> None:
    """The child's whole life: receive a call, make it, send back its value or its exception."""
    # What a solver prints (HiGHS's banner, once per process) is not the app's output.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:  # no standard output to silence
        pass
    try:
        try:
            func, args, kwargs, blas_threads = _recv(conn)
        except (EOFError, OSError):  # the parent gave up before sending the call
            return
        try:
            if blas_threads is not None:
                threadpool_limits(limits=blas_threads, user_api="blas")
            answer = ("value", func(*args, **kwargs))
        except BaseException as exc:  # the parent re-raises it
            answer = ("error", exc)
        try:
            _send(conn, answer)
        except OSError:  # the parent is no longer listening
            pass
        except Exception as exc:  # the answer would not pickle: send the reason as text
            _send(conn, ("error", SolverProcessError(f"{type(exc).__name__}: {exc}")))
    finally:
        conn.close()


def run_isolated(func: Callable[..., Any], *args, control: SolveControl, **kwargs) -> Any:
    """``func(*args, **kwargs)`` in a child process, stopped by ``control.check``.

    ``func`` and its arguments must pickle (``func`` a module-level function); arrays go to the
    child through shared memory. The check is asked every :data:`POLL_SECONDS`; when it raises,
    the child is terminated (then killed if it does not end) and joined, and the check's
    exception propagates. An exception in the child is raised here; a child that dies without an
    answer raises :class:`SolverProcessError`.
    """
    ctx = _context()
    block = None
    with unprofiled():
        here, there = ctx.Pipe(duplex=True)
        process = ctx.Process(target=_child, args=(there,), name="kfdviz-solver", daemon=True)
        start = _Start(process, there)
        try:
            start.wait(control.check)
            block = _send(here, (func, args, kwargs, control.blas_threads), shared=True)
            while not here.poll(POLL_SECONDS):
                control.check()
                if not process.is_alive() and not here.poll(0):
                    raise SolverProcessError(
                        f"The solver's process ended without an answer (exit code "
                        f"{process.exitcode}): it may have run out of memory."
                    )
            kind, value = _recv(here)
        except (EOFError, BrokenPipeError, ConnectionResetError):
            process.join(TERMINATE_SECONDS)
            raise SolverProcessError(
                f"The solver's process ended without an answer (exit code {process.exitcode}): "
                "it may have run out of memory."
            ) from None
        finally:
            if start.settle():
                _end(process)
            here.close()
            _release(block)
    if kind == "error":
        raise value
    return value


class _Start:
    """``process.start()`` on a thread of its own, waited for while a cancel check is asked.

    Starting a child from a fork server waits for the server, which, started moments before,
    may still be importing the solvers (seconds on a busy machine); nothing can cut that wait
    short. A cancel meanwhile returns at once, and the starting thread ends the child as soon as
    it exists.
    """

    def __init__(self, process, child_end):
        self.process = process
        self.child_end = child_end  # the child's end of the pipe, closed here once it has it
        self.failure: BaseException | None = None
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._abandoned = False
        threading.Thread(target=self._run, name="kfdviz-solver-start", daemon=True).start()

    def _run(self) -> None:
        _STARTING.solver = True  # this thread starts solvers' children only
        try:
            self.process.start()
        except BaseException as exc:  # raised to the waiting thread
            self.failure = exc
        finally:
            self.child_end.close()
            with self._lock:
                self._done.set()
                abandoned = self._abandoned
        if abandoned:
            _end(self.process)

    def wait(self, check: Callable[[], None]) -> None:
        """Until the child runs, asking ``check`` every POLL_SECONDS; raises what it raises."""
        check()
        while not self._done.wait(POLL_SECONDS):
            check()
        if self.failure is not None:
            raise self.failure

    def settle(self) -> bool:
        """Whether the child has been started, so that the caller ends it; if it has not, the
        starting thread ends it once started."""
        with self._lock:
            self._abandoned = not self._done.is_set()
            return not self._abandoned


def _end(process) -> None:
    """Terminate ``process`` if it still runs, kill it if it will not end, and join it."""
    if process.pid is None:  # never started
        return
    if process.is_alive():
        process.terminate()
        process.join(TERMINATE_SECONDS)
        if process.is_alive():
            process.kill()
    process.join()
