"""Before a run every plot of the Training tab says what to do ("Press Start to train…"), in
English and Japanese, instead of empty 0–1 axes; the run's data replace the note; another
experiment brings it back."""
import pytest

from gui.common.i18n import set_language, tr
from gui.state.app_state import TrainingSettings
from gui_helpers import settle_layout, text_boxes
from small_runs import show_run
from tab_fixtures import training_tab  # noqa: F401 (a fixture)

#: The plots of each experiment, by the tab's attribute, with the page that shows them.
PLOTS = {"roles": ("curves", "heads_view", "icl"), "heads": ("curves", "chart", "pruning")}


def texts_of(tab, name: str) -> list[str]:
    """The texts the plot `name` of `tab` draws, with its page in front."""
    plot = getattr(tab, name)
    if plot is not tab.curves:
        tab.right.setCurrentWidget(plot)
    settle_layout([plot])
    return [text for text, _rect, _bounds in text_boxes(plot)]


def has_tick_labels(texts) -> bool:
    return any(text.replace(".", "").replace("-", "").replace("−", "").isdigit()
               for text in texts)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_before_a_run_each_plot_says_press_start(training_tab, language):
    tab = training_tab
    try:
        set_language(language)
        start = tr("Press Start to train.")[:6]      # the note's first words, long or short
        for experiment, plots in PLOTS.items():
            tab.state.set_training(TrainingSettings(experiment, {}))
            for name in plots:
                texts = texts_of(tab, name)
                assert any(text.startswith(start) for text in texts), (experiment, name, texts)
                if name in ("curves", "icl"):       # no run, no range: frames without ticks
                    assert not has_tick_labels(texts), (experiment, name, texts)
    finally:
        set_language("en")


def test_the_run_replaces_the_note_and_another_experiment_brings_it_back(training_tab):
    tab = training_tab
    tab.state.set_training(TrainingSettings("roles", {}))
    show_run(tab, "roles")
    for name in PLOTS["roles"]:
        texts = texts_of(tab, name)
        assert not any(text.startswith("Press Start") for text in texts), (name, texts)
    assert has_tick_labels(texts_of(tab, "curves")) and has_tick_labels(texts_of(tab, "icl"))
    tab.state.set_training(TrainingSettings("heads", {}))       # the roles run is forgotten
    for name in PLOTS["heads"]:
        assert any(text.startswith("Press Start") for text in texts_of(tab, name)), name
