"""The Real heads tab's "Do we need all the heads?" view: the pruning study computed
synchronously on the tiny test BERT, its plotted curve and its sentence against the engine
(engine.models.pruning.prune_model)."""
import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from engine.models import load_model
from engine.models.pruning import prune_model
from gui.common import names
from gui.common.i18n import tr
from gui.panels.model_pruning_plot import paper_fractions, result_text
from gui.realheads.pruning import compute_model_pruning, pruning_sentences
from gui.realheads.study import compute_in_process
from gui.realheads.tab import ModelHeadsTab
from gui.state import AppState
from gui.studies.cycle import StudyCycle
from gui.window.export import export_panel
from tab_fixtures import dispose, in_thread_forward, tiny_bert  # noqa: F401

SENTENCE = "the cat sat on the mat."


@pytest.fixture
def tab(qtbot, tiny_bert, in_thread_forward):  # noqa: F811
    state = AppState()
    state.update_heads_input(sentence=SENTENCE)
    widget = ModelHeadsTab(state, compute_fn=compute_in_process,
                           pruning_study=StudyCycle("modelPruning", compute_model_pruning,
                                                    synchronous=True))
    qtbot.addWidget(widget)
    widget.resize(1100, 900)
    widget.show()
    widget.add_model_folder(str(tiny_bert))
    assert widget.wait_idle()
    yield widget
    widget.shutdown()
    dispose(widget)


def test_plotted_curve_and_sentence_are_the_engines(tab, tiny_bert, tmp_path):  # noqa: F811
    plot = tab.pruning_plot
    assert plot.objectName() == names.MODEL_PRUNE
    tab.prune_button.click()
    assert tab.pruning_study.wait_idle(20000)
    QApplication.processEvents()
    assert tab.prune_button.isEnabled()
    expected = prune_model(load_model(tiny_bert), pruning_sentences(SENTENCE))
    x, y = plot.curve.getData()
    np.testing.assert_allclose(x, expected.fractions)
    np.testing.assert_allclose(y, expected.quality)
    assert y[0] == pytest.approx(1.0, abs=1e-6)
    assert tab.pruning.curve.order == expected.order
    assert tab.pruning.curve.importance_kind == "ablation"
    # The sentence: the cosine after the paper's two fractions, with k of n.
    text = plot.info.text
    n = len(expected.order)
    for _name, fraction in paper_fractions():
        k, quality = expected.at_fraction(fraction)
        assert f"{quality:.3f} with {k} of {n} heads removed" in text
    assert result_text(tab.pruning) in text.replace("&#x27;", "'")
    assert "ablation" in text
    # The paper's lines are Michel et al.'s 20 % and 40 %.
    assert [line.value() for line in plot.paper_lines] == [0.2, 0.4]
    # The status says when the curve is for another sentence.
    tab.state.update_heads_input(sentence="a dog ran.")
    assert tab.prune_status.text() == tr("The curve is for another model or sentence: press "
                                          "again to update it.")
    # Exportable.
    path = tmp_path / "pruning.png"
    export_panel(plot, path)
    assert path.stat().st_size > 1000


def test_no_model_says_so(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("ATTENTION_LAB_CACHE", str(tmp_path / "cache"))
    state = AppState()
    widget = ModelHeadsTab(state, compute_fn=compute_in_process)
    qtbot.addWidget(widget)
    widget.request_pruning()
    assert tr("Load a model first.") in widget.pruning_plot.info.text
    widget.shutdown()
    dispose(widget)
