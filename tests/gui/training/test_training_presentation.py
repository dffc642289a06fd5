"""The Training tab on a classroom projector (issue 31): in presentation mode at 300 % text
it fits the visible workspace of a 1280×720 screen, before and after a run, in English and
Japanese, on every view one can pick; its plots' data take the share of it the projector
walk asks for (tests/gui/projector_walk.py), their texts neither overlap nor leave their
view, no legend lies on the data and no label or button is cut. Windowed, the same tab
keeps its controls above the progress and the curves beside the other plots."""
import pyqtgraph as pg
import pytest
from PySide6.QtWidgets import QApplication

from gui.state import AppState
from gui.state.app_state import TrainingSettings
from gui.training.runner import TrainingRunner, config_from_options, options_from_config
from gui_helpers import clipped_widgets, settle_layout_until_stable, text_problems
from projector_walk import DATA_SHARE_H, DATA_SHARE_W, data_rect, texts_on_data
from small_runs import show_run
from tab_fixtures import dispose

#: The visible workspace of presentation mode at 300 % text on a 1280×720 screen (the
#: projector walk measures 1270×443 and 1256×443 there; the lesson strip takes the rest).
WORKSPACE = (1256, 440)
SCALE = 3.0
#: The views of each experiment: the curves, and its pages of the plots' tabs.
VIEWS = {"scaling": 1, "roles": 3, "heads": 4}


@pytest.fixture
def presenting(qtbot):
    """make(language) → a Training tab of its own AppState in presentation mode at 300 %
    text, shown at WORKSPACE; the application's font as the window sets it (the base size ×
    the text scale), put back afterwards with the language."""
    from gui.common.i18n import set_language
    from gui.training.tab import TrainingTab

    font = QApplication.font()
    tabs = []

    def make(language: str = "en"):
        set_language(language)
        scaled = QApplication.font()
        scaled.setPointSizeF(font.pointSizeF() * SCALE)
        QApplication.setFont(scaled)
        state = AppState()
        state.update_view(presentation=True, text_scale=SCALE, language=language)
        tab = TrainingTab(state, TrainingRunner())
        qtbot.addWidget(tab)
        tab.resize(*WORKSPACE)
        tab.show()
        tabs.append(tab)
        return tab

    yield make
    for tab in tabs:
        tab.runner.shutdown()
        dispose(tab)
    QApplication.setFont(font)
    set_language("en")


def choose(tab, experiment: str) -> None:
    options = options_from_config(config_from_options(experiment, {}))
    tab.state.set_training(TrainingSettings(experiment, options))


def settled_plots(tab) -> list:
    QApplication.processEvents()
    plots = [p for p in tab.findChildren(pg.GraphicsView) if p.isVisible()]
    settle_layout_until_stable(plots)
    QApplication.processEvents()
    return plots


def problems_on_screen(tab) -> list:
    """What the projector walk would find wrong with the tab as it is shown now."""
    plots = settled_plots(tab)
    width, height = WORKSPACE
    found = []
    needed = tab.minimumSizeHint()
    if needed.width() > width or needed.height() > height:
        found.append(f"needs {needed.width()}×{needed.height()} px (it would scroll)")
    data = data_rect(tab)
    if data is None or data.height() < DATA_SHARE_H * height or \
            data.width() < DATA_SHARE_W * width:
        found.append(f"data area {data.size().toTuple() if data else None}")
    for plot in plots:
        found += [f"{plot.objectName()}: {p}" for p in text_problems(plot, SCALE)]
        found += texts_on_data(plot)
    found += [f"cut: {p}" for p in clipped_widgets(tab)]
    return found


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_view_fits_a_720p_projector_at_300_percent(presenting, language):
    tab = presenting(language)
    found = {}
    for experiment in ("roles", "heads", "scaling"):
        choose(tab, experiment)
        for run in ("before a run", "after a run"):
            if run == "after a run":
                show_run(tab, experiment)
            problems = problems_on_screen(tab)        # the view the tab opens on
            if problems:
                found[experiment, run, "first"] = problems
                continue
            views = [tab.view_combo.itemData(i) for i in range(tab.view_combo.count())]
            assert views[0] == "curves" and len(views) == VIEWS[experiment], views
            for view in views:
                tab.view_combo.setCurrentIndex(tab.view_combo.findData(view))
                problems = problems_on_screen(tab)
                if problems:
                    found[experiment, run, view] = problems
        tab._forget_run()
    assert not found, found


def test_the_controls_stand_in_one_row_and_the_status_only_for_a_failure(presenting):
    tab = presenting()
    choose(tab, "roles")
    settled_plots(tab)
    row = [tab.combo, tab.view_combo, tab.start_button, tab.stop_button, tab.progress]
    assert all(w.isVisible() for w in row)
    assert len({w.geometry().center().y() for w in row}) == 1
    assert not tab.status.isVisible()          # the plots' notes say what to press
    assert not tab.right.tabBar().isVisible()  # the view box picks the page instead
    assert not tab.start("heads", {"heads": "3", "d_model": 32})
    assert tab.status.isVisible() and "divide" in tab.status.text()


def test_side_by_side_where_the_projector_is_wide(presenting):
    """On a 1920×1080 projector at 300 % the curves and the other plots both show, the
    plots' own tab bar picks the page; back in a window the tab is as it was."""
    tab = presenting()
    tab.resize(1906, 640)
    choose(tab, "heads")
    settled_plots(tab)
    assert tab.curves.isVisible() and tab.chart.isVisible()
    assert tab.right.tabBar().isVisible() and not tab.view_combo.isVisible()
    assert tab.curves.shown_metrics() == ("loss", "accuracy")
    tab.state.update_view(presentation=False)
    settled_plots(tab)
    assert tab.curves.isVisible() and tab.chart.isVisible() and tab.status.isVisible()
    assert len(tab.curves.shown_metrics()) == 4 and tab.curves.title.scene() is not None
