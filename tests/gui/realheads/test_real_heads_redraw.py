"""Showing a Real heads result updates items in place: a fixed set of graphics items whatever
the model's size and however many results, one path per weight band carrying every line in
the band of its weight, and texts and labels laid out again only when they change. The
results are computed in this process and handed to the tab as its study hands them on."""
import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from engine.models import load_model, run_sentence
from engine.models.fetch import cached_model
from gui.realheads.study import ModelHeadsRequest, compute_in_process
from gui.realheads.tab import ModelHeadsTab
from gui.panels.line_bands import BANDS, LINE_MIN
from gui.panels.thumbnail_cells import MARGIN, mosaic_of
from gui.state import AppState
from gui.common.style import ROLE_COLOURS
from gui_helpers import view_in_front
from tab_fixtures import dispose
from tiny_models import write_bert   # on the path through tab_fixtures

SENTENCES = ("the cat sat on the mat.", "a dog ran to the red mat and sat down.",
             "the cat sat on the mat.")


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    return (write_bert(root / "small", plants={0: "previous", 1: "first"}),
            write_bert(root / "big", layers=6, heads=8, d_model=64))


@pytest.fixture
def tab(qtbot, models):
    state = AppState()
    state.update_heads_input(sentence=SENTENCES[0])
    widget = ModelHeadsTab(state, compute_fn=compute_in_process)
    qtbot.addWidget(widget)
    widget.resize(1100, 700)
    widget.show()
    widget.add_model_folder(str(models[0]))
    assert widget.wait_idle()
    QApplication.processEvents()
    yield widget
    widget.shutdown()
    dispose(widget)


def show(tab, folder, sentence):
    result = compute_in_process(ModelHeadsRequest(str(folder), sentence))
    assert not result.error
    tab.study.result_ready.emit(result)       # what the study does with a new result
    QApplication.processEvents()
    return result


def scene_items(tab) -> dict:
    return {panel.objectName(): len(panel.scene().items()) for panel in tab.panels}


def test_the_graphics_items_do_not_grow_with_results_nor_with_the_model(tab, models):
    small, big = models
    for sentence in SENTENCES:
        show(tab, small, sentence)
    counts = scene_items(tab)
    for sentence in SENTENCES:
        show(tab, small, sentence)
    assert scene_items(tab) == counts
    # 6 × 8 heads take as many items in the grid as 2 × 4: one mosaic item for all cells
    show(tab, big, SENTENCES[0])
    assert tab.grid.cells.shape == (6, 8)
    assert scene_items(tab)["headGrid"] == counts["headGrid"]


def test_the_mosaic_holds_every_head_in_its_role_colours(tab, models):
    result = show(tab, models[1], SENTENCES[1])
    cells = tab.grid.cells
    n = len(result.forward.tokens)
    assert cells.mosaic.shape == (6 * n, 8 * n, 4)
    for layer, head in ((0, 0), (3, 5), (5, 7)):
        role = result.role(layer, head).role
        table = cells.role_table(role, cells.background)
        expected = table[np.round(result.forward.attentions[layer, head] * 255).astype(int)]
        assert np.abs(cells.thumbnail(layer, head).astype(int) - expected).max() <= 1
        assert cells.frame_colour(layer, head) == ROLE_COLOURS[role].upper()
    # the pure function, on planted values: cell (ℓ, h) at rows ℓ·n…, columns h·n…
    maps = np.zeros((2, 3, 2, 2), dtype=np.float32)
    maps[1, 2] = 1.0
    tables = np.stack([np.tile(np.arange(256, dtype=np.uint8)[:, None], (1, 4)),
                       np.full((256, 4), 7, dtype=np.uint8)])
    mosaic = mosaic_of(maps, np.array([[0, 0, 0], [0, 1, 0]]), tables)
    assert mosaic.shape == (4, 6, 4)
    assert (mosaic[2:4, 4:6] == 255).all() and (mosaic[2:4, 2:4] == 7).all()
    assert (mosaic[:2] == 0).all()
    assert 0 < MARGIN < 0.5


def test_each_band_path_carries_the_lines_of_its_weights(tab, models):
    result = show(tab, models[0], SENTENCES[1])
    tab.state.update_model_view(layer=1, head=1)
    QApplication.processEvents()
    detail = tab.detail
    weights = result.forward.attentions[1, 1]
    low = LINE_MIN
    widths, alphas = [], []
    for band, item, high in zip(detail.drawn_lines(), detail.bands, BANDS):
        expected = {(float(q), float(k)) for q, k in zip(*np.nonzero((weights > low)
                                                                     & (weights <= high)))}
        assert set(band) == expected and len(band) == len(expected)
        widths.append(item.pen().widthF())
        alphas.append(item.pen().color().alphaF())
        low = high
    assert sum(len(band) for band in detail.drawn_lines()) == int((weights > LINE_MIN).sum())
    # heavier bands are drawn wider and more opaque
    assert widths == sorted(widths) and alphas == sorted(alphas) and alphas[0] < alphas[-1]


def test_the_same_tokens_leave_labels_and_axes_alone(tab, models):
    small = models[0]
    show(tab, small, SENTENCES[0])
    detail = tab.detail
    picture_calls, placed = [], []
    axis = detail.bottom_axis
    original = axis.set_labels
    axis.set_labels = lambda labels: (picture_calls.append(labels), original(labels))
    first = detail.query_labels[0]            # placed with every layout of the labels
    set_pos = first.setPos
    first.setPos = lambda *a: (placed.append(a), set_pos(*a))
    texts = {label: label.text() for label in (tab.summary_label, tab.variance_label)}
    # the same sentence again (a model reloaded, a result re-sent): maps in place, no layout
    show(tab, small, SENTENCES[0].upper())    # the uncased tokenizer: the same tokens
    assert picture_calls == [] and placed == []
    assert {label: label.text() for label in texts} == texts
    # new tokens: the axes get them, and the labels are placed again
    show(tab, small, SENTENCES[1])
    assert picture_calls and picture_calls[-1] == list(detail.tokens)
    assert placed
    expected = run_sentence(load_model(small), SENTENCES[1]).tokens
    assert detail.tokens == expected
    assert [label.toPlainText() for label in detail.query_labels[:len(expected)]] == \
        list(expected)


def test_a_label_measures_a_new_text_once(tab, models):
    from PySide6.QtWidgets import QLabel

    show(tab, models[0], SENTENCES[0])
    label = tab.variance_label
    calls = []
    height_for_width = QLabel.heightForWidth

    def counted(self, width):
        calls.append((self.objectName(), width))
        return height_for_width(self, width)

    QLabel.heightForWidth = counted
    try:
        show(tab, models[0], SENTENCES[1])
        asked = list(calls)
        for _ in range(3):       # asked again and again: answered from the label's own
            assert label.heightForWidth(label.width()) == height_for_width(label, label.width())
            label.sizeHint()
            label.minimumSizeHint()
        assert len(calls) == len(asked)
    finally:
        QLabel.heightForWidth = height_for_width
    assert ("scoreVarianceTable", label.width()) in asked
    assert len(asked) == len(set(asked))      # no label measured twice at one width


def test_one_test_says_which_training_results_go_beside_the_grid():
    """gui.realheads.study.is_roles_run is trained_head_set's test (and the window's, for a tab
    built later: test_real_heads_tab.py::test_a_tab_built_after_the_runs_shows_the_newest_roles_run)."""
    from types import SimpleNamespace

    from gui.realheads.study import is_roles_run, trained_head_set

    others = [SimpleNamespace(experiment="heads", heads=(object(),)),
              SimpleNamespace(experiment="roles", heads=()), SimpleNamespace(), None]
    for result in others:
        assert not is_roles_run(result) and trained_head_set(result) is None
    assert is_roles_run(SimpleNamespace(experiment="roles", heads=(object(),)))


@pytest.mark.slow
@pytest.mark.skipif(cached_model("minilm") is None, reason="MiniLM is not fetched "
                    "(python main.py fetch-model minilm)")
def test_the_legend_breaks_lines_only_between_entries(window):
    """Japanese role names: Qt may break them anywhere, so the legend packs whole entries into
    lines of its label's own text width (the panel's width was wider: 広く分散 was split)."""
    from gui_helpers import settle_layout

    window.switch_language("ja")
    try:
        window.resize(1600, 1000)
        window.state.update_model_view(model="minilm", model_dir="")
        window.state.update_heads_input(sentence="猫がマットの上に座った。猫は疲れていた。")
        tab = window.model_heads
        view_in_front(window, tab)
        assert tab.wait_idle(20000)
        for _ in range(4):
            settle_layout(tab.panels, rounds=4)
            QApplication.processEvents()
        legend = tab.grid.legend
        document = legend.item.document()
        lines = sum(document.findBlockByNumber(i).layout().lineCount()
                    for i in range(document.blockCount()))
        assert legend.text.count("■") >= 4
        assert lines == legend.text.count("<br>") + 1, legend.text
    finally:
        window.switch_language("en")
