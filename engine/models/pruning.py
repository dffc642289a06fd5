"""Pruning a pretrained model's heads (Michel et al. 2019), without gradients.

Quality of a head mask m (L, h) is the cosine similarity between the sentence embedding
with m and the unpruned one, averaged over `sentences`:

    e(m, s)  = mean over the n tokens of s of hidden_states(model, ids(s), m)     (d,)
    quality  = mean_s cos(e(m, s), e(1, s))       (1 for m = 1, up to rounding)

(the mean-pooled embedding sentence-transformers builds from MiniLM). The loaded models
carry no gradients here, so a head's importance is not Michel et al.'s |∂L/∂m| but the drop
in quality when that head alone is switched off: I_lh = 1 − quality(m with only m_lh = 0).
Heads then go off one at a time, least important first (training.pruning.pruning_curve).

LESSON_SENTENCES are the Head roles tab's default sentences (English and Japanese).
"""
from __future__ import annotations

import numpy as np

from ..training.pruning import PruningCurve, pruning_curve
from .forward import hidden_states
from .loader import Model

LESSON_SENTENCES = ("The cat sat on the mat because it was warm.",
                    "猫がマットに座った。それは暖かかった。")


def sentence_embedding(model: Model, ids, head_mask=None) -> np.ndarray:
    """Mean over tokens of the last layer's output, (d,) float64."""
    return hidden_states(model, ids, head_mask).astype(np.float64).mean(axis=0)


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def embedding_quality(model: Model, id_lists):
    """quality(mask) of the module docstring for the sentences given as token ids."""
    reference = [sentence_embedding(model, ids) for ids in id_lists]

    def quality(mask) -> float:
        return float(np.mean([cosine(sentence_embedding(model, ids, mask), ref)
                              for ids, ref in zip(id_lists, reference)]))
    return quality


def ablation_importance(model: Model, quality) -> np.ndarray:
    """(L, h): 1 − quality with only that head off."""
    cfg = model.config
    out = np.zeros((len(model.layers), cfg.heads))
    for layer in range(len(model.layers)):
        for head in range(cfg.heads):
            mask = np.ones(out.shape, dtype=np.float32)
            mask[layer, head] = 0.0
            out[layer, head] = 1.0 - quality(mask)
    return out


def prune_model(model: Model, sentences=LESSON_SENTENCES, id_lists=None) -> PruningCurve:
    """The pruning curve of `model` on `sentences` (or on `id_lists` of token ids)."""
    if id_lists is None:
        id_lists = [model.encode(s)[1] for s in sentences]
    quality = embedding_quality(model, id_lists)
    return pruning_curve(quality, ablation_importance(model, quality), "ablation",
                         "cosine similarity to the unpruned sentence embedding")
