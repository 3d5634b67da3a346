"""The example notebook runs in a real Jupyter kernel, headless, and shows its displays as
pictures (docs/notebooks/displays.ipynb)."""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest

nbclient = pytest.importorskip(
    "nbclient", reason="the notebook test needs nbclient, nbformat and ipykernel (test extra)"
)
nbformat = pytest.importorskip("nbformat", reason="the notebook test needs nbformat (test extra)")
pytest.importorskip("ipykernel", reason="the notebook test needs ipykernel (test extra)")

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK = REPO / "docs" / "notebooks" / "displays.ipynb"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def executed(tmp_path: Path):
    """The notebook run top to bottom in a fresh kernel with no display, importing this
    checkout's kfdviz."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "PYTHONSTARTUP")
    }
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    client = nbclient.NotebookClient(
        nb,
        kernel_name="python3",
        timeout=300,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute(env=env)
    return nb


def test_notebook_shows_every_display_as_a_picture(tmp_path):
    nb = executed(tmp_path)
    shown = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        errors = [o for o in cell.outputs if o.output_type == "error"]
        assert not errors, f"{cell.source!r} raised {errors[0].ename}: {errors[0].evalue}"
        for output in cell.outputs:
            if output.output_type != "execute_result":
                continue
            text = output.data.get("text/plain", "")
            if "Display of " not in text:
                continue
            assert "image/png" in output.data, f"{text} came without a PNG"
            assert "image/svg+xml" in output.data, f"{text} came without an SVG"
            png = base64.b64decode(output.data["image/png"])
            assert png.startswith(PNG_MAGIC) and len(png) > 10_000, text
            shown.append(text)
    kinds = {t.split(" of ")[0] for t in shown}
    assert kinds == {"<LevelSetDisplay", "<OutputHistogramDisplay", "<EmbeddingDisplay"}
    assert len(shown) == 6
    # The arrays cell printed the largest difference from kernel PCA's own transform.
    printed = "".join(
        o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs
    )
    line = next(s for s in printed.splitlines() if s.startswith("largest difference"))
    assert float(line.split(":")[1]) < 1e-9
