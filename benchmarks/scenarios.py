"""The control changes the latency benchmark makes, through the window's spin boxes.

defaults   d_k jumps around 64 (8 … 512) and h through the divisors of 512, each change from
           the locked default width d_model = 512;
dk_16384   changes near d_k = 16 384 (h = 1 or 2);
steps      one-step changes as arrow keys and the wheel make them: a drag.
Each run returns the Harness's timed rows (see Harness.timed_change).
"""
from __future__ import annotations

from .harness import Harness

CHANGES = 300

DK_AROUND_DEFAULT = [128, 64, 32, 96, 64, 256, 48, 64, 16, 128, 80, 64, 32, 100, 64, 8, 72, 128,
                     64, 256, 40, 64, 512, 64]
HEADS_DIVISORS_512 = [16, 4, 8, 32, 2, 8, 64, 1, 16, 8, 4, 8, 32]
DK_NEAR_MAX = [8192, 16000, 12288, 16383, 10000, 14336, 16128, 9000, 15000, 12000]


def run_defaults(h: Harness, n: int = CHANGES, mode: str = "qt",
                 state: dict | None = None) -> list[dict]:
    """`n` changes of the defaults sequence. `state`: a dict kept between calls, for a
    sequence taken in blocks (benchmarks.turns): each call goes on where the last stopped."""
    state = {} if state is None else state
    h.relock_512()
    if not state:
        h.set_untimed(h.dk_spin, 64)
    rows, guard = [], 0
    i, dk_i, heads_i = state.get("i", 0), state.get("dk_i", 0), state.get("heads_i", 0)
    while len(rows) < n and guard < 10 * n:
        guard += 1
        h.relock_512()  # every step starts from the locked default width d_model = 512
        if i % 2 == 0:  # d_k: powers of two keep the lock; in-between values unlock d_model
            spin, value = h.dk_spin, DK_AROUND_DEFAULT[dk_i % len(DK_AROUND_DEFAULT)]
            dk_i += 1
        else:           # h through divisors of 512 (locked: d_k = 512 / h follows)
            spin, value = h.heads_spin, HEADS_DIVISORS_512[heads_i % len(HEADS_DIVISORS_512)]
            heads_i += 1
        i += 1
        h.record(rows, spin, value, mode)
    state.update(i=i, dk_i=dk_i, heads_i=heads_i)
    return rows


def run_dk_max(h: Harness, n: int = CHANGES, mode: str = "qt",
               state: dict | None = None) -> list[dict]:
    """`n` changes near d_k = 16 384; `state` as in run_defaults."""
    state = {} if state is None else state
    if not state:
        h.set_untimed(h.dk_spin, 16384)
    rows, i, guard = [], state.get("i", 0), 0
    while len(rows) < n and guard < 10 * n:
        guard += 1
        p = h.model.params
        if p.dk == 8192 and p.heads == 1 and i % 4 == 1:
            spin, value = h.heads_spin, 2          # 2 × 8192 = 16384
        elif p.dk != 16384:
            spin, value = h.dk_spin, 16384
        else:
            spin, value = h.dk_spin, DK_NEAR_MAX[(i // 2) % len(DK_NEAR_MAX)]
        i += 1
        h.record(rows, spin, value, mode)
    state.update(i=i)
    return rows


def run_steps(h: Harness, n: int = CHANGES) -> list[dict]:
    """What arrow keys and the mouse wheel do: one step at a time. d_k steps by 1 between
    48 and 96 (unlocked; d_model follows), then h steps through the divisors of 512
    (locked). Ranges move rarely, so this is the cost of a typical drag."""
    rows, guard, direction = [], 0, 1
    while len(rows) < n and guard < 10 * n:
        guard += 1
        if (len(rows) // 40) % 2 == 0:   # 40 d_k steps, then 40 h steps
            if h.lock.isChecked():
                h.lock.setChecked(False)
                h.drain()
            dk = h.model.params.dk
            if not 48 <= dk <= 96:
                h.set_untimed(h.dk_spin, 64)
                continue
            if not 48 < dk + direction < 96:
                direction = -direction
            h.record(rows, h.dk_spin, dk + direction)
        else:
            h.relock_512()
            if not 2 <= h.model.params.heads <= 64:
                h.set_untimed(h.heads_spin, 8)
                continue
            heads = h.model.params.heads
            target = heads * 2 if direction > 0 else heads // 2
            if not 2 <= target <= 64:
                direction = -direction
                continue
            h.record(rows, h.heads_spin, target)
    return rows
