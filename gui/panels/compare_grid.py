"""The heads from outside the pretrained model, beside its grid (gui.realheads.study.HeadSet):
the training lab's learned heads (one "roles" run, layers × heads) on the left and the
hand-built heads (one row) on the right, as thumbnails tinted by the same detector's role
in the same colours as the pretrained grid's (thumbnail_cells.ThumbnailCells).
A click emits compare_clicked(kind, layer, head).
"""
from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QGraphicsItem

from gui.common import names
from gui.common.i18n import tr
from gui.common.names import role_names
from gui.common.style import plot_font
from gui.panels.base import Plot, TitleLabel
from gui.panels.grid_common import (PANEL_MIN_WIDTH, add_minimum_height, add_thumbnail_plot,
                                   fit_cells_top_left, keep_cells_readable, legend_width,
                                   role_legend, set_fit_room, style_grid_plot)
from gui.panels.thumbnail_cells import ThumbnailCells

GROUP_GAP = 0.6   # cells between the learned and the hand-built heads
KEY_SIZE = 0.85   # the title and the key, of the text size


class CompareGrid(Plot):
    """The training lab's learned heads and the hand-built heads, side by side, as thumbnails
    tinted like the pretrained grid's (see the module docstring).

    show_results takes (trained, hand), each a gui.realheads.study.HeadSet or None."""

    compare_clicked = Signal(str, int, int)   # "trained" | "hand", layer, head

    KINDS = ("trained", "hand")

    def __init__(self, parent=None):
        super().__init__(names.HEAD_COMPARE, parent)

    def build(self) -> None:
        # One view: the learned heads on the left (layers down), the hand-built heads on the
        # right, one row centred beside them; the title above names both, the key below.
        self.title = self.add_title(row=0)
        self.plot = add_thumbnail_plot(self)
        self.key = TitleLabel()
        self.addItem(self.key, row=2, col=0)
        self.ci.layout.setRowStretchFactor(1, 1)
        self.cells = {"trained": ThumbnailCells(self.plot, fit=False),
                      "hand": ThumbnailCells(self.plot, fit=False)}
        self.sets: dict = {"trained": None, "hand": None}
        self.scene().sigMouseClicked.connect(self._on_click)
        self.minimum_height = add_minimum_height(self)
        self.plot.vb.sigResized.connect(self._on_view_resized)

    @Slot()
    def _on_view_resized(self) -> None:
        self._fit_range()
        self._update_texts()   # the key's lines at the new width

    def _fit_range(self) -> None:
        (tl, th), (hl, hh) = self._shapes()
        fit_cells_top_left(self.plot.vb, th + GROUP_GAP + hh, max(tl, hl))

    def show_results(self, sets) -> None:
        self.sets = dict(zip(self.KINDS, sets))
        self._place()
        for kind, heads in self.sets.items():
            cells = self.cells[kind]
            if heads is None:
                cells.hide()
                continue
            if cells.shape != (heads.layers, heads.heads):
                cells.make(heads.layers, heads.heads)
            roles = [[heads.role(layer, head).role for head in range(heads.heads)]
                     for layer in range(heads.layers)]
            cells.show(heads.maps, roles, self.theme.background)
        self._set_ticks()
        self._update_texts()

    def columns(self) -> float:
        """The width of the two groups, in cells."""
        (_tl, th), (_hl, hh) = self._shapes()
        return th + GROUP_GAP + hh

    def set_fit_room(self, on: bool) -> None:
        set_fit_room(self, on)

    def _shapes(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """(layers, heads) of the learned and the hand-built heads; a roles run's default
        2 × 4 and the six rules while there are none, so the layout does not jump."""
        trained, hand = self.sets["trained"], self.sets["hand"]
        return ((trained.layers, trained.heads) if trained is not None else (2, 4),
                (hand.layers, hand.heads) if hand is not None else (1, 6))

    def _place(self) -> None:
        """The hand-built row right of the learned heads, centred on their height."""
        (tl, th), (hl, hh) = self._shapes()
        hand = self.cells["hand"]
        origin = (th + GROUP_GAP, max(0.0, (tl - hl) / 2))
        if (hand.x0, hand.y0) != origin:
            hand.x0, hand.y0 = origin
            hand.make(*hand.shape)       # the items again, at their new place
        width, height = th + GROUP_GAP + hh, max(tl, hl)
        if self._shown.get((self.plot, "range")) != (width, height):
            self._shown[self.plot, "range"] = (width, height)
            self._fit_range()
            keep_cells_readable(self, height, width)

    def _set_ticks(self) -> None:
        trained, hand = self.cells["trained"], self.cells["hand"]
        top = [(h + 0.5, str(h)) for h in range(trained.shape[1])]
        top += [(hand.x0 + h + 0.5, str(h + 1)) for h in range(hand.shape[1])]
        self.set_ticks(self.plot.getAxis("top"), top)
        self.set_ticks(self.plot.getAxis("left"), [(layer + 0.5, tr("L{i}").format(i=layer))
                                                   for layer in range(trained.shape[0])])

    def select(self, kind: str | None, layer: int = 0, head: int = 0) -> None:
        """Outline the head of `kind` shown in the detail view; None: none of these."""
        for name, cells in self.cells.items():
            cells.select((layer, head) if name == kind else None)

    @property
    def selected(self) -> tuple[str, int, int] | None:
        for kind, cells in self.cells.items():
            if cells.selected is not None:
                return (kind, *cells.selected)
        return None

    def role_at(self, kind: str, layer: int, head: int) -> str:
        return self.cells[kind].roles[layer][head]

    def frame_colour(self, kind: str, layer: int, head: int) -> str:
        return self.cells[kind].frame_colour(layer, head)

    def cell_centre(self, kind: str, layer: int, head: int):
        """Where a cell is in widget pixels (tests click there)."""
        return self.mapFromScene(self.cells[kind].centre(layer, head))

    @Slot(object)
    def _on_click(self, event) -> None:
        for kind, cells in self.cells.items():
            cell = cells.cell_at(event.scenePos())
            if cell is not None:
                self.compare_clicked.emit(kind, *cell)
                return

    # -- texts ---------------------------------------------------------------------
    def _update_texts(self) -> None:
        names = role_names()
        trained, hand = self.sets["trained"], self.sets["hand"]
        if trained is None:
            left = tr("Left: trained from scratch, no run yet (Training tab → “Heads specialise” "
                      "→ Start)")
        else:
            left = tr("Left: trained from scratch (step {step})").format(step=trained.step)
        random = hand is not None and hand.own_roles[:1] == ("random",)
        right = (tr("right: random heads (seeded, untrained)") if random else
                 tr("right: hand-built heads"))
        self.title_text = f"<b>{left}</b> · <b>{right}</b>"
        parts = []
        roles = self.cells["trained"].roles + self.cells["hand"].roles
        if roles:
            parts.append(role_legend(roles, names, legend_width(self, self.key),
                                     plot_font(self.theme, KEY_SIZE)))
        if hand is None:
            parts.append(tr("Hand-built heads: type a sentence of 2 or more tokens"))
        self.key_text = "<br>".join(parts) or " "
        size = f"{self.theme.font_pt * KEY_SIZE:.1f}pt"   # small: the thumbnails need the room
        self._set_label(self.title, self.title_text, size)
        self._set_label(self.key, self.key_text, size)

    def _set_label(self, label, text: str, size: str) -> None:
        colour = self.theme.foreground
        if self._shown.get((label, "label")) != (text, colour, size):
            self._shown[label, "label"] = (text, colour, size)
            label.setText(text, color=colour, size=size)

    def cache_text(self) -> None:
        """As Plot's, but the title and the key change with every sentence."""
        super().cache_text()
        for label in (self.title, self.key):
            label.item.setCacheMode(QGraphicsItem.CacheMode.NoCache)

    def restyle(self) -> None:
        style_grid_plot(self, self.plot)
        for cells in self.cells.values():
            cells.restyle(self.theme)
        (tl, th), (hl, hh) = self._shapes()
        self.setMinimumWidth(PANEL_MIN_WIDTH)
        self.minimum_height.reset()
        keep_cells_readable(self, max(tl, hl), th + GROUP_GAP + hh)

    def retranslate(self) -> None:
        self._shown.pop((self.plot.getAxis("left"), "ticks"), None)
        self._set_ticks()
        self._update_texts()
