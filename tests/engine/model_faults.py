"""Faulty model files for the tests: safetensors headers that declare what the file does not
hold."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

_DTYPES = {np.dtype(np.float32): "F32", np.dtype(np.float16): "F16", np.dtype(np.int32): "I32"}
_ITEM = {"F32": 4, "F16": 2, "I32": 4, "U8": 1}


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
