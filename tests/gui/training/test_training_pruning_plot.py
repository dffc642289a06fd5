

def test_the_paper_labels_follow_the_text_size(qtbot):
    """The WMT / BERT labels of the dotted lines grow with the text (they stayed at pyqtgraph's
    default size at 300 %)."""
    from gui.common.style import make_theme
    from gui.panels.pruning_plot import PruningPlot

    plot = PruningPlot()
    qtbot.addWidget(plot)
    sizes = []
    for scale in (1.0, 3.0):
        plot.apply_theme(make_theme(False, False, scale, False))
        sizes.append([line.label.textItem.font().pointSizeF() for line in plot.paper_lines])
    assert all(big >= 2.9 * small for small, big in zip(*sizes)), sizes
