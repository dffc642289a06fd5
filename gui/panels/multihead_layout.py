"""Where the multi-head diagram puts its matrices and labels, in view pixels (no Qt).

The view shows its scene at one unit per pixel, so text (drawn in pixels) and boxes share
one coordinate system and overlaps can be ruled out here. Rows, top to bottom:

    A  X · W_Q W_K W_V = Q K V       (wrapped after W_V when one line is too narrow)
       the maps' caption over them, where beside them it would cost maps;
       "+k heads not drawn", on a line of its own when beside the maps it would cost maps
    B  per head i: softmax(Qⁱ·Kⁱᵀ/divisor), an n × n map     (row caption on the left)
    C  per head i: its output Aⁱ·Vⁱ, n × d_k
    D  concat · W_O = output        (beside B and C where the width allows, else below)
       notes (the hover readout takes their place; a short view keeps one line for it)

Matrices of the same shape are drawn at the same size: X, Q, concat and output (n ×
d_model; K and V too without GQA) are FULL_ROW boxes u_w wide and a matrix row high,
W_Q and W_O (d_model × d_model; W_K and W_V too without GQA) u_w wide and u high. Widths
and heights are not to scale. Where D stands beside the maps, the maps come first: u_w
is what they leave D.

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
    caption_over: bool = False                     # the maps' caption on a line over them
    side: bool = False                             # D beside B and C
    bottom: float = 0.0                            # where the last row ends (notes excluded)
    note_lines: int = 0                            # note lines the height was shared with
    slot: float = 0.0                              # width per drawn head
    size: tuple = (0.0, 0.0)


def _row(x0: float, widths) -> list:
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
MATRICES = ("x", "w_q", "w_k", "w_v", "q", "k", "v", "concat", "w_o", "output")


def strip_height(line: float) -> float:
    """The head-colour strips' height for a label line `line` pixels high."""
    return max(4.0, round(line * 0.3))


def _box_widths(tw: dict, share: float, u: float, names) -> list:
    """Every full-width matrix is u wide (a label wider than its box stands over it);
    K/V-sized ones are their share of it."""
    return [tw[k] if k in OPS else max(MIN_BOX, u * share) if k in SHARED else u
            for k in names]


def _cell_widths(tw: dict, share: float, u: float, names, strip: float = 0.0) -> list:
    """Each cell as wide as its box or its label; W_O's holds its head-colour strip on
    the left of its box."""
    return [max(b, tw[k]) + (strip if k == "w_o" else 0.0)
            for k, b in zip(names, _box_widths(tw, share, u, names))]


def _row_width(tw: dict, share: float, u: float, names, strip: float = 0.0) -> float:
    return sum(_cell_widths(tw, share, u, names, strip)) + GAP * (len(names) - 1)


def _widest(tw: dict, share: float, names, room: float, strip: float = 0.0,
            top: float | None = None) -> float:
    """The widest box width u (at most `top`) at which the row's cells fit in `room`
    (0 if none does)."""
    lo, hi = MIN_BOX, room if top is None else min(room, top)
    if _row_width(tw, share, lo, names, strip) > room:
        return 0.0
    if _row_width(tw, share, hi, names, strip) <= room:
        return hi
    while hi - lo > 0.25:                     # a quarter pixel is as close as it shows
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _row_width(tw, share, mid, names, strip) <= room else (lo, mid)
    return lo


@functools.lru_cache(maxsize=64)
def row_plan(width: float, line: float, widths: tuple, share: float) -> tuple:
    """What the rows' widths decide, whatever the height: ((name, text width) after
    squeezing, row A wrapped, labels squeezed, u_w the widest full-width box rows A and
    D allow). widths: (name, text width) of every label; share = g/h. Kept for the newest
    inputs: needed_height bisects on the height and lays the diagram out ten times at one
    width."""
    tw = dict(widths)
    strip = strip_height(line)
    wrap = not _widest(tw, share, NAMES_A, width)             # row A does not fit on one line
    lines_a = [NAMES_A[:5], NAMES_A[5:]] if wrap else [NAMES_A]
    squeezed = False
    for names in lines_a + [NAMES_D]:
        if not _widest(tw, share, names, width, strip):   # huge text: the boxes fit, some labels go
            squeezed = True
            for k in names:
                tw[k] = min(tw[k], line)
    u_w = min(_widest(tw, share, names, width, strip) or MIN_BOX for names in lines_a + [NAMES_D])
    return tuple(tw.items()), wrap, squeezed, u_w


@dataclass(frozen=True)
class Captions:
    """Where the row captions and the "+k heads not drawn" note go, for one width of the
    heads' part of the view."""
    over: bool              # the maps' caption on a line over them
    labels: float           # width of the row captions' column left of the heads
    more_line: bool         # the note on a line of its own
    with_caption: bool      # the note on the caption's line
    lines: int              # text lines over the head numbers
    outs_over: bool         # the outputs' caption on a line over them


def diagram_layout(width: float, height: float, line: float, text_width, texts: dict,
                   n: int, heads: int, kv_heads: int, max_drawn: int,
                   notes_may_go: bool = False, beside: bool = True) -> Layout:
    """Lay the diagram out in a `width` × `height` pixel view.

    line: the height of one label line; text_width(s): a label's width; texts: label
    name → text (the widths depend on them). n tokens, `heads` and `kv_heads` the heads
    computed; at most `max_drawn` heads get a map and an output. Row D goes to the right
    of rows B and C when the width allows (the view is usually wide and short). With
    `notes_may_go`, a view too short for the notes keeps one line (the readout's) instead.
    Without `beside`, D stands under the heads.

    The height the boxes share is first estimated from the text lines (an operator
    centred on a row can reach below it, or not); what the estimate kept back and the
    rows leave free is given to the boxes in up to SLACK_PASSES more passes, each kept
    only if everything still fits."""
    lay = _lay_out(width, height, line, text_width, texts, n, heads, kv_heads, max_drawn,
                   notes_may_go, 0.0, beside)
    give = 0.0
    for _ in range(SLACK_PASSES):
        slack = height - lay.bottom - line * lay.note_lines
        if slack < 1.0:
            break
        give += slack
        more = _lay_out(width, height, line, text_width, texts, n, heads, kv_heads, max_drawn,
                        notes_may_go, give, beside)
        if more.bottom + line * more.note_lines > height:
            break
        grew = more.bottom - lay.bottom
        lay = more
        if grew < 0.5 * slack:    # the rest is what maps at their width limit leave
            break
    return lay


SLACK_PASSES = 3


def _lay_out(width: float, height: float, line: float, text_width, texts: dict,
             n: int, heads: int, kv_heads: int, max_drawn: int, notes_may_go: bool,
             give: float, beside_ok: bool) -> Layout:
    """diagram_layout with `give` pixels more for the boxes than the estimate."""
    lay = Layout(size=(width, height))
    strip = lay.strip = strip_height(line)
    share = kv_heads / heads
    measured = {k: text_width(v) if v else 0.0 for k, v in texts.items()}
    notes = texts["note"].count("\n") + 1 if texts["note"] else 0
    label_h = line * max(texts[k].count("\n") + 1 for k in MATRICES)
    squeezed_widths, wrap, lay.squeezed, u_w = row_plan(width, line, tuple(measured.items()), share)
    tw = dict(squeezed_widths)
    lines_a = [NAMES_A[:5], NAMES_A[5:]] if wrap else [NAMES_A]
    slot_min = max(MIN_MAP + 6, text_width("88") + 4)
    more = tw["more"] + GAP if tw["more"] else 0.0
    wanted = min(heads, max_drawn)
    side_room = width - _row_width(tw, share, MIN_BOX, NAMES_D, strip) - 2 * GAP

    def column(over: bool) -> float:
        return min(tw["outs"] if over else max(tw["maps"], tw["outs"]), width * 0.4)

    def fitting(room: float, over: bool) -> int:
        return int((room - column(over) - GAP) // slot_min)

    def captions(room: float) -> Captions:
        """The captions for heads `room` wide: the maps' caption over them when it is too
        wide to stand on their left or would cost maps there; the note beside the maps
        unless a line of its own lets more maps fit."""
        over = tw["maps"] > width * 0.4 or fitting(room, False) < min(wanted, fitting(room, True))
        labels = column(over)
        maps_room = room - labels - GAP
        more_line = bool(more) and int((maps_room - more) // slot_min) < min(
            wanted, int(maps_room // slot_min))
        with_caption = over and more_line and tw["maps"] + 2 * GAP + tw["more"] <= room
        return Captions(over, labels, more_line, with_caption,
                        int(over) + int(more_line and not with_caption), tw["outs"] > labels + 0.5)

    def box_budget(side: bool, cap: Captions, notes: int = notes) -> float:
        """Height left for the boxes once text lines and gaps are placed."""
        # label rows; the "·" and "=" centred on a box row reach half a line below it
        rows_text = (label_h + strip + line / 2) * len(lines_a) + line * (1 + cap.lines) + \
            (0 if side else label_h + strip + line / 2) + line * cap.outs_over
        return height - rows_text - line * notes - GAP * (5 + len(lines_a))

    # D beside B and C unless under them more maps fit and there is height for it there
    # (and beside D the "+k heads not drawn" note fits over the maps).
    beside_cap, below_cap = captions(side_room), captions(width)
    beside = side_room - beside_cap.labels - GAP - (0.0 if beside_cap.more_line else more)
    below = width - below_cap.labels - GAP - (0.0 if below_cap.more_line else more)
    side = lay.side = beside_ok and beside >= slot_min * min(heads, 4) and \
        tw["more"] <= side_room and (
            min(wanted, int(below // slot_min)) <= int(beside // slot_min)
            or box_budget(False, below_cap, min(notes, 1) if notes_may_go else notes) < 4 * line)
    cap = beside_cap if side else below_cap
    lay.more_line, lay.caption_over = cap.more_line, cap.over
    if notes_may_go and notes > 1 and box_budget(side, cap) < 2 * line:
        notes = 1          # a short view: the notes go (hidden), one line stays for the readout
    lay.note_lines = notes
    boxes = lay.boxes = max(4 * MIN_BOX, box_budget(side, cap, notes) + give)
    rows_h = max(MIN_BOX, min(boxes * 0.12, n * 8.0))
    rest = boxes - (rows_h if wrap else 0.0)      # Q K V under X and the W matrices
    # A short view (large text) gives the maps more of it, the not-to-scale W boxes less;
    # below the heads W_O takes as much as W_Q.
    tight = rest < 12 * line
    u = max(MIN_BOX, rest * ((0.25 if tight else 0.45) if side else (0.18 if tight else 0.24)))
    heads_h = rest - u * (1 if side else 2)
    m_cap = max(MIN_MAP, heads_h - rows_h - GAP)
    m_want = min(m_cap, 4 * line + n * 6)

    # The full-width box width: beside the heads, what the maps leave D.
    labels_room = cap.labels + GAP + (0.0 if cap.more_line else more)
    if side:
        room = side_room - labels_room
        reserve = min(room, min(wanted, max(1, int(room // slot_min))) * max(slot_min, m_want + 6))
        # at least as wide as D's labels make its cells anyway
        floor = min(u_w, max(MIN_BOX, min(tw[k] for k in ("concat", "w_o", "output"))))
        d_room = width - 2 * GAP - max(labels_room + reserve,
                                       tw["more"] if cap.more_line else 0.0)  # the note over the maps
        uw = max(floor, _widest(tw, share, NAMES_D, d_room, strip, top=u_w))
        d_left = width - _row_width(tw, share, uw, NAMES_D, strip)
        right = d_left - 2 * GAP                  # the heads' part of the view
    else:
        uw, right = u_w, width
        d_left = max(0.0, (width - _row_width(tw, share, uw, NAMES_D, strip)) / 2)
    room = right - labels_room
    drawn = lay.drawn = max(1, min(heads, max_drawn, int(room // slot_min)))
    slot = lay.slot = max(slot_min, room / drawn)
    m = max(MIN_MAP, min(slot - 6, m_want))
    if side:      # D no taller than the heads beside it
        heads_block = line * (cap.lines + 1 + cap.outs_over) + m + 2 * GAP + max(
            rows_h, (rows_h + line) / 2 if cap.over and not cap.outs_over else line)
        u = max(MIN_BOX, min(u, heads_block - label_h - strip - GAP))

    # A: X · W_Q W_K W_V = Q K V, each line centred.
    y = 0.0
    for names in lines_a:
        cells = _cell_widths(tw, share, uw, names, strip)
        x0 = max(0.0, (width - sum(cells) - GAP * (len(names) - 1)) / 2)
        row_h = 0.0
        for k, x, cw, bw in zip(names, _row(x0, cells), cells,
                                _box_widths(tw, share, uw, names)):
            if k in OPS:
                lay.labels[k] = (x, y + label_h + strip + (rows_h - line) / 2)
                continue
            lay.labels[k] = (x + (cw - tw[k]) / 2, y)
            h = u if k.startswith("w_") else rows_h
            lay.rects[k] = (x + (cw - bw) / 2, y + label_h + strip, bw, h)
            row_h = max(row_h, h)
        y += label_h + strip + max(row_h, (rows_h + line) / 2) + GAP   # "·", "=": a line high
    y += GAP

    # B and C: the heads, with their captions on the left (or over them).
    top_b = y
    x0 = cap.labels + GAP
    if cap.over:
        lay.labels["maps"] = (0.0, y)
    if cap.with_caption:
        lay.labels["more"] = (max(0.0, right - tw["more"]), y)
    elif cap.more_line:                             # over the maps, inside the view
        lay.labels["more"] = (max(0.0, min(x0, right - tw["more"])), y + line * cap.over)
    y += line * cap.lines
    if not cap.over:
        lay.labels["maps"] = (0.0, y + line + max(0.0, (m - line) / 2))
    for i in range(drawn):
        cx = x0 + slot * (i + 0.5)
        lay.head_labels.append((cx, y))             # centred on cx
        lay.maps.append((cx - m / 2, y + line, m, m))
    if tw["more"] and not cap.more_line:
        lay.labels["more"] = (x0 + slot * drawn + GAP / 2, y)
    y += line + m + GAP
    if cap.outs_over:
        lay.labels["outs"] = (0.0, y)
        y += line
    out_w = min(slot - 6, max(m, slot * 0.8))
    for i in range(drawn):
        cx = x0 + slot * (i + 0.5)
        lay.outs.append((cx - out_w / 2, y, out_w, rows_h))
    if not cap.outs_over:       # centred on the outputs, beside the maps' empty left if over
        lay.labels["outs"] = (0.0, y + (rows_h - line) / 2 if cap.over else
                              y + max(0.0, (rows_h - line) / 2))
    y += max(rows_h, (rows_h + line) / 2 if cap.over and not cap.outs_over else line) + GAP

    # D: concat · W_O = output, beside the heads or under them.
    y_d = top_b if side else y + GAP
    cells = _cell_widths(tw, share, uw, NAMES_D, strip)
    for k, x, cw, bw in zip(NAMES_D, _row(d_left, cells), cells,
                            _box_widths(tw, share, uw, NAMES_D)):
        if k in OPS:
            lay.labels[k] = (x, y_d + label_h + strip + (rows_h - line) / 2)
            continue
        if k == "w_o":
            x, cw = x + strip, cw - strip
        lay.labels[k] = (x + (cw - tw[k]) / 2, y_d)
        lay.rects[k] = (x + (cw - bw) / 2, y_d + label_h + strip, bw, u if k == "w_o" else rows_h)
    y = lay.bottom = max(y, y_d + label_h + strip + max(u, (rows_h + line) / 2) + GAP)
    lay.labels["note"] = (0.0, y)
    lay.labels["readout"] = (0.0, y)                # over the note while the mouse reads
    return lay


def with_not_drawn_note(width: float, height: float, line: float, text_width, texts: dict,
                        n: int, heads: int, kv_heads: int, max_drawn: int,
                        notes_may_go: bool, not_drawn) -> Layout:
    """diagram_layout, laid out again with room for the note `not_drawn(k)` when fewer
    maps fit than the texts allow for (k allowing for one more map giving way to it).
    Which maps fit depends on the width and the texts only, never on the height."""
    lay = diagram_layout(width, height, line, text_width, texts, n, heads, kv_heads,
                         max_drawn, notes_may_go)
    if lay.drawn < heads and not texts["more"] and not_drawn is not None:
        noted = diagram_layout(width, height, line, text_width,
                               {**texts, "more": not_drawn(heads - lay.drawn + 1)}, n, heads,
                               kv_heads, max_drawn, notes_may_go)
        if noted.drawn < heads or noted.side:
            return noted
        # the note too wide to stand beside D: D went under the heads, where every map
        # fits without the note
        lay = diagram_layout(width, height, line, text_width, texts, n, heads, kv_heads,
                             max_drawn, notes_may_go, beside=False)
    return lay


def needed_height(width: float, line: float, text_width, texts: dict, n: int, heads: int,
                  kv_heads: int, max_drawn: int, cap: float, not_drawn=None) -> float:
    """The least view height, at most `cap`, at which with_not_drawn_note(width, height, …)
    (or, without `not_drawn`, diagram_layout with the texts as they are) draws as many maps
    as at `cap`, gives each a side of min(slot − 6, max(2·MIN_MAP, line)) pixels and fits
    every row and the notes it keeps. It depends on the width and the texts, never on a
    height, so a minimum height set from it cannot feed itself (found to a pixel by
    bisection)."""
    measured: dict = {}

    def measure(text: str) -> float:       # each text measured once, not once a step
        if text not in measured:
            measured[text] = text_width(text)
        return measured[text]

    def lay_out(height: float) -> Layout:
        return with_not_drawn_note(width, height, line, measure, texts, n, heads, kv_heads,
                                   max_drawn, True, not_drawn)

    most = lay_out(cap).drawn       # a short view may stand D beside fewer maps

    def fits(height: float) -> bool:
        lay = lay_out(height)
        target = min(lay.slot - 6, max(2 * MIN_MAP, line))
        return lay.drawn >= most and lay.maps[0][2] >= target - 0.5 and \
            lay.bottom + line * lay.note_lines <= height

    if fits(cap) is False:
        return cap
    low, high = 0.0, cap
    while high - low > 1.0:
        mid = (low + high) / 2
        low, high = (low, mid) if fits(mid) else (mid, high)
    return high
