"""Parsing and presets of score vectors (the softmax demo's input)."""
from __future__ import annotations

import math
import re

from .params import SCORE_LIMIT, SCORES_MAX, SCORES_MIN, ParamsError

_SEPARATOR = re.compile(r"[,\s、，]+")


def parse_scores(text: str) -> tuple[float, ...]:
    """"10, 1 1,1" → (10.0, 1.0, 1.0, 1.0).

    Values are separated by commas and/or whitespace. Raises ParamsError naming
    the first bad item, an empty item ("1,,2"), a non-finite value, a value beyond
    ±SCORE_LIMIT (10⁶), or a count outside 2–16.
    """
    stripped = text.strip()
    if not stripped:
        raise ParamsError(f"enter {SCORES_MIN} to {SCORES_MAX} numbers separated by commas")
    if re.search(r",\s*,", stripped) or stripped.startswith(",") or stripped.endswith(","):
        raise ParamsError("empty value between commas")
    values = []
    for item in _SEPARATOR.split(stripped):
        try:
            value = float(item)
        except ValueError:
            raise ParamsError(f"{item!r} is not a number") from None
        if not math.isfinite(value):
            raise ParamsError(f"{item!r} is not a finite number")
        if abs(value) > SCORE_LIMIT:
            raise ParamsError(f"{item!r} is outside -{SCORE_LIMIT:.0f} … {SCORE_LIMIT:.0f}")
        values.append(value)
    if not SCORES_MIN <= len(values) <= SCORES_MAX:
        raise ParamsError(f"need {SCORES_MIN} to {SCORES_MAX} values, got {len(values)}")
    return tuple(values)


def format_scores(scores) -> str:
    """(10.0, 1.0, 2.5) → "10, 1, 2.5"."""
    return ", ".join(f"{s:g}" for s in scores)
