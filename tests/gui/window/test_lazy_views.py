"""The Head roles, Real heads and Training views are built when their workspace is first
shown or when asked for (gui/window/lazy_views.py), and then behave as if they had been
there from the start."""
from PySide6.QtWidgets import QApplication

from gui.common import names
from gui_helpers import forward_pids
from tab_fixtures import in_thread_forward  # noqa: F401 (a fixture)


def test_start_builds_no_view_and_runs_no_view_worker(window):
    assert window.lazy_views.built_widgets() == {}
    # every study is the controller's from the start; none has a process or a download
    controller = window.controller
    assert window.studies == (window.model.cycle, window.heads_study,
                              controller.training_runner, controller.real_heads_study,
                              controller.model_fetcher, controller.pruning_study)
    assert not controller.training_runner.is_running()
    assert not controller.model_fetcher.is_running()
    assert forward_pids() == set()                  # nor the Real heads forward process
    names_offered = window.files.exportable_names()
    assert names.HEAD_GRID in names_offered and names.TRAIN_LOSS in names_offered
    assert names.MODEL_PRUNE in names_offered
    assert window.lazy_views.built_widgets() == {}  # listing the exports built nothing


def test_showing_a_workspace_builds_its_view_in_place(window, qtbot):
    tabs = window.workspace_tabs
    texts = [tabs.tabText(i) for i in range(tabs.count())]
    page = window.lazy_views.page(names.TRAINING_PANEL)
    index = tabs.indexOf(page)
    tabs.setCurrentIndex(index)
    qtbot.waitUntil(lambda: window.lazy_views.is_built(names.TRAINING_PANEL))
    assert tabs.currentWidget() is page and page.widget() is window.training_tab
    assert tabs.indexOf(page) == index
    assert [tabs.tabText(i) for i in range(tabs.count())] == texts
    assert window.training_tab.runner is window.controller.training_runner
    assert not window.lazy_views.is_built(names.MODEL_HEADS)
    assert not window.lazy_views.is_built(names.HEADS_PANEL)


def test_the_multi_head_workspace_builds_the_head_roles(window, qtbot):
    window.workspace_tabs.setCurrentWidget(window.lazy_views.page(names.HEADS_PANEL))
    qtbot.waitUntil(lambda: window.lazy_views.is_built(names.HEADS_PANEL))
    assert window.head_roles_tab.parent() is window.area.heads_holder


def test_real_heads_built_late_gets_the_hand_built_heads(window, qtbot):
    window.head_roles_tab.wait_idle()
    # the head-roles study's result, which the window keeps for the Real heads tab
    qtbot.waitUntil(lambda: window.head_roles_tab.view.newest_results is not None)
    tab = window.model_heads               # built now, after the head-roles result arrived
    assert tab.hand_heads is not None
    assert window.workspace_tabs.indexOf(window.lazy_views.page(names.MODEL_HEADS)) == 3
    assert {tab.study, tab.fetcher} <= set(window.studies)


def test_asking_for_a_view_keeps_the_current_workspace(window):
    tabs = window.workspace_tabs
    current = tabs.currentWidget()
    window.training_tab
    window.model_heads
    assert tabs.currentWidget() is current
    assert set(window.lazy_views.built_widgets()) == {names.HEADS_PANEL, names.MODEL_HEADS,
                                                      names.TRAINING_PANEL}


def test_closing_before_a_shown_view_is_built_builds_nothing(window, in_thread_forward):
    window.workspace_tabs.setCurrentWidget(window.lazy_views.page(names.MODEL_HEADS))
    window.close()
    QApplication.processEvents()
    try:
        assert not window.lazy_views.is_built(names.MODEL_HEADS)
    finally:
        tab = window.built_tab(names.MODEL_HEADS)
        if tab is not None:
            tab.shutdown()      # what the window's close did not stop
