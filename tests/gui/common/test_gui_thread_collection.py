"""Cyclic garbage is collected on the GUI thread only (gui.common.qt_lifetime).

A widget in a reference cycle that the collector frees on a worker thread has its C++ side
destroyed there, while the GUI thread may be walking the application's widget list."""
import gc
import threading

from PySide6.QtWidgets import QWidget

from gui.common.qt_lifetime import GuiThreadCollector, collect_on_gui_thread


class Cyclic:
    def __init__(self):
        self.me = self


def collections_by_thread(action) -> list[str]:
    """The names of the threads that ran a collection while `action()` ran."""
    seen = []

    def note(phase, _info):
        if phase == "start":
            seen.append(threading.current_thread().name)

    gc.callbacks.append(note)
    try:
        action()
    finally:
        gc.callbacks.remove(note)
    return seen


def allocate_on_a_worker() -> None:
    """Many cyclic objects made on another thread: enough to pass every threshold."""
    def work():
        for _ in range(20 * gc.get_threshold()[0]):
            Cyclic()

    worker = threading.Thread(target=work, name="worker")
    worker.start()
    worker.join(30)
    assert not worker.is_alive()


def test_the_app_collects_on_the_gui_thread_only(qapp):
    assert collect_on_gui_thread(qapp) is collect_on_gui_thread(qapp)   # one per process
    assert not gc.isenabled()
    assert "worker" not in collections_by_thread(allocate_on_a_worker)


def test_due_generations_are_collected_when_the_timer_fires(qapp, qtbot):
    collector = collect_on_gui_thread(qapp)
    for _ in range(3 * gc.get_threshold()[0]):
        Cyclic()
    assert gc.get_count()[0] > gc.get_threshold()[0]
    seen = collections_by_thread(lambda: qtbot.wait(3 * GuiThreadCollector.INTERVAL_MS))
    assert seen and set(seen) == {threading.main_thread().name}
    assert gc.get_count()[0] <= gc.get_threshold()[0]
    assert collector is not None


def test_a_widget_in_a_cycle_is_freed_by_the_gui_thread(qapp, qtbot):
    import weakref

    widget = QWidget()
    widget.me = widget
    ref = weakref.ref(widget)
    del widget
    allocate_on_a_worker()
    qtbot.waitUntil(lambda: ref() is None, timeout=3000)


def test_uninstall_gives_back_automatic_collection(qapp):
    collector = GuiThreadCollector()
    enabled = gc.isenabled()
    gc.enable()
    try:
        collector.install()
        assert not gc.isenabled()
        collector.uninstall()
        assert gc.isenabled()
    finally:
        (gc.enable if enabled else gc.disable)()
        collector.deleteLater()
