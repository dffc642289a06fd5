"""The Real heads tab's plots on their own (issue 31): the detail's note on thinned token
names, the pruning plot's paper lines, the variance plot's axis names. Each is drawn at the
sizes the projector walk met them at, and checked with the text-overlap test's
text_problems (tolerance: a pixel per 100 % of text, the fonts' blank line margins)."""
import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from gui.common.style import make_theme
from gui.panels.head_detail import HeadDetail
from gui.realheads.study import HeadDetailData
from gui_helpers import settle_layout_until_stable, text_problems
from tab_fixtures import dispose

#: The lesson's sentence in MiniLM's tokens (step 8): sixteen of them.
TOKENS = ("[CLS]", "the", "animal", "didn", "'", "t", "cross", "the", "street", "because",
          "it", "was", "too", "tired", ".", "[SEP]")


def head_data(n: int = len(TOKENS)) -> HeadDetailData:
    rng = np.random.default_rng(8)
    weights = rng.random((n, n))
    return HeadDetailData(tokens=TOKENS[:n], weights=weights / weights.sum(axis=1, keepdims=True),
                          layer=0, head=0, role="broad")


@pytest.fixture
def shown(qtbot):
    """shown(panel, theme, size): `panel` in `theme`, shown at `size`, laid out; disposed
    after the test."""
    made = []

    def show(panel, theme, size):
        made.append(panel)
        panel.apply_theme(theme)
        panel.resize(*size)
        panel.show()
        QApplication.processEvents()
        return panel

    yield show
    for panel in made:
        dispose(panel)


@pytest.fixture(params=["en", "ja"])
def lang(request):
    """The test in English and in Japanese (English again after it)."""
    from gui.common.i18n import set_language

    set_language(request.param)
    yield request.param
    set_language("en")


def settle(panel) -> None:
    settle_layout_until_stable([panel])


def test_the_detail_says_it_thins_names_inside_the_panel(shown, lang):
    """At 200 % text in a 622 × 679 panel (the walk's step 8) every other token is named,
    and the note saying so lies inside the panel on nothing else: as the map's axis name,
    centred on the narrow map, it ran off the panel's left and over the line view's
    '[SEP]'."""
    scale = 2.0
    detail = shown(HeadDetail(), make_theme(presentation=True, ui_scale=scale), (622, 679))
    detail.offer_results(head_data())
    settle(detail)
    assert detail.token_note, "the names are not thinned: the case is not met"
    assert text_problems(detail, tolerance=scale * 1.4) == []


@pytest.mark.parametrize("scale, presenting", [(1.0, True), (3.0, False)])
@pytest.mark.parametrize("width", [400, 600, 1000])
def test_the_paper_lines_names_never_overlap(shown, scale, presenting, width):
    """'WMT: 20%' and 'BERT: 40%', at 0.2 and 0.4 of the axis: side by side they overlapped
    at 300 % text, and in a narrow plot in presentation (step 8, 100 %)."""
    from gui.panels.model_pruning_plot import ModelPruningPlot

    plot = shown(ModelPruningPlot(), make_theme(presentation=presenting, ui_scale=scale),
                 (width, 500))
    settle(plot)
    names = [line.label.toPlainText() for line in plot.paper_lines]
    assert names == ["WMT: 20%", "BERT: 40%"]
    tolerance = scale * (1.4 if presenting else 1.0)
    assert [p for p in text_problems(plot, tolerance) if "WMT" in p or "BERT" in p] == []


def variance_forward():
    """What the variance plot draws of a ForwardResult: 6 layers × 12 heads of variances
    between 0.1 and 1000 (the range MiniLM's span), d_k = 32."""
    from types import SimpleNamespace

    rng = np.random.default_rng(31)
    return SimpleNamespace(d_k=32, head_within_row_variance=10 ** rng.uniform(0.5, 3, (6, 12)),
                           head_scaled_within_row_variance=10 ** rng.uniform(-1, 1.5, (6, 12)))


def test_the_layer_axis_name_lies_below_its_ticks_whatever_was_shown_before(shown, lang):
    """'層' lay on 'L2' in Japanese at 300 % when the text-overlap test ran on its own:
    pyqtgraph's axis height (the largest tick label drawn so far plus 0.8 of the name) left
    the name within a pixel of the text-overlap tolerance on the ticks, so what the axis
    had drawn before decided. Sized by its font, the name lies wholly below the ticks (no
    overlap at all), at every text size and after any other."""
    from gui.panels.head_variance_plot import HeadVariancePlot
    from gui_helpers import text_boxes

    plot = shown(HeadVariancePlot(), make_theme(ui_scale=3.0), (760, 560))
    name = "層" if lang == "ja" else "layer"
    for scale in (3.0, 1.0, 2.0, 3.0):
        plot.apply_theme(make_theme(ui_scale=scale))
        plot.offer_results(variance_forward())
        settle(plot)
        boxes = {text.strip(): rect for text, rect, _bounds in text_boxes(plot)}
        ticks = [boxes[f"L{i}"] for i in range(6)]
        assert all(boxes[name].top() >= tick.bottom() for tick in ticks), \
            (scale, boxes[name].getRect(), ticks[2].getRect())


def test_the_line_views_names_never_overlap_at_300_percent(shown):
    """A Japanese sentence in MiniLM's pieces (33 tokens) at 300 % text, the line view
    beside the map: each name had 0.85 of its line (the axes' rule: their names share the
    blank margins of their lines) and the line view's names, items of their own, overlapped
    ('。' on '[SEP]', in the windowed tab at 1280 × 720 too)."""
    tokens = ("[CLS]",) + tuple("猫がマットに座った。それは暖かかった。犬も来て、猫の隣で眠") + \
        ("##た", "。", "[SEP]")
    n = len(tokens)
    rng = np.random.default_rng(30)
    weights = rng.random((n, n))
    data = HeadDetailData(tokens=tokens, weights=weights / weights.sum(axis=1, keepdims=True),
                          layer=0, head=0, role="broad")
    detail = shown(HeadDetail(), make_theme(ui_scale=3.0), (1400, 1000))
    detail.offer_results(data)
    settle(detail)
    assert not detail.stacked and n == 33
    assert text_problems(detail, tolerance=3.0) == []
