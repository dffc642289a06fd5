"""The "Real heads" tab (ModelHeadsTab): a pretrained model's heads, with a tiny random BERT
written here and, when it has been fetched, MiniLM; the learned and hand-built heads beside
its grid. The tab is tested on its own where the test is about the tab, its forward computed
in the study's thread; the forward's child process is tested in test_forward_process.py."""
import threading
import time

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QWidget

from engine.models import load_model, run_sentence
from engine.models.fetch import FetchCancelled, cached_model
from gui.common import names
from gui.window.export import export_panel
from gui.common.guard import errors
from gui.realheads.study import compute_in_process, looks_japanese
from gui.realheads.tab import ModelHeadsTab
from gui.state import AppState
from gui.common.style import ROLE_COLOURS, format_number
from tab_fixtures import dispose
from tab_fixtures import in_thread_forward, resource_tracker_first, tiny_bert  # noqa: F401

LESSON = "The cat sat on the mat because the cat was tired, and then the cat slept."
TINY_SENTENCE = "the cat sat on the mat."
needs_minilm = pytest.mark.skipif(cached_model("minilm") is None, reason="MiniLM is not fetched "
                                  "(python main.py fetch-model minilm)")


@pytest.fixture
def no_minilm(tmp_path, monkeypatch):
    """An empty model cache: MiniLM counts as not downloaded."""
    monkeypatch.setenv("ATTENTION_LAB_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def make_tab(qtbot):
    """make_tab(folder=None, show=True, compute=compute_in_process): a tab of its own (its own
    state, on the tiny sentence), on the model in `folder` if given; shut down after the
    test."""
    made = []

    def make(folder=None, show=True, compute=compute_in_process):
        state = AppState()
        state.update_heads_input(sentence=TINY_SENTENCE)
        widget = ModelHeadsTab(state, compute_fn=compute)
        made.append(widget)
        qtbot.addWidget(widget)
        widget.resize(1100, 700)
        if show:
            widget.show()
        if folder is not None:
            widget.add_model_folder(str(folder))
            assert widget.wait_idle()
            QApplication.processEvents()
        return widget

    yield make
    for widget in made:
        widget.shutdown()
        dispose(widget)


@pytest.fixture
def tab(make_tab, tiny_bert):
    """A tab of its own showing the tiny BERT; its compute records the threads it ran on."""
    threads = []

    def compute(request):
        threads.append(threading.get_ident())
        return compute_in_process(request)

    widget = make_tab(tiny_bert, compute=compute)
    widget.compute_threads = threads
    return widget


def assert_drawn(cells, layer: int, head: int, weights: np.ndarray) -> None:
    """A thumbnail (ThumbnailCells) shows `weights` through its role's colour map (background → role colour),
    checked against pyqtgraph's own ColorMap.map (within one step of its 256 colours)."""
    from gui.panels.thumbnail_cells import role_colormap
    from gui.common.style import ROLE_COLOURS

    np.testing.assert_allclose(cells.maps[layer, head], weights)
    image = cells.thumbnail(layer, head)
    assert image.dtype == np.uint8 and image.shape == weights.shape + (4,)
    colours = role_colormap(ROLE_COLOURS[cells.roles[layer][head]], cells.background).map(
        np.asarray(weights, dtype=float), mode="byte")
    assert np.abs(image.astype(int) - colours.reshape(image.shape).astype(int)).max() <= 2


def show_tab(window):
    window.area.bring_forward(names.MODEL_HEADS)
    assert window.model_heads.wait_idle()
    QApplication.processEvents()
    return window.model_heads


def test_open_model_folder_loads_the_model_and_draws_layers_by_heads(window, tiny_bert,
                                                                    in_thread_forward, no_minilm,
                                                                    monkeypatch, tmp_path):
    tab = show_tab(window)
    assert window.workspace_tabs.indexOf(window.lazy_views.page(names.MODEL_HEADS)) == 3
    assert window.workspace_tabs.tabText(3) == "Real heads"
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *args, **kwargs: str(tiny_bert)))
    window.findChild(type(window.menus.open_model_action), "openModelFolderAction").trigger()
    assert tab.wait_idle()
    QApplication.processEvents()
    assert window.state.model_view.model_dir == str(tiny_bert)
    assert tab.model_combo.currentText() == "tiny-bert"
    assert tab.message == ""
    grid = tab.grid
    assert grid.cells.shape == (2, 4)
    expected = run_sentence(load_model(tiny_bert), window.state.heads_input.sentence).attentions
    for layer in range(2):
        for head in range(4):
            assert_drawn(grid.cells, layer, head, expected[layer, head])
    # the planted heads are found and tinted by their role
    assert [grid.role_at(0, h) for h in range(3)] == ["previous", "first", "self"]
    for head, role in enumerate(("previous", "first", "self")):
        assert grid.frame_colour(0, head) == ROLE_COLOURS[role].upper()
    panels = window.files.exportable_panels()
    assert panels["headGrid"] is grid and panels["headDetail"] is tab.detail
    assert panels[names.MODEL_PRUNE] is tab.pruning_plot
    for name in ("headGrid", "headDetail"):
        path = export_panel(panels[name], tmp_path / f"{name}.png")
        assert path.stat().st_size > 1000


def test_a_restored_session_shows_its_model_folder(make_tab, tiny_bert, no_minilm):
    tab = make_tab()
    state = tab.state
    snapshot = state.snapshot()
    restored = type(snapshot)(model_view=type(snapshot.model_view)(
        model="tiny-bert", model_dir=str(tiny_bert), layer=1, head=2))
    state.restore(restored)
    assert tab.wait_idle()
    QApplication.processEvents()
    assert tab.model_combo.currentText() == "tiny-bert"
    assert tab.grid.selected == (1, 2) and tab.detail.title.text.startswith("layer 1 · head 2")


def test_clicking_a_head_shows_it_in_the_detail_with_token_labels(tab, qtbot):
    grid, detail = tab.grid, tab.detail
    pos = grid.cell_centre(1, 3)
    qtbot.mouseClick(grid.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    QApplication.processEvents()
    assert (tab.state.model_view.layer, tab.state.model_view.head) == (1, 3)
    assert grid.selected == (1, 3)
    forward = tab.result.forward
    assert detail.tokens == forward.tokens == ("[CLS]", "the", "cat", "sat", "on", "the", "mat",
                                               ".", "[SEP]")
    np.testing.assert_array_equal(detail.image.image, forward.attentions[1, 3])
    assert detail.left_axis.labels == list(forward.tokens)
    assert detail.bottom_axis.labels == list(forward.tokens)
    assert "layer 1 · head 3" in detail.title.text
    assert tab.scores_label.text().startswith("Layer 1 head 3 is")
    # hovering cell (query 2, key 1) reads its weight
    scene_pos = detail.map_plot.vb.mapViewToScene(QPointF(1.5, 2.5))
    detail.scene().sigMouseMoved.emit(scene_pos)
    weight = float(forward.attentions[1, 3, 2, 1])
    assert detail.readout_shown.startswith("cat → the: ")
    assert abs(float(detail.readout_shown.split(": ")[1]) - weight) < 5e-3 * max(weight, 1e-3)
    # the line view narrows to that query: every drawn line starts at query 2
    drawn = [line for band in detail.drawn_lines() for line in band]
    assert drawn and {query for query, _key in drawn} == {2.0}


def test_line_view_draws_every_weight_above_the_threshold_once(tab):
    tab.state.update_model_view(layer=0, head=0)
    detail = tab.detail
    weights = tab.result.forward.attentions[0, 0]
    count = sum(len(band) for band in detail.drawn_lines())
    assert count == int((weights > 0.02).sum())


def test_typing_updates_through_the_study_off_the_gui_thread(tab, qtbot):
    tab.compute_threads.clear()
    tab.sentence_edit.clear()
    qtbot.keyClicks(tab.sentence_edit, "the dog ran")
    assert tab.state.heads_input.sentence == "the dog ran"
    assert tab.wait_idle()
    QApplication.processEvents()
    assert tab.result.forward.tokens == ("[CLS]", "the", "dog", "ran", "[SEP]")
    assert tab.detail.tokens == tab.result.forward.tokens
    assert tab.compute_threads and threading.get_ident() not in tab.compute_threads
    assert len(tab.compute_threads) < len("the dog ran")   # debounced
    # the state is the one source: a change from elsewhere (the head-roles tab) is rendered
    tab.state.update_heads_input(sentence="a big red cat")
    assert tab.sentence_edit.text() == "a big red cat"
    assert tab.wait_idle()
    assert tab.result.forward.tokens[1:-1] == ("a", "big", "red", "cat")


def test_shared_sentence_with_the_head_roles_tab(tab, qtbot):
    from gui.headroles.tab import HeadRolesTab

    roles = HeadRolesTab(tab.state)             # the window gives both tabs its one state
    qtbot.addWidget(roles)
    try:
        tab.sentence_edit.setText("the cat sat.")
        assert roles.sentence_edit.text() == "the cat sat."
        roles.sentence_edit.setText("the cat ran.")
        assert tab.sentence_edit.text() == "the cat ran."
    finally:
        roles.close()


def test_a_broken_folder_gives_one_clear_message_and_nothing_crashes(tab, tmp_path, tiny_bert):
    seen = list(errors.seen)
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "config.json").write_text("{not json", encoding="utf-8")
    tab.add_model_folder(str(broken))
    assert tab.wait_idle()
    QApplication.processEvents()
    assert tab.message_label.isVisible()
    assert tab.message.startswith("This model could not be shown: ")
    assert "\n" not in tab.message and "Traceback" not in tab.message
    assert str(broken) in tab.message or "broken" in tab.message
    assert "(cannot be read)" in tab.model_combo.currentText()
    assert tab.result is None and not tab.summary_label.text()
    assert not tab.grid.cells.visible
    assert errors.seen == seen
    # a sentence longer than the model's 16 positions: a message too
    tab.add_model_folder(str(tiny_bert))
    tab.state.update_heads_input(sentence=" ".join(["cat"] * 30))
    assert tab.wait_idle()
    assert "takes at most 16" in tab.message
    tab.state.update_heads_input(sentence=TINY_SENTENCE)
    assert tab.wait_idle()
    QApplication.processEvents()
    assert tab.message == "" and not tab.message_label.isVisible()
    assert tab.grid.cells.visible


def test_japanese_sentence_shows_the_english_only_note(tab):
    assert not tab.japanese_note.isVisible()
    tab.state.update_heads_input(sentence="猫がマットに座った。")
    assert tab.japanese_note.isVisible()
    assert "[UNK]" in tab.japanese_note.text()
    assert looks_japanese("カタカナ") and looks_japanese("漢字") and not looks_japanese("café")


def test_fetch_button_shows_progress_and_cancels(qtbot, no_minilm):
    started = threading.Event()

    def fake_fetch(key, progress, cancelled):
        progress(0.25, "downloading")
        started.set()
        while not cancelled():
            time.sleep(0.01)
        raise FetchCancelled("the download was cancelled")

    widget = ModelHeadsTab(AppState(), fetch_fn=fake_fetch)
    qtbot.addWidget(widget)
    widget.show()
    assert widget.fetch_button.isVisible()
    assert "not downloaded yet" in widget.message
    qtbot.mouseClick(widget.fetch_button, Qt.MouseButton.LeftButton)
    assert widget.fetch_progress.isVisible()
    qtbot.waitUntil(lambda: widget.fetch_progress.value() == 250, timeout=3000)
    assert widget.fetcher.running
    qtbot.mouseClick(widget.fetch_button, Qt.MouseButton.LeftButton)   # now "Cancel"
    qtbot.waitUntil(lambda: not widget.fetcher.running, timeout=3000)
    assert widget.message == "MiniLM was not downloaded: the download was cancelled"
    assert not widget.fetch_progress.isVisible()
    widget.shutdown()
    widget.close()


def test_the_fetch_button_opens_no_window_of_its_own(qtbot, no_minilm):
    """Without MiniLM the tab offers Fetch as soon as it is built, before its first
    resize: the button is inside the tab, not a window that takes the focus (and the
    lesson's keys) from the main window."""
    from PySide6.QtCore import QEvent, QObject

    class WindowsShown(QObject):
        def __init__(self):
            super().__init__()
            self.names = []

        def eventFilter(self, obj, event):  # noqa: N802 (Qt naming)
            if event.type() == QEvent.Type.Show and isinstance(obj, QWidget) and obj.isWindow():
                self.names.append(obj.objectName())
            return False

    shown = WindowsShown()
    QApplication.instance().installEventFilter(shown)
    try:
        widget = ModelHeadsTab(AppState())
    finally:
        QApplication.instance().removeEventFilter(shown)
    qtbot.addWidget(widget)
    assert shown.names == []
    assert not widget.fetch_button.isHidden()
    assert widget.fetch_button.window() is widget
    widget.show()
    assert widget.fetch_button.isVisible()
    widget.shutdown()


def test_closing_during_a_fetch_stops_its_thread(qtbot, no_minilm):
    started = threading.Event()

    def slow_fetch(key, progress, cancelled):
        started.set()
        while not cancelled():
            time.sleep(0.01)
        raise FetchCancelled("cancelled")

    widget = ModelHeadsTab(AppState(), fetch_fn=slow_fetch)
    qtbot.addWidget(widget)
    widget.show()
    widget.fetch_button.click()
    assert started.wait(3)
    widget.close()          # closeEvent: cancel and wait
    assert not widget.fetcher.is_running() and not widget.study.is_running()


def test_a_finished_fetch_selects_the_fetched_model(qtbot, no_minilm, tiny_bert, monkeypatch):
    import gui.realheads.model_picker as picker_module

    def fake_fetch(key, progress, cancelled):
        progress(1.0, "done")
        return tiny_bert

    widget = ModelHeadsTab(AppState(), fetch_fn=fake_fetch)
    qtbot.addWidget(widget)
    widget.show()
    monkeypatch.setattr(picker_module, "cached_model", lambda key="minilm": tiny_bert)
    widget.fetch_button.click()
    qtbot.waitUntil(lambda: not widget.fetcher.running, timeout=3000)
    assert widget.fetch_button.isHidden()
    widget.shutdown()
    widget.close()


@pytest.mark.slow
@needs_minilm
def test_minilm_layer0_head2_is_tinted_previous_token(window):
    window.state.update_model_view(model="minilm", model_dir="", layer=0, head=2)
    window.state.update_heads_input(sentence=LESSON)
    tab = show_tab(window)
    assert tab.message == ""
    assert tab.grid.cells.shape == (6, 12)
    assert tab.grid.role_at(0, 2) == "previous"
    assert tab.grid.frame_colour(0, 2) == ROLE_COLOURS["previous"].upper()
    assert "26 of 72 heads put more than half their attention on [CLS]" in tab.summary_label.text()
    assert tab.detail.title.text.endswith("previous token")
    variance = tab.result.forward.raw_score_variance
    text = tab.variance_label.text()
    assert "Var(q·k)" in text and len(variance) == 6
    for value in (*variance, *tab.result.forward.scaled_score_variance):
        assert format_number(float(value)) in text


def test_a_hidden_tab_loads_its_model_only_when_shown(make_tab, tiny_bert):
    tab = make_tab(tiny_bert, show=False)             # a tab behind another one
    assert not tab.isVisible()
    assert tab.study.generation == 0 and tab.result is None
    tab.show()
    assert tab.wait_idle()
    assert tab.study.generation == 1
    assert tab.result.forward.tokens[1:-1] == ("the", "cat", "sat", "on", "the", "mat", ".")


# -- the heads beside the grid: trained from scratch, hand-built ---------------------------
SHORT_ROLES = {"steps": 40, "snapshot_every": 10, "log_every": 10}


def click(panel, pos):
    QTest.mouseClick(panel.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    QApplication.processEvents()


@pytest.fixture(scope="module")
def roles_run():
    """A short "roles" run, in this process (a run in the Training tab's process gives the
    same result: test_training_runner.py::test_runs_are_reproducible)."""
    from engine.training import run_experiment
    from gui.training.runner import config_from_options

    return run_experiment("roles", config_from_options("roles", SHORT_ROLES))


def test_a_short_roles_run_shows_its_learned_heads_beside_the_grid(tab, roles_run):
    from engine.models import roles_of_maps
    from engine.models.roles import induction_scores

    compare = tab.compare
    assert tab.trained_heads is None and compare.cells["trained"].shape == (0, 0)
    assert "no run yet" in compare.title_text
    result = roles_run
    tab.set_trained_heads(result)          # what the window does with a finished run
    QApplication.processEvents()
    assert tab.trained_heads is not None
    assert compare.cells["trained"].shape == (2, 4)
    # roles from the result, by the pretrained detector (causal, induction on [BOS] r r)
    maps = np.zeros((2, 4) + result.heads[0].weights.shape, dtype=np.float32)
    for h in result.heads:
        maps[h.layer, h.head] = h.weights
    tokens = result.sample_tokens
    n = (len(tokens) - 1) // 2
    assert tokens[0] == "BOS" and tokens[1:n + 1] == tokens[n + 1:]
    expected = roles_of_maps(maps, tokens, causal=True,
                             induction=induction_scores(maps, 1, n))
    for role in expected:
        layer, head = role.layer, role.head
        assert compare.role_at("trained", layer, head) == role.role
        assert compare.frame_colour("trained", layer, head) == ROLE_COLOURS[role.role].upper()
        assert_drawn(compare.cells["trained"], layer, head, maps[layer, head])
        assert role.induction_score is not None
    assert f"step {SHORT_ROLES['steps']}" in compare.title_text
    # a click shows that head in the detail view, with the lab's own scores beside ours
    click(compare, compare.cell_centre("trained", 1, 2))
    assert tab.focus == ("trained", 1, 2) and compare.selected == ("trained", 1, 2)
    assert tab.grid.selected is None
    assert tab.detail.tokens == tuple(tokens)
    np.testing.assert_array_equal(tab.detail.image.image, maps[1, 2])
    assert tab.detail.title.text.startswith("trained from scratch · L1·H2")
    lab = next(h for h in result.heads if (h.layer, h.head) == (1, 2))
    text = tab.scores_label.text()
    assert text.startswith("Trained L1·H2 is") and "training lab" in text
    assert format_number(lab.scores["previous_token"]) in text
    # a run of another experiment leaves the roles run shown
    tab.set_trained_heads(type("Other", (), {"experiment": "scaling", "heads": ()})())
    assert tab.trained_heads is not None


def test_a_tab_built_after_the_runs_shows_the_newest_roles_run(window, no_minilm, roles_run):
    """The window keeps the newest "roles" run (gui.realheads.study.is_roles_run) for a Real
    heads tab built later; a run of another experiment does not replace it."""
    from engine.training import HeadsConfig, run_experiment

    other = run_experiment("heads", HeadsConfig(heads=(1, 2), seeds=1, steps=10, log_every=5,
                                                eval_size=32))
    finished = window.training_tab.runner.result_ready      # what a finished run emits
    finished.emit(roles_run)
    finished.emit(other)
    tab = window.model_heads                                   # built now
    assert tab.trained_heads is not None and tab.trained_heads.step == SHORT_ROLES["steps"]
    np.testing.assert_array_equal(tab.trained_heads.maps[1, 2], next(
        h.weights for h in roles_run.heads if (h.layer, h.head) == (1, 2)))


@pytest.mark.slow
@pytest.mark.usefixtures("resource_tracker_first")
def test_a_run_in_the_training_tab_reaches_the_real_heads_tab(window, no_minilm, qtbot):
    tab = show_tab(window)
    panel = window.training_tab
    panel.runner.niceness = 0     # the child at the tests' priority: niced, two busy test
    try:                          # workers starved it for 20-50 s of a 1 s run
        assert panel.start("roles", SHORT_ROLES)
        qtbot.waitUntil(lambda: panel.result is not None, timeout=60000)
    finally:
        panel.runner.niceness = None
    QApplication.processEvents()
    assert tab.trained_heads is not None and tab.compare.cells["trained"].shape == (2, 4)
    assert f"step {SHORT_ROLES['steps']}" in tab.compare.title_text


def test_the_hand_built_heads_are_scored_and_clickable(window, tiny_bert, in_thread_forward):
    from engine.head_roles import ROLE_HEADS
    from engine.models import roles_of_maps

    tab = window.model_heads
    tab.add_model_folder(str(tiny_bert))
    window.state.update_heads_input(sentence="The cat sat on the mat, and it slept.")
    show_tab(window)
    assert window.head_roles_tab.wait_idle() and tab.wait_idle()
    QApplication.processEvents()
    heads = window.head_roles_tab.view.newest_results
    compare = tab.compare
    assert compare.cells["hand"].shape == (1, len(ROLE_HEADS))
    tokens = [t.text for t in heads.tokens]
    expected = roles_of_maps(np.asarray(heads.weights)[None], tokens, causal=False)
    assert [compare.role_at("hand", 0, h) for h in range(len(ROLE_HEADS))] == \
        [r.role for r in expected]
    # the hand-built previous-token head is found as one, the first-token head as one
    assert compare.role_at("hand", 0, ROLE_HEADS.index("previous")) == "previous"
    assert compare.role_at("hand", 0, ROLE_HEADS.index("first")) == "first"
    item = compare.cells["hand"].item
    click(compare, compare.cell_centre("hand", 0, 0))
    assert tab.focus == ("hand", 0, 0)
    assert tab.detail.tokens == tuple(tokens)
    assert tab.detail.title.text.startswith("hand-built 1 · previous token")
    assert tab.scores_label.text().startswith("Hand-built head 1 (previous token) is")
    # a new sentence updates the same items, and the detail follows the head in focus
    window.state.update_heads_input(sentence="the dog ran home.")
    assert window.head_roles_tab.wait_idle() and tab.wait_idle()
    QApplication.processEvents()
    assert compare.cells["hand"].item is item
    assert tab.detail.tokens == ("the", "dog", "ran", "home", ".")
    # a click on the pretrained grid takes the focus back
    click(tab.grid, tab.grid.cell_centre(1, 1))
    assert tab.focus is None and compare.selected is None and tab.grid.selected == (1, 1)
    assert tab.detail.title.text.startswith("layer 1 · head 1")


JAPANESE = "猫がマットの上に座った。猫は疲れていたので、それから眠った。"


@pytest.mark.slow
@needs_minilm
@pytest.mark.parametrize("sentence", [LESSON, JAPANESE])
def test_minilm_summary_finding_and_note_in_both_languages(window, sentence):
    from engine.models import head_roles, summarize_roles

    window.state.update_model_view(model="minilm", model_dir="")
    window.state.update_heads_input(sentence=sentence)
    tab = show_tab(window)
    model = load_model(cached_model("minilm"))
    forward = run_sentence(model, sentence)
    summary = summarize_roles(head_roles(forward, model), forward)
    assert summary.first_token == "[CLS]"
    assert summary.line() in tab.summary_label.text()
    scaled = forward.scaled_score_variance
    finding = (f"Here Var(q·k/√d_k) runs from {format_number(float(scaled.min()))} "
               f"(L{int(scaled.argmin())}) to {format_number(float(scaled.max()))} "
               f"(L{int(scaled.argmax())}) instead of 1")
    assert finding in tab.variance_label.text()
    for piece in shown_per_head_finding(forward):
        assert piece in tab.variance_label.text()
    assert (scaled > 1).all()   # on both sentences every layer is above the premise's 1
    note = tab.japanese_note
    if sentence == JAPANESE:
        assert note.isVisible()
        unknown = forward.tokens.count("[UNK]")
        assert f"Here {unknown} of {len(forward.tokens)} tokens are [UNK]." in note.text()
    else:
        assert not note.isVisible()
    window.switch_language("ja")
    try:
        assert f"{summary.first_token_heads}" in tab.summary_label.text()
        assert "[CLS]" in tab.summary_label.text()
        assert format_number(float(scaled.max())) in tab.variance_label.text()
    finally:
        window.switch_language("en")


def test_grid_labels_thin_out_instead_of_overlapping(tab):
    """A big model's grid in a small view (as at 300 % text): every k-th layer and head is
    labelled, and no two labels overlap."""
    from gui_helpers import _tick_texts, settle_layout, text_problems

    grid = tab.grid
    grid.cells.make(24, 48)
    grid.resize(420, 300)
    settle_layout([grid])
    top = [text for text, rect in sorted(_tick_texts(grid.plot.getAxis("top")),
                                         key=lambda item: item[1].left())]
    assert 1 < len(top) < 48 and top[0] == "0"
    assert not [p for p in text_problems(grid) if p.startswith("overlap")]


def shown_per_head_finding(forward) -> list[str]:
    """The pieces of the per-head sentence, formatted from the engine's summary."""
    from engine.models.score_variance import per_head_summary

    s = per_head_summary(forward.head_scaled_within_row_variance)
    medians = ", ".join(f"L{i} {format_number(m)}" for i, m in enumerate(s.medians))
    (ll, lh), (hl, hh) = s.lowest_at, s.highest_at
    return [f"the median head per layer is {medians};",
            f"from {format_number(s.lowest)} (L{ll}·H{lh}) to {format_number(s.highest)} "
            f"(L{hl}·H{hh})", f"{s.below} of {s.count} are below 1",
            f"L{hl}·H{hh} stands out: {format_number(s.highest_over_median)} times"]


def test_the_variance_plot_draws_every_head_and_the_text_states_its_distribution(tab):
    """One dot per head and strip at log10 of the engine's within-row variance (raw and
    ÷√d_k, the same float64 numbers: exact), lines at d_k and 1; the finding's per-head
    sentence carries the engine's median per layer, range, count below 1 and outlier."""
    from gui.panels.head_variance_plot import strip_x

    forward = tab.result.forward
    plot = tab.variance_plot
    assert plot.isVisible()
    layers, heads = forward.head_within_row_variance.shape
    for key, values, side in (("raw", forward.head_within_row_variance, -1.0),
                              ("scaled", forward.head_scaled_within_row_variance, 1.0)):
        x, y = plot.dots[key].getData()
        np.testing.assert_array_equal(y, np.log10(values).ravel())
        np.testing.assert_array_equal(x, strip_x(layers, heads, side).ravel())
        assert len(x) == layers * heads
    assert plot.d_k_line.value() == np.log10(forward.d_k)
    assert plot.one_line.value() == 0.0
    y0, y1 = plot.plot.vb.viewRange()[1]
    every = np.log10(np.concatenate([forward.head_within_row_variance.ravel(),
                                     forward.head_scaled_within_row_variance.ravel(),
                                     [forward.d_k, 1.0]]))
    assert y0 < every.min() and every.max() < y1
    text = tab.variance_label.text()
    for piece in shown_per_head_finding(forward):
        assert piece in text


def test_special_ids_outside_the_vocabulary_are_said_in_the_summary(make_tab, tmp_path,
                                                                     no_minilm):
    """A GPT-2 whose config keeps transformers' default bos/eos 50256 runs, and the summary
    says what was ignored."""
    import json

    from tiny_models import write_gpt2

    folder = write_gpt2(tmp_path / "gpt2")
    config = json.loads((folder / "config.json").read_text())
    config.update(bos_token_id=50256, eos_token_id=50256)
    (folder / "config.json").write_text(json.dumps(config))
    tab = make_tab(folder)
    assert tab.result is not None and tab.result.error == "", tab.result
    text = tab.texts.summary_label.text()
    vocab = load_model(folder).config.vocab_size
    assert (f"bos_token_id 50256, eos_token_id 50256: outside the vocabulary 0..{vocab - 1}, "
            "ignored as transformers does") in text


def test_a_model_with_nan_weights_leaves_no_figure_of_the_model_before(make_tab, tiny_bert,
                                                                      tmp_path, no_minilm):
    """Issue 32: a NaN model's name came beside the previous model's variance table, and
    hidden panels kept the previous model's figures."""
    from safetensors.numpy import load_file, save_file

    from tiny_models import write_bert

    poisoned = write_bert(tmp_path / "nan-bert")
    tensors = load_file(str(poisoned / "model.safetensors"))
    tensors["embeddings.word_embeddings.weight"][0, 0] = np.nan
    save_file(tensors, str(poisoned / "model.safetensors"))
    tab = make_tab(tiny_bert)
    tab.grid.head_clicked.emit(0, 1)
    QApplication.processEvents()
    panels = (tab.grid, tab.detail, tab.variance_plot)
    assert all(panel.newest_results is not None for panel in panels)
    assert tab.variance_label.text() and tab.summary_label.text()
    tab.add_model_folder(str(poisoned))
    assert tab.wait_idle()
    QApplication.processEvents()
    assert "embeddings.word_embeddings.weight" in tab.message and tab.result is None
    assert tab.detail.newest_results is None and tab.variance_plot.newest_results is None
    assert not tab.variance_plot.d_k_line.isVisible() and tab.variance_plot.d_k is None
    assert tab.grid.newest_results.forward is None
    assert tab.summary_label.text() == "" and tab.variance_label.text() == ""
    assert tab.scores_label.text() == ""
