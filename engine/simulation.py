"""`compute(params) -> Results`: every number the window shows, in one pure call.

Random draws come from independent streams spawned from `params.seed`, so a
change to, say, the sample count leaves the multi-head matrices unchanged.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from .cost import LayerCost, MemoryCost, compare_single_multi, memory_cost, no_output_projection
from .dot_product import (rademacher_pmf, sample_dot_products, theory_density, theory_variance,
                          variance_with_stderr)
from .live_scores import METHODS as LIVE_METHODS
from .live_scores import live_scores
from .multihead import (MultiHeadResult, computed_shape, run_multihead,
                        seeded_projections)
from .params import Params
from .saturation import DK_GRID, METRICS, Quartiles, saturation_study, trial_counts
from .softmax import entropy, jacobian_norm, max_probability, softmax

HISTOGRAM_BINS = 61
#: Histogram and theory curve span ±HISTOGRAM_SPAN standard deviations (theory).
HISTOGRAM_SPAN = 4.5
THEORY_POINTS = 121
SATURATION_TRIALS = 128
#: Rademacher q·k lives on a lattice of spacing 2σ²; bins are 2·HISTOGRAM_SPAN·√d_k·σ²/61
#: wide, so up to this d_k some bins hold no lattice point and the histogram is spikes.
PMF_STEMS_MAX_DK = int((HISTOGRAM_BINS / HISTOGRAM_SPAN) ** 2)


def _frozen(a) -> np.ndarray:
    a = np.array(a, dtype=np.float64)
    a.flags.writeable = False
    return a


@dataclass(frozen=True)
class SoftmaxResult:
    """softmax(s/T) and softmax(s/(T·√d_k)) for the scores s (n,) in use.

    source is "typed" (Params.scores) or "live" (sampled at d_k, Params.live_scores);
    live_method names the sampler for live scores, else "". jacobian_norm_* is ‖J‖_F of
    J = diag(p) − ppᵀ, taken w.r.t. the logits softmax sees (s/T, or s/(T·√d_k));
    w.r.t. the raw scores s the chain rule gives jacobian_norm_raw_* = ‖J‖_F/T and
    ‖J‖_F/(T·√d_k).
    """

    source: str
    live_method: str
    scores: np.ndarray
    divisor: float
    probs_unscaled: np.ndarray
    probs_scaled: np.ndarray
    entropy_unscaled: float
    entropy_scaled: float
    max_prob_unscaled: float
    max_prob_scaled: float
    jacobian_norm_unscaled: float
    jacobian_norm_scaled: float
    jacobian_norm_raw_unscaled: float
    jacobian_norm_raw_scaled: float


@dataclass(frozen=True)
class Pmf:
    """A law on a lattice: P(X = x[i]) = prob[i], neighbours `spacing` apart. A histogram bin
    of width w that holds one lattice point x[i] has expected density prob[i] / w."""

    x: np.ndarray
    prob: np.ndarray
    spacing: float


@dataclass(frozen=True)
class Histogram:
    """Density-normalised histogram and the theory density on a grid."""

    edges: np.ndarray
    density: np.ndarray
    theory_x: np.ndarray
    theory_density: np.ndarray


@dataclass(frozen=True)
class VarianceResult:
    """Sampled q·k at d_k: variances and histograms.

    theory_unscaled = d_k·σ⁴ and theory_scaled = σ⁴ follow σ. theory_kind is "exact"
    (normal components: the density curve is exact), "exact pmf" (Rademacher at
    d_k ≤ PMF_STEMS_MAX_DK: the lattice is coarser than the bins, draw pmf_* as stems)
    or "normal approximation" (the curve is N(0, d_k·σ⁴); for Rademacher pmf_* is still
    exact). theory_bounded is False where the exact density has no finite maximum (normal
    components at d_k = 1: a log singularity at 0), so no peak value should be printed.
    """

    dk: int
    sigma: float
    samples: int
    method: str
    theory_kind: str
    theory_bounded: bool
    pmf_unscaled: Pmf | None
    pmf_scaled: Pmf | None
    theory_unscaled: float
    theory_scaled: float
    empirical_unscaled: float
    stderr_unscaled: float
    empirical_scaled: float
    stderr_scaled: float
    hist_unscaled: Histogram
    hist_scaled: Histogram


@dataclass(frozen=True)
class SaturationResult:
    """Quartiles per d_k on `dk_grid`; `stats[(metric, scaled)]` is a Quartiles.

    trials is the requested query count; trials_per_dk the count actually scored at
    each d_k (the uniform law cuts it at large d_k, see saturation.trial_counts).
    """

    dk_grid: np.ndarray
    keys: int
    trials: int
    trials_per_dk: np.ndarray
    temperature: float
    stats: dict

    def quartiles(self, metric: str, scaled: bool) -> Quartiles:
        return self.stats[metric, scaled]

    def jacobian_wrt_raw_scores(self, scaled: bool) -> Quartiles:
        """‖∂p/∂s‖_F quartiles w.r.t. the raw scores s = q·k: the plotted ‖J‖_F is taken
        w.r.t. the logits softmax sees, s/T or s/(T·√d_k), so by the chain rule this is
        ‖J‖_F/T, or ‖J‖_F/(T·√d_k) per grid point when scaled."""
        factor = self.temperature * (np.sqrt(self.dk_grid) if scaled else 1.0)
        q = self.stats["jacobian_norm", scaled]
        return Quartiles(*(_frozen(a / factor) for a in (q.q25, q.median, q.q75, q.median_lo,
                                                         q.median_hi)))


@dataclass(frozen=True)
class Results:
    params: Params
    softmax: SoftmaxResult
    variance: VarianceResult
    saturation: SaturationResult
    multihead: MultiHeadResult
    cost_single: LayerCost
    cost_multi: LayerCost
    cost_no_output_projection: LayerCost
    memory: MemoryCost


def softmax_summary(scores, dk: int, temperature: float, source: str = "typed",
                    live_method: str = "") -> SoftmaxResult:
    s = _frozen(scores)
    divisor = math.sqrt(dk)
    p_u, p_s = softmax(s, temperature), softmax(s / divisor, temperature)
    j_u, j_s = float(jacobian_norm(p_u)), float(jacobian_norm(p_s))
    return SoftmaxResult(
        source=source, live_method=live_method,
        scores=s, divisor=divisor, probs_unscaled=_frozen(p_u), probs_scaled=_frozen(p_s),
        entropy_unscaled=float(entropy(p_u)), entropy_scaled=float(entropy(p_s)),
        max_prob_unscaled=float(max_probability(p_u)), max_prob_scaled=float(max_probability(p_s)),
        jacobian_norm_unscaled=j_u, jacobian_norm_scaled=j_s,
        jacobian_norm_raw_unscaled=j_u / temperature,
        jacobian_norm_raw_scaled=j_s / (temperature * divisor))


def live_scores_for(params: Params) -> tuple[float, ...]:
    """The live scores of `params`: len(params.scores) values of q·k_j at params.dk, drawn
    from params.seed with params' component law and σ (see engine.live_scores)."""
    return tuple(float(v) for v in live_scores(params.dk, len(params.scores), params.seed,
                                               params.distribution, params.sigma))


def _histogram(samples: np.ndarray, half: float, x: np.ndarray, curve: np.ndarray) -> Histogram:
    density, edges = np.histogram(samples, bins=HISTOGRAM_BINS, range=(-half, half))
    # Normalise by all samples, so mass outside the window is not spread over it.
    density = density / (samples.size * (edges[1] - edges[0]))
    return Histogram(_frozen(edges), _frozen(density), _frozen(x), _frozen(curve))


def variance_summary(dk: int, samples: int, rng: np.random.Generator,
                     distribution: str, sigma: float) -> VarianceResult:
    """Sample q·k, estimate its variance, and histogram it over ±4.5 theory SDs.

    The scaled histogram is the same samples divided by √d_k, on the same
    relative bins; its theory density is f_scaled(x) = √d_k · f(√d_k · x).
    """
    x, method = sample_dot_products(dk, samples, rng, distribution, sigma)
    var_u, se_u = variance_with_stderr(x)
    root = math.sqrt(dk)
    half = HISTOGRAM_SPAN * math.sqrt(theory_variance(dk, sigma))
    grid = np.linspace(-half, half, THEORY_POINTS)
    curve, kind = theory_density(grid, dk, distribution, sigma)
    hist_u = _histogram(x, half, grid, curve)
    hist_s = _histogram(x / root, half / root, grid / root, curve * root)
    pmf_u = pmf_s = None
    if distribution == "rademacher":
        values, prob = rademacher_pmf(dk, sigma)
        inside = np.abs(values) <= half
        pmf_u = Pmf(_frozen(values[inside]), _frozen(prob[inside]), 2.0 * sigma**2)
        pmf_s = Pmf(_frozen(values[inside] / root), pmf_u.prob, 2.0 * sigma**2 / root)
        if dk <= PMF_STEMS_MAX_DK:
            kind = "exact pmf"
    return VarianceResult(
        dk=dk, sigma=sigma, samples=int(x.size), method=method, theory_kind=kind,
        theory_bounded=not (distribution == "normal" and dk == 1),
        pmf_unscaled=pmf_u, pmf_scaled=pmf_s,
        theory_unscaled=theory_variance(dk, sigma), theory_scaled=theory_variance(dk, sigma, True),
        empirical_unscaled=var_u, stderr_unscaled=se_u,
        empirical_scaled=var_u / dk, stderr_scaled=se_u / dk,
        hist_unscaled=hist_u, hist_scaled=hist_s)


def saturation_summary(keys: int, rng: np.random.Generator, temperature: float,
                       distribution: str, sigma: float) -> SaturationResult:
    stats = saturation_study(keys, rng, temperature, distribution, sigma, SATURATION_TRIALS)
    frozen = {key: Quartiles(*(_frozen(a) for a in (q.q25, q.median, q.q75, q.median_lo,
                                                     q.median_hi)))
              for key, q in stats.items()}
    counts = trial_counts(distribution, keys, SATURATION_TRIALS, DK_GRID)
    counts = np.array(counts, dtype=np.int64)
    counts.flags.writeable = False
    return SaturationResult(dk_grid=_frozen(DK_GRID), keys=keys, trials=SATURATION_TRIALS,
                            trials_per_dk=counts, temperature=temperature, stats=frozen)


@functools.lru_cache(maxsize=32)
def saturation_for(keys: int, seed: int, temperature: float, distribution: str,
                   sigma: float) -> SaturationResult:
    """The saturation study depends on none of d_k, h or d_model, so a drag of those
    sliders reuses it: memoised on exactly the inputs it depends on (it is immutable)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1,)))
    return saturation_summary(keys, rng, temperature, distribution, sigma)


@functools.lru_cache(maxsize=64)
def variance_for(dk: int, samples: int, seed: int, distribution: str,
                 sigma: float) -> VarianceResult:
    """The q·k study for one d_k, memoised on exactly its inputs: dragging d_k back over
    values already seen costs nothing (64 entries of a few kB each; results are immutable)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(0,)))
    return variance_summary(dk, samples, rng, distribution, sigma)


def compute(params: Params) -> Results:
    """All results for `params`. Pure: the same Params give identical Results."""
    heads_c, dk_c = computed_shape(params.heads, params.dk)
    kv = params.kv_heads_used
    single, multi = compare_single_multi(params.d_model, params.heads, params.seq_len, kv)
    if params.live_scores:
        softmax = softmax_summary(live_scores_for(params), params.dk, params.temperature, "live",
                                  LIVE_METHODS[params.distribution])
    else:
        softmax = softmax_summary(params.scores, params.dk, params.temperature)
    return Results(
        params=params,
        softmax=softmax,
        variance=variance_for(params.dk, params.samples, params.seed, params.distribution,
                              params.sigma),
        saturation=saturation_for(params.keys, params.seed, params.temperature,
                                  params.distribution, params.sigma),
        multihead=run_multihead(params.d_model, params.heads, params.tokens, params.seed,
                                params.scale, params.temperature, params.causal, None,
                                kv, params.scale_by,
                                seeded_projections(params.seed, params.tokens, heads_c * dk_c)),
        cost_single=single, cost_multi=multi,
        cost_no_output_projection=no_output_projection(params.d_model, params.seq_len),
        memory=memory_cost(params.cached_layers, params.heads, kv, params.dk, params.seq_len))


def random_scores(dk: int, count: int, seed: int, distribution: str = "normal",
                  sigma: float = 1.0) -> tuple[float, ...]:
    """`count` scores q·k_j of one query against independent keys at width d_k, coupled
    across d_k for a fixed seed (engine.live_scores): the "Sample q·k" draws and the live
    scores are the same function."""
    return tuple(float(v) for v in live_scores(dk, count, seed, distribution, sigma))


__all__ = ["Results", "SoftmaxResult", "VarianceResult", "SaturationResult", "Histogram", "Pmf",
           "compute", "live_scores_for", "random_scores", "softmax_summary", "METRICS"]
