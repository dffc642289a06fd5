"""Classroom sizes (issue 10): at 300 % text on 1366×768 and 1280×720 the lesson strip is
compact, so the plots keep more than half of the window, and the step's whole text (title
included) stays reachable by scrolling."""
import itertools

import pytest
from PySide6.QtWidgets import QApplication

from gui.lessons import STEPS, step_text
from gui_helpers import settle, settle_layout, text_problems

SMALL_SCREENS = ((1366, 768), (1280, 720))
#: The share of the window's height the panels keep beside the compact strip. In
#: presentation mode the text is 25 % larger and the menu and status bar take 16 % of
#: 720 px, so the strip's two text lines leave the panels half of the window.
PANEL_SHARE = {False: 0.55, True: 0.50}


def wait_layout(window, qtbot, rounds: int = 6) -> None:
    for _ in range(rounds):
        QApplication.processEvents()
        qtbot.wait(15)


def walk_steps(window, qtbot, size, presentation):
    """(step, its title) for each step at `size`, the strip fitted to it."""
    window.set_presentation(presentation)
    window.resize(*size)
    window.set_lesson_visible(True)
    wait_layout(window, qtbot)
    for i, step in enumerate(STEPS):
        window.lesson.go_to(i)
        settle(window)
        window.lesson.refresh_text()
        wait_layout(window, qtbot)
        yield step, step_text(step.key)[0]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_compact_strip_leaves_the_plots_most_of_a_small_screen(window, qtbot, restore_view,
                                                                   lang):
    window.switch_language(lang)
    window.set_ui_scale(3.0)
    lesson = window.lesson
    short = {}
    for size, presentation in itertools.product(SMALL_SCREENS, (False, True)):
        for step, title in walk_steps(window, qtbot, size, presentation):
            assert lesson.compact, (size, presentation)
            assert not lesson.title_label.isVisible()
            view = lesson.text_view
            shown = view.toPlainText()
            # nothing hidden for good: the title heads the text, the whole body follows it
            number = lesson.step_label.text()
            assert number == f"Step {STEPS.index(step) + 1} / {len(STEPS)}" or lang == "ja"
            if lesson.number_in_text:     # too narrow for the number beside the buttons
                assert not lesson.step_label.isVisible()
                assert shown.startswith(f"{number} · {title}"), (step.key, shown[:40])
            else:
                assert lesson.step_label.isVisible()
                assert shown.startswith(title), (step.key, shown[:40])
            assert lesson.text() and shown.endswith(lesson.text())
            bar = view.verticalScrollBar()
            assert bar.maximum() + view.viewport().height() >= view.document().size().height() - 1
            assert bar.value() == 0, step.key                     # read from its title
            assert window.lesson_scroll.horizontalScrollBar().maximum() == 0, (
                step.key, size, presentation, window.width(), lesson.minimumSizeHint().width())
            if step.grid:            # beside the layers picture the strip scrolls instead
                continue
            assert window.lesson_scroll.verticalScrollBar().maximum() == 0, step.key
            share = window.panel_area.height() / window.height()
            if share < PANEL_SHARE[presentation]:
                short[(size, presentation, step.key)] = round(share, 3)
            # the text shows whole lines, at least two
            inner = view.height() - 2 * view.frameWidth()
            assert inner >= 2 * view.fontMetrics().lineSpacing(), step.key
            if bar.maximum() > 0:
                assert view.whole_lines_height(inner) == inner, step.key
    assert not short, short


def test_a_large_window_keeps_the_title_row(window, qtbot, restore_view):
    """At 1920×1080 (300 %) and at 100 % on 1280×720 the strip keeps its title row; back
    on a small screen at 300 % it turns compact, and Ctrl+0 brings the title row back."""
    lesson = window.lesson
    window.set_ui_scale(3.0)
    for step, title in walk_steps(window, qtbot, (1920, 1080), False):
        assert not lesson.compact
        assert lesson.title_label.isVisible() and title in lesson.title_label.toolTip()
        assert not lesson.text_view.toPlainText().startswith(title)
        break
    window.resize(1280, 720)
    wait_layout(window, qtbot)
    assert lesson.compact and lesson.text_view.toPlainText().startswith(title)
    window.zoom_reset()
    wait_layout(window, qtbot)
    assert not lesson.compact and lesson.title_label.isVisible()
    assert not lesson.text_view.toPlainText().startswith(title)


def test_the_offset_and_gap_sliders_sit_beside_the_compact_text(window, qtbot, restore_view):
    window.set_ui_scale(3.0)
    saturate = next(i for i, s in enumerate(STEPS) if s.offset_gap)
    window.resize(1280, 720)
    window.set_lesson_visible(True)
    window.lesson.go_to(saturate)
    settle(window)
    wait_layout(window, qtbot)
    lesson = window.lesson
    assert lesson.compact and lesson.offset_gap.isVisible()
    text, sliders = lesson.text_view.geometry(), lesson.offset_gap.geometry()
    assert sliders.left() >= text.right() and sliders.top() < text.bottom()
    assert lesson.offset_slider.width() > 3 * lesson.fontMetrics().lineSpacing()
    assert window.panel_area.height() >= PANEL_SHARE[False] * window.height()


# -- Head roles at 300 % -------------------------------------------------------------------

def show_bottom_tab(window, qtbot, tab):
    """`tab` (a bottom tab's widget) in front, its row or page shown, its study idle."""
    from gui import panel_names as names
    from gui.main_window import ROWS, SINGLE, SINGLE_PAGES

    if window.layout_mode == SINGLE:
        window.panel_tabs.setCurrentIndex(SINGLE_PAGES.index(names.MULTIHEAD))
    elif window.layout_mode == ROWS:
        window.row_tabs.setCurrentIndex(1)
    window.bottom_tabs.setCurrentWidget(tab)
    assert tab.wait_idle()
    wait_layout(window, qtbot)
    return tab


def show_heads_tab(window, qtbot):
    panel = show_bottom_tab(window, qtbot, window.heads_panel)
    settle_layout([panel.view], rounds=6)
    panel.view.grab()                    # the token axes record the labels they paint
    return panel


def mid_word_breaks(title) -> list[str]:
    """The lines of a wrapped map title that start inside a word (English, or a glued
    Japanese run)."""
    from gui.panels.text_fit import WORD_JOINER

    document = title.item.document()
    text = document.toPlainText()
    found = []
    block = document.begin()
    while block.isValid():
        layout = block.layout()
        for i in range(1, layout.lineCount()):
            start = block.position() + layout.lineAt(i).textStart()
            pair = text[max(0, start - 1):start + 1]
            if WORD_JOINER in pair or (len(pair) == 2 and pair.isascii() and pair.isalpha()):
                found.append(text.replace(WORD_JOINER, "")[:30])
        block = block.next()
    return found


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_head_roles_stay_readable_at_300_percent(window, qtbot, restore_view, lang):
    from test_gui_text_overlap import clipped_widgets

    window.switch_language(lang)
    window.set_ui_scale(3.0)
    found = {}
    for size in ((1366, 768), (1280, 720), (1920, 1080)):
        window.resize(*size)
        wait_layout(window, qtbot)
        panel = show_heads_tab(window, qtbot)
        view = panel.view
        problems = clipped_widgets(panel)
        combo = panel.mode_combo
        if combo.width() < combo.sizeHint().width():
            problems.append(f"token mode box {combo.width()} px of {combo.sizeHint().width()}")
        for title in view.titles:
            problems += [f"title broken inside a word: {t!r}" for t in mid_word_breaks(title)]
        for axis in view.token_axes:
            if not axis.isVisible():
                continue
            inside = axis.boundingRect().adjusted(-1, -1, 1, 1)
            problems += [f"{axis.orientation} label cut: {text!r}"
                         for text, box in axis.drawn if not inside.contains(box)]
        problems += text_problems(view, tolerance=window.ui_scale)
        if problems:
            found[size] = problems
    assert not found, found


def test_japanese_titles_wrap_between_words():
    from gui.panels.text_fit import WORD_JOINER, glue_words

    glued = glue_words("直前のトークン")
    assert glued.replace(WORD_JOINER, "|") == "直|前|の" + "ト|ー|ク|ン"
    assert glue_words("同じ単語").replace(WORD_JOINER, "|") == "同|じ単|語"
    assert glue_words("previous token") == "previous token"


# -- Real heads: the variance table ---------------------------------------------------------

@pytest.fixture
def twelve_layers(tmp_path, monkeypatch):
    import sys
    from pathlib import Path

    monkeypatch.setenv("ATTENTION_LAB_CACHE", str(tmp_path / "cache"))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
    from tiny_models import write_bert

    return write_bert(tmp_path / "bert-12", layers=12, heads=4, d_model=64)


def show_model_tab(window, qtbot):
    return show_bottom_tab(window, qtbot, window.model_heads)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_variance_table_fits_the_real_heads_tab(window, qtbot, restore_view, twelve_layers,
                                                    lang):
    from PySide6.QtGui import QTextDocument

    window.switch_language(lang)
    tab = window.model_heads
    tab.add_model_folder(str(twelve_layers))
    for scale, size, by_rows in ((3.0, (1366, 768), True), (3.0, (1280, 720), True),
                                 (1.0, (1920, 1080), False)):
        window.set_ui_scale(scale)
        window.resize(*size)
        wait_layout(window, qtbot)
        tab = show_model_tab(window, qtbot)
        assert tab.result is not None and tab.result.layers == 12
        label, area = tab.variance_label, tab.text_scroll
        assert label.isVisible()
        assert ("L11" in label.text()) and (label.text().count("<tr>") == (13 if by_rows else 3)), \
            (scale, size)
        document = QTextDocument()
        document.setDefaultFont(label.font())
        document.setHtml(label.text())
        document.setTextWidth(label.width())
        assert document.idealWidth() <= label.width() + 1, (scale, size)     # nothing cut
        assert label.width() <= area.viewport().width(), (scale, size)
        assert area.horizontalScrollBar().maximum() == 0, (scale, size)


# -- an axis renamed at the same size --------------------------------------------------------

def test_a_renamed_axis_keeps_its_name_centred(window, qtbot):
    """pyqtgraph centres an axis name only when the axis is resized: the cost panel's switch
    from the short FLOP name to the long one at the same size left the long name where the
    short one went, over the title (the text-overlap test run alone, Japanese, 150 %)."""
    from gui import panel_names as names

    window.resize(1920, 1080)
    settle(window)
    panel = window.panels[names.COST]
    axis = panel.plot.getAxis("left")
    wait_layout(window, qtbot)
    for name in ("F", "a much longer name of this axis"):
        panel.plot.setLabel("left", name, units="FLOP")      # no resize
        panel.minimum_height.request()
        wait_layout(window, qtbot)
        label = axis.label
        rect = label.mapRectToParent(label.boundingRect())
        assert abs(rect.center().y() - axis.size().height() / 2) <= 2, (name, rect.getRect())
    panel._shown.pop((axis, "label"), None)     # the panel names its axis again
    panel.redraw()


# -- the first grab after a text-size change ---------------------------------------------------

@pytest.mark.parametrize("size, lang", [((1366, 768), "ja"), ((1920, 1080), "en"),
                                        ((2560, 1440), "ja")])
def test_the_first_grab_after_a_text_size_change_shows_every_tick_label(window, restore_view,
                                                                         size, lang):
    """An axis lays its tick labels out when painted, drops those outside its rectangle,
    sizes itself to them afterwards, and (DeviceCoordinateCache) shows its cached pixmap
    until it changes: the first grab after a new text size must equal a grab whose axes
    were all laid out afresh at their present size."""
    import pyqtgraph as pg

    window.resize(*size)
    window.switch_language(lang)
    settle(window)
    window.grab()
    window.set_ui_scale(3.0)
    settle(window)
    window.grab()
    shown = [panel for panel in window.panels.values() if panel.isVisible()]
    assert shown
    first = {panel.objectName(): panel.grab().toImage() for panel in shown}
    for panel in shown:
        for item in panel.scene().items():
            if isinstance(item, pg.AxisItem):
                item.picture = None            # lay the ticks out again when painted
                item.update()
    stale = [panel.objectName() for panel in shown
             if panel.grab().toImage() != first[panel.objectName()]]
    assert not stale, stale
