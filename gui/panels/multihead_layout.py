"""Where the multi-head diagram puts its matrices and labels, in view pixels (no Qt).

The view shows its scene at one unit per pixel, so text (drawn in pixels) and boxes share
one coordinate system and overlaps can be ruled out here. Rows, top to bottom:

    A  X · W_Q W_K W_V = Q K V       (wrapped after W_V when one line is too narrow)
       "+k heads not drawn", on a line of its own when beside the maps it would cost maps
    B  per head i: softmax(Qⁱ·Kⁱᵀ/divisor), an n × n map     (row caption on the left)
    C  per head i: its output Aⁱ·Vⁱ, n × d_k
    D  concat · W_O = output
       notes (the hover readout takes their place; a short view keeps one line for it)

A rect is (x, y, w, h); a label position is its top-left corner. A matrix label has one
or two lines (name, shape); text_width gives the widest line.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

GAP = 8.0           # between cells of a row
MIN_MAP = 14.0      # smallest head map side worth drawing
MIN_BOX = 8.0       # no matrix drawn thinner than this, at any text size


@dataclass
class Layout:
    rects: dict = field(default_factory=dict)      # box name → rect
    labels: dict = field(default_factory=dict)     # label name → (x, y)
    maps: list = field(default_factory=list)       # head i → rect of its map
    outs: list = field(default_factory=list)       # head i → rect of its output
    head_labels: list = field(default_factory=list)
    strip: float = 4.0                             # height of the head-colour strips
    boxes: float = 0.0                             # height left for the boxes
    squeezed: bool = False                         # labels wider than the row: some hidden
    drawn: int = 1
    more_line: bool = False                        # "+k heads not drawn" on a line of its own
    bottom: float = 0.0                            # where the last row ends (notes excluded)
    note_lines: int = 0                            # note lines the height was shared with
    slot: float = 0.0                              # width per drawn head
    size: tuple = (0.0, 0.0)


def _row(cells, x0: float, widths) -> list:
    """x of each cell laid left to right; `widths` the widths of the cells."""
    xs, x = [], x0
    for w in widths:
        xs.append(x)
        x += w + GAP
    return xs


OPS = frozenset({"dot", "eq", "dot2", "eq2"})     # "·" and "=": text, no box
SHARED = frozenset({"w_k", "w_v", "k", "v"})     # K/V-sized: g/h of W_Q's width
NAMES_A = ("x", "dot", "w_q", "w_k", "w_v", "eq", "q", "k", "v")
NAMES_D = ("concat", "dot2", "w_o", "eq2", "output")


def _box_widths(tw: dict, share: float, u: float, names) -> list:
    """A full-width matrix fills its label's width at least; K/V-sized ones are their
    share of W_Q's width."""
    full = max(u, tw["w_q"])
    return [tw[k] if k in OPS else max(u, tw[k]) if k not in SHARED else
            max(MIN_BOX, full * share) for k in names]


def _cell_widths(tw: dict, share: float, u: float, names) -> list:
    return [max(b, tw[k]) for k, b in zip(names, _box_widths(tw, share, u, names))]


def _row_width(tw: dict, share: float, u: float, names) -> float:
    return sum(_cell_widths(tw, share, u, names)) + GAP * (len(names) - 1)


def _widest(tw: dict, share: float, names, room: float) -> float:
    """The widest box width u at which the row's cells fit in `room` (0 if none does)."""
    lo, hi = MIN_BOX, room
    if _row_width(tw, share, lo, names) > room:
        return 0.0
    while hi - lo > 0.25:                     # a quarter pixel is as close as it shows
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _row_width(tw, share, mid, names) <= room else (lo, mid)
    return lo


@functools.lru_cache(maxsize=64)
def row_plan(width: float, line: float, widths: tuple, share: float) -> tuple:
    """What the rows' widths decide, whatever the height: ((name, text width) after
    squeezing, row A wrapped, labels squeezed, u_w the widest full-width box row A allows).
    widths: (name, text width) of every label; share = g/h. Kept for the newest inputs:
    needed_height bisects on the height and lays the diagram out ten times at one width."""
    tw = dict(widths)
    wrap = not _widest(tw, share, NAMES_A, width)             # row A does not fit on one line
    lines_a = [NAMES_A[:5], NAMES_A[5:]] if wrap else [NAMES_A]
    squeezed = False
    for names in lines_a + [NAMES_D]:
        if not _widest(tw, share, names, width):   # huge text: the boxes fit, some labels go
            squeezed = True
            for k in names:
                tw[k] = min(tw[k], line)
    u_w = min(_widest(tw, share, names, width) or MIN_BOX for names in lines_a)
    return tuple(tw.items()), wrap, squeezed, u_w


def diagram_layout(width: float, height: float, line: float, text_width, texts: dict,
                   n: int, heads: int, kv_heads: int, max_drawn: int,
                   notes_may_go: bool = False) -> Layout:
    """Lay the diagram out in a `width` × `height` pixel view.

    line: the height of one label line; text_width(s): a label's width; texts: label
    name → text (the widths depend on them). n tokens, `heads` and `kv_heads` the heads
    computed; at most `max_drawn` heads get a map and an output. Row D goes to the right
    of rows B and C when the width allows (the view is usually wide and short). With
    `notes_may_go`, a view too short for the notes keeps one line (the readout's) instead."""
    lay = Layout(size=(width, height))
    strip = lay.strip = max(4.0, round(line * 0.3))
    share = kv_heads / heads
    measured = {k: text_width(v) if v else 0.0 for k, v in texts.items()}
    notes = texts["note"].count("\n") + 1 if texts["note"] else 0
    matrices = ("x", "w_q", "w_k", "w_v", "q", "k", "v", "concat", "w_o", "output")
    label_h = line * max(texts[k].count("\n") + 1 for k in matrices)
    squeezed_widths, wrap, lay.squeezed, u_w = row_plan(width, line, tuple(measured.items()), share)
    tw = dict(squeezed_widths)
    lines_a = [NAMES_A[:5], NAMES_A[5:]] if wrap else [NAMES_A]

    def box_widths(u: float, names) -> list:
        return _box_widths(tw, share, u, names)

    def cell_widths(u: float, names) -> list:
        return _cell_widths(tw, share, u, names)

    def row_width(u: float, names) -> float:
        return _row_width(tw, share, u, names)

    # The maps' caption goes over them when it is too wide to stand on their left.
    caption_over = tw["maps"] > width * 0.4
    row_labels = min(tw["outs"] if caption_over else max(tw["maps"], tw["outs"]), width * 0.4)
    outs_over = tw["outs"] > row_labels + 0.5      # the outputs' caption goes over them too
    slot_min = max(MIN_MAP + 6, text_width("88") + 4)
    more = tw["more"] + GAP if tw["more"] else 0.0
    d_width = row_width(MIN_BOX, NAMES_D) + strip     # W_O's strip stands left of it
    wanted = min(heads, max_drawn)
    beside = width - d_width - 2 * GAP - row_labels - GAP - more

    # "+k heads not drawn" beside the maps, unless a line of its own lets more maps fit.
    def costs_maps(room: float) -> bool:
        return int((room - more) // slot_min) < min(wanted, int(room // slot_min))

    beside_room, below_room = beside + more, width - row_labels - GAP
    side_fits = beside_room >= slot_min * min(heads, 4)
    more_line = lay.more_line = bool(more) and costs_maps(beside_room if side_fits else below_room)
    if more_line:
        beside = beside_room
    # lines over the head numbers: the caption, and the note beside it or on a line of its own
    heads_area = width - d_width - 2 * GAP if side_fits else width    # D may stand beside
    with_caption = caption_over and more_line and tw["maps"] + 2 * GAP + tw["more"] <= heads_area
    over = int(caption_over) + int(more_line and not with_caption)

    def box_budget(side: bool, notes: int = notes) -> float:
        """Height left for the boxes once text lines and gaps are placed."""
        # label rows; the "·" and "=" centred on a box row reach half a line below it
        rows_text = (label_h + strip + line / 2) * len(lines_a) + line * (1 + over) + \
            (0 if side else label_h + strip + line / 2) + line * outs_over
        return height - rows_text - line * notes - GAP * (5 + len(lines_a))

    # D beside B and C unless that drops heads and there is height for it below.
    side = beside >= slot_min * min(heads, 4) and (
        beside >= slot_min * wanted or box_budget(False) < 10 * line)
    if notes_may_go and notes > 1 and box_budget(side) < 2 * line:
        notes = 1          # a short view: the notes go (hidden), one line stays for the readout
    lay.note_lines = notes
    boxes = lay.boxes = max(4 * MIN_BOX, box_budget(side, notes))
    rows_h = max(MIN_BOX, min(boxes * 0.12, n * 8.0))
    a_rest = rows_h if wrap else 0.0              # Q K V under X and the W matrices
    # A short view (large text) gives the maps more of it, the not-to-scale W boxes less.
    tight = boxes - a_rest < 12 * line
    u_share = 0.45 if side else 0.22 if tight else 0.32
    if side:
        u = min(u_w, (boxes - a_rest) * u_share)
        heads_h = boxes - a_rest - u               # map, gap, outputs
    else:
        u = min(u_w, (boxes - a_rest) * u_share)
        heads_h = (boxes - a_rest - u) * (0.65 if tight else 0.55)
    m_cap = max(MIN_MAP, heads_h - rows_h - GAP)

    uw = u_w                                       # widths and heights are not to scale
    u = max(MIN_BOX, (boxes - a_rest) * u_share)
    y = 0.0
    for names in lines_a:
        xs = _row(names, 0.0, cell_widths(uw, names))
        row_h = 0.0
        for k, x, cw, bw in zip(names, xs, cell_widths(uw, names), box_widths(uw, names)):
            if k in OPS:
                lay.labels[k] = (x, y + label_h + strip + (rows_h - line) / 2)
                continue
            lay.labels[k] = (x + (cw - tw[k]) / 2, y)
            h = u if k.startswith("w_") else rows_h
            lay.rects[k] = (x + (cw - bw) / 2, y + label_h + strip, bw, h)
            row_h = max(row_h, h)
        y += label_h + strip + max(row_h, (rows_h + line) / 2) + GAP   # "·", "=": a line high
    y += GAP

    # D beside the heads, or under them.
    top_b = y
    d_left = width - d_width if side else 0.0
    room = (d_left - 2 * GAP if side else width) - row_labels - GAP - (0.0 if more_line else more)
    drawn = lay.drawn = max(1, min(heads, max_drawn, int(room // slot_min)))
    slot = lay.slot = max(slot_min, room / drawn)
    m = max(MIN_MAP, min(slot - 6, m_cap, 4 * line + n * 6))

    # B and C: the heads, with their captions on the left.
    x0 = row_labels + GAP
    if caption_over:
        lay.labels["maps"] = (0.0, y)
    right = d_left - 2 * GAP if side else width    # the heads' part of the view
    if with_caption:
        lay.labels["more"] = (max(0.0, min(heads_area, right) - tw["more"]), y)
    elif more_line:                                 # over the maps, inside the view
        lay.labels["more"] = (max(0.0, min(x0, right - tw["more"])), y + line * caption_over)
    y += line * over
    if not caption_over:
        lay.labels["maps"] = (0.0, y + line + max(0.0, (m - line) / 2))
    for i in range(drawn):
        cx = x0 + slot * (i + 0.5)
        lay.head_labels.append((cx, y))             # centred on cx
        lay.maps.append((cx - m / 2, y + line, m, m))
    if tw["more"] and not more_line:
        lay.labels["more"] = (x0 + slot * drawn + GAP / 2, y)
    y += line + m + GAP
    if outs_over:
        lay.labels["outs"] = (0.0, y)
        y += line
    out_w = min(slot - 6, max(m, slot * 0.8))
    for i in range(drawn):
        cx = x0 + slot * (i + 0.5)
        lay.outs.append((cx - out_w / 2, y, out_w, rows_h))
    if not outs_over:
        lay.labels["outs"] = (0.0, y + max(0.0, (rows_h - line) / 2))
    y += max(rows_h, line) + GAP
    bottom_c = y

    # D: concat · W_O = output.
    y_d = top_b if side else y + GAP
    w_o = max(MIN_BOX, min(u, width * 0.3, (bottom_c - top_b - label_h - strip - GAP) if side else
                          boxes - a_rest - u - heads_h))
    if side:                                        # d_width holds the labels, not more
        w_o = min(w_o, max(tw["w_o"], MIN_BOX))
    u_d = max(tw["concat"], tw["output"], uw if not side else 0.0)
    def d_widths(u_d: float) -> list:
        # W_O's cell holds its head-colour strip on the left of the box
        return [tw[k] if k in OPS else max(w_o, tw[k]) + strip if k == "w_o" else
                max(u_d, tw[k]) for k in NAMES_D]

    widths = d_widths(u_d)
    while sum(widths) + GAP * 4 > width - d_left and u_d > MIN_BOX:
        u_d *= 0.9
        widths = d_widths(u_d)
    for k, x, cw in zip(NAMES_D, _row(NAMES_D, d_left, widths), widths):
        if k in OPS:
            lay.labels[k] = (x, y_d + label_h + strip + (rows_h - line) / 2)
            continue
        if k == "w_o":
            x, cw = x + strip, cw - strip
        lay.labels[k] = (x + (cw - tw[k]) / 2, y_d)
        bw, bh = (w_o, w_o) if k == "w_o" else (min(max(u_d, MIN_BOX), cw), rows_h)
        lay.rects[k] = (x + (cw - bw) / 2, y_d + label_h + strip, bw, bh)
    y = lay.bottom = max(bottom_c, y_d + label_h + strip + max(w_o, (rows_h + line) / 2) + GAP)
    lay.labels["note"] = (0.0, y)
    lay.labels["readout"] = (0.0, y)                # over the note while the mouse reads
    return lay


def needed_height(width: float, line: float, text_width, texts: dict, n: int, heads: int,
                  kv_heads: int, max_drawn: int, cap: float) -> float:
    """The least view height, at most `cap`, at which diagram_layout(width, height, …) gives
    each drawn map a side of min(slot − 6, max(2·MIN_MAP, line)) pixels and fits every row
    and the notes it keeps. It depends on the width and the texts, never on a height, so a
    minimum height set from it cannot feed itself (found to a pixel by bisection)."""
    measured: dict = {}

    def measure(text: str) -> float:       # each text measured once, not once a step
        if text not in measured:
            measured[text] = text_width(text)
        return measured[text]

    def fits(height: float) -> bool:
        lay = diagram_layout(width, height, line, measure, texts, n, heads, kv_heads,
                             max_drawn, notes_may_go=True)
        target = min(lay.slot - 6, max(2 * MIN_MAP, line))
        return lay.maps[0][2] >= target - 0.5 and lay.bottom + line * lay.note_lines <= height

    if fits(cap) is False:
        return cap
    low, high = 0.0, cap
    while high - low > 1.0:
        mid = (low + high) / 2
        low, high = (low, mid) if fits(mid) else (mid, high)
    return high
