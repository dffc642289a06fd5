"""The dark theme's colours stand out on black (WCAG contrast), as the light theme's do on white."""
from PySide6.QtGui import QColor

from gui.common.style import make_theme


def luminance(colour: str) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    q = QColor(colour)
    r, g, b = (channel(v) for v in (q.redF(), q.greenF(), q.blueF()))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_raw_and_scaled_colours_read_on_a_projector():
    for safe in (True, False):
        dark = make_theme(dark=True, colour_safe=safe)
        light = make_theme(dark=False, colour_safe=safe)
        for theme in (dark, light):
            for colour in (theme.unscaled, theme.scaled):
                assert contrast(colour, theme.background) >= 3.0, (theme.name, safe, colour)
        assert dark.scaled != dark.unscaled


def blended(colour: str, background: str, alpha: int) -> str:
    c, b = QColor(colour), QColor(background)
    a = alpha / 255
    return QColor(round(c.red() * a + b.red() * (1 - a)), round(c.green() * a + b.green() * (1 - a)),
                  round(c.blue() * a + b.blue() * (1 - a))).name()


def test_translucent_fills_stay_visible_on_black():
    dark = make_theme(dark=True)
    for colour in (dark.unscaled, dark.scaled):
        fill = blended(colour, dark.background, dark.fill_alpha(110))   # the histograms' fill
        assert contrast(fill, dark.background) >= 3.0, colour


def test_a_theme_switch_keeps_the_applications_style(qapp):
    """Switching the palette keeps the one Fusion style (a new style per switch re-polished
    every widget, and each left a wrapper behind on the application)."""
    from PySide6.QtGui import QPalette

    from gui.common.palette import apply_widget_palette

    apply_widget_palette(qapp, False)
    style = qapp.style()
    assert style.name().lower() == "fusion"
    apply_widget_palette(qapp, True)
    assert qapp.style() is style
    assert qapp.palette().color(QPalette.ColorRole.Window) == QColor("#1A1A1A")
    apply_widget_palette(qapp, False)
    assert qapp.style() is style
    assert qapp.palette().color(QPalette.ColorRole.WindowText) == QColor("#000000")
