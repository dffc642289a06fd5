"""`python main.py prune`: the trained model's curve as the engine computes it, the paper's
reference points beside it, MiniLM's curve when it is cached, and usage errors (in-process)."""
import json

import pytest

import main
from engine.models.fetch import cache_status
from engine.training.heads import HeadsConfig
from engine.training.pruning import prune_trained


def prune(capsys, *args):
    code = main.main(["prune", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_trained_json_is_the_engine_curve(capsys):
    code, out, err = prune(capsys, "--heads", "4", "--steps", "20", "--seed", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    expected = prune_trained(HeadsConfig(heads=(4,), steps=20, seed=1), 4).to_dict()
    assert data == json.loads(json.dumps(expected))
    assert data["quality"][0] == data["final_accuracy"]
    assert len(data["fraction_removed"]) == 5 and data["fraction_removed"][-1] == 1.0
    assert [p["fraction"] for p in data["paper"]] == [0.2, 0.4]


def test_text_output_names_the_paper(capsys):
    code, out, _ = prune(capsys, "--heads", "2", "--steps", "5")
    assert code == 0 and "20% of Transformer-large" in out and "40% of BERT-base" in out


@pytest.mark.parametrize("args", [["--heads", "3"], ["--steps", "0"], ["--model", "gpt"]])
def test_usage_errors(capsys, args):
    code, _, err = prune(capsys, *args)
    assert code == 2 and err.strip()


@pytest.mark.slow
@pytest.mark.skipif(not cache_status("minilm").ok, reason="MiniLM is not cached")
def test_minilm_curve_starts_at_one(capsys):
    code, out, err = prune(capsys, "--model", "minilm", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert abs(data["quality"][0] - 1.0) < 1e-6      # float32 forward, float64 cosine
    assert len(data["quality"]) == 6 * 12 + 1 and data["importance_kind"] == "ablation"
