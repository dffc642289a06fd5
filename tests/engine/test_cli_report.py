"""`python main.py report`: JSON layout, determinism, agreement with the engine, and
one-line usage errors with exit code 2."""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine import Params, compute
from engine.cost import attention_cost
from engine.report import results_to_dict
from engine.softmax import entropy, softmax

ROOT = Path(__file__).resolve().parents[2]

REQUIRED = {
    "params": None,
    "softmax": {"scores", "probs_unscaled", "probs_scaled", "entropy_unscaled", "entropy_scaled"},
    "variance": {"dk", "samples", "theory_unscaled", "empirical_unscaled", "stderr_unscaled",
                 "empirical_scaled"},
    "saturation": {"dk", "median_jacobian_norm_unscaled", "median_jacobian_norm_scaled",
                   "median_max_prob_unscaled", "median_max_prob_scaled"},
    "multihead": {"d_model", "heads", "d_k", "output_shape"},
    "cost": {"single_head_flops", "multi_head_flops", "w_o_flops"},
}


def run_report(*args):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "main.py", "report", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def report(*args):
    proc = run_report(*args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return proc.stdout, json.loads(proc.stdout)


@pytest.fixture(scope="module")
def default_report():
    return report()


def test_required_keys(default_report):
    data = default_report[1]
    for section, keys in REQUIRED.items():
        assert section in data, section
        if keys:
            assert keys <= set(data[section]), (section, keys - set(data[section]))


def test_dk_grid_is_powers_of_two(default_report):
    grid = default_report[1]["saturation"]["dk"]
    assert grid == [2**i for i in range(15)]
    assert grid[0] == 1 and grid[-1] == 16384 and 4096 in grid
    for key in REQUIRED["saturation"] - {"dk"}:
        assert len(default_report[1]["saturation"][key]) == len(grid)


def test_same_seed_same_output_different_seed_differs(default_report):
    again, _ = report()
    assert again == default_report[0]
    assert report("--seed", "0")[0] == default_report[0]
    other, data = report("--seed", "1")
    assert other != default_report[0]
    assert data["variance"]["empirical_unscaled"] != default_report[1]["variance"]["empirical_unscaled"]


def test_numbers_agree_with_the_engine(default_report):
    data = default_report[1]
    p = Params(**data["params"])
    assert p == Params()
    sm = data["softmax"]
    np.testing.assert_allclose(sm["probs_unscaled"], softmax(sm["scores"], p.temperature),
                               rtol=1e-15)
    np.testing.assert_allclose(sm["probs_scaled"],
                               softmax(np.array(sm["scores"]) / math.sqrt(p.dk), p.temperature),
                               rtol=1e-15)
    assert sm["entropy_unscaled"] == pytest.approx(float(entropy(sm["probs_unscaled"])), rel=1e-14)
    assert sm["entropy_scaled"] == pytest.approx(float(entropy(sm["probs_scaled"])), rel=1e-14)
    var = data["variance"]
    assert var["dk"] == p.dk and var["samples"] == p.samples
    assert var["theory_unscaled"] == p.dk * p.sigma**4
    assert abs(var["empirical_unscaled"] - var["theory_unscaled"]) <= 4 * var["stderr_unscaled"]
    assert var["empirical_scaled"] == pytest.approx(var["empirical_unscaled"] / p.dk, rel=1e-15)
    mh = data["multihead"]
    assert (mh["d_model"], mh["heads"], mh["d_k"]) == (512, 8, 64)
    assert mh["output_shape"] == [p.tokens, p.d_model]
    cost = data["cost"]
    assert cost["single_head_flops"] == attention_cost(512, 1, p.seq_len).flops
    assert cost["no_output_projection_flops"] == attention_cost(512, 1, p.seq_len,
                                                                with_w_o=False).flops
    assert cost["multi_head_flops"] == attention_cost(512, 8, p.seq_len).flops
    assert cost["w_o_flops"] == 2 * p.seq_len * 512**2
    # The whole document is exactly what the engine computes for these Params.
    assert data == json.loads(json.dumps(results_to_dict(compute(p))))


def test_flags_reach_params():
    _, data = report("--dk", "16", "--heads", "4", "--scores", "3, 2 1", "--keys", "5",
                     "--samples", "500", "--seed", "7", "--no-scale", "--temperature", "2.5",
                     "--distribution", "rademacher", "--sigma", "0.5", "--tokens", "4",
                     "--seq-len", "32", "--causal")
    assert data["params"] == {"dk": 16, "heads": 4, "d_model": 64, "scores": [3.0, 2.0, 1.0],
                              "keys": 5, "samples": 500, "seed": 7, "scale": False,
                              "temperature": 2.5, "distribution": "rademacher", "sigma": 0.5,
                              "tokens": 4, "seq_len": 32, "causal": True, "kv_heads": 4,
                              "live_scores": False, "scale_by": "d_k", "cached_layers": 1}
    np.testing.assert_allclose(data["softmax"]["probs_scaled"],
                               softmax(np.array([3.0, 2.0, 1.0]) / 4, 2.5), rtol=1e-15)
    assert data["variance"]["theory_unscaled"] == 16 * 0.5**4
    assert data["multihead"]["output_shape"] == [4, 64]


def test_shift_invariance_in_the_report():
    # One source article claims (100, 91, 91, 91) is "more one-hot" than (10, 1, 1, 1).
    # It is the same vector shifted by 90, so softmax — scaled or not — is identical.
    _, a = report("--scores", "10,1,1,1")
    _, b = report("--scores", "100,91,91,91")
    for key in ("probs_unscaled", "probs_scaled"):
        np.testing.assert_allclose(a["softmax"][key], b["softmax"][key], rtol=1e-12)
    assert a["softmax"]["entropy_unscaled"] == pytest.approx(b["softmax"]["entropy_unscaled"],
                                                             rel=1e-9)
    assert a["softmax"]["entropy_scaled"] == pytest.approx(b["softmax"]["entropy_scaled"], rel=1e-9)
    np.testing.assert_allclose(softmax([100.0, 91, 91, 91]), softmax([10.0, 1, 1, 1]), rtol=1e-14)


def test_large_dk_report_is_reduced_but_exact_in_shape():
    _, data = report("--dk", "16384")
    assert (data["multihead"]["d_model"], data["multihead"]["heads"]) == (16384, 1)
    assert data["multihead"]["output_shape"] == [6, 16384] and data["multihead"]["reduced"]
    assert data["variance"]["theory_unscaled"] == 16384


@pytest.mark.parametrize("args, fragment", [
    (["--scores", "1,,x"], "empty value"),
    (["--heads", "7", "--d-model", "512"], "valid h: 1, 2, 4, 8"),
    (["--dk", "0"], "--dk"),
    (["--dk", "nan"], "--dk"),
    (["--samples", "-5"], "--samples"),
    (["--temperature", "inf"], "--temperature"),
    (["--distribution", "cauchy"], "cauchy"),
    (["--dk", "64", "--heads", "8", "--d-model", "1024"], "d_k must equal d_model / h = 128"),
    (["--sigma", "1000"], "sigma"),
    (["--scores", "5"], "2 to 16"),
    (["--bogus"], "--bogus"),
])
def test_usage_errors_are_one_line_exit_2(args, fragment):
    proc = run_report(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert lines[0].startswith("attention-lab: error: ")
    assert fragment in lines[0]
