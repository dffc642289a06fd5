""""Plots catching up": shown while the plots still show older Params than the controls.

The controls render AppState at once; the plots render the simulation study's newest
Results, which can lag during a drag (a slow compute, d_k = 16 384). After
CATCH_UP_DELAY_MS of lag the marker names the d_k and h the plots still show; it goes
as soon as the shown Results' Params equal AppState's, or when the compute fails (the
status bar says why). It sits in a row of fixed height, two lines of the current font,
so showing, hiding or rewording it never moves the controls below it.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QTimer, Slot
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from gui.common.guard import guarded, listener
from gui.common.i18n import tr

CATCH_UP_DELAY_MS = 150        # a shorter lag is not marked (it would flicker on every change)


class CatchingUpMarker(QWidget):
    """The marker row; `label` is the text (objectName plotsCatchingUp)."""

    def __init__(self, model, parent=None):
        super().__init__(parent)
        self.model = model
        self.label = QLabel(objectName="plotsCatchingUp")
        self.label.setWordWrap(True)
        self.label.setStyleSheet("color: #8A6D00; font-style: italic;")
        self.label.hide()
        row = QVBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label)
        self._timer = QTimer(self, singleShot=True, interval=CATCH_UP_DELAY_MS)
        self._timer.timeout.connect(self._show)
        model.state.events.params.connect(self._on_change)
        model.results_ready.connect(self._on_change)
        model.compute_failed.connect(self._on_failed)
        self._fit()
        self.retranslate()
        self.check()

    def plots_behind(self) -> bool:
        """Whether the plots show other Params than the controls (a result still coming)."""
        results = self.model.results
        return results is None or results.params != self.model.params

    def check(self) -> None:
        if not self.plots_behind():
            self._timer.stop()
            self.label.hide()
            self._set_text()           # the next time it shows, its text is already laid out
        elif not self.label.isHidden():
            self._set_text()
        elif not self._timer.isActive():
            self._timer.start()

    def retranslate(self) -> None:
        self.label.setToolTip(tr(
            "The controls show the newest settings; the plots are still computing them and "
            "show the values named here until the result arrives"))
        self._set_text()

    def _set_text(self) -> None:
        results = self.model.results
        text = tr("plots catching up…") if results is None else tr(
            "plots catching up: they still show d_k = {dk}, h = {h}").format(
            dk=results.params.dk, h=results.params.heads)
        if self.label.text() != text:
            self.label.setText(text)

    def _fit(self) -> None:
        self.setFixedHeight(2 * self.label.fontMetrics().lineSpacing() + 2)

    @Slot(object)
    @listener
    def _on_change(self, _value) -> None:
        self.check()

    @Slot()
    def _show(self) -> None:
        if self.plots_behind():
            self._set_text()
            self.label.show()

    @Slot(str)
    def _on_failed(self, _message: str) -> None:
        self._timer.stop()
        self.label.hide()

    @guarded
    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() in (QEvent.Type.FontChange, QEvent.Type.ApplicationFontChange):
            self._fit()
        super().changeEvent(event)
