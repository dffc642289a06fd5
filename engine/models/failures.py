"""One-line reasons for failures of the file system and of the model libraries.

    os_reason(exc: OSError) -> str         "permission denied", "no such file or directory", …
    library_reason(exc: BaseException) -> str   "PanicException: PyObject pointer is null"
    PASS_THROUGH                            the BaseExceptions that are never turned into a
                                            ModelError (the user's Ctrl+C, sys.exit)

The safetensors and tokenizers libraries are Rust: besides their own exceptions they raise
pyo3's PanicException, a BaseException, and plain OSError / MemoryError. Their callers catch
BaseException, re-raise PASS_THROUGH, and report anything else as a ModelError whose message
ends in library_reason(exc).
"""
from __future__ import annotations

import os

PASS_THROUGH = (KeyboardInterrupt, SystemExit)


def os_reason(exc: OSError) -> str:
    """The reason of an OSError in lower-case words, never a bare errno; a PermissionError is
    always "permission denied" (whatever a library wrapped around it)."""
    if isinstance(exc, PermissionError):
        return "permission denied"
    text = exc.strerror or (os.strerror(exc.errno) if exc.errno else "") or str(exc)
    text = text or type(exc).__name__
    return text[:1].lower() + text[1:]


def library_reason(exc: BaseException) -> str:
    """The exception's type and the first non-empty line of its message (Rust panics and
    tokenizers' parse errors carry several lines)."""
    if isinstance(exc, OSError):
        return os_reason(exc)
    if isinstance(exc, MemoryError):
        return "not enough memory"
    first = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__
