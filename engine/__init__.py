"""Attention Lab's numeric engine: pure numpy, no Qt.

    from engine import Params, compute
    results = compute(Params(dk=64, heads=8, d_model=512))
"""
from .simulation import Results, compute, live_scores_for, random_scores
from .params import Params, ParamsError, resolve_shape

__all__ = ["Params", "ParamsError", "Results", "compute", "live_scores_for", "random_scores",
           "resolve_shape"]
