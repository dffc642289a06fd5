"""Session files: every control, the lesson step and the seed, as versioned JSON.

    {"format": "attention-lab-session", "version": 1,
     "params": {...Params fields...}, "lock_d_model": true, "lesson_step": 0}

`read_session` refuses anything that is not exactly such a file (bad JSON, a
foreign format, a newer version, a missing or invalid field) with a
SessionError whose message says what is wrong. It never returns partial data.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, fields
from pathlib import Path

from .params import Params, ParamsError

FORMAT = "attention-lab-session"
VERSION = 1
MAX_BYTES = 1_000_000


#: Settings added after the first version-1 files were written: a file may lack them, and
#: then they take Params' defaults (MHA, typed scores, ÷√d_k, one cached layer).
OPTIONAL_SETTINGS = ("kv_heads", "live_scores", "scale_by", "cached_layers")


class SessionError(ValueError):
    """The file cannot be used as a session; the message says why."""


@dataclass(frozen=True)
class Session:
    params: Params
    lock_d_model: bool = True
    lesson_step: int = 0


def session_to_dict(session: Session) -> dict:
    return {"format": FORMAT, "version": VERSION, "params": session.params.to_dict(),
            "lock_d_model": session.lock_d_model, "lesson_step": session.lesson_step}


def write_session(session: Session, path) -> None:
    Path(path).write_text(json.dumps(session_to_dict(session), indent=1) + "\n", encoding="utf-8")


def _reject_constant(name: str):
    raise SessionError(f"the file contains {name}, which is not a number")


def session_from_dict(data) -> Session:
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
    raw = data.get("params")
    if not isinstance(raw, dict):
        raise SessionError("the session has no params object")
    known = {f.name for f in fields(Params)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise SessionError(f"unknown setting(s) in the session: {', '.join(unknown)}")
    missing = sorted(known - set(raw) - set(OPTIONAL_SETTINGS))
    if missing:
        raise SessionError(f"the session lacks setting(s): {', '.join(missing)}")
    for name in ("dk", "heads", "d_model", "keys", "samples", "seed", "tokens", "seq_len",
                 "cached_layers"):
        if name in raw and (not isinstance(raw[name], int) or isinstance(raw[name], bool)):
            raise SessionError(f"setting {name} must be a whole number, got {raw[name]!r}")
    if raw.get("kv_heads") is not None and (
            not isinstance(raw["kv_heads"], int) or isinstance(raw["kv_heads"], bool)):
        raise SessionError(f"setting kv_heads must be a whole number, got {raw['kv_heads']!r}")
    for name in ("scale", "causal", "live_scores"):
        if name in raw and not isinstance(raw[name], bool):
            raise SessionError(f"setting {name} must be true or false, got {raw[name]!r}")
    if not isinstance(raw["scores"], list) or not all(
            isinstance(s, (int, float)) and not isinstance(s, bool) for s in raw["scores"]):
        raise SessionError("setting scores must be a list of numbers")
    try:
        params = Params(**{**raw, "scores": tuple(raw["scores"])})
    except ParamsError as exc:
        raise SessionError(f"invalid setting in the session: {exc}") from None
    lock = data.get("lock_d_model", True)
    step = data.get("lesson_step", 0)
    if not isinstance(lock, bool):
        raise SessionError("lock_d_model must be true or false")
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < 1000:
        raise SessionError(f"lesson_step must be a step number, got {step!r}")
    return Session(params, lock, step)


def read_session(path) -> Session:
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise SessionError(f"the file is too large for a session ({size} bytes)")
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise SessionError("the file is not UTF-8 text") from None
    except OSError as exc:
        raise SessionError(f"cannot read the file: {exc.strerror or exc}") from None
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise SessionError(f"the file is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    return session_from_dict(data)
