"""The pretrained-heads study and the MiniLM download, for the "Real heads" tab.

    compute_model_heads(ModelHeadsRequest(folder, sentence)) -> ModelHeadsResult

runs on the "modelHeads" StudyCycle's thread: load_model (cached per folder), the forward
pass, head_roles and summarize_roles (engine.models.worker.analyse_sentence). A folder or a
sentence the model cannot take gives a result whose `error` is the engine's one-line message,
never an exception.

The numpy work itself runs in a child process (gui/realheads/forward_process.py ForwardProcess, one per
worker thread: spawned with the thread's first request, or earlier when the window opens the
tab (start_early), stopped when the thread finishes, i.e. when the study shuts down with the
window). In the study's thread it held the GIL for most of a 128-token forward
and a d_k change made meanwhile missed its frame (benchmarks/model_forward.py --ui); the
thread now only waits on the pipe, which releases the GIL. Called on the GUI thread or on a
plain Python thread (tests, lessons), compute_model_heads computes in place
(compute_in_process).

ModelFetcher runs engine.models.fetch.fetch_model on a thread of its own; cancel() makes
the fetch stop pip and clean up, shutdown() cancels and waits (the window's close).

The window's study (make_model_heads_study) and fetcher are its LabController's, made with
the controller and handed to the tab when it is built (gui/window/controller.py).
"""
from __future__ import annotations

import threading
import unicodedata
from dataclasses import dataclass

import numpy as np
from threadpoolctl import threadpool_limits
from PySide6.QtCore import QObject, QThread, Signal, Slot

from engine.models import (ForwardResult, HeadRole, ModelError, RoleSummary, TokenError,
                           repeat_span, roles_of_maps)
from engine.models.fetch import FetchError, fetch_model
from engine.models.roles import induction_scores
from engine.models.worker import SentenceAnalysis, analyse_sentence

from gui.realheads.forward_process import forward_process
from gui.studies.cycle import StudyCycle

#: The model the Real heads tab offers to download (engine.models.fetch).
MINILM = "minilm"


@dataclass(frozen=True)
class ModelHeadsRequest:
    folder: str
    sentence: str


@dataclass(frozen=True, eq=False)
class ModelHeadsResult:
    """One model on one sentence. On failure only `request` and `error` are set."""

    request: ModelHeadsRequest
    model_name: str = ""
    architecture: str = ""
    layers: int = 0
    heads: int = 0
    d_model: int = 0
    d_k: int = 0
    forward: ForwardResult | None = None
    roles: tuple[HeadRole, ...] = ()
    summary: RoleSummary | None = None
    unknown: int = 0     # tokens the tokenizer could not spell ([UNK])
    error: str = ""
    ignored_token_ids: tuple[tuple[str, int], ...] = ()   # ModelConfig.ignored_token_ids
    vocab_size: int = 0

    def role(self, layer: int, head: int) -> HeadRole:
        return self.roles[layer * self.heads + head]


@dataclass(frozen=True, eq=False)
class HeadSet:
    """Heads from outside the pretrained model, beside its grid: the training lab's learned
    heads (kind "trained") or the hand-built heads (kind "hand").

    maps (L, h, n, n) over `tokens` (n,), rows = queries; `roles` the pretrained model's role
    detector on them (engine.models.roles_of_maps, L·h entries); `own_roles` what each head is
    called where it comes from (the training lab's role id, the hand-built rule);
    `own_scores` the training lab's scores on its scoring batch (empty for hand-built heads);
    `step` the training step (0 for hand-built heads)."""

    kind: str
    tokens: tuple[str, ...]
    maps: np.ndarray
    roles: tuple[HeadRole, ...]
    own_roles: tuple[str, ...]
    own_scores: tuple[dict, ...] = ()
    step: int = 0

    @property
    def layers(self) -> int:
        return self.maps.shape[0]

    @property
    def heads(self) -> int:
        return self.maps.shape[1]

    def role(self, layer: int, head: int) -> HeadRole:
        return self.roles[layer * self.heads + head]


def is_roles_run(result) -> bool:
    """Whether `result` (an engine.training result) is a "roles" run with learned heads: the
    one kind whose heads go beside the pretrained grid (trained_head_set; the window keeps
    the newest one for a Real heads tab built later)."""
    return getattr(result, "experiment", "") == "roles" and bool(getattr(result, "heads", ()))


def trained_head_set(result) -> HeadSet | None:
    """The learned heads of a finished "roles" run (engine.training RolesResult) on its sample
    sequence [BOS] r r, scored by the pretrained detector (causal; induction measured on the
    sample itself). None for a result without square per-head maps (the other experiments)."""
    if not is_roles_run(result):
        return None
    heads = result.heads
    layers, per_layer = max(h.layer for h in heads) + 1, max(h.head for h in heads) + 1
    n = heads[0].weights.shape[-1]
    if len(heads) != layers * per_layer or any(h.weights.shape != (n, n) for h in heads):
        return None
    maps = np.zeros((layers, per_layer, n, n), dtype=np.float32)
    for h in heads:
        maps[h.layer, h.head] = h.weights
    tokens = tuple(result.sample_tokens[:n])
    span = repeat_span(tokens)
    induction = None if span is None else induction_scores(maps, *span)
    ordered = sorted(heads, key=lambda h: (h.layer, h.head))
    step = int(result.run.curve.steps[-1]) if len(result.run.curve.steps) else 0
    return HeadSet(kind="trained", tokens=tokens, maps=maps,
                   roles=roles_of_maps(maps, tokens, causal=True, induction=induction),
                   own_roles=tuple(h.role for h in ordered),
                   own_scores=tuple(dict(h.scores) for h in ordered), step=step)


def hand_head_set(result) -> HeadSet | None:
    """The hand-built (or random) heads of a head-roles study result (engine.head_roles
    HeadsResult: weights (h, n, n)) as one layer; None when the sentence has fewer than the
    2 tokens the role detector needs (engine.models.roles.head_scores)."""
    if getattr(result, "weights", None) is None or np.shape(result.weights)[-1] < 2:
        return None
    from engine.head_roles import ROLE_HEADS

    maps = np.asarray(result.weights, dtype=np.float32)[None]
    tokens = tuple(t.text for t in result.tokens)
    own = ("random",) * maps.shape[1] if result.random else tuple(ROLE_HEADS[:maps.shape[1]])
    return HeadSet(kind="hand", tokens=tokens, maps=maps,
                   roles=roles_of_maps(maps, tokens, causal=False), own_roles=own)


@dataclass(frozen=True, eq=False)
class HeadDetailData:
    """One head for the detail view: tokens (n,), weights (n, n) rows = queries, its role;
    `title` names a head from outside the model (empty: "layer ℓ · head h: role")."""

    tokens: tuple[str, ...]
    weights: np.ndarray
    layer: int
    head: int
    role: str
    title: str = ""

    @classmethod
    def of(cls, result: ModelHeadsResult, layer: int, head: int) -> "HeadDetailData":
        return cls(tokens=result.forward.tokens, weights=result.forward.attentions[layer, head],
                   layer=layer, head=head, role=result.role(layer, head).role)

    @classmethod
    def of_set(cls, heads: HeadSet, layer: int, head: int, title: str) -> "HeadDetailData":
        return cls(tokens=heads.tokens, weights=heads.maps[layer, head], layer=layer, head=head,
                   role=heads.role(layer, head).role, title=title)


def result_of(request: ModelHeadsRequest, analysis: SentenceAnalysis) -> ModelHeadsResult:
    return ModelHeadsResult(request=request, model_name=analysis.model_name,
                            architecture=analysis.architecture, layers=analysis.layers,
                            heads=analysis.heads, d_model=analysis.d_model, d_k=analysis.d_k,
                            forward=analysis.forward, roles=analysis.roles,
                            summary=analysis.summary, unknown=analysis.unknown,
                            ignored_token_ids=analysis.ignored_token_ids,
                            vocab_size=analysis.vocab_size)


def compute_in_process(request: ModelHeadsRequest) -> ModelHeadsResult:
    """The study computed in the calling thread."""
    try:
        # One BLAS thread: on a 2-core machine a forward on both cores starved the
        # simulation's worker and the GUI thread (benchmarks/model_forward.py --ui).
        with threadpool_limits(limits=1, user_api="blas"):
            analysis = analyse_sentence(request.folder, request.sentence)
    except (ModelError, TokenError) as exc:
        return ModelHeadsResult(request=request, error=str(exc))
    return result_of(request, analysis)


def folder_of_model_view(model_view) -> str | None:
    """The folder of AppState.model_view's model when it can be told without listing the
    Hugging Face cache: a folder it names, or the fetched MiniLM; else None."""
    from pathlib import Path

    from engine.models.fetch import cached_model

    if model_view.model_dir:
        return str(Path(model_view.model_dir).expanduser())
    if model_view.model == "minilm":
        found = cached_model("minilm")
        return None if found is None else str(found)
    return None


def compute_model_heads(request: ModelHeadsRequest) -> ModelHeadsResult:
    """The study: ModelHeadsRequest → ModelHeadsResult, in the calling worker thread's
    ForwardProcess, or in place where there is none (see the module docstring)."""
    process = forward_process()
    if process is None:
        return compute_in_process(request)
    kind, payload = process.ask(request.folder, request.sentence)
    if kind == "ok":
        return result_of(request, payload)
    return ModelHeadsResult(request=request, error=payload)


def make_model_heads_study(compute_fn=compute_model_heads, parent=None) -> StudyCycle:
    """The "modelHeads" StudyCycle: ModelHeadsRequest in, ModelHeadsResult out. Its worker
    thread starts now; the forward process only with its first request (or start_early)."""
    return StudyCycle("modelHeads", compute_fn, parent)


def looks_japanese(text: str) -> bool:
    """True when `text` holds kana or CJK ideographs (which an English vocabulary lacks)."""
    for ch in text:
        name = unicodedata.name(ch, "")
        if name.startswith(("HIRAGANA", "KATAKANA", "CJK UNIFIED IDEOGRAPH")):
            return True
    return False


class FetchWorker(QObject):
    """Lives on the fetch thread; one fetch_model call per run()."""

    progressed = Signal(float, str)
    finished = Signal(str)   # the model folder
    failed = Signal(str)

    def __init__(self, key: str, fetch_fn, stop: threading.Event):
        super().__init__()
        self._key, self._fetch, self._stop = key, fetch_fn, stop

    @Slot()
    def run(self) -> None:
        try:
            folder = self._fetch(self._key, progress=self._progress, cancelled=self._stop.is_set)
        except FetchError as exc:
            self.failed.emit(str(exc))
        except Exception as exc:  # reported in the tab, never kills the thread
            self.failed.emit(f"{type(exc).__name__}: {exc}")
        else:
            self.finished.emit(str(folder))

    def _progress(self, fraction: float, text: str) -> None:
        self.progressed.emit(float(fraction), text)


class ModelFetcher(QObject):
    """Fetch one model in the background; progressed / finished / failed on the GUI thread."""

    progressed = Signal(float, str)
    finished = Signal(str)
    failed = Signal(str)
    _start = Signal()

    def __init__(self, key: str = "minilm", fetch_fn=fetch_model, parent=None):
        super().__init__(parent)
        self._stop = threading.Event()
        self._thread = QThread()
        self._thread.setObjectName("modelFetchThread")
        self._worker = FetchWorker(key, fetch_fn, self._stop)
        self._worker.moveToThread(self._thread)
        self._start.connect(self._worker.run)
        self._worker.progressed.connect(self._on_progress)
        self._worker.finished.connect(self._on_finished)
        self._worker.failed.connect(self._on_failed)
        self._thread.finished.connect(self._worker.deleteLater)
        self.running = False

    def start(self) -> None:
        if self.running:
            return
        self.running = True
        self._stop.clear()
        if not self._thread.isRunning():
            self._thread.start()
        self._start.emit()

    def cancel(self) -> None:
        self._stop.set()

    def is_running(self) -> bool:
        try:
            return self._thread.isRunning()
        except RuntimeError:   # the C++ side is already gone
            return False

    @Slot(float, str)
    def _on_progress(self, fraction: float, text: str) -> None:
        self.progressed.emit(fraction, text)

    @Slot(str)
    def _on_finished(self, folder: str) -> None:
        self.running = False
        self.finished.emit(folder)

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self.running = False
        self.failed.emit(message)

    def shutdown(self) -> None:
        """Cancel a running fetch and stop the thread (waits for pip to be stopped)."""
        self._stop.set()
        try:
            running = self._thread.isRunning()
        except RuntimeError:
            return
        if running:
            self._thread.quit()
            self._thread.wait()
