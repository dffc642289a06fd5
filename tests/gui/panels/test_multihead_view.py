"""The multi-head diagram draws what the engine computes, not the classic misconception:
X whole, W_Q/W_K/W_V split into per-head column blocks, K/V blocks shared under GQA/MQA,
labels that never overlap; hovering and clicking a head highlight every block it uses."""
import itertools

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtWidgets import QApplication

from engine import Params, compute
from engine.multihead import run_multihead, seeded_matrices
from gui.common import names
from gui.panels.multihead_layout import MIN_BOX
from gui.panels.multihead_texts import not_drawn_text
from gui_helpers import settle


@pytest.fixture
def window(shared_window):
    """The tests of this module share one synchronous window, put back after each
    (conftest.shared_window); a test that needs a window of its own asks for sync_window."""
    return shared_window


def view_of(window):
    """The multi-head view, its workspace in front (a hidden view is drawn when shown)."""
    window.area.bring_forward(names.MULTIHEAD)
    for _ in range(3):          # shown, painted, and laid out again for the scale it shows
        QApplication.processEvents()
    settle(window)
    return window.panels[names.MULTIHEAD]


def set_params(window, **changes):
    window.state.update_params(**changes)
    settle(window)


def strip_runs(words: np.ndarray) -> list:
    """Lengths of the runs of equal colours along a 1-pixel strip."""
    row = words.reshape(-1)
    edges = np.flatnonzero(row[1:] != row[:-1]) + 1
    return np.diff(np.concatenate([[0], edges, [row.size]])).tolist()


def in_view(item):
    """An item's rectangle in the ViewBox's coordinates (view pixels), as view.rects."""
    return item.mapRectToParent(item.boundingRect())


def settle_sizes(window):
    """Let a resize reach the panels (the layout is re-picked from a zero timer)."""
    for _ in range(5):
        QApplication.processEvents()
    settle(window)


def visible_texts(view):
    labels = list(view.labels.values()) + view.head_labels
    return [lab for lab in labels if lab.isVisible() and lab.toPlainText()]


def test_x_is_one_block_and_w_q_has_h_column_blocks_of_d_k(window):
    window.resize(1600, 1100)       # room for the shapes under the names
    settle_sizes(window)
    view = view_of(window)
    mh = window.model.results.multihead
    n = mh.x.shape[0]
    assert view.x_image.values is mh.x and mh.x.shape == (n, 512)
    assert "x" not in view.strips                       # no head colours on X
    # name and shape, on two lines or on one (the layout picks what fits its height)
    assert view.x_label.toPlainText().split() == ["X", str(n), "×", "512"]
    assert [(a, b) for a, b, _ in view.blocks["w_q"]] == [(64 * i, 64 * (i + 1)) for i in range(8)]
    words = view.strips["w_q"].pixels()
    assert words.shape == (1, 8) and len(set(words.ravel().tolist())) == 8
    assert strip_runs(words) == [1] * 8                 # 8 colours, one per column block
    strip, box = in_view(view.strips["w_q"]), view.rects["w_q"]
    assert strip.width() == pytest.approx(box.width()) and strip.bottom() <= box.top()
    assert view.images["w_q"].values.shape == (512, 512)
    assert view.images["q"].values.shape == (n, 512)
    np.testing.assert_array_equal(view.images["q"].values[:, 64:128], mh.q[1])


def test_changing_x_in_the_first_64_columns_changes_every_head():
    """The misconception test: head 1 does not own X[:, 0:64]; every head reads all of X."""
    rng = np.random.default_rng(3)
    x, w_q, w_k, w_v, w_o = seeded_matrices(3, 6, 512)
    before = run_multihead(512, 8, 6, matrices=(x, w_q, w_k, w_v, w_o))
    x2 = x.copy()
    x2[:, 0:64] += rng.standard_normal((6, 64), dtype=np.float32)
    after = run_multihead(512, 8, 6, matrices=(x2, w_q, w_k, w_v, w_o))
    change = np.abs(after.weights - before.weights).max(axis=(1, 2))
    assert change.shape == (8,) and np.all(change > 1e-3)


def test_maps_are_the_engines_weights_and_the_divisor_is_labelled(window):
    window.resize(1600, 1000)
    settle(window)
    view = view_of(window)
    mh = window.model.results.multihead
    for i in range(8):
        np.testing.assert_array_equal(view.head_maps[i].values, mh.weights[i])
        np.testing.assert_array_equal(view.head_outputs[i].values, mh.head_outputs[i])
    assert view.labels["maps"].toPlainText() == "softmax(Qⁱ·Kⁱᵀ/√64)"
    set_params(window, scale_by="d_model")
    mh = window.model.results.multihead
    assert mh.divisor == pytest.approx(512 ** 0.5)
    assert view.labels["maps"].toPlainText() == "softmax(Qⁱ·Kⁱᵀ/√512)"
    assert "√d_model" in view.note_label.toPlainText()
    np.testing.assert_array_equal(view.head_maps[0].values, mh.weights[0])


def test_shape_labels(window):
    window.resize(1600, 1100)       # room for the shapes under the names
    settle_sizes(window)
    view = view_of(window)
    n = window.model.params.tokens
    texts = {k: lab.toPlainText() for k, lab in view.labels.items()}
    assert texts["w_q"] == "W_Q\n512 × 512" and texts["w_k"] == "W_K\n512 × 512"
    assert texts["q"] == f"Q\n{n} × 512" and texts["outs"] == f"Aⁱ·Vⁱ  {n} × 64"
    assert texts["concat"] == f"concat\n{n} × 512" and texts["w_o"] == "W_O\n512 × 512"
    assert texts["output"] == f"output\n{n} × 512"
    assert "512 × 64" in texts["note"] and "d_model × d_k" in texts["note"]


@pytest.mark.parametrize("heads, kv, drawn", [(1, 1, 1), (8, 8, 8), (64, 64, 8), (8, 1, 8),
                                              (8, 2, 8), (64, 2, 8)])
def test_block_counts_and_kv_sharing(window, heads, kv, drawn):
    window.resize(1600, 1000)
    set_params(window, heads=heads, dk=512 // heads, d_model=512, kv_heads=kv)
    view = view_of(window)
    mh = window.model.results.multihead
    assert (mh.computed_heads, mh.computed_kv_heads) == (heads, kv)
    dk = 512 // heads
    shown = sum(m.isVisible() for m in view.head_maps)
    assert shown == drawn if heads <= 8 else 4 <= shown <= 8     # the "+k" label takes room
    drawn = shown
    assert [v.isVisible() for v in view.head_labels[:drawn]] == [True] * drawn
    assert len(view.blocks["w_q"]) == heads and len(view.blocks["q"]) == heads
    assert view.images["w_k"].values.shape == (512, kv * dk)
    assert view.images["k"].values.shape == (mh.x.shape[0], kv * dk)
    group = heads // kv
    for name in ("w_k", "w_v", "k", "v"):
        assert [heads_ for _, _, heads_ in view.blocks[name]] == \
            [tuple(range(j * group, (j + 1) * group)) for j in range(kv)]
    # each K/V block's strip carries the colours of the query heads that share it
    q_words, k_words = view.strips["q"].pixels(), view.strips["k"].pixels()
    np.testing.assert_array_equal(k_words, q_words)
    assert in_view(view.strips["k"]).width() == pytest.approx(
        view.rects["k"].width())
    # K/V-sized: their share of Q's width, or the narrowest box drawn
    assert view.rects["k"].width() == pytest.approx(
        max(MIN_BOX, view.rects["q"].width() * kv / heads))
    more = view.labels["more"].toPlainText()
    assert more == (f"+{heads - drawn} heads not drawn" if heads > drawn else "")
    note = view.note_label.toPlainText().replace("\n", " ")
    if kv < heads:   # K and V blocks are the K/V head's, not each query head's own
        assert "of W_Q, W_K, W_V" not in note and "its K/V head's blocks of W_K, W_V" in note
    if kv == 1 and heads > 1:
        assert f"one K/V head shared by all {heads} query heads" in note
    elif kv < heads:
        assert f"{kv} K/V heads, each shared by {group} query heads" in note
    else:
        assert "K/V" not in note


def test_reduced_width_is_said(window):
    set_params(window, heads=1, dk=2048, d_model=2048)
    view = view_of(window)
    mh = window.model.results.multihead
    assert mh.reduced
    note = view.note_label.toPlainText().replace("\n", " ")
    assert f"reduced width {mh.computed_heads * mh.computed_dk}" in note
    assert view.note_label.isVisible()
    assert view._texts(window.model.results)["w_q"] == "W_Q\n2048 × 2048"   # the model's shapes
    assert view.labels["w_q"].toPlainText().startswith("W_Q")


def test_clicking_head_3_highlights_its_blocks(window, qtbot):
    set_params(window, kv_heads=2)
    view = view_of(window)
    mh = window.model.results.multihead
    target = in_view(view.head_maps[2]).center()
    point = view.mapFromScene(view.view.mapViewToScene(target))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(point.x(), point.y()))
    QApplication.processEvents()
    assert view.selected == 2
    lit = view.highlighted()
    assert set(lit) == {"w_q", "w_k", "w_v", "q", "k", "v", "map", "out", "concat", "w_o"}
    for name in ("w_q", "q", "concat"):
        r = view.rects[name]
        assert lit[name].left() == pytest.approx(r.left() + r.width() * 2 / 8)
        assert lit[name].width() == pytest.approx(r.width() / 8)
    r = view.rects["k"]                      # head 3 uses K/V head 1 of 2 (heads 1–4)
    assert lit["k"].left() == pytest.approx(r.left()) and lit["k"].width() == pytest.approx(r.width() / 2)
    r = view.rects["w_o"]
    assert lit["w_o"].top() == pytest.approx(r.top() + r.height() * 2 / 8)
    assert lit["map"] == in_view(view.head_maps[2]) and lit["out"] == in_view(view.head_outputs[2])
    # the hover readout names the entry under the cursor, with its value from the engine
    q_rect = view.rects["q"]
    entry = view.entry_at(QPointF(q_rect.left() + q_rect.width() * (64 * 5 + 3.5) / 512,
                                  q_rect.top() + q_rect.height() * 1.5 / mh.x.shape[0]))
    name, row, col, value, head = entry
    assert (name, row, col, head) == ("q", 1, 64 * 5 + 3, 5)
    assert value == pytest.approx(float(mh.q[5, 1, 3]))
    view.select_head(None)
    assert view.highlighted() == {}


def overlaps(view):
    boxes = [lab.sceneBoundingRect() for lab in visible_texts(view)]
    return [(a, b) for a, b in itertools.combinations(boxes, 2) if a.intersects(b)]


@pytest.fixture
def forget_window_state():
    """Requested before `window`, so it runs after the window has saved its dock sizes
    at 200 % text: the next test's window starts from the defaults."""
    yield
    from PySide6.QtCore import QSettings

    settings = QSettings()
    for key in ("window/geometry", "window/state"):
        settings.remove(key)


@pytest.mark.parametrize("size", [(1280, 720), pytest.param((1600, 1000), marks=pytest.mark.slow)])
def test_no_text_overlaps_and_all_inside_the_view(forget_window_state, window, size):
    window.resize(*size)
    view_of(window)                           # the Multi-head workspace in front
    settle(window)
    view = view_of(window)
    for lang, scale, (heads, kv) in itertools.product(("en", "ja"), (1.0, 2.0),
                                                    ((8, 8), (64, 4), (8, 1))):
        window.switch_language(lang)
        window.set_ui_scale(scale)
        set_params(window, heads=heads, dk=512 // heads, d_model=512, kv_heads=kv)
        settle_sizes(window)      # painted, and laid out again if the scale moved under it
        # the mouse off the matrices: the note, not an entry's readout, on its line
        view.scene().sigMouseMoved.emit(view.view.mapViewToScene(QPointF(1, 1)))
        QApplication.processEvents()
        assert view.isVisible()
        note = view.note_label.toPlainText().replace("\n", "")
        assert ("全体を読み" in note) == (lang == "ja")
        bounds = view.view.sceneBoundingRect().adjusted(-0.5, -0.5, 0.5, 0.5)
        shown = visible_texts(view)
        assert not overlaps(view), (lang, scale, heads)
        assert all(bounds.contains(lab.sceneBoundingRect()) for lab in shown)
        names = {k for k, lab in view.labels.items() if lab in shown}
        if scale == 1.0:                      # at 100 % every label has room
            assert names >= {"x", "w_q", "w_k", "w_v", "q", "k", "v", "maps", "outs",
                             "concat", "w_o", "output"}, (lang, size, heads, names)
            if size == (1600, 1000):
                assert "note" in names
        else:
            assert names >= {"x", "w_q", "q"}, (lang, size, heads, names)
    window.set_ui_scale(1.0)
    window.switch_language("en")


def test_hovering_reads_the_entry_and_highlights_its_head(window, qtbot):
    window.resize(1600, 1000)
    settle(window)
    view = view_of(window)
    mh = window.model.results.multihead
    r = view.rects["w_q"]
    target = QPointF(r.left() + r.width() * (64 * 6 + 10.5) / 512, r.top() + r.height() * 200.5 / 512)
    point = view.mapFromScene(view.view.mapViewToScene(target))
    qtbot.mouseMove(view.viewport(), QPoint(point.x(), point.y()))
    QApplication.processEvents()
    under = view.view.mapSceneToView(view.mapToScene(point))     # the pixel the mouse is on
    name, row, col, value, head = view.entry_at(under)
    assert name == "w_q" and head == 6
    assert value == pytest.approx(float(mh.w_q[row, col]))
    per_pixel = 512 / min(r.width(), r.height()) + 1     # entries under one pixel
    assert abs(row - 200) <= per_pixel and abs(col - (64 * 6 + 10)) <= per_pixel
    text = view.readout_label.toPlainText()
    assert text.startswith(f"W_Q (512 × 512)[{row + 1}, {col + 1}] = ") and text.endswith("head 7")
    assert set(view.highlighted()) >= {"w_q", "q", "map", "out", "concat", "w_o"}
    assert view.selected is None                  # hovering does not pin the head
    assert view.readout_label.isVisible() and not view.note_label.isVisible()
    # off the matrices (the scene's own signal; a second synthetic move is not delivered)
    view.scene().sigMouseMoved.emit(view.view.mapViewToScene(QPointF(1, view.view.height() - 1)))
    QApplication.processEvents()
    assert view.readout_label.toPlainText() == "" and view.note_label.isVisible()
    assert view.highlighted() == {}
    qtbot.mouseMove(window.menuBar(), QPoint(1, 1))    # the mouse leaves: no later hover


def test_new_results_update_the_same_items(window):
    view = view_of(window)
    items = dict(view.images), list(view.head_maps), dict(view.labels)
    set_params(window, tokens=9, heads=16, dk=32, d_model=512, kv_heads=4)
    assert (dict(view.images), list(view.head_maps), dict(view.labels)) == items
    mh = window.model.results.multihead
    assert view.images["k"].values.shape == (9, 4 * 32)
    np.testing.assert_array_equal(view.images["output"].values, mh.output)




def test_a_width_seen_again_shows_the_colours_it_had_without_colouring_them_again(
        window, monkeypatch):
    """The seeded X and W of a width are coloured once: back at that width (a drag over
    d_k going back), every image is the one a fresh view draws for the same results, and
    only the products (Q, K, V, concat, output, maps) are coloured again."""
    import gui.panels.multihead_view as module
    from gui.panels.multihead_view import DIVERGING, colour_image, drawn_entries

    view = view_of(window)
    set_params(window, dk=72, heads=8, d_model=576)
    set_params(window, dk=100, heads=8, d_model=800)
    coloured = []
    real = module.colour_index
    monkeypatch.setattr(module, "colour_index",
                        lambda values, low, high: coloured.append(values.shape) or
                        real(values, low, high))
    set_params(window, dk=72, heads=8, d_model=576)
    mh = window.model.results.multihead
    assert mh.seeded_from == (window.model.params.seed, mh.x.shape[0], 576)
    # Q, K, V, concat and output, the maps and the head outputs: 7; no W (192 × 192 drawn)
    assert (192, 192) not in coloured and len(coloured) == 7
    for name in ("x", "w_q", "w_k", "w_v", "w_o"):
        array = getattr(mh, name)
        assert view.images[name].values is array
        limit = 3.0 if name == "x" else float(np.max(np.abs(drawn_entries(array))))
        np.testing.assert_array_equal(view.images[name].pixels(),
                                      colour_image(drawn_entries(array), DIVERGING, -limit, limit))

def test_fewer_maps_than_heads_always_say_how_many_are_not_drawn(window):
    """When the view has room for fewer maps than heads, the "+k heads not drawn" note
    shows, inside the view. (The texts were made for min(h, 8) maps, so a view that fit
    fewer gave the note no room, and it was hidden: five maps for eight heads, unsaid.)"""
    cases = []
    for size, scale in itertools.product([(1280, 720), (1024, 700), (800, 600)], [1.0, 2.0, 3.0]):
        window.resize(*size)
        window.set_ui_scale(scale)
        settle_sizes(window)
        view = view_of(window)
        settle_sizes(window)
        set_params(window, heads=8, dk=64, d_model=512)
        if view.view.size().height() < 250:     # a scrolled strip: no room for any map
            continue
        shown = sum(m.isVisible() for m in view.head_maps)
        more = view.labels["more"]
        cases.append((size, scale, shown))
        if shown < 8:
            assert more.toPlainText() == f"+{8 - shown} heads not drawn", (size, scale)
            assert more.isVisible(), (size, scale, shown)
            assert QRectF(0, 0, *view.diagram.size).contains(more.rect().translated(more.pos()))
        else:
            assert more.toPlainText() == "" or not more.isVisible()
    window.set_ui_scale(1.0)


@pytest.mark.parametrize("size", [(360, 600), (420, 500)])
def test_a_view_too_narrow_for_eight_maps_says_how_many_are_not_drawn(make_panel, size):
    """A workspace keeps the diagram wide enough for eight maps (the window scrolls
    sideways below that): a view of its own, narrower, draws fewer and says so (at 200 %
    text: at 300 % the note alone is wider than these views)."""
    from gui.common.style import make_theme

    results = compute(Params(heads=8, dk=64, d_model=512))
    view = make_panel(names.MULTIHEAD, results.params, size)
    for scale in (2.0,):
        view.apply_theme(make_theme(ui_scale=scale))
        view.update_results(results)
        QApplication.processEvents()
        shown = sum(m.isVisible() for m in view.head_maps)
        more = view.labels["more"]
        assert shown < 8, (size, scale)
        assert more.toPlainText() == not_drawn_text(8 - shown), (size, scale)
        assert more.isVisible(), (size, scale, shown)
        assert QRectF(0, 0, *view.diagram.size).contains(more.rect().translated(more.pos()))


def _text_rect(label):
    return label.rect().translated(label.pos())


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_at_200_and_300_percent_no_label_covers_a_strip_or_a_map_and_no_matrix_is_thin(
        make_panel, lang):
    """At large text the size labels stand clear of the head-colour strips, the maps, the
    outputs and every box (W_O's strip included), and no matrix is drawn thinner than
    8 px, for view sizes from a whole workspace down to a narrow one."""
    from gui.common.i18n import set_language
    from gui.common.style import make_theme
    view = make_panel(names.MULTIHEAD)
    set_language(lang)
    try:
        for size, scale, (heads, kv) in itertools.product(
                [(1560, 540), (1180, 400), (700, 500), (600, 700)], (2.0, 3.0),
                [(8, 8), (8, 1), (64, 4)]):
            view.resize(*size)
            view.apply_theme(make_theme(ui_scale=scale))
            view.show_results(compute(Params(heads=heads, dk=512 // heads, d_model=512,
                                             kv_heads=kv)))
            QApplication.processEvents()
            where = (lang, size, scale, heads, kv)
            boxes = {f"box {k}": r for k, r in view.rects.items()}
            boxes |= {f"strip {k}": in_view(s) for k, s in view.strips.items() if s.isVisible()}
            boxes["strip w_o"] = in_view(view.w_o_strip)
            lay = view.diagram
            boxes |= {f"map {i}": QRectF(*r) for i, r in enumerate(lay.maps)}
            boxes |= {f"output {i}": QRectF(*r) for i, r in enumerate(lay.outs)}
            for label in visible_texts(view):
                text = _text_rect(label)
                # half a pixel in from each edge: touching is not covering
                hit = [k for k, r in boxes.items() if text.intersects(r.adjusted(.5, .5, -.5, -.5))]
                assert not hit, (where, label.toPlainText(), hit)
            for k, r in view.rects.items():
                assert min(r.width(), r.height()) >= 8 - 1e-9, (where, k, r)
            assert all(min(r[2], r[3]) >= 8 for r in lay.maps + lay.outs), where
    finally:
        set_language("en")


def shape_groups(heads: int, kv: int) -> list:
    """The matrices of one shape: n × d_model and d_model × d_model (K, V, W_K and W_V
    join them without GQA: kv · d_k = d_model)."""
    same_kv = kv == heads
    return [("x", "q", "concat", "output") + (("k", "v") if same_kv else ()),
            ("w_q", "w_o") + (("w_k", "w_v") if same_kv else ())]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_matrices_of_one_shape_are_drawn_at_one_size(make_panel, lang):
    """concat and output (6 × 512) were drawn 8 px wide beside the maps, X (6 × 512)
    170 px; W_O (512 × 512) a square beside W_Q's 170-px-wide box."""
    from gui.common.i18n import set_language
    from gui.common.style import make_theme

    view = make_panel(names.MULTIHEAD)
    set_language(lang)
    try:
        for size, scale, (heads, kv) in itertools.product(
                [(1905, 450), (1590, 400), (1266, 420), (750, 700), (600, 700)],
                (1.0, 2.0, 3.0), [(8, 8), (8, 2), (1, 1)]):
            view.resize(*size)
            view.apply_theme(make_theme(presentation=True, ui_scale=scale))
            results = compute(Params(heads=heads, dk=512 // heads, d_model=512, kv_heads=kv,
                                     tokens=6))
            view.update_results(results)
            QApplication.processEvents()
            for group in shape_groups(heads, kv):
                sizes = {k: (round(view.rects[k].width(), 2), round(view.rects[k].height(), 2))
                         for k in group}
                assert len(set(sizes.values())) == 1, (lang, size, scale, heads, kv, sizes)
    finally:
        set_language("en")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_least_height_draws_as_many_maps_as_a_tall_view(make_panel, lang):
    """A short view stood W_O's row beside four maps (Japanese, 300 %, 750 px wide) where
    under them all eight fit: the height the view asks for keeps every map a taller
    view draws."""
    from gui.common.i18n import set_language
    from gui.common.style import make_theme

    results = compute(Params(heads=8, dk=64, d_model=512))
    view = make_panel(names.MULTIHEAD, results.params, (750, 200))
    set_language(lang)
    try:
        view.apply_theme(make_theme(ui_scale=3.0))
        view.update_results(results)
        for _ in range(3):
            QApplication.processEvents()
            view.minimum_height.fit()
            QApplication.processEvents()
        assert view.height() == view.minimumHeight()        # the view at its least height
        lay = view.diagram
        assert sum(m.isVisible() for m in view.head_maps) == 8, (view.size(), lay.side)
        assert not view.labels["more"].isVisible()
    finally:
        set_language("en")
