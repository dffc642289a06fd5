"""A panel's memory of what it gave its items (Plot._shown, ShownValues) never keeps an
item alive: the Training lab's heads view made new titles on every rebuild (a language,
theme or presentation change) and kept every old one, with its text document, through
those keys: the soak's long-use memory grew about 1.5 titles an action."""
import gc
import weakref

from gui.panels.training_heads import TrainingHeadsView

SHAPE = ("roles", 8, 4, ("a", "b", "c", "d"))


def test_rebuilt_titles_are_freed(qtbot):
    view = TrainingHeadsView()
    qtbot.addWidget(view)
    view._rebuild(SHAPE)
    titles = [title for title, _plot, _image in view.maps]
    for title in titles:
        view.set_text(title, "layer 0 · head 1")
        view.set_title(title, "layer 0 · head 1")
    old = [weakref.ref(title) for title in titles]
    del titles, title
    view._rebuild(SHAPE)                  # what a language change does (restyle → shape None)
    gc.collect()
    assert [ref() for ref in old] == [None] * len(old)
