"""The public hook the benchmarks drive the window through: Plot.paused.

benchmarks/ui_latency.py measures the floor under every change (controls, model,
compute, signal, the rest of the window) with every panel paused, and must leave the
panels showing the newest Results afterwards.
"""
from gui_helpers import settle
from tab_fixtures import module_window  # noqa: F401 (a fixture)


def test_paused_panels_keep_the_newest_results_until_catch_up(module_window):
    window = module_window
    panels = [panel for panel in window.panels.values() if panel.isVisible()]   # in front
    assert len(panels) >= 3
    first = window.model.results
    assert all(panel.results is first for panel in panels)
    for panel in panels:
        panel.paused = True
    window.state.update_params(dk=128, heads=4)  # d_model stays 512
    settle(window)
    second = window.model.results
    assert second is not first and second.params.dk == 128
    assert all(panel.isVisible() for panel in panels)
    assert all(panel.results is first for panel in panels), "a paused panel was updated"
    assert not any(panel.offer_results(second) for panel in panels)
    for panel in panels:
        panel.paused = False
        panel.catch_up()
    assert all(panel.results is second for panel in panels)


def test_unpaused_visible_panels_update_at_once(module_window):
    window = module_window
    panel, other = [panel for panel in window.panels.values() if panel.isVisible()][:2]
    panel.paused = True
    window.state.update_params(dk=32, heads=16)
    settle(window)
    newest = window.model.results
    assert other.results is newest
    assert panel.results is not newest
    panel.paused = False
    assert panel.offer_results(newest)
    assert panel.results is newest
