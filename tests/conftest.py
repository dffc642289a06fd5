"""Shared test setup: Qt runs headless, hypothesis stays quick, and Ctrl-C stops the run.

Ctrl-C: Python raises KeyboardInterrupt wherever the main thread is, which in a GUI test is
mostly inside a Qt callback: PySide6 hands it to sys.excepthook, pytest-qt records it as an
error of that test, and the run goes on (and an exception escaping an overridden Qt event
handler can crash PySide6 6.10). So the first SIGINT raises nothing: it asks pytest to stop
after the current test (session.shouldstop, "Interrupted: ..." and exit status 2); a second
one raises KeyboardInterrupt at once, as Python would.
"""
import os
import signal
import sys
import threading

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from hypothesis import settings  # noqa: E402

settings.register_profile("ci", max_examples=60, deadline=None)
settings.load_profile("ci")

STOP_MESSAGE = "interrupted by Ctrl-C (SIGINT): stopped after the running test"


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    if threading.current_thread() is not threading.main_thread():
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is not signal.default_int_handler:
        return           # someone else (a debugger, xdist) handles SIGINT: leave it to them

    def on_sigint(signum, frame):
        if session.shouldstop:                      # the second Ctrl-C: at once
            signal.signal(signal.SIGINT, previous)
            raise KeyboardInterrupt
        session.shouldstop = STOP_MESSAGE
        sys.stderr.write(f"\n{STOP_MESSAGE} (Ctrl-C again to stop at once)\n")

    signal.signal(signal.SIGINT, on_sigint)
    session.config.add_cleanup(lambda: signal.signal(signal.SIGINT, previous))


#: The longest tests, started first so that on several workers (pytest -n) they run beside
#: the rest instead of after it.
LONGEST_FIRST = ("test_long_use_memory.py", "test_random_use.py", "test_window_memory.py",
                 "test_projector_walk.py")


def pytest_addoption(parser):
    parser.addoption("--soak", action="store_true",
                     help="also run the long soak (tests marked soak: thousands of random "
                          "actions, tens of minutes); `python -m pytest --soak -m soak` runs "
                          "only them")


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--soak"):
        soak = [item for item in items if item.get_closest_marker("soak")]
        if soak:
            config.hook.pytest_deselected(items=soak)
            items[:] = [item for item in items if not item.get_closest_marker("soak")]

    def rank(item) -> int:
        name = item.path.name
        return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)      # stable: the rest keep their order
