"""Colours, pens and fonts shared by the panels.

The palette is Okabe–Ito (safe for the common colour-vision deficiencies).
`Theme` holds what presentation mode changes: background, foreground, line
width and font size.
"""
from __future__ import annotations

from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtGui import QColor, QFont

from gui.state.app_state import shown_text_scale

OKABE_ITO = {
    "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73", "yellow": "#F0E442",
    "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7", "black": "#000000",
}
#: Okabe–Ito: distinguishable with the common colour-vision deficiencies.
SAFE_PALETTE = {
    "unscaled": OKABE_ITO["vermillion"], "scaled": OKABE_ITO["blue"],
    "heads": [OKABE_ITO[k] for k in ("orange", "sky", "green", "purple", "blue", "vermillion",
                                     "yellow")] + ["#999999"],
    "terms": {"projections": OKABE_ITO["sky"], "scores": OKABE_ITO["orange"],
              "softmax": OKABE_ITO["yellow"], "weighted_sum": OKABE_ITO["green"],
              "w_o": OKABE_ITO["purple"]},
}
#: One Okabe–Ito colour per detected head role (engine.models.roles.ROLES); "mixed" is grey.
ROLE_COLOURS = {
    "previous": OKABE_ITO["vermillion"], "next": OKABE_ITO["orange"], "self": OKABE_ITO["purple"],
    "first": OKABE_ITO["blue"], "separator": OKABE_ITO["green"], "induction": OKABE_ITO["yellow"],
    "broad": OKABE_ITO["sky"], "mixed": "#999999",
}
#: The familiar matplotlib "tab10" colours, for users who prefer them.
CLASSIC_PALETTE = {
    "unscaled": "#D62728", "scaled": "#1F77B4",
    "heads": ["#1F77B4", "#FF7F0E", "#2CA02C", "#D62728", "#9467BD", "#8C564B", "#E377C2", "#7F7F7F"],
    "terms": {"projections": "#1F77B4", "scores": "#FF7F0E", "softmax": "#BCBD22",
              "weighted_sum": "#2CA02C", "w_o": "#9467BD"},
}
#: On a black projector background the dark blues and reds (and their translucent fills)
#: fade to navy and brown: the dark theme takes the light members of each palette.
DARK_SAFE_PALETTE = {**SAFE_PALETTE, "unscaled": OKABE_ITO["orange"], "scaled": OKABE_ITO["sky"]}
DARK_CLASSIC_PALETTE = {**CLASSIC_PALETTE, "unscaled": "#FF6B6B", "scaled": "#6BB6FF"}
BASE_FONT_PT = 10
BASE_LINE_WIDTH = 2.0


@dataclass(frozen=True)
class Theme:
    """What the View menu changes: colours, line width and font size of the plots."""

    name: str = "light"
    background: str = "#FFFFFF"
    foreground: str = "#000000"
    line_width: float = BASE_LINE_WIDTH
    font_pt: float = BASE_FONT_PT
    colour_safe: bool = True

    @property
    def palette(self) -> dict:
        if self.name == "dark":
            return DARK_SAFE_PALETTE if self.colour_safe else DARK_CLASSIC_PALETTE
        return SAFE_PALETTE if self.colour_safe else CLASSIC_PALETTE

    @property
    def unscaled(self) -> str:
        return self.palette["unscaled"]

    @property
    def scaled(self) -> str:
        return self.palette["scaled"]

    def fill_alpha(self, alpha: int) -> int:
        """Opacity of a translucent fill: on black a fill needs about twice the opacity it
        needs on white to keep the same contrast."""
        return min(255, round(alpha * 2.0)) if self.name == "dark" else alpha

    def head_colour(self, i: int) -> str:
        heads = self.palette["heads"]
        return heads[i % len(heads)]

    def term_colour(self, term: str) -> str:
        return self.palette["terms"][term]


LIGHT = Theme()


def make_theme(dark: bool = False, presentation: bool = False, ui_scale: float = 1.0,
               colour_safe: bool = True) -> Theme:
    """Light is black on white (high contrast); presentation thickens lines and enlarges
    text to at least PRESENTATION_MIN_SCALE (gui.state.app_state.shown_text_scale)."""
    return Theme(name="dark" if dark else "light",
                 background="#000000" if dark else "#FFFFFF",
                 foreground="#F2F2F2" if dark else "#000000",
                 line_width=BASE_LINE_WIDTH * (1.75 if presentation else 1.0) * max(1.0, ui_scale ** 0.5),
                 font_pt=round(BASE_FONT_PT * shown_text_scale(ui_scale, presentation), 1),
                 colour_safe=colour_safe)


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
        mantissa, exponent = f"{value:.{digits - 2}e}".split("e")
        return f"{mantissa}e{int(exponent)}"   # 1.2e-4, not 1.23e-04
    if 0.99 < abs(value) < 1:  # never round a probability like 0.9996 up to "1"
        for extra in range(digits, 17):
            text = f"{value:.{extra}g}"
            if float(text) != round(value):
                return text
    if float(value).is_integer() and abs(value) >= 1000:
        return f"{int(value):,}".replace(",", "\u2009")
    return f"{value:.{digits}g}" if abs(value) < 1 else f"{value:.{max(digits - 1, 1)}f}"


def format_count(value: float) -> str:
    """786432 → "786k", 1048576 → "1.05M", 1.6e9 → "1.6G"."""
    for factor, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= factor:
            return f"{value / factor:.3g}{suffix}"
    return f"{value:g}"
