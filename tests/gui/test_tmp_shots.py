import pytest
from gui_helpers import make_window, wait_idle
@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_shot(qtbot, settings, size):
    w = make_window(qtbot, settings)
    w.resize(*size); qtbot.wait(500); wait_idle(qtbot, w)
    w.fit.request_fit(now=True); wait_idle(qtbot, w); qtbot.wait(300)
    w.grab().save(f"/tmp/shots23b/window-{size[0]}.png")
    from PySide6.QtWidgets import QLabel
    for lab in w.findChildren(QLabel):
        if lab.isVisible() and lab.text() and lab.fontMetrics().horizontalAdvance(lab.text()) > lab.width() + 2 and not lab.wordWrap():
            print("CUT", size, repr(lab.text()[:80]), lab.width(), lab.fontMetrics().horizontalAdvance(lab.text()))
    w.close()
