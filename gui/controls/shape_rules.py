"""How d_k, h and d_model move together in the window (Qt-free).

The invariant d_model = h·d_k ≤ D_MODEL_MAX always holds. With the lock on,
d_model stays put: changing h changes d_k = d_model / h, and only divisors of
d_model are offered as h. With the lock off, changing h keeps d_k and d_model
follows. Each rule returns the new (dk, heads, d_model, locked) and an
optional note, a tuple (kind, values…), when it had to change something
the user did not touch; the window turns it into a translated message.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.params import D_MODEL_MAX, divisors


@dataclass(frozen=True)
class Shape:
    dk: int
    heads: int
    d_model: int
    locked: bool


def allowed_heads(shape: Shape) -> list[int]:
    """h values the heads control offers for this shape."""
    if shape.locked:
        return divisors(shape.d_model)
    return list(range(1, D_MODEL_MAX // shape.dk + 1))


def nearest(values: list[int], target: int) -> int:
    return min(values, key=lambda v: (abs(v - target), v))


def change_dk(shape: Shape, dk: int) -> tuple[Shape, tuple | None]:
    if shape.locked and shape.d_model % dk == 0:
        return Shape(dk, shape.d_model // dk, shape.d_model, True), None
    heads = min(shape.heads, max(1, D_MODEL_MAX // dk))
    note = None
    if shape.locked:
        note = ("unlocked", shape.d_model, dk)
    elif heads != shape.heads:
        note = ("heads_lowered", heads, D_MODEL_MAX)
    return Shape(dk, heads, heads * dk, False), note


def change_heads(shape: Shape, heads: int) -> tuple[Shape, tuple | None]:
    if shape.locked:
        valid = divisors(shape.d_model)
        note = None
        if heads not in valid:
            snapped = nearest(valid, heads)
            note = ("not_divisor", heads, shape.d_model, snapped)
            heads = snapped
        return Shape(shape.d_model // heads, heads, shape.d_model, True), note
    heads = max(1, min(heads, D_MODEL_MAX // shape.dk))
    return Shape(shape.dk, heads, heads * shape.dk, False), None


def change_d_model(shape: Shape, d_model: int) -> tuple[Shape, tuple | None]:
    d_model = max(1, min(d_model, D_MODEL_MAX))
    valid = divisors(d_model)
    heads = shape.heads if shape.heads in valid else nearest(valid, shape.heads)
    note = None if heads == shape.heads else ("heads_changed", shape.heads, d_model, heads)
    return Shape(d_model // heads, heads, d_model, shape.locked), note


def kv_heads_for(heads: int, kv_heads: int | None) -> int | None:
    """The key/value heads to keep when h becomes `heads`: `kv_heads` while it still divides
    h (1 ≤ g ≤ h), else None (multi-head attention, g = h). Never an invalid pair."""
    if kv_heads is None or not 1 <= kv_heads <= heads or heads % kv_heads:
        return None
    return kv_heads
