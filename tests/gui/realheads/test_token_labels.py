"""Token names on the head maps (issue item 10): every token is named while the axis can
hold the names (they shrink first, token_axis.label_fit); when even the smallest names do not
fit, every k-th is named and the map says so.

What "fits" means is label_fit's rule: neighbouring names are at least LABEL_LINE_SHARE of
their line height apart along the axis, at no less than min_label_point_size."""
import pytest
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QApplication

from gui.common import names
from gui.panels.token_axis import LABEL_LINE_SHARE, min_label_point_size
from engine.models.fetch import cached_model
from tab_fixtures import in_thread_forward  # noqa: F401
from gui_helpers import settle_layout

#: Eighteen words and marks: with [CLS] and [SEP] twenty tokens on the Real heads maps.
SENTENCE = "The cat sat on the mat because the cat was tired, and then the cat slept."
DEFAULT_SIZE = (1600, 1000)   # MainWindow's own first size


def drawn_texts(axis) -> list[str]:
    return [text for text, _box in axis.drawn]


def check_axis(axis, tokens, note: str) -> None:
    """Every token named in order, or every k-th (k = axis.step > 1) with the note shown;
    the names drawn are at least the floor size and LABEL_LINE_SHARE of a line apart."""
    font = axis.drawn_font
    assert font.pointSizeF() >= min_label_point_size(axis.label_font()) - 1e-9
    step = axis.step
    assert drawn_texts(axis) == [t for t in tokens[::step]]
    if step > 1:
        assert note
    centres = sorted(box.center().y() if axis.orientation == "left" else box.center().x()
                     for _t, box in axis.drawn)
    h = QFontMetricsF(font).height()
    need = LABEL_LINE_SHARE * h
    # the end labels are pulled inwards by less than half a line (token_axis), and their
    # neighbours make way: every pair, the ends too, is a label's line apart (the first
    # and the next thinned name overlapped on a 32-character map), each name inside its axis
    gaps = [b - a for a, b in zip(centres, centres[1:])]
    assert all(g >= need - 1e-6 for g in gaps), (gaps, need)
    length = axis.height() if axis.orientation == "left" else axis.width()
    assert all(h / 2 - 1e-6 <= c <= max(h / 2, length - h / 2) + 1e-6 for c in centres)


def paint(widget):
    """Lay out and paint `widget` (the axes record the names they draw)."""
    settle_layout([widget])
    widget.grab()


needs_minilm = pytest.mark.skipif(cached_model("minilm") is None, reason="MiniLM is not fetched "
                                  "(python main.py fetch-model minilm)")


@pytest.fixture
def real_heads(window, in_thread_forward):  # noqa: F811
    """The Real heads tab on MiniLM (the tiny test BERT takes 16 tokens at most)."""
    window.resize(*DEFAULT_SIZE)
    window.state.update_model_view(model="minilm", model_dir="")
    tab = window.model_heads
    window.state.update_heads_input(sentence=SENTENCE)
    window.area.bring_forward(names.MODEL_HEADS)
    QApplication.processEvents()
    assert tab.wait_idle()
    QApplication.processEvents()
    assert tab.result is not None and tab.result.forward is not None
    return tab


@needs_minilm
def test_every_token_is_named_on_the_detail_map_at_the_default_size(real_heads):
    detail = real_heads.detail
    tokens = list(real_heads.result.forward.tokens)
    assert len(tokens) == 20 and {"cat", "on", "mat"} <= set(tokens)
    paint(detail)
    for axis in (detail.left_axis, detail.bottom_axis):
        assert drawn_texts(axis) == tokens
        check_axis(axis, tokens, detail.token_note)
    assert detail.token_note == ""
    assert detail.note not in detail.ci.items       # no note row


@needs_minilm
def test_at_300_percent_the_names_fit_or_the_map_says_it_thins_them(window, real_heads):
    window.set_ui_scale(3.0)
    try:
        QApplication.processEvents()
        detail = real_heads.detail
        tokens = list(real_heads.result.forward.tokens)
        paint(detail)
        for axis in (detail.left_axis, detail.bottom_axis):
            check_axis(axis, tokens, detail.token_note)
        step = max(detail.left_axis.step, detail.bottom_axis.step, detail.line_step)
        assert (detail.token_note != "") == (step > 1)
        if step > 1:
            assert detail.note in detail.ci.items and "1 token in" in detail.note.text
    finally:
        window.set_ui_scale(1.0)


@pytest.mark.parametrize("scale", [1.0, 3.0])
def test_the_head_roles_maps_name_their_tokens_or_say_why_not(window, scale):
    window.resize(*DEFAULT_SIZE)
    window.state.update_heads_input(sentence=SENTENCE)
    window.set_ui_scale(scale)
    try:
        tab = window.head_roles_tab
        window.area.bring_forward(names.HEADS_PANEL)
        QApplication.processEvents()
        assert tab.wait_idle()
        QApplication.processEvents()
        view = tab.view
        tokens = [t.text for t in view.tokens]
        assert len(tokens) == 18
        paint(view)
        for plot in view.plots:
            axes = [plot.getAxis("left"), plot.getAxis("bottom")]
            if not axes[0].isVisible():      # a small map without room for names
                assert plot in view.head_plots
                assert "no room for token names" in view.token_note
                continue
            for axis in axes:
                check_axis(axis, tokens, view.token_note)
        assert view.token_note == "" or view.token_note in view.entropy_text
    finally:
        window.set_ui_scale(1.0)


#: 32 characters, one token each (ja_chars): the small maps thin their names at 100 % text.
LONG_JAPANESE = "猫がマットに座った。それは暖かかった。犬も来て、猫の隣で眠った。"


@pytest.mark.parametrize("scale", [1.0, 3.0])
def test_thinned_names_on_the_head_roles_maps_do_not_overlap(window, scale):
    """Every k-th character named: the first name, pulled inside the axis, no longer sits
    on the next one (猫 over ト at 100 % text)."""
    window.resize(*DEFAULT_SIZE)
    window.state.update_heads_input(sentence=LONG_JAPANESE, token_mode="ja_chars")
    window.set_ui_scale(scale)
    try:
        tab = window.head_roles_tab
        window.area.bring_forward(names.HEADS_PANEL)
        QApplication.processEvents()
        assert tab.wait_idle()
        QApplication.processEvents()
        view = tab.view
        tokens = [t.text for t in view.tokens]
        assert len(tokens) == 32
        paint(view)
        checked = [axis for plot in view.plots for axis in (plot.getAxis("left"),
                                                            plot.getAxis("bottom"))
                   if axis.isVisible()]
        assert checked and any(axis.step > 1 for axis in checked)
        for axis in checked:
            check_axis(axis, tokens, view.token_note)
        step = max(axis.step for axis in checked)
        if not view.head_plots[0].getAxis("left").isVisible():
            # only the average is named: the note says it is the average that thins
            assert view.token_note == ("the six small maps have no room for token names; "
                                       f"the average names 1 token in {step}")
            window.switch_language("ja")
            try:
                paint(view)
                assert f"平均のマップは {step} トークンに 1 つだけ" in view.token_note
                assert view.token_note in view.entropy_text
            finally:
                window.switch_language("en")
        else:
            assert f"labels: 1 token in {step}" in view.token_note
    finally:
        window.state.update_heads_input(token_mode="en")
        window.set_ui_scale(1.0)
