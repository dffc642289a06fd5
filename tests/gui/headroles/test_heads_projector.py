"""The head-roles view on a projector: in a wide, short view at large text its texts stand
beside the maps, smaller, and the maps keep the height (issue 31's walk: at 300 % on
1280 × 720 the view asked 1 232 px where 345 are shown, and no map was in view)."""
import itertools

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication

from gui.common.style import make_theme
from gui.panels.heads_arrangement import MIN_TEXT_PT
from gui.panels.heads_view import HeadsView, compute_heads
from gui.state import AppState, HeadsInput
from gui.state.app_state import DEFAULT_SENTENCES, DEFAULT_TOKEN_MODES
from gui_helpers import text_problems
from tab_fixtures import dispose

#: The view's size under the sentence inputs in the walk's workspace (presentation mode):
#: 1280 × 720 at 300 % and 200 %, 1920 × 1080 at 300 %.
PROJECTOR_VIEWS = [((1258, 345), 3.0), ((1258, 420), 2.0), ((1898, 675), 3.0)]


@pytest.fixture
def view(qapp):
    from gui.app import configure_pyqtgraph

    configure_pyqtgraph()
    made = HeadsView()
    made.show()
    yield made
    dispose(made)


def data_rect(view) -> QRectF:
    """The union of the maps' view boxes, in the view's pixels."""
    union = QRectF()
    for plot in view.plots:
        vb = plot.vb
        union = union.united(vb.deviceTransform(view.viewportTransform()).mapRect(vb.boundingRect()))
    return union


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_on_a_projector_the_texts_go_beside_the_maps_and_the_maps_keep_the_height(view, lang):
    from gui.common.i18n import set_language

    set_language(lang)
    try:
        for (size, scale), random in itertools.product(PROJECTOR_VIEWS, (False, True)):
            heads = HeadsInput(sentence=DEFAULT_SENTENCES[lang], token_mode=DEFAULT_TOKEN_MODES[lang],
                               random_heads=random, seed=3)
            view.resize(*size)
            view.apply_theme(make_theme(presentation=True, ui_scale=scale))
            view.update_results(compute_heads(heads))
            for _ in range(4):
                QApplication.processEvents()
                view.minimum_height.fit()
            where = (lang, size, scale, random)
            assert view.minimumHeight() <= size[1], where
            assert view.size().toTuple() == size, where
            assert view.text_side, where
            assert view.theme.font_pt * view.text_factor >= MIN_TEXT_PT, where
            data = data_rect(view)
            assert data.height() >= 0.6 * size[1] and data.width() >= 0.5 * size[0], \
                (where, data.getRect())
            texts = view.texts.sceneBoundingRect()
            maps = view.maps.sceneBoundingRect()
            assert texts.left() >= maps.right() - 1, where        # beside, not over
            assert not text_problems(view, tolerance=scale), where
    finally:
        set_language("en")


def test_a_tall_view_keeps_its_texts_over_the_maps(view):
    """The windowed workspace at 1920 × 1080 and 100 % text, as before."""
    view.resize(953, 384)
    view.apply_theme(make_theme(ui_scale=1.0))
    view.update_results(compute_heads(AppState().heads_input))
    for _ in range(4):
        QApplication.processEvents()
        view.minimum_height.fit()
    assert not getattr(view, "text_side", False) and getattr(view, "text_factor", 1.0) == 1.0
    assert view.texts.sceneBoundingRect().bottom() <= view.maps.sceneBoundingRect().top() + 1
    assert not text_problems(view)
