"""The window on its screen: a first size that fits, saved geometry kept on screen, and
presentation mode filling the screen with or without a window manager.

    first_geometry(available) -> QRect     DEFAULT_SIZE, at most SCREEN_SHARE of the
                                           screen's available area, centred in it
    kept_on_screen(rect, available) -> QRect   a saved geometry no larger than the area and
                                           moved inside it
    fill_screen(window)                    full screen now: showFullScreen(), and the
                                           screen's geometry set by hand (a kiosk session
                                           with no window manager honours nothing else)
"""
from __future__ import annotations

from PySide6.QtCore import QRect, QSize

#: The window's size on a screen that has room for it.
DEFAULT_SIZE = QSize(1600, 1000)
#: The first window takes at most this share of its screen's available width and height.
SCREEN_SHARE = 0.9


def first_geometry(available: QRect) -> QRect:
    """DEFAULT_SIZE, shrunk to SCREEN_SHARE of `available` where the screen is smaller,
    centred in `available`."""
    width = min(DEFAULT_SIZE.width(), int(available.width() * SCREEN_SHARE))
    height = min(DEFAULT_SIZE.height(), int(available.height() * SCREEN_SHARE))
    rect = QRect(0, 0, max(1, width), max(1, height))
    rect.moveCenter(available.center())
    return rect


def kept_on_screen(rect: QRect, available: QRect) -> QRect:
    """`rect` (a saved frame geometry) no larger than `available` and moved inside it."""
    size = rect.size().boundedTo(available.size())
    out = QRect(rect.topLeft(), size)
    if out.right() > available.right():
        out.moveRight(available.right())
    if out.bottom() > available.bottom():
        out.moveBottom(available.bottom())
    if out.left() < available.left():
        out.moveLeft(available.left())
    if out.top() < available.top():
        out.moveTop(available.top())
    return out


def fill_screen(window) -> None:
    """Show `window` full screen on its screen. Qt asks the window manager; where there is
    none (a kiosk session, Xvfb) the request is ignored, so the screen's geometry is set
    first (set after, it would end the full-screen state)."""
    window.setGeometry(window.screen().geometry())
    window.showFullScreen()
