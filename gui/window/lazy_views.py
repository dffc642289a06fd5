"""Views built the first time their workspace is shown, or when code asks for them.

The Head roles, Real heads and Training views start as an empty holder: a QScrollArea that
is a workspace page of its own, or a holder widget inside a workspace page. The real widget
is made when that page becomes the current one (one event-loop turn later, not inside the
tab widget's own signal) or when code asks for it (widget(key)), and goes into its holder,
so the page, its index and its tab text never change.

    LazyViews(tabs)                      tabs: the QTabWidget of the workspaces
        add(key, factory, holder, page)  holder: a QScrollArea (the widget is set in it) or
                                         a widget with a layout (the widget is added to it);
                                         page: the tabs' page whose showing builds it
        page(key) -> QWidget             the page that shows the view
        widget(key) -> QWidget           the view, built now if it was not
        is_built(key), built_widgets()
        built(key, widget)               a signal, once per view
        close()                          nothing is built after the window's close
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, QTimer, Signal, Slot
from PySide6.QtWidgets import QScrollArea, QTabWidget, QWidget


class LazyViews(QObject):
    """Views made by factories the first time their page is shown (module docstring)."""

    built = Signal(str, object)

    def __init__(self, tabs: QTabWidget):
        super().__init__(tabs)
        self.tabs = tabs
        self._factories: dict[str, Callable[[], QWidget]] = {}
        self._holders: dict[str, QWidget] = {}
        self._pages: dict[str, QWidget] = {}
        self._widgets: dict[str, QWidget] = {}
        self._closed = False
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self._build_current)
        tabs.currentChanged.connect(self._on_current)

    def add(self, key: str, factory: Callable[[], QWidget], holder: QWidget,
            page: QWidget) -> None:
        """`factory()` makes the view for `key` (it must not place it); it goes into
        `holder` when `page` is first shown or widget(key) is asked."""
        self._factories[key] = factory
        self._holders[key] = holder
        self._pages[key] = page

    def page(self, key: str) -> QWidget:
        return self._pages[key]

    def is_built(self, key: str) -> bool:
        return key in self._widgets

    def built_widgets(self) -> dict[str, QWidget]:
        return dict(self._widgets)

    def widget(self, key: str) -> QWidget:
        """The view for `key`, built now if it was not yet."""
        if key not in self._widgets:
            self._build(key)
        return self._widgets[key]

    def _build(self, key: str) -> None:
        widget = self._factories[key]()
        self._widgets[key] = widget
        holder = self._holders[key]
        if isinstance(holder, QScrollArea):
            holder.setWidget(widget)
        else:
            holder.layout().addWidget(widget)
        self.built.emit(key, widget)

    @Slot(int)
    def _on_current(self, _index: int) -> None:
        if any(self._pages[key] is self.tabs.currentWidget() for key in self._waiting()):
            self._timer.start()

    def close(self) -> None:
        """The window closes: a view shown but not built yet is never built (its workers
        would start after the window's close had stopped the others)."""
        self._closed = True
        self._timer.stop()

    @Slot()
    def _build_current(self) -> None:
        if self._closed:
            return
        page = self.tabs.currentWidget()
        for key in self._waiting():
            if self._pages[key] is page:
                self._build(key)

    def _waiting(self) -> list[str]:
        return [key for key in self._factories if key not in self._widgets]
