"""`python main.py report`: JSON layout, determinism, agreement with the engine, and
one-line usage errors with exit code 2. The command runs in this process (main.main); one
test runs it as `python main.py report` and checks that it prints the same."""
import json
import math
import subprocess
import sys

import numpy as np
import pytest

from cli_run import ROOT, run_here, run_process, same_output
from engine import Params, compute
from engine.cost import attention_cost
from engine.report import results_to_dict
from engine.softmax import entropy, softmax

REQUIRED = {
    "params": None,
    "softmax": {"scores", "probs_unscaled", "probs_scaled", "entropy_unscaled", "entropy_scaled"},
    "variance": {"dk", "samples", "theory_unscaled", "empirical_unscaled", "stderr_unscaled",
                 "empirical_scaled"},
    "saturation": {"dk", "median_jacobian_norm_unscaled", "median_jacobian_norm_scaled",
                   "median_max_prob_unscaled", "median_max_prob_scaled"},
    "multihead": {"d_model", "heads", "d_k", "output_shape"},
    "cost": {"single_head_flops", "multi_head_flops", "w_o_flops", "no_output_projection_flops",
             "attention_params_per_layer", "kv_cache_bytes_per_token", "kv_heads",
             "softmax_share_multi_head", "attention_score_bytes"},
}


def run_report(*args):
    return run_here("report", *args)


@pytest.mark.slow
def test_the_command_prints_what_main_prints():
    for args in ((), ("--dk", "16", "--heads", "4", "--live-scores"), ("--dk", "0"),
                 ("--bogus",)):
        assert same_output(run_process("report", *args), run_report(*args)), args


def report(*args):
    """The report's JSON; stderr empty but for the note on the shape --dk alone chose."""
    proc = run_report(*args)
    assert proc.returncode == 0, proc.stderr
    notes = [line for line in proc.stderr.splitlines() if line]
    assert notes == [] or ("--heads" not in args and "--d-model" not in args and notes[0].
                           startswith("attention-lab: note: --dk ")), proc.stderr
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
    (["--scores", "1e308, 1e308"], "outside -1000000"),
    (["--scores", "2e307, 0"], "outside -1000000"),
    (["--seed", "3000000000"], "must be from 0 to 2147483647"),
    (["--seed", "2147483648"], "must be from 0 to 2147483647"),
    (["--model", "gpt-5"], "no model 'gpt-5'; choose one of transformer-base"),
    (["--model", "gpt-2-small", "--heads", "4"], "--model sets d_k, h and d_model"),
    (["--kv-heads", "3"], "kv_heads = 3 does not divide h = 8"),
    (["--kv-heads", "16"], "kv_heads must be from 1 to 8"),
    (["--kv-heads", "0"], "--kv-heads"),
    (["--scale-by", "d_v"], "d_v"),
    (["--cached-layers", "-1"], "--cached-layers"),
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


def test_cost_baseline_in_the_report(default_report):
    cost = default_report[1]["cost"]
    n, d = 512, 512
    # W_O belongs to the single head too: the terms agree, and only softmax grows with h.
    assert cost["single_head_terms"]["w_o"] == cost["multi_head_terms"]["w_o"] == 2 * n * d * d
    assert cost["single_head_params"] == cost["multi_head_params"] == 4 * d * d
    assert cost["multi_head_flops"] - cost["single_head_flops"] == 5 * (8 - 1) * n * n
    assert cost["softmax_flops_over_single_head"] == 5 * (8 - 1) * n * n
    assert cost["no_output_projection_flops"] == cost["single_head_flops"] - 2 * n * d * d
    assert cost["no_output_projection_terms"]["w_o"] == 0
    assert cost["no_output_projection_params"] == 3 * d * d
    assert cost["softmax_share_multi_head"] == pytest.approx(
        cost["multi_head_terms"]["softmax"] / cost["multi_head_flops"], rel=1e-15)
    # Memory: MHA (8 K/V heads), one cached layer, 16-bit values.
    assert cost["kv_heads"] == 8 and cost["cached_layers"] == 1
    assert cost["kv_cache_bytes_per_token"] == 2 * 1 * 8 * 64 * 2
    assert cost["kv_cache_bytes_at_seq_len"] == n * cost["kv_cache_bytes_per_token"]
    assert cost["attention_score_bytes"] == 8 * n * n * 2
    assert cost["bytes_by_bits"]["32"]["kv_cache_per_token"] == 2 * cost["kv_cache_bytes_per_token"]
    assert "model" not in default_report[1]


def test_h_equal_one_bars_are_identical():
    _, data = report("--dk", "512", "--heads", "1")
    cost = data["cost"]
    assert cost["single_head_terms"] == cost["multi_head_terms"]
    assert cost["single_head_flops"] == cost["multi_head_flops"]
    assert cost["single_head_params"] == cost["multi_head_params"]


def test_softmax_share_at_h_512():
    _, data = report("--dk", "1", "--heads", "512")
    assert data["cost"]["softmax_share_multi_head"] == pytest.approx(5 / 17, rel=1e-15)  # 29.4 %


def test_llama_2_70b_model():
    _, data = report("--model", "llama-2-70b")
    p, cost, model = data["params"], data["cost"], data["model"]
    assert (p["dk"], p["heads"], p["d_model"], p["kv_heads"], p["cached_layers"]) == (
        128, 64, 8192, 8, 80)
    assert cost["attention_params_per_layer"] == 150_994_944       # 151 M, not 268 M
    assert cost["kv_cache_bytes_per_token"] == 320 * 1024           # 320 KiB at 16 bits
    assert data["multihead"]["kv_heads"] == 8
    assert model["slug"] == "llama-2-70b" and model["attention_heads_total"] == 80 * 64
    assert "Llama 2" in model["source"]
    _, mha = report("--model", "llama-2-70b", "--kv-heads", "64")
    assert mha["params"]["kv_heads"] == 64
    assert mha["cost"]["attention_params_per_layer"] == 4 * 8192**2
    assert mha["cost"]["kv_cache_bytes_per_token"] == 8 * 320 * 1024


@pytest.mark.parametrize("slug, total, layers", [
    ("transformer-base", 144, (6, 6, 6)), ("transformer-big", 288, (6, 6, 6)),
    ("bert-base", 144, (12, 0, 0)), ("gpt-2-small", 144, (0, 12, 0)),
    ("mistral-7b", 1024, (0, 32, 0))])
def test_model_attention_heads_total(slug, total, layers):
    _, data = report("--model", slug)
    m = data["model"]
    assert m["attention_heads_total"] == total
    assert (m["encoder_layers"], m["decoder_layers"], m["cross_layers"]) == layers
    assert data["params"]["cached_layers"] == layers[1]


def test_kv_heads_flag_and_mqa():
    _, data = report("--kv-heads", "1")
    assert data["params"]["kv_heads"] == 1 and data["cost"]["kv_heads"] == 1
    assert data["cost"]["attention_params_per_layer"] == 2 * 512**2 + 2 * 512 * 64
    assert data["multihead"]["kv_heads"] == data["multihead"]["computed_kv_heads"] == 1


def test_live_scores_in_the_report():
    from engine import random_scores

    _, typed = report("--dk", "256", "--heads", "2")
    assert typed["softmax"]["scores_source"] == "typed"
    assert typed["softmax"]["scores"] == [10.0, 1.0, 1.0, 1.0]
    _, live = report("--dk", "256", "--heads", "2", "--live-scores", "--seed", "4")
    assert live["softmax"]["scores_source"] == "live" and live["params"]["live_scores"]
    assert live["softmax"]["scores"] == list(random_scores(256, 4, 4))
    assert live["softmax"]["jacobian_norm_raw_scaled"] == pytest.approx(
        live["softmax"]["jacobian_norm_scaled"] / 16, rel=1e-15)


def test_scale_by_d_model_flag():
    _, data = report("--scale-by", "d_model")
    assert data["params"]["scale_by"] == "d_model"
    assert data["multihead"]["divisor"] == pytest.approx(math.sqrt(512))


def test_variance_and_saturation_extras():
    _, data = report("--distribution", "rademacher", "--dk", "16", "--sigma", "2")
    var = data["variance"]
    assert var["theory_kind"] == "exact pmf" and var["theory_bounded"]
    assert var["theory_unscaled"] == 16 * 2**4 and var["sigma"] == 2
    assert sum(var["pmf_unscaled"]["prob"]) == pytest.approx(1.0, abs=1e-6)
    assert var["pmf_unscaled"]["spacing"] == 8
    _, uni = report("--distribution", "uniform")
    sat = uni["saturation"]
    assert sat["trials_per_dk"][0] == 128 and sat["trials_per_dk"][-1] == 16
    np.testing.assert_allclose(sat["median_jacobian_wrt_raw_scores_scaled"],
                               np.array(sat["median_jacobian_norm_scaled"]) / np.sqrt(sat["dk"]),
                               rtol=1e-15)
    assert sat["median_jacobian_wrt_raw_scores_unscaled"] == sat["median_jacobian_norm_unscaled"]
    lo, med, hi = (sat[f"{k}_jacobian_norm_unscaled"] for k in ("median_lo", "median", "median_hi"))
    assert all(a <= b <= c for a, b, c in zip(lo, med, hi))
    _, normal1 = report("--dk", "1", "--heads", "1")
    assert normal1["variance"]["theory_bounded"] is False
    assert normal1["variance"]["pmf_unscaled"] is None


def test_bad_scores_name_the_option():
    """Issue 32: "'10;1;1' is not a number" did not say which option it was about."""
    proc = run_report("--scores", "10;1;1")
    assert proc.returncode == 2
    assert proc.stderr.strip() == "attention-lab: error: --scores: '10;1;1' is not a number"


def test_the_shape_the_report_chose_for_a_dk_is_said():
    """--dk 4096 alone sets h and d_model: a note on stderr says to what, the JSON is on
    stdout as before; all three given, nothing is said."""
    proc = run_report("--dk", "4096")
    assert proc.returncode == 0
    assert proc.stderr.startswith("attention-lab: note: --dk 4096 alone sets --heads 4 and "
                                  "--d-model 16384")
    params = json.loads(proc.stdout)["params"]
    assert (params["heads"], params["d_model"]) == (4, 16384)
    assert run_report("--dk", "64", "--heads", "8", "--d-model", "512").stderr == ""


def test_a_closed_stdout_is_one_line_not_a_traceback():
    proc = subprocess.run(f"'{sys.executable}' main.py report >&-", shell=True, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.strip() == ("attention-lab: error: report writes to standard output, "
                                   "which is closed")


def test_json_output_is_strict_json_without_nan(capsys):
    """Issue 32: `heads --json` wrote bare NaN (not JSON) for a model with NaN weights; such
    a model is now refused at load, and every JSON the commands write goes through
    write_json, which writes NaN and ±inf as null."""
    import main as entry

    entry.write_json({"a": float("nan"), "b": [1.0, float("inf"), {"c": -float("inf")}],
                      "d": np.float64("nan"), "e": 2})
    text = capsys.readouterr().out

    def refuse(name):
        raise ValueError(f"not JSON: {name}")

    assert json.loads(text, parse_constant=refuse) == {"a": None, "b": [1.0, None, {"c": None}],
                                                       "d": None, "e": 2}
