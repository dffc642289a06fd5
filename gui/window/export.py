"""Images of panels and of the whole window: PNG via pyqtgraph / QWidget.grab, SVG via
pyqtgraph's SVGExporter (panels) or QSvgGenerator (window). The command line's batch export
of every panel is gui/headless/batch.py.

Every image is rendered into memory first and then written with gui.state.atomic.write_atomic:
a failed write (full disk, read-only folder) raises ExportError naming the path and the reason,
leaves any older file of that name untouched, and leaves no partial file behind."""
from __future__ import annotations

import math
import re
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, QRect, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QWidget

from gui.state.atomic import write_atomic

FORMATS = ("png", "svg")


def _format(path: Path) -> str:
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise ValueError(f"unsupported image format {path.suffix!r}; use .png or .svg")
    return fmt


class ExportError(OSError):
    """An image or file could not be written; the message names the path."""


def check_target(path: Path) -> None:
    if str(path) in ("", "."):
        raise ExportError("no file name was given")
    if path.is_dir():
        raise ExportError(f"could not write {path}: it is a folder")
    if not path.parent.is_dir():
        raise ExportError(f"could not write {path}: the folder {path.parent} does not exist")


def write_bytes(path: Path, data: bytes) -> Path:
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
    check_target(path)
    _catch_up(panel)
    if fmt == "png":
        return write_bytes(path, png_bytes(panel_image(panel, scale), path))
    svg = exporters.SVGExporter(panel.scene()).export(toBytes=True).decode("utf-8")
    return write_bytes(path, sharpen_svg_text(svg).encode("utf-8"))


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
    """A hidden panel may hold back the newest Results (Plot.offer_results)."""
    if hasattr(panel, "catch_up"):
        panel.catch_up()


def export_window(window: QWidget, path) -> Path:
    """Write the whole window to PNG or SVG, by suffix; ExportError names the path on failure."""
    path = Path(path)
    fmt = _format(path)
    check_target(path)
    if fmt == "png":
        return write_bytes(path, png_bytes(window.grab().toImage(), path))
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
    return write_bytes(path, bytes(data))
