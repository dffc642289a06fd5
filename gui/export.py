"""Images of panels and of the whole window: PNG via pyqtgraph / QWidget.grab, SVG via
pyqtgraph's SVGExporter (panels) or QSvgGenerator (window)."""
from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QRect, QSize
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QWidget

from .panel_names import EXPORT_STEMS as PANEL_FILES

FORMATS = ("png", "svg")


def _format(path: Path) -> str:
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise ValueError(f"unsupported image format {path.suffix!r}; use .png or .svg")
    return fmt


def export_panel(panel, path) -> Path:
    """Write one pyqtgraph panel to PNG or SVG (by suffix)."""
    import pyqtgraph.exporters as exporters

    path = Path(path)
    _catch_up(panel)
    if _format(path) == "png":
        panel_image(panel).save(str(path))
    else:
        exporters.SVGExporter(panel.scene()).export(str(path))
    return path


def panel_image(panel) -> QImage:
    """The panel as it looks on screen, at device pixel ratio 1."""
    _catch_up(panel)
    return panel.grab().toImage()


def _catch_up(panel) -> None:
    """A hidden panel may hold back the newest Results (Panel.offer_results)."""
    if hasattr(panel, "catch_up"):
        panel.catch_up()


def export_window(window: QWidget, path) -> Path:
    path = Path(path)
    if _format(path) == "png":
        if not window.grab().save(str(path)):
            raise OSError(f"could not write {path}")
    else:
        from PySide6.QtSvg import QSvgGenerator

        generator = QSvgGenerator()
        generator.setFileName(str(path))
        generator.setSize(window.size())
        generator.setViewBox(QRect(0, 0, window.width(), window.height()))
        generator.setTitle("Attention Lab")
        painter = QPainter(generator)
        try:
            window.render(painter, QPoint(0, 0))
        finally:
            painter.end()
    return path


def ensure_headless_platform() -> None:
    """Use the offscreen platform when there is no display to talk to."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def export_panels(params, out_dir, fmt: str = "png", size: tuple[int, int] = (1200, 800),
                  heads_input=None) -> list[Path]:
    """Compute `params` (and the head roles of `heads_input`, default HeadsInput()), render
    every panel at `size` and write them plus results.json."""
    ensure_headless_platform()
    from PySide6.QtWidgets import QApplication

    from engine import compute
    from engine.report import results_to_dict

    from .app import configure_pyqtgraph
    from .panels import create_panels
    from .panels.heads_view import HeadsView, compute_heads
    from .state import HeadsInput

    app = QApplication.instance() or QApplication([])
    configure_pyqtgraph()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    results = compute(params)
    heads = compute_heads(heads_input or HeadsInput())
    written = []
    for panel in [*create_panels(), HeadsView()]:
        panel.resize(QSize(*size))
        panel.update_results(heads if isinstance(panel, HeadsView) else results)
        panel.show()
        app.processEvents()
        written.append(export_panel(panel, out / f"{PANEL_FILES[panel.objectName()]}.{fmt}"))
        panel.close()
        panel.deleteLater()
    # processEvents() leaves deferred deletions to the event loop; without one (a script,
    # a test) the hidden panels would live on and receive events meant for live widgets.
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    app.processEvents()
    json_path = out / "results.json"
    json_path.write_text(json.dumps(results_to_dict(results), indent=1) + "\n", encoding="utf-8")
    written.append(json_path)
    return written
