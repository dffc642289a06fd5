"""Fitting texts to the room a plot has: wrapped lines, tick steps that leave gaps."""
from __future__ import annotations

import math
import re

#: Tick steps tried, as multiples of a power of ten (1-2-5, and 2.5 for probabilities).
NICE_STEPS = (1.0, 2.0, 2.5, 5.0)
TICK_GAP = 1.5   # centre-to-centre distance of two tick labels, in text heights, at least


def wrap_lines(text: str, width: float, measure) -> str:
    """Each line of `text` broken at its spaces (or after 、) so that no line is wider than
    `width` pixels as `measure(line)` counts them, where a word allows; a continued line is
    indented by two spaces."""
    out = []
    for line in text.split("\n"):
        if measure(line) <= width:
            out.append(line)
            continue
        words = re.findall(r"\S+\s*|\s+", line)
        current = ""
        for word in words:
            trial = current + word
            if current.strip() and measure(trial.rstrip()) > width:
                out.append(current.rstrip())
                current = "  " + word.lstrip()
            else:
                current = trial
        out.append(current.rstrip())
    return "\n".join(out)


def fitting_step(span: float, length_px: float, text_px: float, minimum: float = 0.0) -> float:
    """The smallest 1-2-2.5-5 step (≥ `minimum`) whose ticks along `span` data units shown
    over `length_px` pixels stay TICK_GAP text heights `text_px` apart."""
    if span <= 0 or length_px <= 0:
        return max(span, minimum) or 1.0
    smallest = max(span * TICK_GAP * text_px / length_px, minimum, 1e-12)
    exponent = math.floor(math.log10(smallest))
    for power in (exponent, exponent + 1):
        for mantissa in NICE_STEPS:
            step = mantissa * 10.0 ** power
            if step >= smallest * (1 - 1e-9):
                return step
    return 10.0 ** (exponent + 2)


def ticks_between(low: float, high: float, step: float) -> list[tuple[float, str]]:
    """(value, label) of every multiple of `step` in [low, high]."""
    first = math.ceil(low / step - 1e-9)
    last = math.floor(high / step + 1e-9)
    return [(k * step, f"{k * step:g}") for k in range(first, last + 1)]
