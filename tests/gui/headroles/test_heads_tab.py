"""HeadRolesTab / HeadsView: the heatmaps follow the sentence, the token mode and the random
toggle in place; the average is the mean of the heads; empty text gives a message. One panel
serves the module; after each test its inputs and theme are put back."""
import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QLineEdit, QSpinBox

from engine.head_roles import ROLE_HEADS, random_heads, role_heads, tokenize
from gui.headroles.tab import HeadRolesTab
from gui.state.app_state import DEFAULT_SENTENCES
from gui.panels.heads_view import HeadsView
from gui.common.style import LIGHT, Theme, format_number
from tab_fixtures import dispose


@pytest.fixture(scope="module")
def module_panel(qapp):
    """A HeadRolesTab (its own state and study) and its state as built."""
    from gui.app import configure_pyqtgraph

    configure_pyqtgraph()
    p = HeadRolesTab()
    p.resize(1200, 700)
    p.show()
    settle(p)
    yield p, p.state.snapshot()
    dispose(p)


@pytest.fixture
def panel(module_panel):
    """The module's panel; after the test its inputs and theme as built."""
    p, built = module_panel
    assert p.state.snapshot() == built
    yield p
    p.state.restore(built)
    p.view.apply_theme(LIGHT)
    settle(p)


def settle(panel):
    """Wait until the head-roles study has computed the newest input and the view shows it."""
    assert panel.wait_idle()
    QApplication.processEvents()


def shapes(view):
    return [item.image.shape for item in view.images]


def select_mode(panel, mode):
    combo = panel.findChild(QComboBox, "tokenModeCombo")
    combo.setCurrentIndex(combo.findData(mode))
    settle(panel)


def test_object_names_and_defaults(panel):
    assert panel.objectName() == "headsPanel"
    view = panel.findChild(HeadsView, "headsView")
    assert view is panel.view
    edit = panel.findChild(QLineEdit, "sentenceEdit")
    assert edit.text() == DEFAULT_SENTENCES["en"]
    assert panel.findChild(QCheckBox, "randomHeadsCheck").isChecked() is False
    combo = panel.findChild(QComboBox, "tokenModeCombo")
    assert [combo.itemData(i) for i in range(combo.count())] == ["en", "ja_chars", "ja_words"]
    assert all(combo.itemText(i) for i in range(combo.count()))
    n = len(tokenize(DEFAULT_SENTENCES["en"], "en"))
    assert shapes(view) == [(n, n)] * (len(ROLE_HEADS) + 1)
    assert "hand-built heads (rules, not learned)" in view.kind_text
    titles = [t.text for t in view.titles]
    assert "previous token" in titles[0] and "pronoun → nearest preceding noun" in titles[5]
    assert "average" in titles[6]


def test_editing_the_sentence_resizes_the_maps_in_place(panel):
    view = panel.view
    items = list(view.images)
    edit = panel.findChild(QLineEdit, "sentenceEdit")
    edit.setText("The cat sat on the mat. It was happy.")
    settle(panel)
    assert shapes(view) == [(11, 11)] * 7
    assert view.images == items                            # same items, new data
    np.testing.assert_allclose(np.stack([im.image for im in view.head_images]),
                               role_heads(tokenize(edit.text(), "en")))
    assert view.head_images[5].image[7, 5] >= 0.9          # It → mat
    left = view.average_plot.getAxis("left")
    assert left.labels == texts_of("The cat sat on the mat. It was happy.")
    edit.setText("Hi")
    settle(panel)
    assert shapes(view) == [(1, 1)] * 7


def texts_of(sentence, mode="en"):
    return [t.text for t in tokenize(sentence, mode)]


def test_average_is_the_mean_of_the_head_images(panel):
    view = panel.view
    for random in (False, True):
        panel.findChild(QCheckBox, "randomHeadsCheck").setChecked(random)
        settle(panel)
        heads = np.stack([im.image for im in view.head_images])
        np.testing.assert_allclose(view.average_image.image, heads.mean(axis=0), atol=1e-12)
        np.testing.assert_allclose(view.average_image.image.sum(axis=1), 1.0, atol=1e-12)


def test_random_toggle_changes_label_titles_and_images(panel):
    view = panel.view
    check = panel.findChild(QCheckBox, "randomHeadsCheck")
    seed = panel.findChild(QSpinBox, "headsSeedSpin")
    before = [im.image.copy() for im in view.head_images]
    assert not seed.isEnabled()
    check.setChecked(True)
    settle(panel)
    assert "random heads (seeded, untrained)" in view.kind_text
    assert "hand-built" not in view.kind_text
    assert "random head 1" in view.titles[0].text
    assert seed.isEnabled()
    after = np.stack([im.image for im in view.head_images])
    n = len(view.tokens)
    np.testing.assert_allclose(after, random_heads(n, len(ROLE_HEADS), seed=0))
    assert not np.allclose(after, np.stack(before))
    seed.setValue(7)
    settle(panel)
    np.testing.assert_allclose(np.stack([im.image for im in view.head_images]),
                               random_heads(n, len(ROLE_HEADS), seed=7))
    check.setChecked(False)
    settle(panel)
    assert "hand-built heads" in view.kind_text
    np.testing.assert_allclose(np.stack([im.image for im in view.head_images]), np.stack(before))


def test_entropy_text_is_live(panel):
    view = panel.view
    per_head, avg = view.entropies
    assert avg >= per_head.mean()
    assert "entropy of the average" in view.entropy_text
    assert format_number(avg) in view.entropy_text
    assert format_number(float(per_head.mean())) in view.entropy_text
    panel.findChild(QLineEdit, "sentenceEdit").setText("It.")
    settle(panel)
    per_head2, avg2 = view.entropies
    assert avg2 != avg
    assert format_number(avg2) in view.entropy_text


def test_switching_to_japanese_swaps_the_default_sentence(panel):
    view = panel.view
    edit = panel.findChild(QLineEdit, "sentenceEdit")
    select_mode(panel, "ja_chars")
    assert edit.text() == DEFAULT_SENTENCES["ja"]
    n = len(DEFAULT_SENTENCES["ja"])
    assert view.mode == "ja_chars" and len(view.tokens) == n
    assert shapes(view) == [(n, n)] * 7
    assert view.average_plot.getAxis("bottom").labels == list(DEFAULT_SENTENCES["ja"])
    select_mode(panel, "ja_words")
    assert edit.text() == DEFAULT_SENTENCES["ja"]
    assert [t.text for t in view.tokens][:3] == ["猫", "が", "マット"]
    assert shapes(view) == [(10, 10)] * 7
    panel.grab()                                  # paints the Japanese labels without warnings
    select_mode(panel, "en")
    assert edit.text() == DEFAULT_SENTENCES["en"]


def test_edited_text_is_kept_when_the_mode_changes(panel):
    edit = panel.findChild(QLineEdit, "sentenceEdit")
    edit.setText("彼女は本を読んだ。")
    settle(panel)
    select_mode(panel, "ja_words")
    assert edit.text() == "彼女は本を読んだ。"
    assert [t.text for t in panel.view.tokens] == ["彼女", "は", "本", "を", "読んだ", "。"]
    select_mode(panel, "en")
    assert edit.text() == "彼女は本を読んだ。"


def test_empty_sentence_shows_a_message(panel):
    view = panel.view
    edit = panel.findChild(QLineEdit, "sentenceEdit")
    for text in ("", "   "):
        edit.setText(text)
        settle(panel)
        assert view.tokens == [] and view.weights is None
        assert view.message and "Type a sentence" in view.entropy_text
        assert not any(im.isVisible() for im in view.images)
        panel.grab()
    select_mode(panel, "ja_chars")
    assert view.message
    panel.findChild(QCheckBox, "randomHeadsCheck").setChecked(True)
    settle(panel)
    assert view.message
    edit.setText("猫")
    settle(panel)
    assert view.message == "" and shapes(view) == [(1, 1)] * 7
    assert all(im.isVisible() for im in view.images)


def test_long_sentences_are_cut_and_say_so(panel):
    edit = panel.findChild(QLineEdit, "sentenceEdit")
    edit.setText(" ".join(["cat"] * 45))
    settle(panel)
    assert shapes(panel.view) == [(40, 40)] * 7
    assert "5 more not drawn" in panel.view.entropy_text
    panel.grab()


def test_language_change_and_theme_keep_the_state(panel):
    view = panel.view
    panel.findChild(QCheckBox, "randomHeadsCheck").setChecked(True)
    settle(panel)
    before = view.average_image.image.copy()
    QCoreApplication.sendEvent(panel, QEvent(QEvent.Type.LanguageChange))
    QCoreApplication.sendEvent(view, QEvent(QEvent.Type.LanguageChange))
    assert panel.findChild(QCheckBox, "randomHeadsCheck").text() == "random heads"
    assert "random heads" in view.kind_text
    view.apply_theme(Theme("dark", "#000000", "#F2F2F2"))
    np.testing.assert_array_equal(view.average_image.image, before)
    assert "random heads" in view.kind_text
    panel.grab()


def test_only_the_newest_sentence_reaches_the_view(panel):
    edit = panel.findChild(QLineEdit, "sentenceEdit")
    shown = []

    def count():
        shown.append(len(panel.view.tokens))

    panel.view.changed.connect(count)
    for text in ("a", "a b", "a b c d"):
        edit.setText(text)                  # faster than the study: older inputs are dropped
    settle(panel)
    panel.view.changed.disconnect(count)
    assert shown[-1] == 4 and len(shown) <= 2
    assert panel.state.heads_input.sentence == "a b c d"
    assert shapes(panel.view) == [(4, 4)] * 7
