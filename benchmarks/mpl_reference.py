"""The matplotlib reference figure: the plots of a workspace drawn with matplotlib.

It is what the "≥ 20× matplotlib" ratio of ui_latency compares with: one
FigureCanvasQTAgg in the same window size, artists built once and updated in place
(set_height, set_data, set_extent/set_clim), the per-head cost bars rebuilt when h
changes (as pyqtgraph rebuilds its brushes), then a full canvas.draw() and a
synchronous repaint of the canvas. Palette and number formats are copied from gui/
so that it does not break when the app's style changes; the multi-head scene
rectangles come from `multihead_layout` below: a fixed pipeline of the same matrices and
maps the app draws (its workload, not its exact geometry).
"""
from __future__ import annotations

import time

import numpy as np

from gui.panels.multihead_view import MAX_HEADS_DRAWN
from gui.common.style import format_count, format_number

UNSCALED, SCALED = "#D55E00", "#0072B2"
HEAD_COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00", "#F0E442",
                "#999999"]
TERM_COLOURS = {"projections": "#56B4E9", "scores": "#E69F00", "softmax": "#F0E442",
                "weighted_sum": "#009E73", "w_o": "#CC79A7"}


PIPE_WIDTH = 560.0      # width of X, concat and output in scene units
ROW_HEIGHT = 8.0        # scene units per token row
W_O_SIZE = 210.0
W_O_X = 620.0


def multihead_layout(n: int, heads: int, drawn: int) -> dict:
    """Rectangles of the reference figure's multi-head pipeline: X, `drawn` maps and head
    outputs, the concat, the output and W_O (the matrices the panel draws each change)."""
    from PySide6.QtCore import QRectF

    h_rows = n * ROW_HEIGHT
    top = 30.0
    slot = PIPE_WIDTH / drawn
    size = min(slot - 16, 70.0)
    heads_y = top + h_rows + 40
    out_y = heads_y + size + 26
    concat_y = out_y + h_rows + 44
    output_y = concat_y + h_rows + 44
    block = PIPE_WIDTH / heads
    return {
        "x": QRectF(0, top, PIPE_WIDTH, h_rows),
        "blocks": [(i * block, block) for i in range(drawn)],
        "heads": [QRectF(slot * (i + 0.5) - size / 2, heads_y, size, size) for i in range(drawn)],
        "outs": [QRectF(slot * (i + 0.5) - (slot - 16) / 2, out_y, slot - 16, h_rows)
                 for i in range(drawn)],
        "concat": QRectF(0, concat_y, PIPE_WIDTH, h_rows),
        "output": QRectF(0, output_y, PIPE_WIDTH, h_rows),
        "w_o": QRectF(W_O_X, concat_y, W_O_SIZE, W_O_SIZE),
    }


class MatplotlibFigure:
    """A workspace's plots in one FigureCanvasQTAgg, artists updated in place."""

    def __init__(self, width_px: int, height_px: int, workspace: str = "scaling"):
        """A figure of `workspace`'s plots, as the window lays them out: "scaling" the
        softmax, variance and saturation plots side by side, "multihead" the diagram over
        the cost plot, "all" the five (three above, two below)."""
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
        from matplotlib.figure import Figure
        from matplotlib.ticker import EngFormatter

        from engine.cost import TERMS
        from engine.saturation import METRICS

        self.TERMS, self.METRICS = TERMS, METRICS
        self.workspace = workspace
        dpi = 100
        self.fig = Figure(figsize=(width_px / dpi, height_px / dpi), dpi=dpi)
        self.canvas = FigureCanvasQTAgg(self.fig)
        self.canvas.resize(width_px, height_px)
        fig = self.fig
        grid = dict(left=0.05, right=0.98, top=0.96, bottom=0.05)
        if workspace == "all":
            outer = fig.add_gridspec(2, 1, hspace=0.25, **grid)
            top = outer[0].subgridspec(1, 3, wspace=0.3)
            bottom = outer[1].subgridspec(1, 2, width_ratios=(3, 2), wspace=0.15)
        elif workspace == "scaling":
            top, bottom = fig.add_gridspec(1, 3, wspace=0.3, **grid), None
        elif workspace == "multihead":
            top, bottom = None, fig.add_gridspec(2, 1, hspace=0.25, **grid)
        else:
            raise ValueError(f"unknown workspace {workspace!r}")
        self.parts = (("softmax", "variance", "saturation") if top is not None else ()) + \
            (("multihead", "cost") if bottom is not None else ())
        if top is not None:
            self._build_scaling(fig, top, METRICS)
        if bottom is not None:
            self._build_multihead(fig, bottom, TERMS, EngFormatter)
        self.canvas.show()

    def _build_scaling(self, fig, top, METRICS) -> None:
        self.ax_soft = fig.add_subplot(top[0])
        var_gs = top[1].subgridspec(2, 1, hspace=0.45)
        self.ax_var = {"raw": fig.add_subplot(var_gs[0]), "scaled": fig.add_subplot(var_gs[1])}
        sat_gs = top[2].subgridspec(3, 1, hspace=0.15)
        first = fig.add_subplot(sat_gs[0])
        self.ax_sat = {METRICS[0]: first}
        for j, metric in enumerate(METRICS[1:], start=1):
            self.ax_sat[metric] = fig.add_subplot(sat_gs[j], sharex=first)

        # softmax: bars are created on the first update (their count is the score count)
        self.ax_soft.set_ylim(0, 1.3)
        self.ax_soft.set_title("softmax: raw vs ÷√d_k", fontsize=10)
        self.ax_soft.set_ylabel("probability (H in nats)")
        self.soft_bars = None
        self.soft_labels = [self.ax_soft.text(0, 0, "", ha="center", va="bottom", fontsize=8,
                                              visible=False) for _ in range(32)]
        # variance: stairs histogram + theory line + ±2σ² band
        self.hist, self.theory, self.stats, self._var_ranges = {}, {}, {}, {}
        for key, colour in (("raw", UNSCALED), ("scaled", SCALED)):
            ax = self.ax_var[key]
            self.hist[key] = ax.stairs(np.zeros(61), np.linspace(-1, 1, 62), fill=True,
                                       color=colour, alpha=0.45)
            (self.theory[key],) = ax.plot([], [], "--", color="#111111", lw=1)
            self.stats[key] = ax.text(0.02, 0.97, "", transform=ax.transAxes, va="top", fontsize=8)
            ax.set_ylabel("density")
            self._var_ranges[key] = None
        self.ax_var["raw"].set_title("q·k: raw and ÷√d_k", fontsize=10)
        self.ax_var["raw"].set_xlabel("q·k")
        self.ax_var["scaled"].set_xlabel("q·k / √d_k")
        self.unit_band = self.ax_var["raw"].axvspan(-2, 2, color=SCALED, alpha=0.2, lw=0)
        # saturation: median lines, quartile bands, d_k marker
        self.sat_lines, self.sat_bands, self.sat_markers = {}, {}, {}
        self._sat_keys = None
        labels = {"max_prob": "max p", "entropy": "entropy (nats)", "jacobian_norm": "‖J‖_F"}
        for metric, ax in self.ax_sat.items():
            ax.set_xscale("log")
            ax.set_xlim(0.85, 16384 * 1.18)
            ax.set_ylabel(labels[metric], fontsize=8)
            for scaled in (False, True):
                colour = SCALED if scaled else UNSCALED
                (self.sat_lines[metric, scaled],) = ax.plot([], [], "o-", ms=3, lw=1.2, color=colour)
                self.sat_bands[metric, scaled] = None
            self.sat_markers[metric] = ax.axvline(64, ls=":", color="#111111", lw=0.8)
        self.ax_sat["jacobian_norm"].set_xlabel("d_k (log scale)")
        self.sat_title = self.ax_sat["max_prob"].set_title("", fontsize=10)
        self.fill_between_mode = None
    def _build_multihead(self, fig, bottom, TERMS, EngFormatter) -> None:
        self.ax_mh = fig.add_subplot(bottom[0])
        self.ax_cost = fig.add_subplot(bottom[1])
        # multi-head: one axes, images at the same scene rectangles as MultiHeadView
        ax = self.ax_mh
        ax.set_axis_off()
        self.mh_title = ax.set_title("Multi-head attention with the engine's matrices", fontsize=10)
        blank = np.zeros((2, 2))
        img = dict(interpolation="nearest", aspect="auto", origin="upper")
        self.x_img = ax.imshow(blank, cmap="RdBu_r", **img)
        self.concat_img = ax.imshow(blank, cmap="RdBu_r", **img)
        self.output_img = ax.imshow(blank, cmap="RdBu_r", **img)
        self.w_o_img = ax.imshow(blank, cmap="RdBu_r", **img)
        self.head_maps = [ax.imshow(blank, cmap="viridis", **img) for _ in range(MAX_HEADS_DRAWN)]
        self.head_outs = [ax.imshow(blank, cmap="RdBu_r", **img) for _ in range(MAX_HEADS_DRAWN)]
        from matplotlib.collections import LineCollection
        from matplotlib.patches import Rectangle

        self.x_blocks, self.concat_blocks = [], []
        for i in range(MAX_HEADS_DRAWN):
            for blocks in (self.x_blocks, self.concat_blocks):
                r = Rectangle((0, 0), 1, 1, fill=False, ec=HEAD_COLOURS[i % len(HEAD_COLOURS)], lw=1.2)
                ax.add_patch(r)
                blocks.append(r)
        self.head_labels = [ax.text(0, 0, "", ha="center", va="bottom", fontsize=8)
                            for _ in range(MAX_HEADS_DRAWN)]
        self.links = LineCollection([], colors="#111111", linewidths=0.8)
        ax.add_collection(self.links)
        self.mh_texts = {k: ax.text(0, 0, "", fontsize=8, va="bottom")
                         for k in ("x", "concat", "output", "w_o", "more", "note")}
        self._mh_key = None
        self._rects = None
        # cost: stacked bars per term, plus per-head slices
        ax = self.ax_cost
        ax.set_title("cost of one attention layer", fontsize=10)
        ax.yaxis.set_major_formatter(EngFormatter(unit="FLOP"))
        ax.set_xlim(-0.6, 4.0)
        self.term_bars = {}
        for term in TERMS:
            self.term_bars[term] = ax.bar([0.0, 1.0], [0.0, 0.0], width=0.6,
                                          color=TERM_COLOURS[term], ec="#111111", lw=0.3, label=term)
        ax.legend(loc="upper right", fontsize=8)
        self.head_bar = None
        self._heads = None
        self._top = None
        self.cost_info = ax.text(0.02, 0.97, "", transform=ax.transAxes, va="top", fontsize=8)

    # -- per panel updates ------------------------------------------------------------
    def _softmax(self, r) -> None:
        sm = r.softmax
        n = sm.scores.size
        x = np.arange(n, dtype=float)
        w = 0.38
        if self.soft_bars is None or len(self.soft_bars[0]) != n:
            if self.soft_bars is not None:
                for c in self.soft_bars:
                    c.remove()
            self.soft_bars = (
                self.ax_soft.bar(x - w / 2, sm.probs_unscaled, w, color=UNSCALED, alpha=0.86),
                self.ax_soft.bar(x + w / 2, sm.probs_scaled, w, color=SCALED, alpha=0.86))
            self.soft_legend = self.ax_soft.legend(self.soft_bars, ["", ""], loc="upper right",
                                                   fontsize=8)
            self.ax_soft.set_xlim(-0.6, n - 0.4)
        else:
            for rect, height in zip(self.soft_bars[0], sm.probs_unscaled):
                rect.set_height(height)
            for rect, height in zip(self.soft_bars[1], sm.probs_scaled):
                rect.set_height(height)
        self.ax_soft.set_xticks(x, [f"k{i + 1}\n{format_number(s)}" for i, s in enumerate(sm.scores)])
        probs = np.concatenate([sm.probs_unscaled, sm.probs_scaled])
        xs = np.concatenate([x - w / 2, x + w / 2])
        show = n <= 10
        for i, label in enumerate(self.soft_labels):
            if i < xs.size and show:
                label.set_text(format_number(float(probs[i])))
                label.set_position((float(xs[i]), float(probs[i]) + 0.01))
            label.set_visible(i < xs.size and show)
        texts = self.soft_legend.get_texts()
        texts[0].set_text(f"raw: H = {format_number(sm.entropy_unscaled)}, "
                          f"max p = {format_number(sm.max_prob_unscaled)}")
        texts[1].set_text(f"÷√{r.params.dk} = ÷{format_number(sm.divisor)}: "
                          f"H = {format_number(sm.entropy_scaled)}, max p = {format_number(sm.max_prob_scaled)}")

    def _variance(self, r) -> None:
        v = r.variance
        sigma2 = r.params.sigma ** 2
        for key, hist in (("raw", v.hist_unscaled), ("scaled", v.hist_scaled)):
            self.hist[key].set_data(hist.density, hist.edges)
            self.theory[key].set_data(hist.theory_x, hist.theory_density)
            half = float(hist.edges[-1])
            top = 1.15 * max(float(np.max(hist.density)), float(np.max(hist.theory_density)))
            old = self._var_ranges[key]
            if old is None or abs(old[0] / half - 1) > 1e-9 or not 0.85 < old[1] / top < 1.15:
                self.ax_var[key].set_xlim(-half, half)
                self.ax_var[key].set_ylim(0, top)
                self._var_ranges[key] = (half, top)
        self.unit_band.set_x(-2 * sigma2)
        self.unit_band.set_width(4 * sigma2)
        self.stats["raw"].set_text(
            f"raw, d_k = {v.dk}\nVar = {format_number(v.empirical_unscaled)} ± "
            f"{format_number(v.stderr_unscaled)}\ntheory d_k·σ⁴ = {format_number(v.theory_unscaled)}")
        self.stats["scaled"].set_text(
            f"÷√d_k\nVar = {format_number(v.empirical_scaled)} ± {format_number(v.stderr_scaled)}\n"
            f"theory σ⁴ = {format_number(v.theory_scaled)}\n{v.samples} samples, {v.theory_kind}")

    def _saturation(self, r) -> None:
        import math

        sat = r.saturation
        grid = sat.dk_grid
        for (metric, scaled), line in self.sat_lines.items():
            q = sat.quartiles(metric, scaled)
            line.set_data(grid, q.median)
            band = self.sat_bands[metric, scaled]
            if band is not None and hasattr(band, "set_data"):   # matplotlib ≥ 3.10: in place
                band.set_data(grid, q.q25, q.q75)
                self.fill_between_mode = "FillBetweenPolyCollection.set_data (in place)"
            else:
                if band is not None:
                    band.remove()
                    self.fill_between_mode = "fill_between recreated every update"
                colour = SCALED if scaled else UNSCALED
                self.sat_bands[metric, scaled] = self.ax_sat[metric].fill_between(
                    grid, q.q25, q.q75, color=colour, alpha=0.24, lw=0)
        if sat.keys != self._sat_keys:
            self._sat_keys = sat.keys
            self.ax_sat["max_prob"].set_ylim(0, 1.05)
            self.ax_sat["entropy"].set_ylim(0, 1.05 * math.log(sat.keys))
            self.ax_sat["jacobian_norm"].set_ylim(0, 0.55)
        for marker in self.sat_markers.values():
            marker.set_xdata([r.params.dk, r.params.dk])
        self.sat_title.set_text(f"saturation vs d_k ({sat.keys} keys, {sat.trials} queries per d_k)")

    def _multihead(self, r) -> None:
        mh = r.multihead
        n = mh.x.shape[0]
        drawn = min(mh.computed_heads, MAX_HEADS_DRAWN)
        key = (n, mh.computed_heads, drawn)

        def extent(rect):
            return (rect.left(), rect.right(), rect.bottom(), rect.top())

        if key != self._mh_key:
            self._mh_key = key
            lay = multihead_layout(n, mh.computed_heads, drawn)  # MultiHeadView's scene rects
            self._rects = lay
            x_rect, c_rect = lay["x"], lay["concat"]
            for i in range(MAX_HEADS_DRAWN):
                visible = i < drawn
                for artist in (self.head_maps[i], self.head_outs[i], self.x_blocks[i],
                               self.concat_blocks[i], self.head_labels[i]):
                    artist.set_visible(visible)
                if not visible:
                    continue
                left, width = lay["blocks"][i]
                self.x_blocks[i].set_bounds(left, x_rect.top(), width, x_rect.height())
                self.concat_blocks[i].set_bounds(left, c_rect.top(), width, c_rect.height())
                hm = lay["heads"][i]
                self.head_labels[i].set_position((hm.center().x(), hm.top() - 2))
                self.head_maps[i].set_extent(extent(hm))
                self.head_outs[i].set_extent(extent(lay["outs"][i]))
            segs = []
            for i in range(drawn):
                left, width = lay["blocks"][i]
                hm, out = lay["heads"][i], lay["outs"][i]
                segs += [[(left + width / 2, x_rect.bottom()), (hm.center().x(), hm.top() - 16)],
                         [(hm.center().x(), hm.bottom()), (out.center().x(), out.top())],
                         [(out.center().x(), out.bottom() + 16), (left + width / 2, c_rect.top())]]
            w_o = lay["w_o"]
            segs += [[(c_rect.right(), c_rect.center().y()), (w_o.left(), c_rect.center().y())],
                     [(w_o.left(), lay["output"].center().y()),
                      (lay["output"].right(), lay["output"].center().y())]]
            self.links.set_segments(segs)
            for img, name in ((self.x_img, "x"), (self.concat_img, "concat"),
                              (self.output_img, "output"), (self.w_o_img, "w_o")):
                img.set_extent(extent(lay[name]))
                self.mh_texts[name].set_position((lay[name].left(), lay[name].top() - 2))
            self.mh_texts["more"].set_position((lay["w_o"].right(), lay["x"].top() - 2))
            self.mh_texts["note"].set_position((0, lay["output"].bottom() + 4))
            self.mh_texts["note"].set_va("top")
            self.ax_mh.set_xlim(-10, lay["w_o"].right() + 10)
            self.ax_mh.set_ylim(lay["output"].bottom() + 30, 0)   # inverted, like the ViewBox
            self.ax_mh.set_aspect("equal", adjustable="box")
        lim_c = float(np.max(np.abs(mh.concat))) or 1.0
        lim_o = float(np.max(np.abs(mh.output))) or 1.0
        lim_w = float(np.max(np.abs(mh.w_o))) or 1.0
        for img, data, lim in ((self.x_img, mh.x, 3.0), (self.concat_img, mh.concat, lim_c),
                               (self.output_img, mh.output, lim_o), (self.w_o_img, mh.w_o, lim_w)):
            img.set_data(data)
            img.set_clim(-lim, lim)
        for i in range(drawn):
            self.head_maps[i].set_data(mh.weights[i])
            self.head_maps[i].set_clim(0.0, 1.0)
            self.head_outs[i].set_data(mh.head_outputs[i])
            self.head_outs[i].set_clim(-lim_c, lim_c)
            self.head_labels[i].set_text(f"head {i + 1}")
        d, h, dk = mh.d_model, mh.heads, mh.dk
        t = self.mh_texts
        t["x"].set_text(f"X  ({n} × {d}) = {h} blocks of d_k = {dk}")
        t["concat"].set_text(f"concat of {h} head outputs of {n} × {dk}  →  {n} × {d}")
        t["output"].set_text(f"output = concat · W_O  ({n} × {d})")
        t["w_o"].set_text(f"W_O  ({d} × {d})")
        hidden = h - drawn
        t["more"].set_text(f"+{hidden} more heads not drawn" if hidden > 0 else "")
        t["more"].set_ha("right")
        notes = ["attention: softmax(QKᵀ/√d_k)" if r.params.scale else "attention: softmax(QKᵀ)"]
        if mh.reduced:
            notes.append(f"matrices drawn at reduced width {mh.computed_heads * mh.computed_dk}")
        t["note"].set_text("   ".join(notes))

    def _cost(self, r) -> None:
        single, multi = r.cost_single, r.cost_multi
        bottom = np.zeros(2)
        for term, bars in self.term_bars.items():
            heights = np.array([single.total[term], multi.total[term]], dtype=float)
            for rect, y0, hgt in zip(bars, bottom, heights):
                rect.set_y(y0)
                rect.set_height(hgt)
            bottom += heights
        h = multi.heads
        per_head = float(sum(multi.per_head.values()))
        heights = np.append(np.full(h, per_head), float(multi.total["w_o"]))
        y0 = np.append(np.arange(h) * per_head, h * per_head)
        if h != self._heads:          # slice count changed: new artists (as pyqtgraph's setOpts)
            self._heads = h
            if self.head_bar is not None:
                self.head_bar.remove()
            colours = [("#7F7F7F", "#BFBFBF")[i % 2] for i in range(h)] + [TERM_COLOURS["w_o"]]
            self.head_bar = self.ax_cost.bar(np.full(h + 1, 2.0), heights, 0.6, bottom=y0,
                                             color=colours, ec="#111111", lw=0 if h > 64 else 0.3)
        else:
            for rect, b, hgt in zip(self.head_bar, y0, heights):
                rect.set_y(b)
                rect.set_height(hgt)
        top = 1.5 * max(single.flops, multi.flops)
        if self._top is None or not 0.9 < self._top / top < 1.1:
            self._top = top
            self.ax_cost.set_ylim(0, top)
        self.ax_cost.set_xticks([0, 1, 2], ["1 head", f"{h} heads", "per head"])
        share = multi.total["w_o"] / multi.flops
        self.cost_info.set_text(
            f"n = {multi.seq_len} tokens\n1 × {multi.d_model}  vs  {h} × {multi.d_model // h}\n"
            f"W_O: {share:.1%} of FLOPs\nparams {format_count(single.params)} → "
            f"{format_count(multi.params)}")

    def update(self, r) -> None:
        for part in self.parts:
            getattr(self, f"_{part}")(r)

    def render(self, r) -> float:
        t0 = time.perf_counter()
        self.update(r)
        self.canvas.draw()      # full Agg render of the figure
        self.canvas.repaint()   # synchronous blit into the window (paintEvent)
        return time.perf_counter() - t0
