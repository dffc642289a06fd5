"""The scaling experiment's curves: scaled and unscaled runs differ in colour as well as in
dashes (they had one colour per d_k), in the app's scaled and unscaled colours
(Theme.scaled / Theme.unscaled), in the colour-safe and classic palettes, light and dark;
each d_k a shade of them, the widest in the colour itself."""
import itertools

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from gui.common.style import make_theme
from gui.panels.training_curves import TrainingCurves
from small_runs import CONFIGS, finished_run

#: Hues (degrees) closer than this read as one colour; the palettes' scaled and unscaled
#: colours are 150–200° apart, a shade keeps its colour's hue within a few degrees
#: (mixing with black or white moves only the lightness, up to rounding).
SAME_HUE_DEG = 12


def hue_gap(a: QColor, b: QColor) -> float:
    gap = abs(a.hsvHueF() - b.hsvHueF()) * 360
    return min(gap, 360 - gap)


def pens_by_group(curves) -> dict:
    """(d_k, scaled) → the pen of its mean accuracy curve."""
    return {key: parts["accuracy"][0].opts["pen"] for key, parts in curves.items.items()}


@pytest.mark.parametrize("dark, colour_safe", list(itertools.product((False, True), repeat=2)))
def test_scaled_and_unscaled_differ_in_colour_and_dashes(qtbot, dark, colour_safe):
    theme = make_theme(dark, False, 1.0, colour_safe)
    curves = TrainingCurves()
    qtbot.addWidget(curves)
    curves.apply_theme(theme)
    d_ks = CONFIGS["scaling"].d_ks
    curves.set_planned_dks(d_ks)
    curves.update_results(finished_run("scaling")[0])
    pens = pens_by_group(curves)
    assert set(pens) == {(d_k, scaled) for d_k in d_ks for scaled in (True, False)}
    for d_k in d_ks:
        scaled, unscaled = pens[d_k, True], pens[d_k, False]
        assert scaled.style() == Qt.PenStyle.SolidLine
        assert unscaled.style() == Qt.PenStyle.DashLine
        assert hue_gap(scaled.color(), unscaled.color()) > 90, (d_k, scaled.color().name(),
                                                                 unscaled.color().name())
        assert hue_gap(scaled.color(), QColor(theme.scaled)) < SAME_HUE_DEG
        assert hue_gap(unscaled.color(), QColor(theme.unscaled)) < SAME_HUE_DEG
    widest = max(d_ks)
    assert pens[widest, True].color().name() == QColor(theme.scaled).name()
    assert pens[widest, False].color().name() == QColor(theme.unscaled).name()
    for scaled in (True, False):       # the d_k of a group: another shade
        shades = {pens[d_k, scaled].color().name() for d_k in d_ks}
        assert len(shades) == len(d_ks)
