"""The header of a .safetensors file, read and checked without the safetensors library.

    read_header(path) -> dict[str, TensorInfo]     HeaderError (a ValueError) or OSError

A .safetensors file is an 8-byte little-endian length N, N bytes of JSON, then the tensors'
data. Each JSON entry other than "__metadata__" is {"dtype", "shape", "data_offsets": [begin,
end]}, the offsets relative to the start of the data.

Only those 8 + N bytes are read, and N is refused above MAX_HEADER_BYTES, so a header costs
at most that much memory whatever it declares. The header is refused (HeaderError naming the
entry and what is wrong) when N is larger than the file, the JSON is not an object, an entry's
dtype is unknown, its shape is not a list of whole numbers ≥ 0, or its data range is not
elements × item size bytes inside the file's data, or a key is given twice. A header that passes declares only
tensors the file really holds.

OSError (the file cannot be opened or read) propagates unchanged, so that its caller can name
the real reason (safetensors itself reports a permission error as "No such file").
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass

#: Bytes per element of each safetensors dtype.
DTYPE_BYTES = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1, "I16": 2, "U16": 2,
               "F16": 2, "BF16": 2, "I32": 4, "U32": 4, "F32": 4, "I64": 8, "U64": 8, "F64": 8}
#: The largest header read. A real model's is tens of kilobytes (one short entry per tensor).
MAX_HEADER_BYTES = 16 << 20


class HeaderError(ValueError):
    """The file is not a well-formed safetensors file; the message says why."""


@dataclass(frozen=True)
class TensorInfo:
    """One entry of the header: dtype (a DTYPE_BYTES key), shape, data range [begin, end)."""

    dtype: str
    shape: tuple[int, ...]
    begin: int
    end: int

    @property
    def elements(self) -> int:
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        return self.end - self.begin


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _entry(name: str, raw, data_bytes: int) -> TensorInfo:
    if not isinstance(raw, dict):
        raise HeaderError(f"the entry of tensor {name!r} is not a JSON object")
    dtype, shape, offsets = raw.get("dtype"), raw.get("shape"), raw.get("data_offsets")
    if dtype not in DTYPE_BYTES:
        raise HeaderError(f"tensor {name!r} has an unknown dtype {dtype!r}")
    if not isinstance(shape, list) or not all(_whole(n) for n in shape):
        raise HeaderError(f"tensor {name!r} has a shape that is not a list of whole numbers")
    if (not isinstance(offsets, list) or len(offsets) != 2 or not all(_whole(n) for n in offsets)
            or offsets[0] > offsets[1]):
        raise HeaderError(f"tensor {name!r} has bad data_offsets {offsets!r}")
    info = TensorInfo(dtype, tuple(shape), offsets[0], offsets[1])
    declared = info.elements * DTYPE_BYTES[dtype]
    if declared != info.nbytes:
        raise HeaderError(f"tensor {name!r} declares {info.elements} {dtype} elements "
                          f"({declared} bytes) in a range of {info.nbytes} bytes")
    if info.end > data_bytes:
        raise HeaderError(f"tensor {name!r} ends at byte {info.end} of data that has "
                          f"{data_bytes} (truncated?)")
    return info


def _unique_keys(pairs: list) -> dict:
    """A JSON object whose keys are all different (a key given twice could mean one thing
    here and another to safetensors)."""
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        twice = next(key for key in keys if keys.count(key) > 1)
        raise HeaderError(f"the header gives {twice!r} twice")
    return dict(pairs)


def read_header(path) -> dict[str, TensorInfo]:
    """Every tensor the header of `path` declares, checked as the module docstring says."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        prefix = f.read(8)
        if len(prefix) < 8:
            raise HeaderError(f"the file has {size} bytes, fewer than the 8 of a header length "
                              f"(truncated or empty)")
        length = int.from_bytes(prefix, "little")
        if length > MAX_HEADER_BYTES:
            raise HeaderError(f"the header length {length} is more than the "
                              f"{MAX_HEADER_BYTES} bytes allowed")
        if 8 + length > size:
            raise HeaderError(f"the header length {length} runs past the end of the "
                              f"{size}-byte file (truncated)")
        raw = f.read(length)
    if len(raw) < length:
        raise HeaderError("the file ended inside its header (truncated)")
    try:
        header = json.loads(raw.decode("utf-8"), object_pairs_hook=_unique_keys)
    except HeaderError:
        raise
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise HeaderError(f"the header is not valid JSON: {exc}") from None
    if not isinstance(header, dict):
        raise HeaderError("the header is not a JSON object")
    data_bytes = size - 8 - length
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__":
            if not isinstance(entry, dict) or not all(isinstance(v, str) for v in entry.values()):
                raise HeaderError("__metadata__ is not an object of strings")
            continue
        tensors[name] = _entry(name, entry, data_bytes)
    return tensors
