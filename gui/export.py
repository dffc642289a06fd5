"""Images of panels and of the whole window: PNG via pyqtgraph / QWidget.grab, SVG via
pyqtgraph's SVGExporter (panels) or QSvgGenerator (window).

Every image is rendered into memory first and then written with gui.state.atomic.write_atomic:
a failed write (full disk, read-only folder) raises ExportError naming the path and the reason,
leaves any older file of that name untouched, and leaves no partial file behind."""
from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path

from PySide6.QtCore import (QBuffer, QByteArray, QCoreApplication, QEvent, QIODevice, QPoint,
                            QRect, QSize, Qt)
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QWidget

from .panel_names import EXPORT_STEMS as PANEL_FILES
from .state.atomic import write_atomic
from .style import make_theme

FORMATS = ("png", "svg")


def _format(path: Path) -> str:
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise ValueError(f"unsupported image format {path.suffix!r}; use .png or .svg")
    return fmt


class ExportError(OSError):
    """An image or file could not be written; the message names the path."""


def _check_target(path: Path) -> None:
    if str(path) in ("", "."):
        raise ExportError("no file name was given")
    if path.is_dir():
        raise ExportError(f"could not write {path}: it is a folder")
    if not path.parent.is_dir():
        raise ExportError(f"could not write {path}: the folder {path.parent} does not exist")


def _write(path: Path, data: bytes) -> Path:
    try:
        return write_atomic(path, data)
    except OSError as exc:
        raise ExportError(str(exc)) from None


def png_bytes(image: QImage, path: Path) -> bytes:
    """`image` encoded as PNG; ExportError (naming `path`) if Qt cannot encode it."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if image.isNull() or not image.save(buffer, "PNG"):
        raise ExportError(f"could not write {path}: the image could not be encoded")
    return bytes(data)


def export_panel(panel, path, scale: float = 1.0) -> Path:
    """Write one pyqtgraph panel to PNG (at `scale` × its size on screen) or SVG, by suffix.
    Raises ExportError naming the path when nothing could be written."""
    import pyqtgraph.exporters as exporters

    path = Path(path)
    fmt = _format(path)
    _check_target(path)
    _catch_up(panel)
    if fmt == "png":
        return _write(path, png_bytes(panel_image(panel, scale), path))
    svg = exporters.SVGExporter(panel.scene()).export(toBytes=True).decode("utf-8")
    return _write(path, sharpen_svg_text(svg).encode("utf-8"))


#: Embedded images are enlarged (nearest neighbour) until their long side has this many pixels.
SVG_IMAGE_MIN_PX = 512
_PNG_DATA = re.compile(r'xlink:href="data:image/png;base64,([A-Za-z0-9+/=]+)"')


def _enlarged_png(match: re.Match) -> str:
    image = QImage.fromData(QByteArray.fromBase64(match.group(1).encode("ascii")), "PNG")
    longest = max(image.width(), image.height())
    if image.isNull() or longest == 0 or longest >= SVG_IMAGE_MIN_PX:
        return match.group(0)
    factor = math.ceil(SVG_IMAGE_MIN_PX / longest)
    big = image.scaled(image.width() * factor, image.height() * factor,
                       Qt.AspectRatioMode.IgnoreAspectRatio, Qt.TransformationMode.FastTransformation)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    big.save(buffer, "PNG")
    return f'xlink:href="data:image/png;base64,{bytes(data.toBase64()).decode("ascii")}"'


def sharpen_svg_text(text: str) -> str:
    """Attention maps are embedded at one pixel per cell; a renderer that smooths scaled
    images (Qt's own, many slide tools) blurs them. Enlarging each embedded image by an
    integer factor, nearest neighbour, keeps every cell a sharp square in any renderer;
    the drawing's geometry is unchanged."""
    return _PNG_DATA.sub(_enlarged_png, text)


def panel_image(panel, scale: float = 1.0) -> QImage:
    """The panel as it looks on screen, rendered at `scale` × its size (2 and 4 for slides:
    text and lines are drawn again at that resolution, not enlarged pixels)."""
    _catch_up(panel)
    if scale == 1.0:
        return panel.grab().toImage()
    size = panel.size()
    image = QImage(round(size.width() * scale), round(size.height() * scale),
                   QImage.Format.Format_ARGB32)
    image.fill(panel.palette().window().color())
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.scale(scale, scale)
        panel.render(painter)
    finally:
        painter.end()
    return image


def _catch_up(panel) -> None:
    """A hidden panel may hold back the newest Results (Panel.offer_results)."""
    if hasattr(panel, "catch_up"):
        panel.catch_up()


def export_window(window: QWidget, path) -> Path:
    """Write the whole window to PNG or SVG, by suffix; ExportError names the path on failure."""
    path = Path(path)
    fmt = _format(path)
    _check_target(path)
    if fmt == "png":
        return _write(path, png_bytes(window.grab().toImage(), path))
    from PySide6.QtSvg import QSvgGenerator

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(window.size())
    generator.setViewBox(QRect(0, 0, window.width(), window.height()))
    generator.setTitle("Attention Lab")
    painter = QPainter()
    if not painter.begin(generator):
        raise ExportError(f"could not write {path}: the SVG drawing could not be started")
    try:
        window.render(painter, QPoint(0, 0))
    finally:
        painter.end()
    if data.isEmpty():
        raise ExportError(f"could not write {path}: the SVG drawing is empty")
    return _write(path, bytes(data))


def ensure_headless_platform() -> None:
    """Use the offscreen platform when there is no display to talk to."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def export_panels(params, out_dir, fmt: str = "png", size: tuple[int, int] = (1200, 800),
                  heads_input=None) -> list[Path]:
    """Compute `params` (and the head roles of `heads_input`, default HeadsInput()), render
    every panel at `size` and write them plus results.json."""
    ensure_headless_platform()

    from engine import compute
    from engine.report import results_to_dict

    from .app import create_application
    from .panels import create_panels
    from .panels.heads_view import HeadsView, compute_heads
    from .state import HeadsInput

    app = create_application([])
    out = Path(out_dir)
    if str(out_dir).strip() == "":
        raise ExportError("--out needs a folder name")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"could not make the folder {out}: {exc.strerror or exc}") from None
    results = compute(params)
    heads = compute_heads(heads_input or HeadsInput())
    theme = make_theme(ui_scale=export_text_scale(size))
    written, failed = [], []
    for panel in [*create_panels(), HeadsView()]:
        panel.resize(QSize(*size))
        panel.apply_theme(theme)
        panel.update_results(heads if isinstance(panel, HeadsView) else results)
        panel.show()
        app.processEvents()
        try:
            written.append(export_panel(panel, out / f"{PANEL_FILES[panel.objectName()]}.{fmt}"))
        except ExportError as exc:
            failed.append(str(exc))
        panel.close()
        panel.deleteLater()
    # processEvents() leaves deferred deletions to the event loop; without one (a script,
    # a test) the hidden panels would live on and receive events meant for live widgets.
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    app.processEvents()
    json_path = out / "results.json"
    try:
        _check_target(json_path)
        written.append(_write(json_path, (json.dumps(results_to_dict(results), indent=1)
                                          + "\n").encode("utf-8")))
    except ExportError as exc:
        failed.append(str(exc))
    if failed:
        raise ExportError("; ".join(failed))
    return written


#: The panel size at which exported text has the window's own size.
EXPORT_REFERENCE_SIZE = (1200, 800)


def export_text_scale(size: tuple[int, int]) -> float:
    """Text grows with the export size (a 1920×1080 slide keeps text readable), 1× to 3×."""
    w, h = size
    return round(max(1.0, min(3.0, w / EXPORT_REFERENCE_SIZE[0], h / EXPORT_REFERENCE_SIZE[1])), 2)
