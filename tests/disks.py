"""Real file-system faults for tests: a full disk and a read-only folder, each a small tmpfs
mounted for the test (needs root, as on this project's machines and CI; elsewhere the test
skips). Injected OSErrors cover the same paths without root (see tests/state/test_atomic.py)."""
from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from pathlib import Path

import pytest


def _mount(folder: Path, options: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
                          capture_output=True, text=True, timeout=10)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.strip()}")


def _unmount(folder: Path) -> None:
    subprocess.run(["umount", "-l", str(folder)], capture_output=True, timeout=10)


@contextlib.contextmanager
def small_disk(folder: Path, size_kb: int = 256):
    """A tmpfs of `size_kb` at `folder`; fill(folder) then leaves no byte free."""
    _mount(folder, f"size={size_kb}k,mode=0777")
    try:
        yield folder
    finally:
        _unmount(folder)


def fill(folder: Path) -> None:
    """Write a filler file until the disk at `folder` says ENOSPC."""
    with open(folder / "filler", "wb", buffering=0) as out:
        block = b"\0" * 4096
        try:
            while True:
                out.write(block)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC, exc
    # tmpfs may still have room for tiny writes in a partial page: take that too
    with contextlib.suppress(OSError), open(folder / "filler2", "wb", buffering=0) as out:
        while True:
            out.write(b"\0")


def make_read_only(folder: Path) -> None:
    """Remount the tmpfs at `folder` read-only (root is not stopped by file modes)."""
    proc = subprocess.run(["mount", "-o", "remount,ro", str(folder)], capture_output=True,
                          text=True, timeout=10)
    assert proc.returncode == 0, proc.stderr
