"""Colours, pens and fonts shared by the panels.

The palette is Okabe–Ito (safe for the common colour-vision deficiencies).
`Theme` holds what presentation mode changes: background, foreground, line
width and font size.
"""
from __future__ import annotations

from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtGui import QColor, QFont

OKABE_ITO = {
    "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73", "yellow": "#F0E442",
    "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7", "black": "#000000",
}
UNSCALED = OKABE_ITO["vermillion"]
SCALED = OKABE_ITO["blue"]
HEAD_COLOURS = [OKABE_ITO[k] for k in ("orange", "sky", "green", "purple", "blue",
                                        "vermillion", "yellow")] + ["#999999"]
TERM_COLOURS = {"projections": OKABE_ITO["sky"], "scores": OKABE_ITO["orange"],
                "softmax": OKABE_ITO["yellow"], "weighted_sum": OKABE_ITO["green"],
                "w_o": OKABE_ITO["purple"]}


@dataclass(frozen=True)
class Theme:
    name: str = "light"
    background: str = "#FFFFFF"
    foreground: str = "#111111"
    line_width: float = 2.0
    font_pt: int = 10


LIGHT = Theme()
DARK = Theme("dark", "#121212", "#EEEEEE")


def head_colour(i: int) -> str:
    return HEAD_COLOURS[i % len(HEAD_COLOURS)]


def pen(colour: str, theme: Theme, width_factor: float = 1.0, style=None):
    kwargs = {"color": colour, "width": theme.line_width * width_factor}
    if style is not None:
        kwargs["style"] = style
    return pg.mkPen(**kwargs)


def brush(colour: str, alpha: int = 255):
    c = QColor(colour)
    c.setAlpha(alpha)
    return pg.mkBrush(c)


def plot_font(theme: Theme, factor: float = 1.0) -> QFont:
    font = QFont()
    font.setPointSizeF(theme.font_pt * factor)
    return font


def format_number(value: float, digits: int = 3) -> str:
    """Short human form: 0.507, 1.23e-04, 16 384."""
    if value == 0:
        return "0"
    if abs(value) >= 1e5 or abs(value) < 1e-3:
        return f"{value:.{digits - 1}e}"
    if float(value).is_integer() and abs(value) >= 1000:
        return f"{int(value):,}".replace(",", "\u2009")
    return f"{value:.{digits}g}" if abs(value) < 1 else f"{value:.{max(digits - 1, 1)}f}"


def format_count(value: float) -> str:
    """786432 → "786k", 1048576 → "1.05M", 1.6e9 → "1.6G"."""
    for factor, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= factor:
            return f"{value / factor:.3g}{suffix}"
    return f"{value:g}"
