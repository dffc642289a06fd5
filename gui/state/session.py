"""Session files: all of AppState as versioned JSON.

    {"format": "attention-lab-session", "version": 3,
     "params": {...Params fields...}, "lock_d_model": true, "lesson_step": 0,
     "view": {"theme": "light", "text_scale": 1.0, "presentation": false,
              "colour_safe": true, "language": "en"},
     "heads_input": {"sentence": "...", "token_mode": "en", "random_heads": false, "seed": 0},
     "training": {"experiment": "scaling", "options": {...}},
     "model_view": {"model": "minilm", "model_dir": "", "layer": 0, "head": 0},
     "cost": {"kv_bits": 16}}

Version 1 files (params, lock_d_model, lesson_step) and version 2 files (no
"cost") are still read; the parts they lack take their defaults. Params fields
added after a file was written take their defaults too.

`read_session` reads only a regular file of at most MAX_BYTES, with a bounded
read (a FIFO or /dev/zero is refused, never read to the end), accepts a UTF-8
byte-order mark, and refuses anything malformed with one SessionError whose
message says what is wrong. It never returns partial data.
"""
from __future__ import annotations

import dataclasses
import json
import os
import stat
from pathlib import Path

from engine import Params, ParamsError

from gui.state.atomic import write_atomic
from gui.state.app_state import (CostSettings, HeadsInput, ModelViewSettings, StateError,
                                 StateSnapshot, TrainingSettings, ViewSettings)

FORMAT = "attention-lab-session"
VERSION = 3
MAX_BYTES = 1_000_000
INT_FIELDS = ("dk", "heads", "d_model", "keys", "samples", "seed", "tokens", "seq_len",
              "kv_heads", "cached_layers")
BOOL_FIELDS = ("scale", "causal", "live_scores")


class SessionError(ValueError):
    """The file cannot be used as a session; the message says why."""


def _part_to_dict(value) -> dict:
    data = dataclasses.asdict(value)
    if isinstance(value, TrainingSettings):
        data["options"] = dict(value.options)
    return data


def session_to_dict(snapshot: StateSnapshot) -> dict:
    data = {"format": FORMAT, "version": VERSION, "params": snapshot.params.to_dict(),
            "lock_d_model": snapshot.lock_d_model, "lesson_step": snapshot.lesson_step}
    for name in ("view", "heads_input", "training", "model_view", "cost"):
        data[name] = _part_to_dict(getattr(snapshot, name))
    return data


def write_session(snapshot: StateSnapshot, path) -> None:
    """Write the session atomically (gui.state.atomic): on failure the old file is left as it
    was, and the OSError names the path and the reason."""
    text = json.dumps(session_to_dict(snapshot), indent=1, ensure_ascii=False) + "\n"
    write_atomic(path, text)


def _reject_constant(name: str):
    raise SessionError(f"the file contains {name}, which is not a number")


def _params_from(raw) -> Params:
    if not isinstance(raw, dict):
        raise SessionError("the session has no params object")
    known = {f.name for f in dataclasses.fields(Params)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise SessionError(f"unknown setting(s) in the session: {', '.join(unknown)}")
    required = {"dk", "heads", "d_model"}
    missing = sorted(required - set(raw))
    if missing:
        raise SessionError(f"the session lacks setting(s): {', '.join(missing)}")
    for name in INT_FIELDS:
        if name in raw and raw[name] is not None and (
                not isinstance(raw[name], int) or isinstance(raw[name], bool)):
            raise SessionError(f"setting {name} must be a whole number, got {raw[name]!r}")
    for name in BOOL_FIELDS:
        if name in raw and not isinstance(raw[name], bool):
            raise SessionError(f"setting {name} must be true or false, got {raw[name]!r}")
    fields = dict(raw)
    if "scores" in fields:
        scores = fields["scores"]
        if not isinstance(scores, list) or not all(
                isinstance(s, (int, float)) and not isinstance(s, bool) for s in scores):
            raise SessionError("setting scores must be a list of numbers")
        fields["scores"] = tuple(scores)
    try:
        return Params(**fields)
    except (ParamsError, TypeError, OverflowError) as exc:
        raise SessionError(f"invalid setting in the session: {exc}") from None


def _part_from(data: dict, name: str, kind):
    raw = data.get(name)
    if raw is None:
        return kind()
    if not isinstance(raw, dict):
        raise SessionError(f"{name} must be an object")
    known = {f.name for f in dataclasses.fields(kind)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise SessionError(f"unknown {name} setting(s): {', '.join(unknown)}")
    fields = dict(raw)
    if kind is TrainingSettings and "options" in fields:
        if not isinstance(fields["options"], dict):
            raise SessionError("training options must be an object")
        fields["options"] = tuple(fields["options"].items())
    try:
        return kind(**fields)
    except (StateError, TypeError) as exc:
        raise SessionError(f"invalid {name} setting: {exc}") from None


def session_from_dict(data) -> StateSnapshot:
    if not isinstance(data, dict):
        raise SessionError("not an Attention Lab session (the top level is not an object)")
    if data.get("format") != FORMAT:
        raise SessionError("not an Attention Lab session (format field missing or different)")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SessionError("the session has no valid version number")
    if version > VERSION:
        raise SessionError(f"the session was saved by a newer Attention Lab (version {version}; "
                           f"this one reads up to {VERSION})")
    if version < 1:
        raise SessionError(f"unknown session version {version}")
    params = _params_from(data.get("params"))
    lock = data.get("lock_d_model", True)
    step = data.get("lesson_step", 0)
    if not isinstance(lock, bool):
        raise SessionError("lock_d_model must be true or false")
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < 1000:
        raise SessionError(f"lesson_step must be a step number, got {step!r}")
    parts = {}
    if version >= 2:
        parts = {name: _part_from(data, name, kind) for name, kind in (
            ("view", ViewSettings), ("heads_input", HeadsInput),
            ("training", TrainingSettings), ("model_view", ModelViewSettings))}
    if version >= 3:
        parts["cost"] = _part_from(data, "cost", CostSettings)
    return StateSnapshot(params=params, lock_d_model=lock, lesson_step=step, **parts)


def _read_bounded(path: Path) -> bytes:
    """At most MAX_BYTES of a regular file; anything else is refused before reading."""
    if str(path) == "" or str(path) == ".":
        raise SessionError("no session file was named")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise SessionError(f"cannot read the file: {exc.strerror or exc}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise SessionError(f"the path is {kind}, not a session file")
    with os.fdopen(fd, "rb") as handle:
        try:
            data = handle.read(MAX_BYTES + 1)
        except OSError as exc:
            raise SessionError(f"cannot read the file: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise SessionError(f"the file is too large for a session (more than {MAX_BYTES} bytes)")
    return data


def read_session(path) -> StateSnapshot:
    data = _read_bounded(Path(path))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SessionError("the file is not UTF-8 text") from None
    try:
        parsed = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise SessionError(f"the file is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:
        raise SessionError("the file nests too deeply to be a session") from None
    except ValueError as exc:  # e.g. an integer of thousands of digits
        raise SessionError(f"the file holds a value that cannot be read: {exc}") from None
    try:
        return session_from_dict(parsed)
    except RecursionError:
        raise SessionError("the file nests too deeply to be a session") from None


__all__ = ["FORMAT", "MAX_BYTES", "SessionError", "VERSION", "read_session", "session_from_dict",
           "session_to_dict", "write_session"]
