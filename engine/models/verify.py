"""Pinned files of a cached model folder: hashed once, then trusted through a stamp.

    check_folder(folder, pins, stamp) -> Check         state "missing", "bad" or "ok"
    write_stamp(folder, pins, stamp, digests) -> None  after a fetch that hashed the files
    forget()                                           drop what this process remembers

pins maps a file's path inside `folder` (with "/") to (size in bytes, sha256 in hex). The
folder is "missing" when it does not exist, "bad" when it is not a readable folder or any
pinned file is absent, unreadable, of another size or of another sha256 (`reason` names the
first such file and why), else "ok". check_folder never raises OSError.

The stamp is a small JSON file (written atomically, next to the folder) holding, per pinned
file, the size, st_mtime_ns, st_ctime_ns and st_ino it had when its sha256 was checked, and
that sha256. A later check trusts a file without reading it while its stat gives those four
numbers again and the stamp's sha256 is the pinned one; anything else about it (a rewrite, a
touch, a restored mtime, which still moves ctime) makes it read and hashed again. A stamp that
cannot be read or written only costs that hashing.

Within one process a check is remembered (per folder, stamp and pins) while the stat of the
folder and of every pinned file stays the same, so asking again (the window asks on every
lesson step) costs a few stats.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from .failures import os_reason

CHUNK = 1 << 20
STAMP_VERSION = 1

Pins = Mapping[str, tuple[int, str]]


@dataclass(frozen=True)
class Check:
    """state: "missing", "bad" or "ok"; reason: why it is bad (empty otherwise)."""

    state: str
    reason: str = ""


_memo: dict[tuple, tuple[tuple, Check]] = {}
_memo_lock = threading.Lock()


def forget() -> None:
    """Forget every remembered check (the next check_folder looks at the stamp again)."""
    with _memo_lock:
        _memo.clear()


def _signature(path: Path):
    try:
        st = os.stat(path)
    except OSError as exc:
        return (type(exc).__name__,)
    return (stat.S_IFMT(st.st_mode), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _stat_record(st: os.stat_result, sha256: str) -> dict:
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "ctime_ns": st.st_ctime_ns,
            "ino": st.st_ino, "sha256": sha256}


def _read_stamp(stamp: Path) -> dict:
    try:
        raw = json.loads(stamp.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    if not isinstance(raw, dict) or raw.get("version") != STAMP_VERSION:
        return {}
    files = raw.get("files")
    return files if isinstance(files, dict) else {}


def _save_stamp(stamp: Path, files: dict) -> None:
    data = json.dumps({"version": STAMP_VERSION, "files": files}, indent=1, sort_keys=True)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{stamp.name}.", suffix=".tmp", dir=stamp.parent)
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(data)
        os.replace(tmp, stamp)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _check(folder: Path, pins: Pins, stamp: Path) -> Check:
    try:
        st = os.stat(folder)
    except FileNotFoundError:
        return Check("missing")
    except NotADirectoryError:
        return Check("bad", "a part of its path is a file, not a folder")
    except OSError as exc:
        return Check("bad", f"the folder cannot be read: {os_reason(exc)}")
    if not stat.S_ISDIR(st.st_mode):
        return Check("bad", "it is a file, not a folder")
    stats = {}
    for name, (size, _) in pins.items():
        try:
            st = os.stat(folder / name)
        except FileNotFoundError:
            return Check("bad", f"{name} is missing")
        except OSError as exc:
            return Check("bad", f"{name} cannot be read: {os_reason(exc)}")
        if not stat.S_ISREG(st.st_mode):
            return Check("bad", f"{name} is not a file")
        if st.st_size != size:
            return Check("bad", f"{name} has {st.st_size} bytes, not {size} "
                                f"(truncated or changed)")
        stats[name] = st
    stamped = _read_stamp(stamp)
    records, hashed = {}, False
    for name, (_, sha256) in pins.items():
        record = _stat_record(stats[name], sha256)
        if stamped.get(name) == record:
            records[name] = record
            continue
        try:
            found = sha256_of(folder / name)
        except OSError as exc:
            return Check("bad", f"{name} cannot be read: {os_reason(exc)}")
        if found != sha256:
            return Check("bad", f"{name} does not match its pinned sha256 (damaged or changed)")
        records[name], hashed = record, True
    if hashed:
        _save_stamp(stamp, records)
    return Check("ok")


def check_folder(folder: Path, pins: Pins, stamp: Path) -> Check:
    """The folder's state against `pins` (see the module docstring)."""
    folder = Path(folder)
    signature = (_signature(folder),) + tuple(_signature(folder / name) for name in pins)
    key = (str(folder), str(stamp), tuple(sorted(pins.items())))
    with _memo_lock:
        known = _memo.get(key)
    if known is not None and known[0] == signature:
        return known[1]
    result = _check(folder, pins, Path(stamp))
    with _memo_lock:
        _memo[key] = (signature, result)
    return result


def write_stamp(folder: Path, pins: Pins, stamp: Path, digests: Mapping[str, str]) -> None:
    """Record the pinned files of `folder` as checked, `digests` being the sha256 each was
    found to have as it was written (a file whose digest is not its pin is left out)."""
    files = {}
    for name, (_, sha256) in pins.items():
        if digests.get(name) != sha256:
            continue
        try:
            files[name] = _stat_record(os.stat(Path(folder) / name), sha256)
        except OSError:
            continue
    _save_stamp(Path(stamp), files)
