"""Render the application icon's PNG sizes from its SVG (kfdviz/resources/icons/).

    python packaging/render_icons.py

Run it after editing kfdviz.svg and commit the PNGs it writes; tests/test_packaging.py checks
that every PNG is the SVG drawn at its size. Needs PySide6 (the project's virtualenv has it); Qt
draws without a display here.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "kfdviz" / "resources" / "icons"


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    sys.path.insert(0, str(ICONS.parent.parent.parent))
    from kfdviz.resources import ICON_SIZES, icon_png_name

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(ICONS / "kfdviz.svg"))
    if not renderer.isValid():
        print(f"render_icons: {ICONS / 'kfdviz.svg'} is not a valid SVG", file=sys.stderr)
        return 1
    for size in ICON_SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        target = ICONS / icon_png_name(size)
        if not image.save(str(target)):
            print(f"render_icons: could not write {target}", file=sys.stderr)
            return 1
        print(target)
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
