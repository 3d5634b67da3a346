"""A user's script is never run again by the solver's child process.

multiprocessing's fork server and spawn start each child by importing the parent's main script
again; a script without ``if __name__ == "__main__":`` would run once more per solve (and the
child, starting a solve of its own while importing, would die). The script here draws a sparse
KFD picture through the pipeline, as the window does, with every solve in a child process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import os
    import sys

    with open(sys.argv[1], "a") as f:
        f.write(f"{os.getpid()}\\n")

    import numpy as np

    from kfdviz.pipeline import CancelToken, FitRequest
    from kfdviz.pipeline import run as pipeline_run

    pipeline_run.ISOLATE_SECONDS = 0.0  # every program solve in a child process, however small
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(-1, 0.5, (30, 2)), rng.normal(1, 0.5, (30, 2))])
    y = np.repeat([0, 1], 30)
    request = FitRequest(algorithm="kfd-sparse", params={"width": 1.0}, X=X, y=y)
    result = pipeline_run.run_fit(request, cancel=CancelToken())
    print("drawn", result.grid is not None and np.isfinite(result.grid.values).all())
    """
)


def test_a_script_without_a_main_guard_runs_once(tmp_path):
    script = tmp_path / "user_script.py"
    script.write_text(SCRIPT)
    runs = tmp_path / "runs.txt"
    done = subprocess.run(
        [sys.executable, str(script), str(runs)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "drawn True"
    assert runs.read_text().splitlines() == [runs.read_text().split()[0]], "the script ran again"
