"""Help → How to read this window and Help → Keyboard shortcuts: one reused dialog.

The shortcut list is read from the window's actions and shortcuts, so it follows whatever
they are bound to; the reading guide names every panel and bottom tab.
"""
from __future__ import annotations

import html

from PySide6.QtCore import QEvent
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QTextBrowser, QVBoxLayout

from gui.common.guard import guarded
from gui.common.i18n import tr


def native(sequence: QKeySequence) -> str:
    return sequence.toString(QKeySequence.SequenceFormat.NativeText)


def shortcut_rows(actions: list[QAction], lesson_shortcuts, lesson_slots) -> list[tuple[str, str]]:
    """(keys, what they do) for every bound action, then the lesson keys and Esc.

    `lesson_shortcuts` are QShortcut objects and `lesson_slots` what they do, in the same
    order (gui.window.lesson_keys.LessonKeys.slots)."""
    rows = []
    for action in actions:
        keys = [native(k) for k in action.shortcuts()]
        if keys and action.text():
            rows.append((", ".join(keys), action.text().replace("&", "")))
    meaning = {"next": tr("Next lesson step"), "back": tr("Previous lesson step"),
               "next_arrow": tr("Next lesson step, unless a slider, box or text field has "
                                "the focus"),
               "back_arrow": tr("Previous lesson step, unless a slider, box or text field "
                                "has the focus"),
               "toggle_blank": tr("Blank the screen"),
               "on_escape": tr("Leave presentation or blank")}
    keys: dict[str, list[str]] = {}
    for shortcut, slot in zip(lesson_shortcuts, lesson_slots):
        keys.setdefault(slot, []).append(native(shortcut.key()))
    keys["on_escape"] = ["Esc"]
    rows += [(", ".join(k), meaning[slot]) for slot, k in keys.items()]
    return rows


def shortcuts_html(rows: list[tuple[str, str]]) -> str:
    cells = "".join(f"<tr><td><b>{html.escape(k)}</b></td><td>{html.escape(t)}</td></tr>"
                    for k, t in sorted(rows, key=lambda r: r[1]))
    return f"<table cellpadding='4'>{cells}</table>"


def about_text() -> str:
    """The About box's text."""
    return tr("Attention Lab shows why attention divides scores by √d_k and how multi-head "
              "attention works: every head reads all of X and projects it with its own "
              "d_model × d_k blocks of W_Q, W_K and W_V; only the width budget d_model = h·d_k "
              "is divided among the h heads. Every number is computed live.")


def how_to_read_html() -> str:
    items = [tr("<b>Left:</b> the controls. d_k is the width of q and k; h heads of width "
                "d_k make d_model = h·d_k. Lock keeps d_model fixed."),
             tr("<b>Four lengths:</b> the scores (2–16 numbers for the softmax demo), keys n "
                "(scores per softmax in the saturation study), tokens (rows of X in the "
                "multi-head diagram) and the sequence length (only for counting the cost)."),
             tr("<b>Scaling:</b> softmax, the variance of q·k and saturation against d_k, side "
                "by side (one at a time at large text)."),
             tr("<b>Softmax:</b> your scores through softmax, raw and ÷√d_k; the legend gives "
                "their colours, which follow the palette."),
             tr("<b>Variance of q·k:</b> sampled q·k for random q and k; its variance grows "
                "like d_k, and ÷√d_k brings it back to σ⁴."),
             tr("<b>Saturation vs d_k:</b> how one-hot softmax gets, and how small its "
                "gradient, as d_k grows, with and without ÷√d_k."),
             tr("<b>Multi-head:</b> every head projects all of X with its own W_Q, W_K, W_V, "
                "attends, and the concatenated outputs go through W_O."),
             tr("<b>Cost:</b> FLOPs and parameters of one layer, one head against h heads."),
             tr("<b>Head roles (in Multi-head):</b> six heads over a sentence you type, built from "
                "token rules or random, and their average; each map is queries down, keys "
                "across."),
             tr("<b>Real heads:</b> every layer and head of a pretrained model "
                "(MiniLM, fetched once, or a model folder you open) on the same sentence, each "
                "scored by role."),
             tr("<b>Training lab:</b> tiny models trained live in a separate process: "
                "with and without ÷√d_k, heads that find their own roles, and thin heads "
                "against one wide head."),
             tr("<b>Lesson (bottom):</b> step by step; PageDown/PageUp move, ▶ Play animates. "
                "Every number is computed live from the current settings.")]
    return "<p>" + "</p><p>".join(items) + "</p>"


class HelpDialog(QDialog):
    """A non-modal page of help text, reused for every help topic."""

    def __init__(self, parent):
        super().__init__(parent, objectName="helpDialog")
        self.setLayout(QVBoxLayout())
        self.browser = QTextBrowser(objectName="helpText")
        self.layout().addWidget(self.browser)

    def show_page(self, title: str, html_text: str) -> None:
        self.setWindowTitle(title)
        self.browser.setHtml(html_text)
        self.fit_to_text_size()
        self.show()

    @guarded
    def changeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        if event.type() == QEvent.Type.FontChange and self.isVisible():   # Ctrl+= / Ctrl+-
            self.fit_to_text_size()
        super().changeEvent(event)

    def fit_to_text_size(self) -> None:
        """About 64 characters by 26 lines of the current text size, within the screen."""
        metrics = self.browser.fontMetrics()
        width, height = 64 * metrics.averageCharWidth(), 26 * metrics.lineSpacing()
        screen = (self.parentWidget() or self).screen()
        if screen is not None:
            room = screen.availableGeometry()
            width, height = min(width, room.width() - 40), min(height, room.height() - 80)
        self.resize(max(width, 320), max(height, 240))
