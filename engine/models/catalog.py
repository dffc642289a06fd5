"""Which models the user has: folders named explicitly, the Hugging Face cache, our own cache.

Only config.json is read and the files are looked for; weights are not loaded. The Hugging
Face hub cache is $HF_HUB_CACHE, else $HF_HOME/hub, else ~/.cache/huggingface/hub; a model
there is models--<org>--<name>/snapshots/<revision>/ with config.json and model.safetensors.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from . import fetch
from .failures import os_reason
from .loader import WEIGHTS, ModelError, read_config


@dataclass(frozen=True)
class ModelEntry:
    """One model the window can offer. key: "minilm" for the fetched MiniLM, else None.
    source: "attention-lab" (our cache), "huggingface" (its cache) or "folder" (given by the
    user). problem: why it cannot be loaded (only folders given by the user are listed with
    one), else None."""

    name: str
    folder: Path
    source: str
    model_type: str | None = None
    layers: int = 0
    heads: int = 0
    key: str | None = None
    problem: str | None = None


def hf_cache_dir() -> Path:
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    return Path.home() / ".cache" / "huggingface" / "hub"


def describe(folder: Path, name: str, source: str, key: str | None = None) -> ModelEntry:
    """An entry for `folder`, with `problem` set when it is not a usable model folder."""
    try:
        if not folder.is_dir():
            raise ModelError(f"model folder not found: {folder}")
        config = read_config(folder)
        if not (folder / WEIGHTS).is_file():
            raise ModelError(f"no {WEIGHTS} in {folder}")
        if not ((folder / "tokenizer.json").is_file()
                or (config.architecture == "bert" and (folder / "vocab.txt").is_file())):
            raise ModelError(f"no tokenizer in {folder}")
    except ModelError as exc:
        return ModelEntry(name=name, folder=folder, source=source, key=key, problem=str(exc))
    except OSError as exc:
        return ModelEntry(name=name, folder=folder, source=source, key=key,
                          problem=f"{folder} cannot be read: {os_reason(exc)}")
    return ModelEntry(name=name, folder=folder, source=source, key=key,
                      model_type=config.model_type, layers=config.layers, heads=config.heads)


def hf_cache_models(root: Path | None = None) -> list[ModelEntry]:
    """Supported models in the Hugging Face hub cache (unsupported ones are left out)."""
    root = hf_cache_dir() if root is None else root
    entries = []
    try:
        repos = sorted(p for p in root.iterdir() if p.name.startswith("models--"))
    except OSError:
        return []
    for repo in repos:
        repo_name = repo.name[len("models--"):].replace("--", "/")
        try:
            snapshots = sorted(p for p in (repo / "snapshots").iterdir() if p.is_dir())
        except OSError:
            continue
        for snap in snapshots:
            name = repo_name if len(snapshots) == 1 else f"{repo_name} @{snap.name[:8]}"
            entry = describe(snap, name, "huggingface")
            if entry.problem is None:
                entries.append(entry)
    return entries


def minilm_status() -> fetch.CacheStatus:
    """The fetched MiniLM's cache: missing, bad (why) or ok (engine.models.fetch.cache_status)."""
    return fetch.cache_status("minilm")


def available_models(extra_dirs=()) -> list[ModelEntry]:
    """The fetched MiniLM (when its cache is "ok"), then each of `extra_dirs` (listed even when
    unusable, with `problem` saying why), then the Hugging Face cache; each folder once.
    Unreadable folders are described or left out, never raise."""
    entries = []
    status = minilm_status()
    if status.ok:
        entries.append(describe(status.folder, "MiniLM-L6 (all-MiniLM-L6-v2)", "attention-lab",
                                key="minilm"))
    for folder in extra_dirs:
        folder = Path(folder).expanduser()
        entries.append(describe(folder, folder.name or str(folder), "folder"))
    entries += hf_cache_models()
    seen, unique = set(), []
    for entry in entries:
        where = os.path.realpath(entry.folder)
        if where not in seen:
            seen.add(where)
            unique.append(entry)
    return unique
