"""engine.params: validation messages, immutability, and resolve_shape."""
import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Params, ParamsError, resolve_shape
from engine.params import D_MODEL_MAX, DK_MAX, divisors
from engine.scores import format_scores, parse_scores

NAN, INF = float("nan"), float("inf")


def test_defaults_are_valid_and_consistent():
    p = Params()
    assert (p.dk, p.heads, p.d_model) == (64, 8, 512)
    assert p.d_model == p.heads * p.dk
    assert issubclass(ParamsError, ValueError)


@pytest.mark.parametrize("kwargs, message", [
    # d_k
    (dict(dk=0, heads=1, d_model=1), r"d_k must be from 1 to 16384, got 0"),
    (dict(dk=DK_MAX + 1, heads=1, d_model=DK_MAX + 1), r"d_k must be from 1 to 16384"),
    (dict(dk=10**9), r"d_k must be from 1 to 16384, got 1000000000"),
    (dict(dk=NAN), r"d_k must be a whole number from 1 to 16384, got nan"),
    (dict(dk=INF), r"d_k must be a whole number .* got inf"),
    (dict(dk=64.0), r"d_k must be a whole number"),
    (dict(dk="64"), r"d_k must be a whole number .* got '64'"),
    (dict(dk=True), r"d_k must be a whole number .* got True"),
    (dict(dk=-3), r"d_k must be from 1 to 16384, got -3"),
    # h and d_model
    (dict(heads=0), r"h must be from 1"),
    (dict(heads=7), r"h = 7 does not divide d_model = 512; valid h: 1, 2, 4, 8, 16, 32, 64, 128"),
    (dict(heads=3, d_model=768, dk=128), r"d_model must equal h·d_k = 3·128 = 384, got 768"),
    (dict(d_model=D_MODEL_MAX + 1), r"d_model must be from 1 to 16384"),
    (dict(d_model="512"), r"d_model must be a whole number"),
    (dict(dk=64, heads=8, d_model=1024), r"d_model must equal h·d_k = 8·64 = 512, got 1024"),
    # scores
    (dict(scores=(1.0,)), r"scores needs 2 to 16 values, got 1"),
    (dict(scores=tuple(range(17))), r"scores needs 2 to 16 values, got 17"),
    (dict(scores=(1.0, NAN)), r"scores must be finite numbers, got nan"),
    (dict(scores=(INF, 1.0)), r"scores must be finite numbers, got inf"),
    (dict(scores=(1.0, "x")), r"scores must be numbers"),
    (dict(scores="1234"), r"scores must be numbers, got '1234'"),
    (dict(scores=(True, False)), r"scores must be numbers"),
    (dict(scores=None), r"scores must be numbers"),
    (dict(scores=(1e308, 1e308)), r"scores must lie between -1000000 and 1000000, got 1e\+308"),
    (dict(scores=(2e307, 0.0)), r"scores must lie between"),
    (dict(scores=(0.0, -1e6 - 1)), r"scores must lie between .* got -1e\+06"),
    # key/value heads, live scores, divisor, cached layers
    (dict(kv_heads=0), r"kv_heads must be from 1 to 8, got 0"),
    (dict(kv_heads=16), r"kv_heads must be from 1 to 8, got 16"),
    (dict(kv_heads=3), r"kv_heads = 3 does not divide h = 8; valid kv_heads: 1, 2, 4, 8"),
    (dict(kv_heads=2.0), r"kv_heads must be a whole number"),
    (dict(kv_heads="2"), r"kv_heads must be a whole number"),
    (dict(live_scores="yes"), r"live_scores must be true or false"),
    (dict(scale_by="d_v"), r"scale_by must be one of d_k, d_model, got 'd_v'"),
    (dict(scale_by=None), r"scale_by must be one of"),
    (dict(cached_layers=-1), r"cached_layers must be from 0 to 1000, got -1"),
    (dict(cached_layers=1001), r"cached_layers must be from 0 to 1000"),
    # integer ranges
    (dict(keys=1), r"keys must be from 2 to 64, got 1"),
    (dict(keys=65), r"keys must be from 2 to 64"),
    (dict(samples=9), r"samples must be from 10 to 1000000, got 9"),
    (dict(samples=-5), r"samples must be from 10"),
    (dict(samples=10**7), r"samples must be from 10 to 1000000"),
    (dict(samples=2.5), r"samples must be a whole number"),
    (dict(seed=-1), r"seed must be from 0 to 2147483647, got -1"),
    (dict(seed=2**31), r"seed must be from 0 to 2147483647"),
    (dict(seed=3_000_000_000), r"seed must be from 0 to 2147483647"),
    (dict(seed=False), r"seed must be a whole number"),
    (dict(tokens=1), r"tokens must be from 2 to 16"),
    (dict(tokens=17), r"tokens must be from 2 to 16"),
    (dict(seq_len=0), r"seq_len must be from 1 to 1000000"),
    # floats
    (dict(temperature=0.0), r"temperature must be from 0.01 to 100, got 0.0"),
    (dict(temperature=NAN), r"temperature must be from 0.01 to 100, got nan"),
    (dict(temperature=INF), r"temperature must be from 0.01 to 100, got inf"),
    (dict(temperature=-1.0), r"temperature must be from 0.01 to 100"),
    (dict(temperature=1000.0), r"temperature must be from 0.01 to 100"),
    (dict(temperature="hot"), r"temperature must be a number from 0.01 to 100, got 'hot'"),
    (dict(temperature="2"), r"temperature must be a number .* got '2'"),
    (dict(temperature=True), r"temperature must be a number .* got True"),
    (dict(temperature=None), r"temperature must be a number"),
    (dict(sigma=0.0), r"sigma must be from 0.01 to 100"),
    (dict(sigma=NAN), r"sigma must be from 0.01 to 100, got nan"),
    (dict(sigma=-INF), r"sigma must be from 0.01 to 100, got -inf"),
    (dict(sigma="1"), r"sigma must be a number"),
    # text / bool / choice fields
    (dict(distribution="cauchy"), r"distribution must be one of normal, uniform, rademacher, got 'cauchy'"),
    (dict(distribution="Normal"), r"distribution must be one of"),
    (dict(distribution=None), r"distribution must be one of"),
    (dict(scale="yes"), r"scale must be true or false, got 'yes'"),
    (dict(scale=2), r"scale must be true or false, got 2"),
    (dict(scale=NAN), r"scale must be true or false"),
    (dict(causal="no"), r"causal must be true or false, got 'no'"),
    (dict(causal=3), r"causal must be true or false, got 3"),
])
def test_invalid_fields_raise_clear_messages(kwargs, message):
    with pytest.raises(ParamsError, match=message):
        Params(**kwargs)


@pytest.mark.parametrize("d_model, heads", [(512, 3), (768, 5), (12288, 7), (16384, 3)])
def test_heads_not_dividing_names_the_valid_h(d_model, heads):
    with pytest.raises(ParamsError) as info:
        Params(dk=1, heads=heads, d_model=d_model)
    message = str(info.value)
    assert f"h = {heads} does not divide d_model = {d_model}" in message
    listed = message.split("valid h: ")[1].split(", ")
    shown = [int(v) for v in listed if v != "…"]
    valid = divisors(d_model)
    assert shown == valid[:len(shown)] and len(shown) == min(16, len(valid))
    assert all(d_model % h == 0 for h in shown)
    assert ("…" in listed) == (len(valid) > 16)


def test_divisors():
    assert divisors(1) == [1]
    assert divisors(12) == [1, 2, 3, 4, 6, 12]
    assert divisors(16384) == [2**i for i in range(15)]
    for n in (97, 360, 12288):
        assert divisors(n) == [d for d in range(1, n + 1) if n % d == 0]


def test_accepted_coercions():
    p = Params(dk=np.int64(32), heads=np.int32(4), d_model=128, scores=np.array([1, 2, 3]),
               temperature=np.float32(0.5), scale=0, causal=1, sigma=2)
    assert (p.dk, p.heads) == (32, 4) and type(p.dk) is int
    assert p.scores == (1.0, 2.0, 3.0) and isinstance(p.scores, tuple)
    assert p.temperature == 0.5 and type(p.temperature) is float
    assert p.scale is False and p.causal is True and p.sigma == 2.0
    # Boundary values are inclusive.
    Params(temperature=0.01, sigma=100, keys=2, samples=10, tokens=16, seed=2**31 - 1)


def test_params_are_frozen():
    p = Params()
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.dk = 128
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.seed = 1
    assert p == Params() and hash(p) == hash(Params())
    q = dataclasses.replace(p, seed=5)
    assert q.seed == 5 and p.seed == 0
    with pytest.raises(ParamsError):
        dataclasses.replace(p, dk=65)  # replace() re-validates


def test_to_dict_round_trip():
    p = Params(scores=(3, 2, 1), causal=True)
    d = p.to_dict()
    assert d["scores"] == [3.0, 2.0, 1.0]
    assert Params(**d) == p


# --- resolve_shape -------------------------------------------------------------------------

@pytest.mark.parametrize("given_, expected", [
    ((None, None, None), (64, 8, 512)),
    ((64, None, None), (64, 8, 512)),
    ((4096, None, None), (4096, 4, 16384)),     # h = 8 would exceed d_model ≤ 16 384
    ((16384, None, None), (16384, 1, 16384)),
    ((1, None, None), (1, 8, 8)),
    ((None, None, 768), (96, 8, 768)),
    ((None, 12, 768), (64, 12, 768)),
    ((64, None, 768), (64, 12, 768)),
    ((None, 8, None), (64, 8, 512)),
    ((128, 96, None), (128, 96, 12288)),
    ((1, 16384, 16384), (1, 16384, 16384)),
])
def test_resolve_shape(given_, expected):
    assert resolve_shape(*given_) == expected


@pytest.mark.parametrize("given_, message", [
    ((100, None, 768), r"d_k = 100 does not divide d_model = 768"),
    ((None, 7, None), r"h = 7 does not divide d_model = 512"),
    ((None, 7, 768), r"h = 7 does not divide d_model = 768; valid h: 1, 2, 3, 4, 6, 8"),
    ((64, 8, 1024), r"d_k must equal d_model / h = 128, got 64"),
    ((4096, 8, None), r"h·d_k = 8·4096 = 32768 exceeds d_model's limit 16384"),
    ((0, None, None), r"d_k must be from 1"),
    ((NAN, None, None), r"d_k must be a whole number"),
    ((None, None, 16385), r"d_model must be from 1 to 16384"),
])
def test_resolve_shape_errors(given_, message):
    with pytest.raises(ParamsError, match=message):
        resolve_shape(*given_)


@given(st.one_of(st.none(), st.integers(1, DK_MAX)), st.one_of(st.none(), st.integers(1, 64)),
       st.one_of(st.none(), st.integers(1, D_MODEL_MAX)))
def test_resolve_shape_property(dk, heads, d_model):
    try:
        r = resolve_shape(dk, heads, d_model)
    except ParamsError:
        return
    assert r[0] * r[1] == r[2] <= D_MODEL_MAX
    for given_, got in zip((dk, heads, d_model), r):
        assert given_ is None or given_ == got
    Params(dk=r[0], heads=r[1], d_model=r[2])  # always constructible


# --- score text ----------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("10,1,1,1", (10.0, 1.0, 1.0, 1.0)),
    ("10, 1 1,1", (10.0, 1.0, 1.0, 1.0)),
    ("  -1.5e2\t3 ", (-150.0, 3.0)),
    ("1，2、3", (1.0, 2.0, 3.0)),
])
def test_parse_scores(text, expected):
    assert parse_scores(text) == expected


@pytest.mark.parametrize("text, message", [
    ("1,,x", "empty value between commas"),
    ("", "enter 2 to 16 numbers"),
    (",1,2", "empty value"),
    ("1,2,", "empty value"),
    ("1,x", "'x' is not a number"),
    ("1,nan", "'nan' is not a finite number"),
    ("1,1e400", "'1e400' is not a finite number"),
    ("1e308, 1e308", "'1e308' is outside -1000000 … 1000000"),
    ("2e307, 0", "'2e307' is outside"),
    ("1, -1000000.5", "'-1000000.5' is outside"),
    ("5", "need 2 to 16 values, got 1"),
    (",".join(["1"] * 17), "need 2 to 16 values, got 17"),
])
def test_parse_scores_errors(text, message):
    with pytest.raises(ParamsError, match=message):
        parse_scores(text)


@given(st.lists(st.floats(-1e6, 1e6, width=32), min_size=2, max_size=16))
def test_format_parse_round_trip(values):
    # %g keeps 6 significant digits: a relative rounding error of at most 5e-6.
    parsed = parse_scores(format_scores(values))
    assert len(parsed) == len(values)
    for a, b in zip(parsed, values):
        assert a == pytest.approx(b, rel=5e-6, abs=0)


def test_score_range_boundaries_and_downstream_finiteness():
    from engine import compute
    from engine.params import SCORE_LIMIT

    p = Params(scores=(SCORE_LIMIT, -SCORE_LIMIT, 0.0), temperature=0.01)
    sm = compute(p).softmax
    for value in (sm.entropy_unscaled, sm.entropy_scaled, sm.jacobian_norm_unscaled,
                  sm.jacobian_norm_scaled, *sm.probs_unscaled, *sm.probs_scaled):
        assert math.isfinite(value)
    assert sm.probs_unscaled[0] == 1.0
    # The window maps a score to round(10·s) on a 32-bit slider: finite and representable.
    assert abs(round(SCORE_LIMIT * 10)) < 2**31 - 1
    assert parse_scores("1000000, -1000000") == (1e6, -1e6)


def test_kv_heads_default_means_equal_to_h():
    p = Params()
    assert p.kv_heads is None and p.kv_heads_used == 8
    # The window's controls replace the shape alone: MHA must stay valid at every h.
    for h in (1, 2, 16, 64, 512):
        q = dataclasses.replace(p, heads=h, dk=512 // h)
        assert q.kv_heads is None and q.kv_heads_used == h
    # g = h given explicitly is the same Params as the default (normalised to None).
    assert Params(kv_heads=8) == Params() and Params(kv_heads=8).kv_heads is None
    mqa = Params(kv_heads=1)
    assert mqa.kv_heads == 1 and dataclasses.replace(mqa, heads=16, dk=32).kv_heads_used == 1
    gqa = Params(dk=128, heads=64, d_model=8192, kv_heads=8)
    assert gqa.kv_heads_used == 8
    with pytest.raises(ParamsError, match="kv_heads = 8 does not divide h = 12"):
        dataclasses.replace(gqa, heads=12, d_model=12 * 128)
    # to_dict gives the number, and reads back to the same Params.
    for params in (p, mqa, gqa):
        assert params.to_dict()["kv_heads"] == params.kv_heads_used
        assert Params(**params.to_dict()) == params


def test_new_field_defaults():
    p = Params()
    assert (p.live_scores, p.scale_by, p.cached_layers) == (False, "d_k", 1)
    assert Params(cached_layers=0).cached_layers == 0
