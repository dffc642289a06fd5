"""Faulty model files for the tests: a tiny model pinned as the cached MiniLM, injected
permission errors, and safetensors headers that declare what the file does not hold."""
from __future__ import annotations

import builtins
import dataclasses
import hashlib
import json
import math
import os
from pathlib import Path

import numpy as np
import pytest

from engine.models import fetch

#: The tiny model's files pinned in place of MiniLM's.
PINNED = ("config.json", "model.safetensors", "tokenizer.json")
_DTYPES = {np.dtype(np.float32): "F32", np.dtype(np.float16): "F16", np.dtype(np.int32): "I32"}
_ITEM = {"F32": 4, "F16": 2, "I32": 4, "U8": 1}


def pinned_source(folder: Path) -> fetch.ModelSource:
    """MINILM with the pins of the files PINNED in `folder`."""
    def pin(name):
        data = (folder / name).read_bytes()
        return len(data), hashlib.sha256(data).hexdigest()

    size, sha256 = pin("model.safetensors")
    return dataclasses.replace(
        fetch.MINILM, weights_bytes=size, weights_sha256=sha256,
        other_files=tuple((name, *pin(name)) for name in PINNED if name != "model.safetensors"))


def install_as_minilm(good: Path, cache_root: Path, monkeypatch) -> Path:
    """Copy the PINNED files of `good` into `cache_root` as the fetched MiniLM, pin them, point
    the cache there; the folder."""
    folder = cache_root / "models" / fetch.MINILM.folder_name
    folder.mkdir(parents=True)
    for name in PINNED:
        (folder / name).write_bytes((good / name).read_bytes())
    monkeypatch.setitem(fetch.SOURCES, "minilm", pinned_source(good))
    monkeypatch.setenv(fetch.CACHE_ENV, str(cache_root))
    return folder


def flip_a_bit(path: Path) -> None:
    """Flip one bit of the last float, keeping the file's size and mtime."""
    st = path.stat()
    data = bytearray(path.read_bytes())
    data[-4] ^= 0x40
    path.write_bytes(bytes(data))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def deny_under(monkeypatch, root: Path) -> None:
    """Every stat, open and listing of a path under `root` (itself included) fails with EACCES,
    as for a folder the user may not read (root reads through file modes)."""
    prefix = str(root) + os.sep

    def denied(path) -> bool:
        return not isinstance(path, int) and (os.fspath(path) + os.sep).startswith(prefix)

    def wrap(function):
        def guarded(path, *args, **kwargs):
            if denied(path):
                raise PermissionError(13, "Permission denied", os.fspath(path))
            return function(path, *args, **kwargs)
        return guarded

    for name in ("stat", "lstat", "open", "listdir", "scandir"):
        monkeypatch.setattr(os, name, wrap(getattr(os, name)))
    monkeypatch.setattr(builtins, "open", wrap(builtins.open))


def declare(folder: Path, name: str, dtype: str, shape) -> Path:
    """Rewrite the folder's model.safetensors with tensor `name` declared as `dtype` `shape`,
    its data a hole at the end of the file (sparse: the file takes no more disk)."""
    from safetensors.numpy import load_file

    path = folder / "model.safetensors"
    tensors = load_file(str(path))
    header, chunks, offset = {}, [], 0
    for key, array in tensors.items():
        if key == name:
            continue
        data = array.tobytes()
        header[key] = {"dtype": _DTYPES[array.dtype], "shape": list(array.shape),
                       "data_offsets": [offset, offset + len(data)]}
        chunks.append(data)
        offset += len(data)
    nbytes = math.prod(shape) * _ITEM[dtype]
    header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + nbytes]}
    raw = json.dumps(header).encode()
    raw += b" " * (-len(raw) % 8)
    with open(path, "wb") as f:
        f.write(len(raw).to_bytes(8, "little") + raw + b"".join(chunks))
        try:
            f.truncate(8 + len(raw) + offset + nbytes)
        except OSError as exc:
            pytest.skip(f"this file system cannot hold a sparse file of {nbytes} bytes: {exc}")
    return folder
