"""Hostile model files are refused before anything is allocated, with one ModelError line: a
safetensors header declaring a huge tensor (its data a hole in a sparse file: no disk used),
whatever the safetensors and tokenizers libraries raise (pyo3's PanicException is a
BaseException), and a permission error named as such."""
import builtins
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from model_faults import declare
from tiny_models import write_bert

from engine.models import ModelError, load_model
from engine.models.loader import clear_cache

ROOT = Path(__file__).resolve().parents[2]
WORDS = "embeddings.word_embeddings.weight"


class FakePanic(BaseException):
    """Stands in for pyo3_runtime.PanicException (a BaseException, not an Exception)."""


@pytest.fixture(autouse=True)
def fresh_loader():
    clear_cache()
    yield
    clear_cache()


def peak_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024   # kB on Linux


def refused_quickly(folder: Path, *fragments, seconds=3.0, rss_growth=200 << 20) -> str:
    """load_model(folder) raises one ModelError line within `seconds`, and the process's peak
    memory grows by less than `rss_growth` meanwhile."""
    before, start = peak_rss_bytes(), time.monotonic()
    with pytest.raises(ModelError) as info:
        load_model(folder)
    elapsed, grown = time.monotonic() - start, peak_rss_bytes() - before
    assert grown < rss_growth, f"peak memory grew by {grown / 1e6:.0f} MB"
    assert elapsed < seconds, f"took {elapsed:.1f} s"
    message = str(info.value)
    assert "\n" not in message, message
    for fragment in fragments:
        assert fragment in message, message
    return message


def test_a_6_gb_tensor_of_the_wrong_shape_is_refused_unread(tmp_path):
    folder = declare(write_bert(tmp_path / "m"), WORDS, "F32", (1_500_000_000,))
    assert (folder / "model.safetensors").stat().st_size > 6e9
    refused_quickly(folder, f"tensor '{WORDS}'", "has shape (1500000000,)",
                    "config.json implies (25, 64)")


def test_a_header_declaring_1e12_elements_is_refused(tmp_path):
    folder = declare(write_bert(tmp_path / "m"), WORDS, "F32", (10**12,))
    refused_quickly(folder, "has shape (1000000000000,)")


def test_1e12_elements_that_config_json_agrees_with_are_refused_as_too_big(tmp_path):
    folder = write_bert(tmp_path / "m")
    config = json.loads((folder / "config.json").read_text())
    config["vocab_size"] = 10**12 // 64
    (folder / "config.json").write_text(json.dumps(config))
    declare(folder, WORDS, "F32", (10**12 // 64, 64))
    refused_quickly(folder, "needs 12000.0 GB of memory to load, more than this computer's")


def test_a_tensor_of_the_wrong_dtype_is_refused_unread(tmp_path):
    folder = declare(write_bert(tmp_path / "m"), WORDS, "I32", (25, 64))
    refused_quickly(folder, f"tensor '{WORDS}'", "is I32, not float")


@pytest.mark.parametrize("prefix,fragment", [
    ((1 << 62).to_bytes(8, "little"), "header length"),
    ((50).to_bytes(8, "little") + b"{" * 50, "not valid JSON"),
    (b"\x01", "fewer than the 8"),
])
def test_a_malformed_header_is_one_line(tmp_path, prefix, fragment):
    folder = write_bert(tmp_path / "m")
    (folder / "model.safetensors").write_bytes(prefix)
    refused_quickly(folder, "unreadable", fragment)


def test_a_tensor_declared_twice_is_refused(tmp_path):
    """json keeps the last of two equal keys; a reader keeping the first would see another
    tensor than the one checked."""
    folder = declare(write_bert(tmp_path / "m"), WORDS, "F32", (25, 64))
    path = folder / "model.safetensors"
    data = path.read_bytes()
    length = int.from_bytes(data[:8], "little")
    header = data[8:8 + length].decode().rstrip()
    huge = json.dumps({"dtype": "F32", "shape": [10**12], "data_offsets": [0, 4 * 10**12]})
    doubled = header[:1] + json.dumps(WORDS) + ": " + huge + ", " + header[1:]
    doubled = doubled.encode() + b" " * (-len(doubled) % 8)
    path.write_bytes(len(doubled).to_bytes(8, "little") + doubled + data[8 + length:])
    refused_quickly(folder, "unreadable", f"gives '{WORDS}' twice")


@pytest.mark.slow
def test_the_cli_says_one_line_for_a_hostile_header(tmp_path):
    folder = declare(write_bert(tmp_path / "m"), WORDS, "F32", (10**12,))
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", RUST_BACKTRACE="1")
    proc = subprocess.run([sys.executable, "main.py", "heads", "--model-dir", str(folder),
                           "--sentence", "the cat"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("attention-lab: error: ") and proc.stderr.count("\n") == 1, \
        proc.stderr
    assert "has shape (1000000000000,)" in proc.stderr


# -- whatever the libraries raise ---------------------------------------------------------

class _PanickingFile:
    def __init__(self, exc):
        self.exc = exc

    def __enter__(self):
        return self

    def __exit__(self, *args):
        return False

    def keys(self):
        raise self.exc

    def get_tensor(self, name):
        raise self.exc


@pytest.mark.parametrize("exc", [FakePanic("PyObject pointer is null\nstack backtrace: ..."),
                                 MemoryError(), OSError(5, "Input/output error")])
def test_any_safetensors_failure_is_a_model_error(tmp_path, monkeypatch, exc):
    import safetensors

    folder = write_bert(tmp_path / "m")
    monkeypatch.setattr(safetensors, "safe_open", lambda *a, **k: _PanickingFile(exc))
    message = refused_quickly(folder, "model.safetensors")
    assert "stack backtrace" not in message


def test_a_keyboard_interrupt_is_not_swallowed(tmp_path, monkeypatch):
    import safetensors

    folder = write_bert(tmp_path / "m")
    monkeypatch.setattr(safetensors, "safe_open",
                        lambda *a, **k: _PanickingFile(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        load_model(folder)


def test_any_tokenizers_failure_is_a_model_error(tmp_path, monkeypatch):
    import tokenizers

    class PanickingTokenizer:
        @staticmethod
        def from_file(path):
            raise FakePanic("called `Option::unwrap()` on a `None` value")

    folder = write_bert(tmp_path / "m")
    monkeypatch.setattr(tokenizers, "Tokenizer", PanickingTokenizer)
    refused_quickly(folder, "tokenizer.json", "unreadable", "FakePanic: called `Option::unwrap()`")


def test_a_tokenizer_that_panics_on_a_text_is_a_model_error(tmp_path):
    class Panicking:
        def encode(self, text):
            raise FakePanic("index out of bounds")

    model = load_model(write_bert(tmp_path / "m"))
    object.__setattr__(model, "tokenizer", Panicking())
    with pytest.raises(ModelError, match="tokenizer of m failed on this text .*index out of"):
        model.encode("the cat")


def test_the_forward_process_answers_a_panic_instead_of_dying(monkeypatch):
    import pickle

    from engine.models import worker

    def panic(folder, sentence):
        raise FakePanic("PyObject pointer is null")

    monkeypatch.setattr(worker, "analyse_sentence", panic)
    kind, message = pickle.loads(worker.answer(pickle.dumps(("/some/folder", "the cat"))))
    assert kind == "failed" and message.splitlines()[0] == "FakePanic: PyObject pointer is null"


# -- permission errors -------------------------------------------------------------------

def test_a_permission_error_on_the_weights_says_permission_denied(tmp_path, monkeypatch):
    folder = write_bert(tmp_path / "m")
    weights = str(folder / "model.safetensors")
    real_open = builtins.open

    def open_(path, *args, **kwargs):
        if os.fspath(path) == weights:
            raise PermissionError(13, "Permission denied", weights)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", open_)
    message = refused_quickly(folder, "model.safetensors", "cannot be read: permission denied")
    assert "No such file" not in message


def _as_nobody_works() -> bool:
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        return False
    probe = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                            sys.executable, "-c", "import safetensors, numpy"],
                           cwd=ROOT, capture_output=True, timeout=60)
    return probe.returncode == 0


@pytest.mark.slow
def test_an_unreadable_weights_file_says_permission_denied_to_a_real_user():
    """As an unprivileged user (root reads through file modes): safetensors says "No such
    file or directory" for a file it may not open; the error must say permission denied."""
    if not _as_nobody_works():
        pytest.skip("needs root, setpriv and a Python the user nobody can run")
    import tempfile

    top = Path(tempfile.mkdtemp(prefix="attention-lab-perm-"))
    try:
        top.chmod(0o755)
        folder = write_bert(top / "m")
        for path in folder.iterdir():
            path.chmod(0o644)
        folder.chmod(0o755)
        (folder / "model.safetensors").chmod(0)
        proc = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                               sys.executable, "main.py", "heads", "--model-dir", str(folder),
                               "--sentence", "the cat"], cwd=ROOT, capture_output=True,
                              text=True, timeout=120,
                              env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    finally:
        shutil.rmtree(top, ignore_errors=True)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == (f"attention-lab: error: model.safetensors in {folder} cannot be read: "
                           f"permission denied\n")


def _poison(folder: Path, tensor: str, value: float, count: int = 1) -> None:
    """Put `value` into the first `count` entries of `tensor` of the model in `folder`."""
    import numpy as np
    from safetensors.numpy import load_file, save_file

    tensors = load_file(str(folder / "model.safetensors"))
    flat = tensors[tensor].reshape(-1)
    flat[:count] = value
    save_file(tensors, str(folder / "model.safetensors"))
    assert not np.isfinite(load_file(str(folder / "model.safetensors"))[tensor]).all()


@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_weights_that_are_not_finite_are_refused_naming_the_tensor(tmp_path, value):
    """Issue 32: NaN weights loaded, and their heads were shown as results ("previous nan ·
    next nan"); one NaN weight did the same to one head."""
    write_bert(tmp_path)
    tensor = "encoder.layer.1.attention.self.query.weight"
    _poison(tmp_path, tensor, value)
    with pytest.raises(ModelError, match=f"tensor '{tensor}' in .* holds 1 value that is"):
        load_model(tmp_path)


def test_the_cli_refuses_a_model_with_nan_weights_in_one_line(tmp_path):
    from cli_run import run_here

    write_bert(tmp_path)
    _poison(tmp_path, "embeddings.word_embeddings.weight", float("nan"), count=5)
    proc = run_here("heads", "--model-dir", str(tmp_path), "--token-ids", "1,2,3", "--json")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("attention-lab: error: tensor 'embeddings.word_embeddings."
                                  "weight'") and "holds 5 values that are not a finite" in proc.stderr
