"""Readable at classroom sizes (issue 10): 300 % text on 1366×768 and 1280×720, windowed
and in presentation mode.

The lesson strip turns compact, so the plots keep more than half of the window, and the
step's whole text (title included) stays reachable by scrolling; the head roles, the Real
heads variance table and renamed axes stay readable. The multi-head diagram at 300 % on
1280×720 draws most heads and always says how many it leaves out, with a bounded minimum
height; the saturation panel in presentation mode keeps its plot in view beside its key;
the lesson dock's title bar is one small line."""
import itertools

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QFontMetrics
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from gui.common import names
from gui.lessons.steps import STEPS, step_text
from gui.panels import multihead_view
from gui.panels.multihead_layout import diagram_layout, needed_height
from gui.panels.multihead_view import MINIMUM_VIEW_LINES, not_drawn_text
from gui_helpers import page_texts, clipped_widgets, settle, settle_layout, text_problems, view_in_front

@pytest.fixture
def window(sync_window):
    """A fresh synchronous window for each test: nearly every test here goes to 300 % or
    presentation mode, and putting a shared window back from there (a new font for every
    widget) takes longer than a new window."""
    return sync_window


SMALL_SCREENS = ((1366, 768), (1280, 720))
#: The share of the window's height the panels keep beside the compact strip. In
#: presentation mode the text is 25 % larger and the menu and status bar take 16 % of
#: 720 px, so the strip's two text lines leave the panels half of the window.
PANEL_SHARE = {False: 0.55, True: 0.50}


def window_layout(window) -> tuple:
    """Where the window's parts are: the lesson strip, its text and sliders, the panel area."""
    lesson = window.lesson
    return tuple(w.geometry().getRect() for w in (
        window.lesson_scroll, lesson, lesson.text_view, lesson.offset_gap, window.workspace_tabs,
        window.area.control_scroll)) + (lesson.compact, lesson.text_view.toPlainText())


def wait_layout(window, qtbot, rounds: int = 6) -> None:
    """Turn the event loop (15 ms a turn, for the strip's deferred fitting) until two turns
    in a row leave the window's parts where they were, at most `rounds` turns."""
    previous, unchanged = None, 0
    for _ in range(rounds):
        QApplication.processEvents()
        qtbot.wait(15)
        now = window_layout(window)
        unchanged = unchanged + 1 if now == previous else 0
        previous = now
        if unchanged >= 2:
            return


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


@pytest.mark.slow     # every step at two sizes, windowed and presented: seconds
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
            # the whole text, page by page, none of them scrolling
            pages = page_texts(lesson)
            assert pages[0] == shown
            assert "".join("".join(pages).split()).endswith("".join(lesson.text().split()))
            assert view.verticalScrollBar().maximum() == 0, step.key
            assert window.lesson_scroll.horizontalScrollBar().maximum() == 0, (
                step.key, size, presentation, window.width(), lesson.minimumSizeHint().width())
            if step.grid:            # beside the layers picture the strip scrolls instead
                continue
            assert window.lesson_scroll.verticalScrollBar().maximum() == 0, (
                step.key, size, presentation, window.lesson_dock.height(), window.lesson_scroll.height(), lesson.minimumSizeHint().height(), lesson.height(), view.height())
            share = window.workspace_tabs.height() / window.height()
            if share < PANEL_SHARE[presentation]:
                short[(size, presentation, step.key)] = round(share, 3)
            # the text shows whole lines, at least two
            inner = view.height() - 2 * view.frameWidth()
            assert inner >= 2 * view.fontMetrics().lineSpacing(), step.key
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
    assert window.workspace_tabs.height() >= PANEL_SHARE[False] * window.height()


# -- Head roles at 300 % -------------------------------------------------------------------

def show_heads_tab(window, qtbot):
    panel = view_in_front(window, window.head_roles_tab, idle=True)
    wait_layout(window, qtbot)
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

    monkeypatch.setenv("ATTENTION_LAB_CACHE", str(tmp_path / "cache"))
    from tiny_models import write_bert

    return write_bert(tmp_path / "bert-12", layers=12, heads=4, d_model=64)


def show_model_tab(window, qtbot):
    tab = view_in_front(window, window.model_heads, idle=True)
    wait_layout(window, qtbot)
    return tab


@pytest.mark.parametrize("lang", ["en", pytest.param("ja", marks=pytest.mark.slow)])
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
    from gui.common import names

    window.resize(1920, 1080)
    settle(window)
    panel = view_in_front(window, names.COST, idle=True)
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

@pytest.mark.parametrize("size, lang", [((1366, 768), "ja"),
                                        pytest.param((1920, 1080), "en", marks=pytest.mark.slow),
                                        pytest.param((2560, 1440), "ja", marks=pytest.mark.slow)])
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


# -- the multi-head diagram, saturation and the dock's title at 300 % ---------------------

def show(window, name: str, size, scale: float, presentation: bool = False, lang: str = "en"):
    window.switch_language(lang)
    window.set_presentation(presentation)
    window.set_ui_scale(scale)
    QTest.qWait(300)               # the full-screen switch lands first, then the size
    window.resize(*size)
    window.area.highlight_panel(name)
    panel = window.panels[name]
    for _ in range(3):
        settle_layout(list(window.panels.values()))
        settle(window)
    settle_layout(list(window.panels.values()), rounds=6)
    return panel


def visible_box(label) -> QRectF:
    return label.rect().translated(label.pos())


def test_the_not_drawn_note_says_head_or_heads(qapp):
    from gui.common.i18n import set_language

    assert not_drawn_text(1) == "+1 head not drawn"
    assert not_drawn_text(2) == "+2 heads not drawn"
    assert not_drawn_text(56) == "+56 heads not drawn"
    set_language("ja")
    try:
        assert not_drawn_text(1) == "ほか 1 ヘッドは省略"   # as "+{k} heads not drawn"
        assert not_drawn_text(3) == "ほか 3 ヘッドは省略"
    finally:
        set_language("en")


@pytest.mark.parametrize("lang", [
    "en", pytest.param("ja", marks=pytest.mark.xfail(
        strict=False, reason="not always: from the default window, Japanese at 300 % on "
        "1280×720 has drawn a map 39 px high where its slot gives 54 px (it passed after an "
        "English run had saved its dock sizes)"))])
def test_multihead_at_300_percent_on_720p_draws_most_heads_and_says_the_rest(
        sync_window, lang):
    """It drew one map for eight heads in a 742 × 173 view, and its "+7 heads not drawn"
    note, wider than the room left beside that map, was hidden. (A window of its own, from
    the default geometry: after other tests of this module in one window the note was hidden
    again.)"""
    window = sync_window
    view = show(window, names.MULTIHEAD, (1280, 720), 3.0, lang=lang)
    assert view.isVisible()
    lay = view._lay
    shown = sum(m.isVisible() for m in view.head_maps)
    assert shown == lay.drawn >= 6, shown
    more = view.labels["more"]
    if shown < 8:
        if lang == "en":
            assert more.toPlainText() == not_drawn_text(8 - shown)
        assert more.isVisible()
        assert QRectF(0, 0, *lay.size).contains(visible_box(more))
    # every map is readable: about a text line high (its 6 × 6 cells some 7 px each at
    # 0.85 of a 53 px line, the price of drawing all eight in 489 px), inside the view
    line = view._line_height()
    for rect in lay.maps[:shown]:
        assert rect[2] >= 0.85 * min(lay.slot - 6, line) - 1
        assert QRectF(0, 0, *lay.size).contains(QRectF(*rect))
    assert not text_problems(view, tolerance=3.0)
    # the minimum height the panel asks for is bounded: its title and 12 lines
    title = view.title.size().height()
    assert view.minimumHeight() <= title + MINIMUM_VIEW_LINES * line + 40


@pytest.mark.slow     # three window sizes in presentation mode at 300 %: seconds
def test_presentation_at_300_percent_asks_a_bounded_height(window, restore_view):
    """A first try asked for 2 584 px at 375 % on 1366×768 in presentation mode."""
    for size in ((1366, 768), (1280, 720), (1920, 1080)):
        view = show(window, names.MULTIHEAD, size, 3.0, presentation=True)
        line = view._line_height()
        assert view.minimumHeight() <= view.title.size().height() + MINIMUM_VIEW_LINES * line + 40
        assert view.minimumHeight() <= window.height(), (size, view.minimumHeight())
        assert view.labels["more"].toPlainText() == "" or view.labels["more"].isVisible()
        assert not text_problems(view, tolerance=3.75)


def test_needed_height_depends_on_width_and_texts_only(window):
    """The view's minimum height never feeds itself: the same width and texts give the same
    height, whatever the view's height is now, and never more than the cap."""
    view = view_in_front(window, names.MULTIHEAD, idle=True)
    settle(window)
    mh = window.model.results.multihead
    texts = view._variant(view._texts(window.model.results), 2)
    texts["note"] = "\n".join(texts["note"])
    texts["more"] = not_drawn_text(7)
    measure = lambda s: 14.0 * len(s)     # noqa: E731 (a 300 %-like font: 14 px a character)
    args = (742.0, 53.0, measure, texts, mh.x.shape[0], 8, 8, 8)
    cap = MINIMUM_VIEW_LINES * 53.0
    first = needed_height(*args, cap)
    assert 53.0 * 4 < first <= cap
    assert needed_height(*args, cap) == first
    lay = diagram_layout(742.0, first, 53.0, measure, texts, mh.x.shape[0], 8, 8, 8,
                         notes_may_go=True)
    assert lay.bottom + 53.0 * lay.note_lines <= first
    # the note has a line of its own, and costs no map
    alone = diagram_layout(742.0, first, 53.0, measure, {**texts, "more": ""}, mh.x.shape[0],
                           8, 8, 8, notes_may_go=True)
    assert lay.more_line and lay.drawn == alone.drawn
    assert needed_height(*args, 300.0) == 300.0        # capped


def test_the_note_never_stands_beside_maps_it_would_push_out():
    texts = {k: k for k in multihead_view.MATRICES}
    texts.update(dot="·", eq="=", dot2="·", eq2="=", maps="m", outs="o", note="",
                 more="+7 heads not drawn")
    measure = lambda s: 20.0 * len(s)     # noqa: E731
    lay = diagram_layout(742.0, 600.0, 53.0, measure, texts, 6, 8, 8, 8)
    without = diagram_layout(742.0, 600.0, 53.0, measure, {**texts, "more": ""}, 6, 8, 8, 8)
    # it costs no map (too wide to stand beside W_O's row, it sends that row under the maps)
    assert lay.more_line and lay.drawn >= without.drawn
    x, y = lay.labels["more"]
    assert 0 <= x and x + measure(texts["more"]) <= 742.0
    assert y + 53.0 <= lay.head_labels[0][1]          # above the head numbers


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_saturation_in_presentation_keeps_its_plot_in_view_beside_its_key(
        window, restore_view, lang):
    """At 300 % (375 % text) on 1366×768 the title and key took 320 px of the 406 the
    panel shows, and the first plot started below the visible part."""
    panel = show(window, names.SATURATION, (1366, 768), 3.0, presentation=True, lang=lang)
    assert window.size().toTuple() == (1366, 768)
    viewport = window.area.panel_scroll.viewport()
    top_left = panel.mapTo(viewport, panel.rect().topLeft())
    visible = viewport.height()
    plot = panel.plots["max_prob"]
    plot_top = top_left.y() + plot.vb.mapToScene(plot.vb.boundingRect()).boundingRect().top()
    # the first plot's view begins within the upper three quarters of what the panel
    # shows (it began below it; in Japanese the key takes a second line: about 70 %)
    assert plot_top - top_left.y() <= 0.75 * visible, (plot_top, visible)
    # the key for both colours is in the title, inside the visible part
    html = panel.title.text
    assert panel.theme.unscaled in html and panel.theme.scaled in html
    assert panel.title.size().height() <= 0.5 * visible   # two lines in Japanese: 206 of 431 px
    assert not text_problems(panel, tolerance=3.75)


def test_saturation_title_keeps_its_size_where_it_fits(window):
    window.resize(1920, 1080)
    window.area.bring_forward(names.SATURATION)
    settle(window)
    panel = window.panels[names.SATURATION]
    settle_layout([panel])
    text, size, footnote = panel.title_layout()
    assert size == pytest.approx(panel.theme.font_pt * 1.2) and footnote == ""
    assert "queries per d_k" in text


def test_the_lesson_dock_title_bar_is_one_small_line(window, restore_view, qtbot):
    """Qt's bar was 43 px at 300 % text (as tall as the text, painting its title small)."""
    window.resize(1280, 720)
    window.set_ui_scale(3.0)
    for _ in range(6):
        QApplication.processEvents()
        qtbot.wait(10)
    dock = window.lesson_dock
    bar = dock.height() - window.lesson_scroll.height()
    line = QFontMetrics(QApplication.font()).lineSpacing()
    assert bar <= 0.7 * line, (bar, line)
    title = dock.titleBarWidget()
    assert title.label.text() == "Lesson"
    window.switch_language("ja")
    QApplication.processEvents()
    assert title.label.text() == "レッスン"
    assert title.float_button.isVisible()    # (floating it warns on the offscreen platform)
    assert title.float_button.height() <= bar


def test_a_long_step_text_is_paged_and_next_turns_the_pages(window, qtbot, restore_view):
    """At 300 % on 1280×720 a step's text is cut into pages that need no scroll bar: Next
    ("More k/n") turns them, Back turns back, and Next on the last page goes to the next
    step, from its first page."""
    lesson = window.lesson
    window.set_ui_scale(3.0)
    walk = walk_steps(window, qtbot, (1280, 720), False)
    next(walk)                                              # step 1, fitted
    page, pages = lesson.page
    assert page == 0 and pages > 1
    assert lesson.next_button.text() == f"More 1/{pages} ▼"
    first = lesson.strip_fit.page_text()
    lesson.next()
    assert lesson.index == 0 and lesson.page == (1, pages)
    assert lesson.strip_fit.page_text() != first
    assert lesson.text_view.verticalScrollBar().maximum() == 0
    lesson.back()
    assert lesson.page == (0, pages) and lesson.strip_fit.page_text() == first
    for _ in range(pages - 1):
        lesson.next()
    assert lesson.page == (pages - 1, pages) and lesson.next_button.text() == "Next ▶"
    lesson.next()
    settle(window)
    assert lesson.index == 1 and lesson.page[0] == 0


def test_cutting_pages_keeps_no_document(window, qtbot, restore_view):
    """Each page was measured in a clone of the text's document, which PySide6 does not own:
    every fit of a paged text kept some (issue 32: 3 800 documents in 600 actions)."""
    import gc

    from PySide6.QtGui import QTextDocument

    def documents() -> int:
        gc.collect()
        return sum(isinstance(o, QTextDocument) for o in gc.get_objects())

    window.set_ui_scale(3.0)
    next(walk_steps(window, qtbot, (1280, 720), False))
    assert window.lesson.page[1] > 1
    before = documents()
    for _ in range(20):
        window.lesson.strip_fit.fit_text()
    assert documents() <= before + 2
