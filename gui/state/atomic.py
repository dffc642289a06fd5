"""Atomic file writes: the whole new content, or the old file untouched.

write_atomic(path, data) writes `data` to a temporary file in the target's own folder
(same file system, so the rename is atomic), flushes and fsyncs it, then renames it over
`path` with os.replace. If anything fails (a full disk, a read-only folder, a missing
folder, an interrupted write), the temporary file is removed, the old `path` is left as it
was, and the OSError propagates with the path named in its message. Qt-free.
"""
from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path


class WriteError(OSError):
    """A file could not be written; str() names the path and the reason."""


def describe(exc: OSError) -> str:
    """The reason of an OSError in words ("No space left on device"), never a bare errno."""
    if exc.strerror:
        return exc.strerror
    if exc.errno:
        return os.strerror(exc.errno)
    return str(exc) or type(exc).__name__


def write_atomic(path, data: bytes | str, encoding: str = "utf-8") -> Path:
    """Replace `path` with `data` (bytes, or str encoded with `encoding`) atomically.

    Raises WriteError("could not write PATH: REASON") and leaves `path` untouched on failure.
    """
    path = Path(path)
    if isinstance(data, str):
        data = data.encode(encoding)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise _error(path, exc) from None
    tmp = Path(tmp_name)
    try:
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        finally:
            os.close(fd)
        _keep_mode(path, tmp)
        os.replace(tmp, path)
    except OSError as exc:
        _remove(tmp)
        raise _error(path, exc) from None
    except BaseException:
        _remove(tmp)
        raise
    return path


def _error(path: Path, exc: OSError) -> WriteError:
    error = WriteError(f"could not write {path}: {describe(exc)}")
    error.errno = exc.errno or errno.EIO
    return error


def _keep_mode(path: Path, tmp: Path) -> None:
    """The new file gets the old file's permissions, or the usual ones (umask) for a new file."""
    try:
        mode = path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(tmp, mode)


def _remove(tmp: Path) -> None:
    try:
        tmp.unlink()
    except OSError:
        pass
