"""`trainHeadsView` (TrainingHeadsView): each learned head's attention on the run's sample
sequence, titled with the role the engine named from its scores and those scores (compact,
in presentation mode: the role only, and no panel title). The maps follow every snapshot;
their texts at most every TEXT_PERIOD_S. Before a run an empty frame says to press Start."""
from __future__ import annotations

import math
import time

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QFontMetricsF

from gui.common import names
from gui.common.i18n import tr
from gui.common.style import plot_font
from gui.panels.empty_note import EmptyNote
from gui.panels.training_common import TEXT_PERIOD_S, TrainingPlotBase, heads_rgba, role_names


class TrainingHeadsView(TrainingPlotBase):
    """`trainHeadsView`: each learned head's attention on the sample sequence."""

    def __init__(self, parent=None):
        super().__init__(names.TRAIN_HEADS, parent)

    def build(self) -> None:
        self.title = self.text_label()
        self.grid = self.addLayout(row=1, col=0)
        self.ci.layout.setRowStretchFactor(1, 1)
        self.shape = None
        self.maps: list = []        # (title, plot, image)
        self._head_ticks: list = []   # the heads experiment's row names, every one
        self._texts_at, self._texts_shape = 0.0, None
        # Before a run: an empty frame with a note in place of the maps.
        self.placeholder = pg.PlotItem(enableMenu=False)
        self.placeholder.setMouseEnabled(False, False)
        self.placeholder.hideButtons()
        for name in ("left", "bottom"):
            self.placeholder.hideAxis(name)
        self.placeholder.vb.setBorder(self.theme.foreground)
        self.note = EmptyNote(self.placeholder)
        self.note.set_shown(True)
        self.arrange()

    def arrange(self) -> None:
        self.place(self.title, None if self.compact else self.ci, 0, 0)
        self.place(self.placeholder, None if self.maps else self.grid, 0, 0)

    def _clear_maps(self) -> None:
        self.grid.clear()
        self._places.pop(self.placeholder, None)    # clear() took it out too
        self.maps, self.shape, self._head_ticks = [], None, []

    def forget_run(self) -> None:
        if self.maps:
            self._clear_maps()
        self.arrange()

    def retranslate(self) -> None:
        self.shape = self._texts_shape = None     # titles again in the new language
        self.redraw()
        self.note.set_text(tr("Press Start to train: each learned head's attention is drawn "
                              "here, named by its role."), tr("Press Start to train."))
        if self.results is None:
            self.set_title(self.title, tr("learned heads: press Start"))

    def restyle(self) -> None:
        self.shape = None
        self.note.set_style(self.theme)
        self.placeholder.vb.setBorder(self.theme.foreground)

    def _map(self, row: int, col: int):
        title = self.text_label()
        title.setText("", color=self.theme.foreground, size=f"{self.theme.font_pt * 0.9:.1f}pt")
        self.grid.addItem(title, row=row, col=col)
        plot = self.grid.addPlot(row=row + 1, col=col)
        plot.setMouseEnabled(False, False)
        plot.setMenuEnabled(False)
        plot.hideButtons()
        plot.invertY(True)
        plot.setAspectLocked(False)
        image = pg.ImageItem(axisOrder="row-major")   # RGBA maps (heads_rgba): no levels
        plot.addItem(image)
        self.style_plot(plot)
        return title, plot, image

    def _thin_head_ticks(self, *_args) -> None:
        """The heads experiment's one map names its rows (one per head) on its left axis:
        every row where a line of text fits each, else every k-th (16 heads at 300 % text
        in a 250 px map ran into each other)."""
        if not self.maps or not self._head_ticks:
            return
        plot = self.maps[0][1]
        line = QFontMetricsF(plot_font(self.theme)).height()
        rows = len(self._head_ticks)
        every = max(1, math.ceil(rows * line / max(1.0, plot.vb.height())))
        self.set_ticks(plot.getAxis("left"), self._head_ticks[::every])

    def _rebuild(self, shape) -> None:
        self._clear_maps()
        experiment, count, columns, tokens = shape
        if experiment == "heads":
            self.maps.append(self._map(0, 0))
            self.maps[0][1].vb.sigResized.connect(self._thin_head_ticks)
        else:
            for i in range(count):
                self.maps.append(self._map(2 * (i // columns), i % columns))
        for _title, plot, _image in self.maps:
            plot.hideAxis("bottom")
            plot.setXRange(0, len(tokens), padding=0)
            if experiment == "roles":   # small maps: the sample is named in the title
                plot.hideAxis("left")
                plot.hideAxis("bottom")
                plot.setYRange(0, len(tokens), padding=0)
        self._axes = None
        self.shape = shape

    def show_results(self, snapshot) -> None:
        heads = snapshot.heads
        if not heads:
            self.set_title(self.title, tr("no learned heads to show: the scaling task has one "
                                          "head read by a CLS query"))
            if self.maps:
                self._clear_maps()
                self.arrange()
            return
        per_layer = max(h.head for h in heads) + 1
        shape = (snapshot.experiment, len(heads), per_layer, tuple(snapshot.sample_tokens))
        if shape != self.shape:
            self._rebuild(shape)
        roles = role_names()
        now = time.perf_counter()
        # The maps follow every snapshot; the scores in the texts at most twice a second
        # (laying out a changed text costs more than an image) and at the end.
        texts = snapshot.done or now - self._texts_at >= TEXT_PERIOD_S or shape != self._texts_shape
        if texts:
            self._texts_at, self._texts_shape = now, shape
        if snapshot.experiment == "heads":
            stacked = np.concatenate([h.weights for h in heads], axis=0)
            _title, plot, image = self.maps[0]
            image.setImage(heads_rgba(stacked), autoLevels=False)
            plot.setYRange(0, len(heads), padding=0)
            if not texts:
                return
            self._head_ticks = [
                (i + 0.5, tr("H{head} {role} {score:.2f}").format(
                    head=h.head, role=roles.get(h.role, h.role),
                    score=h.scores.get(h.role, h.scores["content_match"])))
                for i, h in enumerate(heads)]
            self._thin_head_ticks()
            self.set_text(self.maps[0][0], tr("h = {h}: the query row of each head on "
                                              "“{tokens}”").format(
                h=len(heads), tokens=" ".join(snapshot.sample_tokens)))
            self.set_title(self.title, tr("learned heads: items “key:value”; the query “?k” "
                                          "asks for the value of key k"))
            return
        for (title, _plot, image), h in zip(self.maps, heads):
            image.setImage(heads_rgba(h.weights), autoLevels=False)
            if not texts:
                continue
            s = h.scores
            role = roles.get(h.role, h.role)
            if self.compact:      # the scores are in the lesson text
                text = tr("L{layer}·H{head}<br>{role}").format(layer=h.layer, head=h.head,
                                                                role=role)
            else:
                text = tr("L{layer}·H{head} {role}<br>prev {p:.2f} ind {i:.2f} "
                          "BOS {b:.2f}").format(layer=h.layer, head=h.head, role=role,
                                                p=s["previous_token"], i=s["induction"],
                                                b=s["bos"])
            self.set_text(title, text)
        if not texts:
            return
        self.set_title(self.title, tr("learned heads at step {step} on “{tokens}” (rows: query, "
                                      "columns: key)").format(
            step=snapshot.step, tokens=" ".join(snapshot.sample_tokens)))
