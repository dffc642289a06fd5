"""A model's forward pass on a sentence, and a process that serves it over a pipe.

    analyse_sentence(folder, sentence) -> SentenceAnalysis   (ModelError, TokenError)

loads the model (cached per folder, engine.models.loader), runs the sentence through it
(attentions (L, h, n, n)), detects every head's role and summarises them: all the numbers the
Real heads tab shows for one (model, sentence).

    serve(connection, niceness=FORWARD_NICENESS)
    serve_fd(fd, niceness=FORWARD_NICENESS)

run in a child process (gui/realheads/forward_process.py ForwardProcess; serve_fd on one end of a
socket pair, or serve as a multiprocessing target): it lowers its priority (os.nice), keeps
BLAS on one thread, then answers requests until the connection ends.
Each request is one bytes message, the pickled (folder, sentence); each reply is one message,
the pickled (kind, payload):

    ("ok", SentenceAnalysis)   the sentence was analysed
    ("warm", None)             sentence None, a warm-up: the model was loaded and run once on
                               WARM_UP_TEXT (or could not be: the real request will say why)
    ("error", message)         the folder or the sentence cannot be used (ModelError,
                               TokenError): the engine's one-line message
    ("failed", message)        anything else raised (any BaseException but KeyboardInterrupt
                               and SystemExit): one line, then the traceback

Why a process: the forward's numpy work holds the GIL most of the time (small per-head
arrays, LayerNorms, the role scores); in a thread of the window's process it would starve the
GUI thread (benchmarks/model_forward.py --ui). In a process of its own it only
shares the CPU, at a lower priority.
"""
from __future__ import annotations

import pickle
import traceback
from dataclasses import dataclass

from .failures import PASS_THROUGH
from .forward import ForwardResult, run_sentence
from .loader import ModelError, TokenError, load_model
from .roles import HeadRole, RoleSummary, head_roles, summarize_roles

#: os.nice increment of the forward process: the window's threads win the CPU.
FORWARD_NICENESS = 10
#: A warm-up's sentence: one forward loads the tokenizer's and numpy's first-call paths.
WARM_UP_TEXT = "The cat sat."


@dataclass(frozen=True, eq=False)
class SentenceAnalysis:
    """One model on one sentence: its sizes, the forward pass, one HeadRole per head
    (layer-major, L·h of them), their summary and how many tokens are the unknown token."""

    model_name: str
    architecture: str
    layers: int
    heads: int
    d_model: int
    d_k: int
    forward: ForwardResult
    roles: tuple[HeadRole, ...]
    summary: RoleSummary
    unknown: int
    ignored_token_ids: tuple[tuple[str, int], ...] = ()   # ModelConfig.ignored_token_ids
    vocab_size: int = 0


def analyse_sentence(folder: str, sentence: str) -> SentenceAnalysis:
    """load_model(folder), run_sentence, head_roles and summarize_roles (see the module doc).
    Raises ModelError for an unusable folder, TokenError for a sentence the model cannot take."""
    model = load_model(folder)
    forward = run_sentence(model, sentence)
    roles = head_roles(forward, model)
    cfg = model.config
    return SentenceAnalysis(model_name=model.name, architecture=cfg.architecture,
                            layers=cfg.layers, heads=cfg.heads, d_model=cfg.d_model,
                            d_k=cfg.d_k, forward=forward, roles=tuple(roles),
                            summary=summarize_roles(roles, forward),
                            unknown=model.unknown_count(forward.token_ids),
                            ignored_token_ids=cfg.ignored_token_ids, vocab_size=cfg.vocab_size)


def answer(message: bytes) -> bytes:
    """One request message → its reply message (see the module docstring)."""
    try:
        folder, sentence = pickle.loads(message)
        if sentence is None:
            try:
                analyse_sentence(folder, WARM_UP_TEXT)
            except (ModelError, TokenError):
                pass
            return pickle.dumps(("warm", None), pickle.HIGHEST_PROTOCOL)
        reply = ("ok", analyse_sentence(folder, sentence))
    except (ModelError, TokenError) as exc:
        reply = ("error", str(exc))
    except PASS_THROUGH:
        raise
    except BaseException as exc:  # the window must hear about every failure, a panic included
        reply = ("failed", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}")
    return pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)


def serve_fd(fd: int, niceness: int = FORWARD_NICENESS) -> None:
    """serve() on file descriptor `fd`, one end of a socket pair the parent passed down."""
    from multiprocessing.connection import Connection

    serve(Connection(fd), niceness)


def serve(connection, niceness: int = FORWARD_NICENESS) -> None:
    """Answer requests on `connection` (a duplex multiprocessing Connection) until it ends."""
    from threadpoolctl import threadpool_limits

    from ..training.worker import lower_priority

    lower_priority(niceness)
    try:
        with threadpool_limits(limits=1, user_api="blas"):
            while True:
                message = connection.recv_bytes()
                connection.send_bytes(answer(message))
    except (EOFError, OSError, KeyboardInterrupt):   # the window went away: nothing to tell
        pass
    finally:
        connection.close()
