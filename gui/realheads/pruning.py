"""The Real heads tab's "Do we need all the heads?" study: the loaded model's heads pruned
one at a time (engine.models.pruning.prune_model, Michel et al. 2019 without gradients).

    compute_model_pruning(PruningRequest(folder, sentences)) -> PruningResult

runs on the "modelPruning" StudyCycle's thread (the window's is its LabController's, like
the "modelHeads" study; a tab on its own makes one). A model or a sentence the engine
refuses gives a result whose `error` is the engine's one-line message, never an exception.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from threadpoolctl import threadpool_limits

from engine.models import ModelError, TokenError, load_model

from gui.studies.cycle import StudyCycle

if TYPE_CHECKING:   # engine.models.pruning imports engine.training: when first pruned
    from engine.training.pruning import PruningCurve


@dataclass(frozen=True)
class PruningRequest:
    folder: str
    sentences: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class PruningResult:
    """The pruning curve of the model in request.folder, or (`error`) why there is none."""

    request: PruningRequest
    model_name: str = ""
    layers: int = 0
    heads: int = 0
    curve: PruningCurve | None = None
    error: str = ""


def pruning_sentences(sentence: str) -> tuple[str, ...]:
    """The tab's sentence and the lesson's two (engine.models.pruning.LESSON_SENTENCES),
    each once, blank ones left out."""
    from engine.models.pruning import LESSON_SENTENCES

    out: list[str] = []
    for s in (sentence, *LESSON_SENTENCES):
        s = s.strip()
        if s and s not in out:
            out.append(s)
    return tuple(out)


def compute_model_pruning(request: PruningRequest) -> PruningResult:
    """The study (see the module docstring); one BLAS thread, as the forward study."""
    from engine.models.pruning import prune_model

    try:
        with threadpool_limits(limits=1, user_api="blas"):
            model = load_model(request.folder)
            curve = prune_model(model, request.sentences)
    except (ModelError, TokenError) as exc:
        return PruningResult(request=request, error=str(exc))
    return PruningResult(request=request, model_name=model.name,
                         layers=len(model.layers), heads=model.config.heads, curve=curve)


def make_pruning_study(compute_fn=compute_model_pruning, parent=None) -> StudyCycle:
    """The "modelPruning" StudyCycle: PruningRequest in, PruningResult out."""
    return StudyCycle("modelPruning", compute_fn, parent)
