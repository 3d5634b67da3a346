"""docs/library.md's examples run as written, in order, headless, and write the files they name."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "docs" / "library.md"


def code_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_library_page_examples_run(tmp_path):
    text = PAGE.read_text(encoding="utf-8")
    blocks = code_blocks(text)
    assert len(blocks) >= 6
    script = tmp_path / "examples.py"
    script.write_text("\n".join(blocks), encoding="utf-8")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "PYTHONSTARTUP")
    }
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    named = set(re.findall(r'save\("([^"]+)"', "\n".join(blocks)))
    assert named and all((tmp_path / name).stat().st_size > 5_000 for name in named)
    # Every image the page shows is in the repository.
    for image in re.findall(r"\]\((images/[^)]+)\)", text):
        assert (PAGE.parent / image).is_file(), image
