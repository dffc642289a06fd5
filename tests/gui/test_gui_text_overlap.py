"""No tests: the old name of test_text_overlap.py, kept while test_gui_training_300.py,
test_gui_training_chart.py and test_gui_model_heads_show.py import show_bottom_tab from it.
Delete it once they import from gui_helpers."""
from gui_helpers import clipped_widgets, show_bottom_tab  # noqa: F401
