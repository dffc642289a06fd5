"""The multi-head diagram under the mouse (a mixin of multihead_view.MultiHeadView): the
entry under the cursor read out, the head it belongs to outlined in every block it uses;
a click pins that head (select_head)."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Slot

from gui.common.i18n import tr
from gui.common.style import pen
from gui.panels.multihead_texts import MATRICES

SYMBOLS = {"x": "X", "w_q": "W_Q", "w_k": "W_K", "w_v": "W_V", "q": "Q", "k": "K", "v": "V",
           "concat": "concat", "w_o": "W_O", "output": "output"}


class HeadPointer:
    """Mixin of MultiHeadView: it provides results, images, rects, head_maps,
    head_outputs, highlights, readout_label, theme, _lay, selected, _hover and
    _hide_collisions()."""

    def select_head(self, head: int | None) -> None:
        """Pin head `head` (0-based; None for none): every block it uses is outlined."""
        self.selected = head
        self._show_highlight()

    def highlighted(self) -> dict:
        """name → QRectF of every outlined block (tests; empty when no head is shown)."""
        return {k: item.rect() for k, item in self.highlights.items() if item.isVisible()}

    def _show_highlight(self) -> None:
        head = self._hover if self._hover is not None else self.selected
        mh = self.results.multihead if self.results is not None else None
        if head is None or mh is None or head >= mh.computed_heads:
            for item in self.highlights.values():
                item.setVisible(False)
            return
        h, g = mh.computed_heads, mh.computed_kv_heads
        kv = head // (h // g)
        rects = {}
        for name, block, count in (("w_q", head, h), ("q", head, h), ("concat", head, h),
                                   ("w_k", kv, g), ("w_v", kv, g), ("k", kv, g), ("v", kv, g)):
            r = self.rects[name]
            rects[name] = QRectF(r.left() + r.width() * block / count, r.top() - self._lay.strip,
                                 r.width() / count, r.height() + self._lay.strip)
        r = self.rects["w_o"]
        rects["w_o"] = QRectF(r.left(), r.top() + r.height() * head / h, r.width(), r.height() / h)
        if head < self._lay.drawn:
            rects["map"], rects["out"] = QRectF(*self._lay.maps[head]), QRectF(*self._lay.outs[head])
        colour = self.theme.head_colour(head)
        for name, item in self.highlights.items():
            item.setVisible(name in rects)
            if name in rects:
                item.setPen(pen(colour, self.theme, 2.5))
                item.setRect(rects[name])

    def entry_at(self, point: QPointF):
        """(name, row, column, value, head) of the matrix entry at a view point, or None."""
        if self.results is None or self._lay is None:
            return None
        mh = self.results.multihead
        h, g, dk = mh.computed_heads, mh.computed_kv_heads, mh.computed_dk
        items = [(n, self.images[n], self.rects[n]) for n in MATRICES]
        items += [(f"A{i + 1}", self.head_maps[i], QRectF(*self._lay.maps[i]))
                  for i in range(self._lay.drawn)]
        items += [(f"head{i + 1}", self.head_outputs[i], QRectF(*self._lay.outs[i]))
                  for i in range(self._lay.drawn)]
        for name, item, rect in items:
            if not rect.contains(point) or item.values is None:
                continue
            values = item.values
            rows, cols = values.shape
            r = min(rows - 1, int((point.y() - rect.top()) / rect.height() * rows))
            c = min(cols - 1, int((point.x() - rect.left()) / rect.width() * cols))
            if name.startswith(("A", "head")):
                head = int(name.lstrip("Ahead")) - 1
            elif name == "w_o":
                head = r // dk
            elif name in ("w_k", "w_v", "k", "v"):
                head = (c // dk) * (h // g)
            elif name == "x" or name == "output":
                head = None
            else:
                head = c // dk
            return name, r, c, float(values[r, c]), head
        return None

    def _readout(self, entry) -> str:
        name, r, c, value, head = entry
        if name.startswith("A"):
            symbol = f"A{head + 1}"
        elif name.startswith("head"):
            symbol = tr("head {i} output").format(i=head + 1)
        else:
            symbol = SYMBOLS[name]
        rows, cols = self.images[name].values.shape if name in self.images else (0, 0)
        shape = f" ({rows} × {cols})" if name in self.images else ""
        text = f"{symbol}{shape}[{r + 1}, {c + 1}] = {value:.4g}"
        if head is not None:
            text += "  ·  " + tr("head {i}").format(i=head + 1)
        return text

    @Slot(object)
    def _on_mouse_moved(self, scene_pos) -> None:
        entry = self.entry_at(self.view.mapSceneToView(scene_pos))
        self._hover = entry[4] if entry is not None else None
        self.set_text(self.readout_label, self._readout(entry) if entry else "")
        if self._lay is not None:
            self._hide_collisions()
        self._show_highlight()

    @Slot(object)
    def _on_mouse_clicked(self, event) -> None:
        entry = self.entry_at(self.view.mapSceneToView(event.scenePos()))
        self.select_head(entry[4] if entry is not None else None)
