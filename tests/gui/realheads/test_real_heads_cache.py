"""The Real heads tab with a bad MiniLM cache or a hostile model folder: it keeps its controls,
offers Fetch and says why in its own message; nothing is raised into Qt."""

from PySide6.QtWidgets import QApplication

from engine.models import verify
from engine.models.loader import clear_cache
from gui.common import names
from gui.common.guard import errors
from gui.realheads.tab import ModelHeadsTab
from gui.state import AppState
from model_faults import declare, deny_under, flip_a_bit, install_as_minilm  # noqa: E402
from tiny_models import write_bert  # noqa: E402

TINY_SENTENCE = "the cat sat on the mat."


def settle(qtbot, widget):
    for _ in range(3):
        QApplication.processEvents()
    qtbot.wait(50)


def make_tab(qtbot, **kwargs) -> ModelHeadsTab:
    state = AppState()
    state.update_heads_input(sentence=TINY_SENTENCE)
    tab = ModelHeadsTab(state, **kwargs)
    qtbot.addWidget(tab)
    tab.resize(1100, 700)
    tab.show()
    return tab


def test_an_unreadable_cache_leaves_the_tab_working_and_lesson_8_opens(qtbot, tmp_path,
                                                                      monkeypatch):
    from gui.app import build_window

    folder = install_as_minilm(write_bert(tmp_path / "good"), tmp_path / "cache", monkeypatch)
    deny_under(monkeypatch, folder)
    verify.forget()
    seen = list(errors.seen)
    window = build_window(["--lang", "en", "--lesson", "8"])
    try:
        window.show()
        assert window.lesson.index == 7
        qtbot.waitUntil(lambda: window.area.workspace() == "realheads" and isinstance(window.built_tab(names.MODEL_HEADS), ModelHeadsTab),
                        timeout=5000)
        tab = window.model_heads
        settle(qtbot, tab)
        assert tab.message == ("This model could not be shown: the cached "
                               "sentence-transformers/all-MiniLM-L6-v2 in "
                               f"{folder} cannot be used: the folder cannot be read: "
                               "permission denied")
        assert tab.message_label.isVisible()
        assert tab.fetch_button.isVisible() and tab.fetch_button.isEnabled()
        assert tab.model_combo.isVisible() and tab.sentence_edit.isVisible()
        assert tab.model_combo.currentText() == "MiniLM-L6 (cannot be read)"
        assert errors.seen == seen
    finally:
        window.close()
    verify.forget()


def test_a_damaged_minilm_offers_fetch_says_why_and_a_fetch_repairs_it(qtbot, tmp_path,
                                                                      monkeypatch):
    import gui.realheads.forward_process as forward_process

    monkeypatch.setattr(forward_process, "ENABLED", False)   # the child would not see the pins
    good = write_bert(tmp_path / "good", plants={0: "previous"})
    folder = install_as_minilm(good, tmp_path / "cache", monkeypatch)
    flip_a_bit(folder / "model.safetensors")
    verify.forget()
    clear_cache()

    def fetch_again(key, progress, cancelled):
        (folder / "model.safetensors").write_bytes((good / "model.safetensors").read_bytes())
        progress(1.0, "done")
        return folder

    tab = make_tab(qtbot, fetch_fn=fetch_again)
    assert tab.fetch_button.isVisible()
    assert tab.model_combo.currentText() == "MiniLM-L6 (cannot be read)"
    assert tab.message == ("This model could not be shown: the cached "
                           "sentence-transformers/all-MiniLM-L6-v2 in "
                           f"{folder} cannot be used: model.safetensors does not match its "
                           "pinned sha256 (damaged or changed)")
    assert tab.sentence_edit.isVisible() and tab.sentence_edit.isEnabled()
    tab.fetch_button.click()
    qtbot.waitUntil(lambda: not tab.fetcher.running, timeout=5000)
    assert tab.wait_idle()
    settle(qtbot, tab)
    assert tab.fetch_button.isHidden()
    assert tab.message == "" and tab.result is not None and tab.result.error == ""
    assert tab.model_combo.currentText() == "MiniLM-L6 (all-MiniLM-L6-v2)"
    assert tab.result.role(0, 0).role == "previous"
    tab.shutdown()
    tab.close()
    verify.forget()
    clear_cache()


def test_a_hostile_header_reaches_the_tab_as_one_message_without_a_retry(qtbot, tmp_path):
    from gui.realheads.forward_process import forward_processes

    hostile = declare(write_bert(tmp_path / "hostile"), "embeddings.word_embeddings.weight",
                      "F32", (10**12,))
    seen = list(errors.seen)
    tab = make_tab(qtbot)
    tab.add_model_folder(str(hostile))
    assert tab.wait_idle(30000)
    settle(qtbot, tab)
    assert tab.message == ("This model could not be shown: tensor "
                           f"'embeddings.word_embeddings.weight' in {hostile} has shape "
                           "(1000000000000,), config.json implies (25, 64)")
    (process,) = forward_processes()
    assert process.processes_started == 1            # the model's error is not retried
    assert tab.model_combo.isVisible() and tab.sentence_edit.isVisible()
    assert errors.seen == seen
    tab.shutdown()
    tab.close()
