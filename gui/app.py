"""QApplication set-up and the GUI entry point."""
from __future__ import annotations

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
    return app.exec()
