"""`python main.py train`: JSON fields, flags mapped onto the configs, the gradient check,
and one-line usage errors with exit code 2 (run in-process)."""
import json

import pytest

import main
from engine.training import RolesConfig, gradcheck, result_to_dict, run_experiment

CURVE_KEYS = {"step", "loss", "accuracy", "grad_norm_wq", "attention_entropy"}


def train(capsys, *args):
    code = main.main(["train", *args])
    out, err = capsys.readouterr()
    return code, out, err


def train_json(capsys, *args):
    code, out, err = train(capsys, *args, "--json")
    assert code == 0, err
    assert err == ""
    return json.loads(out)


def _check_common(data, experiment):
    assert data["experiment"] == experiment
    assert isinstance(data["params"], dict)
    assert CURVE_KEYS <= set(data["curve"])
    lengths = {len(data["curve"][k]) for k in CURVE_KEYS}
    assert len(lengths) == 1 and lengths.pop() >= 2
    assert data["curve"]["step"][0] == 0
    assert set(data["final"]) == {"loss", "accuracy"}
    assert data["final"]["loss"] == data["curve"]["loss"][-1]
    assert 0.0 <= data["final"]["accuracy"] <= 1.0


def test_roles_json(capsys):
    data = train_json(capsys, "--experiment", "roles", "--steps", "30", "--seed", "2")
    _check_common(data, "roles")
    assert data["params"]["steps"] == 30 and data["params"]["seed"] == 2
    assert data["curve"]["step"][-1] == 30
    assert len(data["heads"]) == 8
    for head in data["heads"]:
        assert {"layer", "head", "prev_token_score", "induction_score", "bos_score", "role"} <= set(head)
    # the command prints what the engine computes for the same config
    expected = result_to_dict(run_experiment("roles", RolesConfig(steps=30, seed=2)))
    assert data["curve"] == json.loads(json.dumps(expected["curve"]))
    assert data["heads"] == expected["heads"]
    assert data["depths"] == json.loads(json.dumps(expected["depths"]))
    assert set(data["depths"]) == {"1", "2"} and "icl_score" in data["curve"]


def test_roles_flags_reach_the_config(capsys):
    data = train_json(capsys, "--experiment", "roles", "--steps", "5", "--heads", "2", "--dk", "4",
                      "--no-scale")
    assert (data["params"]["heads"], data["params"]["d_k"], data["params"]["scale"]) == (2, 4, False)
    assert len(data["heads"]) == 4


def test_scaling_json(capsys):
    data = train_json(capsys, "--experiment", "scaling", "--dk", "64", "--no-scale", "--steps", "20")
    _check_common(data, "scaling")
    assert data["params"]["d_ks"] == [64] and data["params"]["scales"] == [False]
    assert {(r["task"], r["d_k"], r["scaled"]) for r in data["runs"]} == {
        ("averaging", 64, False), ("lookup", 64, False)}
    assert len(data["runs"]) == 2 * data["params"]["seeds"]
    assert data["curve"]["grad_norm_wq"][0] is None and data["curve"]["grad_norm_wq"][-1] > 0


def test_heads_json(capsys):
    data = train_json(capsys, "--experiment", "heads", "--heads", "4", "--steps", "20")
    _check_common(data, "heads")
    assert {r["heads"] for r in data["runs"]} == {4}
    for run in data["runs"]:
        assert {"heads", "d_k", "final_loss", "final_accuracy"} <= set(run) and run["d_k"] == 8
    assert data["paper"][0] == {"heads": 1, "d_k": 512, "d_v": 512, "ppl": 5.29, "bleu": 24.9}
    assert [(p["heads"], p["ppl"], p["bleu"]) for p in data["paper"]] == [
        (1, 5.29, 24.9), (4, 5.00, 25.5), (8, 4.92, 25.8), (16, 4.91, 25.8), (32, 5.01, 25.4)]


def test_human_summary(capsys):
    code, out, err = train(capsys, "--experiment", "heads", "--heads", "2", "--steps", "10")
    assert code == 0 and err == ""
    assert "h=2" in out and "Table 3" in out
    code, out, _ = train(capsys, "--experiment", "roles", "--steps", "10")
    assert code == 0 and out.count("layer ") == 8


def test_check_gradients(capsys):
    code, out, err = train(capsys, "--check-gradients")
    assert code == 0, out + err
    worst = float(out.strip().splitlines()[-1].split(":")[1].split()[0])
    assert gradcheck.passed(worst)
    code, out, _ = train(capsys, "--check-gradients", "--experiment", "heads", "--json")
    data = json.loads(out)
    assert code == 0 and data["passed"] and set(data["gradient_check"]) == {"heads/h=1", "heads/h=4"}


@pytest.mark.parametrize("args, fragment", [
    ([], "--experiment"),
    (["--experiment", "nope"], "invalid choice"),
    (["--experiment", "scaling", "--heads", "2"], "--heads"),
    (["--experiment", "heads", "--dk", "8"], "--dk"),
    (["--experiment", "heads", "--heads", "3"], "divide"),
    (["--experiment", "roles", "--steps", "0"], "--steps"),
    (["--experiment", "roles", "--steps", "ten"], "--steps"),
    (["--experiment", "roles", "--seed", "-1"], "--seed"),
    (["--experiment", "roles", "--bogus"], "unrecognized"),
])
def test_bad_flags_exit_2_with_one_line(capsys, args, fragment):
    code, out, err = train(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("attention-lab: error: ") and err.count("\n") == 1
    assert fragment in err


@pytest.mark.slow
def test_train_loads_no_qt():
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-X", "importtime", "main.py", "train", "--experiment",
                           "roles", "--steps", "3", "--json"], cwd=root, capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert proc.returncode == 0
    json.loads(proc.stdout)
    imported = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines()
                if line.startswith("import time:")]
    assert "engine.training" in imported
    assert not [m for m in imported if m.split(".")[0] in ("PySide6", "pyqtgraph", "superqt",
                                                           "shiboken6")]


def test_help_says_every_head_reads_all_of_x(capsys):
    """The description said multi-head attention "splits d_model"; every head projects all
    of X with its own d_model × d_k blocks and only the width budget is divided."""
    with pytest.raises(SystemExit):
        main.main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "splits d_model" not in out
    assert "every head reads all of X" in out and "d_model × d_k blocks of W_Q, W_K and W_V" in out
    assert "only the width budget d_model = h·d_k is divided" in out


def test_seed_help_says_which_seeds_run_and_that_nearby_seeds_overlap(capsys):
    """`--seed N` trains seeds N, N+1, N+2 (scaling, heads), so --seed 0 and --seed 1 share
    two runs; the help says so, with the engine's seed counts, and the runs agree."""
    from engine.training import default_config

    n = default_config("heads").seeds
    with pytest.raises(SystemExit):
        main.main(["train", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert f"heads trains seeds N … N+{n - 1}" in out
    assert f"scaling trains seeds N … N+{default_config('scaling').seeds - 1}" in out
    assert "--seed 0 and --seed 1 share seeds " + ", ".join(map(str, range(1, n))) in out
    data = train_json(capsys, "--experiment", "heads", "--heads", "1", "--steps", "2",
                      "--seed", "1")
    assert sorted(r["seed"] for r in data["runs"]) == list(range(1, 1 + n))


def test_seeds_option_trains_the_listed_seeds(capsys):
    data = train_json(capsys, "--experiment", "heads", "--heads", "2", "--steps", "2",
                      "--seeds", "0,5,9")
    assert sorted(r["seed"] for r in data["runs"]) == [0, 5, 9]
    assert data["params"]["seed_list"] == [0, 5, 9] and data["params"]["seeds"] == 3
    for args, message in ((("--experiment", "roles", "--seeds", "1,2"), "does not apply"),
                          (("--experiment", "heads", "--seeds", "1,1"), "repeated"),
                          (("--experiment", "heads", "--seed", "1", "--seeds", "2"),
                           "not allowed with")):
        code, out, err = train(capsys, *args)
        assert code == 2 and out == "" and err.count("\n") == 1
        assert message in err
