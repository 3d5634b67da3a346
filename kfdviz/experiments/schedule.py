"""The expected wall time of a table on P workers, from the durations its tasks took.

Every task's durations are stored with its result (run.py). A table runs in rounds: the tasks
whose inputs are known are sent together, and the next round (evaluations after the
cross-validations they need, SKFD's after KFD's choice of width) starts when the round ends.
Within a round, the workers take the tasks in the run's order (larger training sets first)
as each becomes free: list scheduling. So the expected time on P workers is the sum over the
rounds of that schedule's makespan, the time its busiest worker needs; it is at least the
round's total work over P and at least its longest task.

The durations are each task's CPU seconds (``cpu_s``; one BLAS thread per task), which do not
depend on how loaded the machine was, or its wall seconds (``wall_s``). The simulation leaves
out what is not a task: the interpreter's start, loading the data, sending the arrays to the
workers and the merges between rounds.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence


def list_schedule(durations: Sequence[float], workers: int) -> float:
    """Makespan of running ``durations`` in this order, each on the first free worker."""
    if workers < 1:
        raise ValueError(f"the number of workers must be at least 1, got {workers}")
    free = [0.0] * min(workers, max(1, len(durations)))
    heapq.heapify(free)
    for d in durations:
        heapq.heappush(free, heapq.heappop(free) + float(d))
    return max(free)


def round_durations(entries: Iterable[dict], measure: str = "cpu_s") -> tuple[list[float], int]:
    """One round's durations in the run's order (larger training sets first, otherwise as
    planned) and the number of tasks without a stored duration."""
    ordered = sorted(entries, key=lambda e: -int(e.get("n", 0)))
    values = [e.get(measure) for e in ordered]
    return [float(v) for v in values if v is not None], sum(v is None for v in values)


def expected_times(rounds: Sequence[Sequence[dict]], workers: Sequence[int], measure="cpu_s"):
    """``{P: seconds}`` for each P in ``workers``, the sum of the rounds' makespans; and the
    summary: tasks, rounds, total seconds, the longest task, tasks with no stored duration."""
    per_round = [round_durations(r, measure) for r in rounds]
    out = {int(p): sum(list_schedule(d, int(p)) for d, _ in per_round if d) for p in workers}
    durations = [x for d, _ in per_round for x in d]
    summary = {
        "tasks": len(durations),
        "rounds": sum(1 for d, _ in per_round if d),
        "total_s": sum(durations),
        "longest_s": max(durations, default=0.0),
        "missing": sum(m for _, m in per_round),
    }
    return out, summary


def describe(times: dict, summary: dict, measure: str = "cpu_s") -> str:
    """The simulation as lines of text for stderr."""
    what = "CPU" if measure == "cpu_s" else "wall"
    lines = [
        f"{summary['tasks']} tasks in {summary['rounds']} rounds, {summary['total_s']:.1f} s of "
        f"{what} time in all, the longest task {summary['longest_s']:.1f} s"
    ]
    if summary["missing"]:
        lines.append(
            f"{summary['missing']} stored tasks have no duration (stored before they were timed)"
        )
    one = summary["total_s"]
    for p, seconds in sorted(times.items()):
        speedup = f", {one / seconds:.2f}x one worker's" if one and seconds else ""
        lines.append(f"expected on {p} worker{'s' if p != 1 else ''}: {seconds:.1f} s{speedup}")
    return "\n".join(lines)
