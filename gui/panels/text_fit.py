"""Fitting texts to the room a plot has: wrapped lines, tick steps that leave gaps."""
from __future__ import annotations

import math
import re

#: Tick steps tried, as multiples of a power of ten (1-2-5, and 2.5 for probabilities).
NICE_STEPS = (1.0, 2.0, 2.5, 5.0)
TICK_GAP = 1.5   # centre-to-centre distance of two tick labels, in text heights, at least


def wrap_lines(text: str, width: float, measure) -> str:
    """Each line of `text` broken at its spaces (or after 、) so that no line is wider than
    `width` pixels as `measure(line)` counts them, where a word allows; a continued line is
    indented by two spaces."""
    out = []
    for line in text.split("\n"):
        if measure(line) <= width:
            out.append(line)
            continue
        words = re.findall(r"\S+\s*|\s+", line)
        current = ""
        for word in words:
            trial = current + word
            if current.strip() and measure(trial.rstrip()) > width:
                out.append(current.rstrip())
                current = "  " + word.lstrip()
            else:
                current = trial
        out.append(current.rstrip())
    return "\n".join(out)


WORD_JOINER = "\u2060"
_JAPANESE = re.compile("[\u3040-\u30ff\u4e00-\u9fff々]")   # kana_class is not None


def kana_class(ch: str) -> str | None:
    """"hiragana", "katakana", "kanji", or None for any other character."""
    code = ord(ch)
    if 0x3040 <= code <= 0x309F:
        return "hiragana"
    if 0x30A0 <= code <= 0x30FF:
        return "katakana"
    if 0x4E00 <= code <= 0x9FFF or ch == "々":
        return "kanji"
    return None


def glue_words(text: str) -> str:
    """A Japanese title that wraps between its words only: a word joiner (U+2060) between
    two kana or kanji, except before a kanji or katakana run that follows another script
    ("直前の|トークン", "同じ|単語"). A run wider than its column still breaks anywhere."""
    if _JAPANESE.search(text) is None:
        return text
    out = []
    for a, b in zip(text, text[1:]):
        out.append(a)
        ka, kb = kana_class(a), kana_class(b)
        if ka and kb and not (kb in ("kanji", "katakana") and ka != kb):
            out.append(WORD_JOINER)
    return "".join(out) + text[-1:]


def unbreakable(text: str) -> str:
    """`text` that never wraps inside, once its spaces are &nbsp;: a word joiner between two
    neighbouring non-ASCII letters (Qt breaks Japanese between any two kana or kanji)."""
    if text.isascii():
        return text
    out = []
    for a, b in zip(text, text[1:]):
        out.append(a)
        if ord(a) > 127 and ord(b) > 127 and not (a.isspace() or b.isspace()):
            out.append(WORD_JOINER)
    return "".join(out) + text[-1:]


def fitting_step(span: float, length_px: float, text_px: float, minimum: float = 0.0) -> float:
    """The smallest 1-2-2.5-5 step (≥ `minimum`) whose ticks along `span` data units shown
    over `length_px` pixels stay TICK_GAP text heights `text_px` apart."""
    if span <= 0 or length_px <= 0:
        return max(span, minimum) or 1.0
    smallest = max(span * TICK_GAP * text_px / length_px, minimum, 1e-12)
    exponent = math.floor(math.log10(smallest))
    for power in (exponent, exponent + 1):
        for mantissa in NICE_STEPS:
            step = mantissa * 10.0 ** power
            if step >= smallest * (1 - 1e-9):
                return step
    return 10.0 ** (exponent + 2)


def ticks_between(low: float, high: float, step: float) -> list[tuple[float, str]]:
    """(value, label) of every multiple of `step` in [low, high]."""
    first = math.ceil(low / step - 1e-9)
    last = math.floor(high / step + 1e-9)
    return [(k * step, f"{k * step:g}") for k in range(first, last + 1)]


def layout_minimum_px(panel) -> float:
    """The height the panel's grid cannot be squeezed below (wrapped titles included)."""
    from PySide6.QtCore import Qt

    margins = panel.ci.contentsMargins() if hasattr(panel.ci, "contentsMargins") else None
    extra = margins.top() + margins.bottom() if margins is not None else 0.0
    return panel.ci.layout.effectiveSizeHint(Qt.SizeHint.MinimumSize).height() + extra


class MinimumHeight:
    """Keeps a panel's minimum height at what its texts need, `needed()` pixels: below it
    the window scrolls instead of squeezing texts over each other. Measured after the
    layout pass that asked (request()): a minimum set inside a pass is undone by it."""

    FLOOR = 160

    def __init__(self, panel, needed):
        from PySide6.QtCore import QTimer

        self.panel, self.needed = panel, needed
        self._axes = None
        self.timer = QTimer(panel, singleShot=True, interval=0)
        self.timer.timeout.connect(self.fit)

    def request(self, *_args) -> None:
        self.timer.start()

    def reset(self) -> None:
        """A new font: measure from the floor again."""
        self.panel.setMinimumHeight(self.FLOOR)
        self.request()

    def fit(self) -> None:
        import shiboken6
        from PySide6.QtCore import QRectF

        panel = self.panel
        # The timer can fire while a closing window deletes the panel's scene items.
        if not (shiboken6.isValid(panel) and shiboken6.isValid(panel.ci)
                and shiboken6.isValid(panel.ci.layout)):
            return
        needed = max(self.FLOOR, math.ceil(self.needed()))
        if needed != panel.minimumHeight():
            panel.setMinimumHeight(needed)
        # A resize that arrived while the scene was laying itself out can leave the
        # plot grid at the old size: give it the viewport's size again (the viewport: a
        # framed panel's is smaller than the widget), and let later resizes set it too
        # (pyqtgraph's default disableAutoPixel=True would freeze the range at this size).
        size = panel.viewport().size()
        if panel.ci.geometry().size().toSize() != size:
            panel.setRange(QRectF(0, 0, size.width(), size.height()), padding=0,
                           disableAutoPixel=False)
        self._centre_axis_names()

    def _centre_axis_names(self) -> None:
        """Every axis name centred on its axis again. pyqtgraph places the name only when
        the axis is resized (AxisItem.resizeEvent), for the name it has then: a panel that
        renames an axis at the same size (the cost panel's short and long FLOP names) left
        the longer name where the shorter one was, running up into the title (a fresh
        window at 150 % in Japanese)."""
        import pyqtgraph as pg

        if self._axes is None:
            self._axes = [item for item in self.panel.scene().items()
                          if isinstance(item, pg.AxisItem)]
        for axis in self._axes:
            label = getattr(axis, "label", None)
            if label is None or not label.isVisible() or not axis.isVisible():
                continue
            rect = label.mapRectToParent(label.boundingRect())
            if axis.orientation in ("left", "right"):
                off = abs(rect.center().y() - axis.size().height() / 2)
            else:
                off = abs(rect.center().x() - axis.size().width() / 2)
            if off > 2:
                axis.resizeEvent()


def fit_bottom_axis(axis, font, tick_lines: int = 1) -> None:
    """A bottom axis tall enough for `tick_lines` lines of tick labels and its name in
    `font` (pyqtgraph counts 0.8 of each, and at large text the name ran into the ticks
    or off the panel)."""
    from PySide6.QtGui import QFontMetricsF

    line = QFontMetricsF(font).lineSpacing()
    named = axis.label.isVisible() and bool(axis.labelText)
    axis.setHeight(int(tick_lines * line + (line + 4 if named else 0) + 12))


def lines_px(theme, lines: float) -> int:
    """The height of `lines` lines of plot text in `theme` (a panel's minimum height: below
    it the window scrolls instead of squeezing the texts over each other)."""
    from PySide6.QtGui import QFontMetricsF

    from gui.common.style import plot_font

    return int(lines * QFontMetricsF(plot_font(theme)).lineSpacing())
