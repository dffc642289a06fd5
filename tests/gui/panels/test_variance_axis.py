"""The ÷√d_k histogram's y axis follows its bell back after a visit to d_k = 1 (whose peaked
distribution needs a tall axis): at d_k = 64 the bell fills its plot again, not a third."""
from gui.common import names


def scaled_top(window) -> float:
    assert window.model.wait_idle()
    return window.panels[names.VARIANCE].plot_scaled.vb.viewRange()[1][1]


def test_the_scaled_axis_comes_back_after_d_k_1(window):
    heads = window.state.params.heads
    window.state.update_params(dk=64, d_model=64 * heads)
    before = scaled_top(window)
    window.state.update_params(dk=1, d_model=heads)
    assert scaled_top(window) > 2 * before          # d_k = 1: a tall, narrow peak
    for dk in (2, 4, 8, 16, 32, 64):                # dragged back one step at a time
        window.state.update_params(dk=dk, d_model=dk * heads)
    # refitted once the peak is below SCALED_FLAT_SHARE (0.7) of the fitted one
    assert scaled_top(window) < before / 0.7
