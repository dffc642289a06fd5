"""Where the cost panel's notes stand (no Qt): beside the plot or under it, and how large.

The FLOP notes and the memory notes are secondary to the bars: they never lie on the plot.
They stand in a column right of it (SIDE) or side by side under it (BELOW), the plot
keeping PLOT_SHARE_W of the panel's width and PLOT_SHARE_H of its height for its view;
the notes' text shrinks (NOTE_FACTORS of the plot text, never under MIN_NOTE_PT) before
the plot gives up that share. A wide panel (a projector's workspace) tries SIDE first, a
narrower one BELOW.

Everything is in pixels. `lines(i, factor, width)` counts the lines note i (0: FLOPs,
1: memory) takes wrapped to `width` at `factor` × the plot text; `widest(i, factor)` is
its widest line unwrapped; `title(width, factor)` is the title's height at a width, its
legend at the notes' size.
"""
from __future__ import annotations

from dataclasses import dataclass

SIDE, BELOW = "side", "below"
#: Sizes of the notes tried, as factors of the plot text, largest first.
NOTE_FACTORS = (0.95, 0.85, 0.75, 0.65, 0.55)
#: The notes are never drawn smaller than this (the plot text at 100 % is 10 pt).
MIN_NOTE_PT = 9.0
#: The plot's view keeps at least these shares of the panel's width and height (a little
#: over the projector walk's half and 40 %: the panel's frame and margins are not the plot).
PLOT_SHARE_W, PLOT_SHARE_H = 0.51, 0.45
#: A panel this many times as wide as high puts its notes beside the plot first.
WIDE = 1.8
PAD = 6.0           # around the notes
FRAME = 12.0        # the layout's own margins and spacing around the plot


@dataclass(frozen=True)
class Room:
    """What the panel has and what its parts other than the notes need, in pixels."""
    width: float
    height: float
    line: float             # line spacing of the plot text (factor 1)
    font_pt: float          # the plot text's size
    left_axis: float        # width of the FLOP axis (ticks and name)
    bottom_axis: float      # height of the axis under the bars (their names)
    plot_min: float         # the plot's view at least this high (its axis name's length)
    combo: tuple            # the KV precision box (width, height)


@dataclass(frozen=True)
class NotesPlan:
    where: str              # SIDE or BELOW
    factor: float           # the notes' size, × the plot text
    width: float            # the column's width (SIDE), or each note's (BELOW)
    height: float           # the notes' height, the box under them included
    fits: bool              # the plot keeps its shares (else the window scrolls)


def factors(font_pt: float) -> tuple:
    """NOTE_FACTORS not under MIN_NOTE_PT (at least the largest)."""
    allowed = tuple(f for f in NOTE_FACTORS if f * font_pt >= MIN_NOTE_PT - 1e-9)
    return allowed or NOTE_FACTORS[:1]


def _side(room: Room, factor: float, lines, widest) -> tuple:
    """(column width, column height, least panel height) of notes in a column."""
    most = room.width * (1 - PLOT_SHARE_W) - room.left_axis - FRAME
    natural = max(widest(0, factor), widest(1, factor)) + 2 * PAD
    # as wide as the precision box where there is room (narrower, it elides its text)
    width = min(max(natural, room.combo[0] + 2 * PAD), most)
    if width < natural * 0.5:
        return width, float("inf"), float("inf")
    text = width - 2 * PAD
    count = lines(0, factor, text) + lines(1, factor, text) + 0.5     # half a line between
    height = count * room.line * factor + room.combo[1] + 3 * PAD
    return width, height, height


def _below(room: Room, factor: float, lines) -> tuple:
    """(note width, notes' height) of the two notes side by side under the plot."""
    width = (room.width - 3 * PAD) / 2
    rows = max(lines(0, factor, width - PAD), lines(1, factor, width - PAD))
    return width, rows * room.line * factor + room.combo[1] + 3 * PAD


def plan_notes(room: Room, lines, widest, title) -> NotesPlan:
    """The largest notes that leave the plot its shares, SIDE before BELOW in a wide
    panel; if none does, the arrangement of least_height's (the window scrolls)."""
    order = (SIDE, BELOW) if room.width >= WIDE * room.height else (BELOW, SIDE)
    view_h = max(PLOT_SHARE_H * room.height, room.plot_min)
    for factor in factors(room.font_pt):
        for where in order:
            if where == SIDE:
                width, height, _least = _side(room, factor, lines, widest)
                plot = title(room.width - width, factor) + room.bottom_axis + view_h + FRAME
            else:
                width, height = _below(room, factor, lines)
                plot = title(room.width, factor) + room.bottom_axis + view_h + FRAME + height
            if height <= room.height and plot <= room.height:
                return NotesPlan(where, factor, width, height, True)
    where, factor, width, height = _most_compact(room, lines, widest, title)[1:]
    return NotesPlan(where, factor, width, height, False)


def _most_compact(room: Room, lines, widest, title) -> tuple:
    """(least panel height, where, factor, width, notes' height) at the smallest notes:
    the plot's view only as high as room.plot_min (its shares are what plan_notes asks
    for where the panel has them)."""
    factor = factors(room.font_pt)[-1]
    width, notes = _below(room, factor, lines)
    best = (title(room.width, factor) + room.bottom_axis + FRAME + notes + room.plot_min,
            BELOW, factor, width, notes)
    width, notes, least = _side(room, factor, lines, widest)
    if least < float("inf"):
        least = max(least, title(room.width - width, factor) + room.bottom_axis + FRAME
                    + room.plot_min)
        if least < best[0]:
            best = (least, SIDE, factor, width, notes)
    return best


def least_height(room: Room, lines, widest, title) -> float:
    """The least panel height at which plan_notes fits, at this width (the room's height
    is not read: a minimum height set from it cannot feed itself)."""
    return _most_compact(room, lines, widest, title)[0]


def _parts(word: str, width: float, advance) -> list:
    """A word too wide for a line: its words as text_fit.glue_words tells Japanese ones
    apart (a run of other characters, "1.05M", stays whole), each still too wide cut into
    characters."""
    from gui.panels.text_fit import WORD_JOINER, glue_words, kana_class

    glued, pieces = glue_words(word), [""]
    for i, char in enumerate(glued):
        if char == WORD_JOINER:
            continue
        before = glued[i - 1] if i else ""
        if pieces[-1] and before != WORD_JOINER and (kana_class(before) or kana_class(char)):
            pieces.append("")
        pieces[-1] += char
    return [part for piece in pieces
            for part in ([piece] if advance(piece) <= width else list(piece))]


def wrap_note(text: str, width: float, advance) -> str:
    """Each line of `text` broken at its spaces into lines no wider than `width` as
    `advance(line)` measures them, where a word allows (_parts); a line's indent stays on
    its first part."""
    lines: list = []
    for line in text.split("\n"):
        current = line[:len(line) - len(line.lstrip(" "))]      # the indent
        start = len(current)
        for word in line.lstrip(" ").split(" "):
            trial = f"{current} {word}" if len(current) > start else current + word
            if advance(trial) <= width:
                current = trial
                continue
            if current.strip():
                lines.append(current)
                current, start = "", 0
            if advance(current + word) <= width:
                current += word
                continue
            for part in _parts(word, width, advance):
                if current.strip() and advance(current + part) > width:
                    lines.append(current)
                    current = ""
                current += part
        lines.append(current)
    return "\n".join(lines)
