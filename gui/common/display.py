"""Is there a screen to open the window on? Asked before Qt is: Qt's answer to a missing
display, or to a missing xcb library, is to abort the process (exit 134) after messages
that point the wrong way ("Reinstalling the application may fix this problem").

    display_problem(environ) -> str | None   one line saying what is missing, or None

Only the X11 (xcb) case is checked, on Linux: a Wayland session, another platform plugin
(QT_QPA_PLATFORM=offscreen, wayland, …), macOS and Windows are left to Qt.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from pathlib import Path

#: What the user can do instead of opening a window.
HEADLESS_HINT = ("or use a command that needs no window (attention-lab --help lists "
                 "report, export, heads, train, prune)")


def _platform(environ) -> str:
    return environ.get("QT_QPA_PLATFORM", "").split(":")[0].strip().lower()


def xcb_plugin() -> Path | None:
    """PySide6's xcb platform plugin, or None where it has none."""
    try:
        import PySide6
    except ImportError:
        return None
    plugin = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.exists() else None


def _plugin_problem(plugin: Path) -> str | None:
    """Loading the plugin resolves the libraries it needs: the first missing one is named."""
    try:
        ctypes.CDLL(str(plugin), mode=ctypes.RTLD_LOCAL)
    except OSError as exc:
        missing = str(exc).split(":")[0].strip()
        return (f"the window needs the X11 library {missing}, which is not installed "
                f"(on Debian or Ubuntu: sudo apt install libxcb-cursor0 libxkbcommon-x11-0 "
                f"libxcb-icccm4 libxcb-keysyms1), {HEADLESS_HINT}")
    return None


def _x_server_problem(display: str) -> str | None:
    """Connect to the X server `display` names, as Qt would, and hang up."""
    name = ctypes.util.find_library("xcb")
    if name is None:
        return None                       # the plugin check names the missing library
    xcb = ctypes.CDLL(name)
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    connection = xcb.xcb_connect(display.encode(), None)
    try:
        failed = xcb.xcb_connection_has_error(connection)
    finally:
        xcb.xcb_disconnect(connection)
    if failed:
        return f"cannot open the display {display!r} (no X server answers there), {HEADLESS_HINT}"
    return None


def display_problem(environ=None) -> str | None:
    """What keeps the window from opening on this machine, in one line, or None."""
    environ = os.environ if environ is None else environ
    platform = _platform(environ)
    if not sys.platform.startswith("linux") or platform not in ("", "xcb"):
        return None
    if platform == "" and environ.get("WAYLAND_DISPLAY"):
        return None                       # Qt picks Wayland there
    display = environ.get("DISPLAY", "")
    if not display:
        return f"no display to open the window on (DISPLAY is not set), {HEADLESS_HINT}"
    plugin = xcb_plugin()
    if plugin is not None:
        problem = _plugin_problem(plugin)
        if problem:
            return problem
    return _x_server_problem(display)
