"""QApplication set-up and the GUI entry point."""
from __future__ import annotations

import os
import sys


def configure_pyqtgraph() -> None:
    import pyqtgraph as pg

    pg.setConfigOptions(antialias=True, background="w", foreground="k")


def create_application(argv: list[str]):
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0], *argv])
    app.setOrganizationName("AttentionLab")
    app.setApplicationName("Attention Lab")
    configure_pyqtgraph()
    return app


def run(argv: list[str]) -> int:
    app = create_application(argv)
    from .main_window import MainWindow

    window = MainWindow()
    window.show()
    quit_after = os.environ.get("ATTENTION_LAB_QUIT_AFTER_MS")
    if quit_after:  # smoke tests: close the window (stopping the worker) after a delay
        from PySide6.QtCore import QTimer

        QTimer.singleShot(int(quit_after), window.close)
    return app.exec()
