"""Showing a Real heads result updates items in place (issue 13: a result of MiniLM cost the
GUI thread about 95 ms): a fixed set of graphics items whatever the model's size and however
many results, one path per weight band carrying every line in the band of its weight, and
texts and labels laid out again only when they change."""
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from engine.models import load_model, run_sentence
from engine.models.fetch import cached_model
from gui.model_heads import ModelHeadsRequest, compute_in_process
from gui.model_heads_tab import ModelHeadsTab
from gui.panels.head_detail import BANDS, LINE_MIN
from gui.panels.thumbnail_cells import MARGIN, mosaic_of
from gui.state import AppState
from gui.style import ROLE_COLOURS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from tiny_models import write_bert  # noqa: E402

SENTENCES = ("the cat sat on the mat.", "a dog ran to the red mat and sat down.",
             "the cat sat on the mat.")


@pytest.fixture
def models(tmp_path):
    return (write_bert(tmp_path / "small", plants={0: "previous", 1: "first"}),
            write_bert(tmp_path / "big", layers=6, heads=8, d_model=64))


@pytest.fixture
def tab(qtbot, models):
    state = AppState()
    state.update_heads_input(sentence=SENTENCES[0])
    widget = ModelHeadsTab(state)
    qtbot.addWidget(widget)
    widget.resize(1100, 700)
    widget.show()
    widget.add_model_folder(str(models[0]))
    assert widget.wait_idle()
    QApplication.processEvents()
    yield widget
    widget.shutdown()
    widget.close()


def show(tab, folder, sentence):
    result = compute_in_process(ModelHeadsRequest(str(folder), sentence))
    assert not result.error
    tab._on_result(result)
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
    picture_calls = []
    axis = detail.bottom_axis
    original = axis.set_labels
    axis.set_labels = lambda labels: (picture_calls.append(labels), original(labels))
    placed = detail._labels_placed
    texts = {label: label.text() for label in (tab.summary_label, tab.variance_label)}
    # the same sentence again (a model reloaded, a result re-sent): maps in place, no layout
    show(tab, small, SENTENCES[0].upper())    # the uncased tokenizer: the same tokens
    assert picture_calls == [] and detail._labels_placed is placed
    assert {label: label.text() for label in texts} == texts
    # new tokens: the axes get them, and the labels are placed again
    show(tab, small, SENTENCES[1])
    assert picture_calls and picture_calls[-1] == list(detail.tokens)
    assert detail._labels_placed is not placed
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


def test_one_test_says_which_training_results_go_beside_the_grid(window):
    """gui.model_heads.is_roles_run is the window's and trained_head_set's one test."""
    from types import SimpleNamespace

    from gui.model_heads import is_roles_run, trained_head_set

    others = [SimpleNamespace(experiment="heads", heads=(object(),)),
              SimpleNamespace(experiment="roles", heads=()), SimpleNamespace(), None]
    for result in others:
        assert not is_roles_run(result) and trained_head_set(result) is None
        window._keep_roles_run(result)
        assert window._roles_run is None
    kept = SimpleNamespace(experiment="roles", heads=(object(),))
    assert is_roles_run(kept)
    window._keep_roles_run(kept)
    assert window._roles_run is kept


@pytest.mark.skipif(cached_model("minilm") is None, reason="MiniLM is not fetched "
                    "(python main.py fetch-model minilm)")
def test_the_legend_breaks_lines_only_between_entries(window):
    """Japanese role names: Qt may break them anywhere, so the legend packs whole entries into
    lines of its label's own text width (the panel's width was wider: 広く分散 was split)."""
    from gui_helpers import settle_layout
    from test_gui_text_overlap import show_bottom_tab

    window.switch_language("ja")
    try:
        window.resize(1600, 1000)
        window.state.update_model_view(model="minilm", model_dir="")
        window.state.update_heads_input(sentence="猫がマットの上に座った。猫は疲れていた。")
        tab = window.model_heads
        show_bottom_tab(window, tab)
        assert tab.wait_idle(60000)
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
