"""Qt widget palettes for the light (high-contrast) and dark themes."""
from __future__ import annotations

from PySide6.QtGui import QColor, QPalette


def apply_widget_palette(app, dark: bool) -> None:
    """Fusion style with a black-on-white or a light-on-black palette. The style is made
    once: a call with Fusion already set keeps it (setStyle makes a new style each time and
    polishes every widget again)."""
    if app.style().name().lower() != "fusion":
        app.setStyle("Fusion")
    palette = QPalette()
    if dark:
        role = QPalette.ColorRole
        for r, colour in ((role.Window, "#1A1A1A"), (role.WindowText, "#F2F2F2"),
                          (role.Base, "#0D0D0D"), (role.AlternateBase, "#262626"),
                          (role.Text, "#F2F2F2"), (role.Button, "#262626"),
                          (role.ButtonText, "#F2F2F2"), (role.ToolTipBase, "#262626"),
                          (role.ToolTipText, "#F2F2F2"), (role.Highlight, "#56B4E9"),
                          (role.HighlightedText, "#000000"), (role.PlaceholderText, "#A0A0A0")):
            palette.setColor(r, QColor(colour))
    else:
        palette = app.style().standardPalette()
        palette.setColor(QPalette.ColorRole.WindowText, QColor("#000000"))
        palette.setColor(QPalette.ColorRole.Text, QColor("#000000"))
    app.setPalette(palette)
