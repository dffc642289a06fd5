"""The control table of the plain controls (one Params field, one widget) and the
slider scales (Qt-free but for the translation marks).

    FIELD_CONTROLS                 one FieldControl per plain control, in panel order
    dk_to_slider / slider_to_dk    d_k on a log slider, DK_SLIDER_STEPS_PER_OCTAVE a doubling
    score_to_slider                a score in slider units of 1 / SCORE_SLIDER_SCALE
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP

from engine.params import (DK_MAX, KEYS_MAX, KEYS_MIN, SAMPLES_MAX, SAMPLES_MIN, SEED_MAX,
                           SEQ_LEN_MAX, SIGMA_MAX, SIGMA_MIN, TEMPERATURE_MAX, TEMPERATURE_MIN,
                           TOKENS_MAX, TOKENS_MIN)

DK_SLIDER_STEPS_PER_OCTAVE = 8
SCORE_SLIDER_SCALE = 10        # slider units per score unit (0.1 steps)
SCORE_SLIDER_RANGE = 100       # ± score range the sliders cover
SEED_MAX_WIDGET = SEED_MAX     # 2³¹ − 1, the engine's own range: QSpinBox holds a signed 32-bit int


@dataclass(frozen=True)
class FieldControl:
    """One Params field edited by one widget: a row of the control table.

    kind: "int" (QSpinBox), "float" (QDoubleSpinBox), "check" (QCheckBox) or "choice"
    (QComboBox of `choices`, (value, label) pairs). Texts are untranslated sources, marked
    for Qt Linguist with QT_TRANSLATE_NOOP and translated by tr() when shown.
    """

    field: str
    object_name: str
    kind: str
    label: str
    tooltip: str
    low: float = 0
    high: float = 0
    step: float = 1
    decimals: int = 2
    text: str = ""          # a check box's own text
    choices: tuple = ()


FIELD_CONTROLS = (
    FieldControl("scale", "scaleCheck", "check", QT_TRANSLATE_NOOP("", "÷√d_k"),
                 QT_TRANSLATE_NOOP("", "Divide the scores by √d_k before softmax"), text=QT_TRANSLATE_NOOP("", "scale scores")),
    FieldControl("temperature", "temperatureSpin", "float", QT_TRANSLATE_NOOP("", "temperature T"),
                 QT_TRANSLATE_NOOP("", "Softmax temperature: softmax(s / T)"),
                 TEMPERATURE_MIN, TEMPERATURE_MAX, 0.1, 2),
    FieldControl("keys", "keysSpin", "int", QT_TRANSLATE_NOOP("", "keys n"),
                 QT_TRANSLATE_NOOP("", "Keys n per query in the saturation study: each of its softmaxes sees n "
                                       "scores q·k_j. (The softmax panel has its own scores; tokens and "
                                       "sequence are other lengths.)"),
                 KEYS_MIN, KEYS_MAX),
    FieldControl("samples", "samplesSpin", "int", QT_TRANSLATE_NOOP("", "samples"),
                 QT_TRANSLATE_NOOP("", "How many pairs q, k are drawn for the variance histogram: more samples, "
                                       "a smoother histogram and a smaller ± on the variance"),
                 SAMPLES_MIN, SAMPLES_MAX, 1000),
    FieldControl("distribution", "distributionCombo", "choice", QT_TRANSLATE_NOOP("", "components"),
                 QT_TRANSLATE_NOOP("", "Law of each component of q and k"),
                 choices=(("normal", QT_TRANSLATE_NOOP("", "normal")), ("uniform", QT_TRANSLATE_NOOP("", "uniform")),
                          ("rademacher", QT_TRANSLATE_NOOP("", "±1 (Rademacher)")))),
    FieldControl("sigma", "sigmaSpin", "float", QT_TRANSLATE_NOOP("", "σ"),
                 QT_TRANSLATE_NOOP("", "Standard deviation σ of each component of q and k: Var(q·k) = d_k·σ⁴, "
                                       "and d_k·σ⁴ / d_k = σ⁴ after ÷√d_k"),
                 SIGMA_MIN, SIGMA_MAX, 0.1, 2),
    FieldControl("seed", "seedSpin", "int", QT_TRANSLATE_NOOP("", "seed"),
                 QT_TRANSLATE_NOOP("", "Seed of every random draw (samples, live scores, saturation queries, the "
                                       "diagram's X and weights): the same seed gives the same numbers"),
                 0, SEED_MAX_WIDGET),
    FieldControl("tokens", "tokensSpin", "int", QT_TRANSLATE_NOOP("", "tokens"),
                 QT_TRANSLATE_NOOP("", "Tokens n of the multi-head diagram: the rows of X and the size of each "
                                       "n × n attention map. Kept small so every matrix can be drawn."), TOKENS_MIN, TOKENS_MAX),
    FieldControl("seq_len", "seqLenSpin", "int", QT_TRANSLATE_NOOP("", "sequence (cost)"),
                 QT_TRANSLATE_NOOP("", "Sequence length n of the cost panel: FLOPs, the h·n² score memory and "
                                       "the KV cache at this context. Only counted, never drawn, so it "
                                       "can be long."), 1, SEQ_LEN_MAX),
    FieldControl("causal", "causalCheck", "check", "",
                 QT_TRANSLATE_NOOP("", "Mask future tokens in the multi-head diagram: token i attends to tokens "
                                       "1 … i only, as in a decoder (the upper triangle of each map is 0)"),
                 text=QT_TRANSLATE_NOOP("", "causal mask")),
)


#: The controls whose tooltip ends with the note on the window's four lengths.
LENGTH_FIELDS = ("keys", "tokens", "seq_len")


def dk_to_slider(dk: int) -> int:
    return round(math.log2(dk) * DK_SLIDER_STEPS_PER_OCTAVE)


def slider_to_dk(position: int) -> int:
    return max(1, min(DK_MAX, round(2 ** (position / DK_SLIDER_STEPS_PER_OCTAVE))))


def score_to_slider(score: float) -> int:
    """Slider position of a score, pinned to the slider's ends for scores beyond ±100."""
    limit = SCORE_SLIDER_RANGE * SCORE_SLIDER_SCALE
    return int(max(-limit, min(limit, round(score * SCORE_SLIDER_SCALE))))
