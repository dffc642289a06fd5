"""`main.py` commands for the CLI tests: in this process (fast) or in a new interpreter.

Both give an object with `returncode`, `stdout` and `stderr`. In this process the warnings
the command raises count as stderr lines, as a command line prints them there.
"""
import io
import os
import subprocess
import sys
import warnings
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from types import SimpleNamespace

import pytest

import main

ROOT = Path(__file__).resolve().parents[2]


def run_here(*argv, env: dict | None = None):
    """main.main(argv) in this process, with the variables of `env` set meanwhile."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch, warnings.catch_warnings(record=True) as caught, \
            redirect_stdout(out), redirect_stderr(err):
        for name, value in (env or {}).items():
            patch.setenv(name, value)
        warnings.simplefilter("always")
        code = main.main(list(argv))
    stderr = err.getvalue() + "".join(f"{w.category.__name__}: {w.message}\n" for w in caught)
    return SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=stderr)


def run_process(*argv, env: dict | None = None, python_flags=()):
    """`python main.py argv` in a new interpreter, with the variables of `env` added."""
    return subprocess.run([sys.executable, *python_flags, "main.py", *argv], cwd=ROOT,
                          env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **(env or {})),
                          capture_output=True, text=True, timeout=120)


def same_output(process, here) -> bool:
    return (process.returncode, process.stdout, process.stderr) == \
        (here.returncode, here.stdout, here.stderr)
