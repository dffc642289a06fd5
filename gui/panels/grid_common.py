"""What the two thumbnail grids share (head_grid.HeadGrid, compare_grid.CompareGrid): their
plot, its square cells against the top-left corner, the minimum size that keeps cells
readable at any text size, and the legend of role counts."""
from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QFontMetricsF

from gui.common.style import ROLE_COLOURS, plot_font
from gui.panels.base import Plot
from gui.panels.text_fit import MinimumHeight, layout_minimum_px

#: The smallest thumbnail, in text lines of the tick font, and in pixels: the minimum height
#: and width keep cells this big (the window scrolls below it), whatever the text size.
#: THUMB_MIN_PX: a 16-token sentence's map at 1.5 px a token (at 100 % text CELL_LINES of a
#: line is 18 px, and MiniLM's 72 heads were hard to tell apart).
CELL_LINES = 1.15
THUMB_MIN_PX = 24
#: In presentation mode (fitting_room) the tab must fit the screen without scrolling: a cell may
#: shrink to this share of a text line (its frame and tint still show the head's role).
ROOM_CELL_LINES = 0.5
PANEL_MIN_WIDTH = 220   # Plot's own
#: The compared heads go beside the model's grid while every cell of both keeps this many
#: times the smallest thumbnail across (else below it: the grid's cells were 17 px at
#: 1920 × 1080 with the compared heads below it, 40 beside it).
BESIDE_CELL_SHARE = 1.25
#: Room for a grid's left axis (the layer names), in cells.
AXIS_CELLS = 1.5


def fit_cells_top_left(vb, columns: float, rows: float, pad: float = 0.05) -> None:
    """Square cells for a `columns` × `rows` grid in `vb` (y down), against the view's
    top-left corner and its axes; the spare room goes right and down (centred, as
    setAspectLocked puts it, the layer names stood far from their cells)."""
    rect = vb.boundingRect()
    w, h = rect.width(), rect.height()
    columns, rows = columns + 2 * pad, rows + 2 * pad
    if w <= 0 or h <= 0 or columns <= 0 or rows <= 0:
        return
    cell = min(w / columns, h / rows)
    vb.setRange(xRange=(-pad, w / cell - pad), yRange=(-pad, h / cell - pad), padding=0)
    # The view's matrix now, not at the next paint: an SVG export made before it (the
    # exporter does not paint) drew the cells at the old scale under the new axes.
    scene = vb.scene()
    if scene is not None:
        scene.prepareForPaint()


def legend_width(panel, label=None) -> float:
    """The width a legend line may take: the text width of `label` (a TitleLabel) once laid
    out, else the panel's less its margins. (The panel's width alone was wider than the
    label's text: Japanese entries were then broken inside a name.)"""
    if label is not None and label.size().width() > 0:
        margin = label.item.document().documentMargin()
        return max(label.size().width() - 2 * margin - 2.0, 60.0)
    return max(panel.width() - 24.0, 60.0)


def cell_px(theme, fitting_room: bool = False) -> float:
    """The smallest cell of a grid in `theme`: windowed, CELL_LINES of a line of the left
    axis's font and THUMB_MIN_PX; fitting the room (presentation), ROOM_CELL_LINES."""
    line = QFontMetricsF(plot_font(theme)).height()
    return ROOM_CELL_LINES * line if fitting_room else max(CELL_LINES * line, THUMB_MIN_PX)


def keep_cells_readable(panel, rows: float, columns: float) -> None:
    """A minimum width for `columns` cells of cell_px beside the left axis (the minimum
    height is panel.minimum_height's, for `rows` cells)."""
    panel.cell_rows, panel.cell_columns = rows, columns
    left = panel.plot.getAxis("left").width()
    width = int(left + columns * cell_px(panel.theme, panel.fitting_room) + 16)
    if width > panel.minimumWidth():
        panel.setMinimumWidth(width)
    panel.minimum_height.request()


def add_minimum_height(panel) -> MinimumHeight:
    """Minimum height: the panel's texts and `panel.cell_rows` cells of cell_px."""
    panel.cell_rows, panel.cell_columns, panel.fitting_room = 1, 1, False
    minimum = MinimumHeight(panel, lambda: layout_minimum_px(panel)
                            + panel.cell_rows * cell_px(panel.theme, panel.fitting_room))
    panel.plot.vb.sigResized.connect(minimum.request)
    return minimum


def set_fit_room(panel, on: bool) -> None:
    """Fit the room the panel gets (presentation: cells down to ROOM_CELL_LINES) or keep
    its cells readable (windowed: the window scrolls below cell_px)."""
    if on != panel.fitting_room:
        panel.fitting_room = on
        panel.setMinimumWidth(PANEL_MIN_WIDTH)
        panel.minimum_height.reset()
        keep_cells_readable(panel, panel.cell_rows, panel.cell_columns)


def grids_fit_beside(grid, compare, width: float) -> bool:
    """Whether the compared heads fit beside the model's grid in a column `width` pixels
    wide, every cell at least BESIDE_CELL_SHARE × cell_px across (MiniLM's 6 × 12 while no
    model is shown)."""
    columns = (grid.cells.shape[1] or 12) + compare.columns() + 2 * AXIS_CELLS
    return width >= columns * BESIDE_CELL_SHARE * cell_px(grid.theme)


def role_legend(roles, names: dict[str, str], width: float = 0.0, font=None) -> str:
    """■ role count for each role present, in ROLE_COLOURS order (rich text). With a
    `width` in pixels and the `font`, the entries are packed into lines of that width and
    never broken inside (Qt breaks Japanese names anywhere, and ignores inline nowrap)."""
    counts: dict[str, int] = {}
    for row in roles:
        for role in row:
            counts[role] = counts.get(role, 0) + 1
    shown = [role for role in ROLE_COLOURS if counts.get(role)]
    entries = [f'<span style="color:{ROLE_COLOURS[role]}">■</span>&nbsp;'
               f'{names[role].replace(" ", "&nbsp;")}&nbsp;{counts[role]}' for role in shown]
    if not width or font is None:
        return " &nbsp; ".join(entries)
    fm = QFontMetricsF(font)
    gap = fm.horizontalAdvance("   ")
    lines, line, used = [], [], 0.0
    for role, entry in zip(shown, entries):
        size = fm.horizontalAdvance(f"■ {names[role]} {counts[role]}")
        if line and used + gap + size > width:
            lines.append(line)
            line, used = [], 0.0
        used += (gap if line else 0.0) + size
        line.append(entry)
    lines.append(line)
    return "<br>".join(" &nbsp; ".join(line) for line in lines if line)


def style_grid_plot(panel: Plot, plot: pg.PlotItem) -> None:
    """The panel's plot style, and the head numbers' top axis a little smaller."""
    panel.style_plot(plot)
    top = plot.getAxis("top")
    top.setPen(panel.theme.foreground)
    top.setTextPen(panel.theme.foreground)
    top.setTickFont(plot_font(panel.theme, 0.85))


def add_thumbnail_plot(panel) -> pg.PlotItem:
    """Row 1 of `panel`: a fixed, square-celled view read top-down, labelled along the top."""
    plot = panel.addPlot(row=1, col=0)
    plot.setMouseEnabled(False, False)
    plot.setMenuEnabled(False)
    plot.hideButtons()
    plot.invertY(True)
    plot.setAspectLocked(True)
    plot.showAxis("top")
    plot.hideAxis("bottom")
    return plot


def grids_shares(grid, compare) -> tuple[float, float]:
    """The shares of a row's width the model's grid and the compared heads beside it take:
    as many as their columns (and their axes)."""
    columns = ((grid.cells.shape[1] or 12) + AXIS_CELLS, compare.columns() + AXIS_CELLS)
    return columns[0] / sum(columns), columns[1] / sum(columns)
