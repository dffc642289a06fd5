"""The two preset boxes of the control panel, as functions of Params (Qt-free).

A box shows the preset the current Params match, or its first entry (custom) once
the values have left every preset: what it shows is read from the state, never
remembered from the last choice.

    model_preset_index(params) -> int     1 + index in MODEL_PRESETS, or 0 (custom shape)
    preset_scores(key, params) -> tuple   the scores a scores preset sets
    scores_preset_key(params) -> str|None the preset the scores match (None: custom or live)
"""
from __future__ import annotations

from engine import Params, random_scores
from engine.presets import MODEL_PRESETS

#: Keys of the scores presets, in the box's order after its first (custom) entry.
SCORE_PRESET_KEYS = ("ten", "hundred", "uniform", "gap", "random")


def preset_shape(preset) -> tuple:
    """What a model preset sets: (d_model, h, d_k, K/V heads, cached layers)."""
    return (preset.d_model, preset.heads, preset.dk, preset.kv_heads, preset.cached_layers)


def model_preset_index(params: Params) -> int:
    """1 + the index of the first model preset whose shape `params` has, else 0."""
    shape = (params.d_model, params.heads, params.dk, params.kv_heads_used, params.cached_layers)
    for i, preset in enumerate(MODEL_PRESETS, start=1):
        if preset_shape(preset) == shape:
            return i
    return 0


def preset_scores(key: str, params: Params) -> tuple[float, ...]:
    """The scores preset `key` gives at `params` (as many keys as the current scores; the
    two classic examples have four). "random": q·k_j at the current d_k from the seed."""
    n = len(params.scores)
    if key == "ten":
        return (10.0, 1.0, 1.0, 1.0)
    if key == "hundred":
        return (100.0, 91.0, 91.0, 91.0)
    if key == "uniform":
        return (1.0,) * n
    if key == "gap":
        return (30.0,) + (0.0,) * (n - 1)
    if key == "random":
        return random_scores(params.dk, n, params.seed, params.distribution, params.sigma)
    raise KeyError(f"no scores preset {key!r}")


def scores_preset_key(params: Params) -> str | None:
    """The scores preset the typed scores equal now; None when live or none matches."""
    if params.live_scores:
        return None
    for key in SCORE_PRESET_KEYS:
        if preset_scores(key, params) == params.scores:
            return key
    return None
