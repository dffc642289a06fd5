"""Tab pages built the first time they are shown or asked for.

Building the Head roles, Real heads and Training tabs took about 0.4 s of a 1.8 s start,
for tabs a user may never open. Each starts as an empty placeholder page; the real widget
is made when its tab becomes current (one event-loop turn later, not inside the tab
widget's own signal) or when code asks for it (widget(key)), and it takes the
placeholder's index and text, so indexOf / setCurrentWidget on it work as for any page.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, QTimer, Signal, Slot
from PySide6.QtWidgets import QTabWidget, QWidget
from superqt.utils import signals_blocked


class LazyTabs(QObject):
    """Placeholders in `tabs` for pages made by factories; `built(key, widget)` once each."""

    built = Signal(str, object)

    def __init__(self, tabs: QTabWidget):
        super().__init__(tabs)
        self.tabs = tabs
        self._factories: dict[str, Callable[[], QWidget]] = {}
        self._pages: dict[str, QWidget] = {}
        self._built: set[str] = set()
        self._closed = False
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self._build_current)
        tabs.currentChanged.connect(self._on_current)

    def add(self, key: str, factory: Callable[[], QWidget]) -> QWidget:
        """A placeholder tab for `key`, built later by factory() (which must not add it)."""
        placeholder = QWidget(objectName=f"{key}Placeholder")
        self._factories[key] = factory
        self._pages[key] = placeholder
        self.tabs.addTab(placeholder, "")
        return placeholder

    def page(self, key: str) -> QWidget:
        """The tab's current page: the placeholder until built, then the widget."""
        return self._pages[key]

    def is_built(self, key: str) -> bool:
        return key in self._built

    def built_widgets(self) -> dict[str, QWidget]:
        return {key: self._pages[key] for key in self._built}

    def widget(self, key: str) -> QWidget:
        """The real widget for `key`, built now if it was not yet."""
        if key not in self._built:
            self._build(key)
        return self._pages[key]

    def _build(self, key: str) -> None:
        placeholder = self._pages[key]
        widget = self._factories[key]()
        self._built.add(key)
        tabs = self.tabs
        index = tabs.indexOf(placeholder)
        current = tabs.currentIndex()
        with signals_blocked(tabs):
            tabs.insertTab(index, widget, tabs.tabText(index))
            widget.setToolTip(placeholder.toolTip())
            tabs.removeTab(index + 1)
            tabs.setCurrentIndex(current)
        self._pages[key] = widget
        placeholder.deleteLater()
        self.built.emit(key, widget)

    @Slot(int)
    def _on_current(self, _index: int) -> None:
        if self.tabs.currentWidget() in self._placeholders().values():
            self._timer.start()

    def close(self) -> None:
        """The window closes: a tab shown but not built yet is never built (its workers would
        start after the window's close had stopped the others)."""
        self._closed = True
        self._timer.stop()

    @Slot()
    def _build_current(self) -> None:
        if self._closed:
            return
        page = self.tabs.currentWidget()
        for key, placeholder in self._placeholders().items():
            if placeholder is page:
                self._build(key)

    def _placeholders(self) -> dict:
        return {key: page for key, page in self._pages.items() if key not in self._built}
