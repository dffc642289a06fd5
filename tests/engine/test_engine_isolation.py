"""The engine and `main.py report` run without any Qt package."""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# Every test runs a new Python interpreter.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
QT_NAMES = ("PySide6", "pyqtgraph", "superqt", "qtpy", "PyQt5", "PyQt6", "shiboken6")

BLOCKER = textwrap.dedent(f"""
    import sys
    QT_NAMES = {QT_NAMES!r}

    class BlockQt:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in QT_NAMES:
                raise ImportError(f"blocked for this test: {{name}}")
            return None

    sys.meta_path.insert(0, BlockQt())

    def loaded_qt():
        return sorted(m for m in sys.modules if m.split(".")[0] in QT_NAMES)
""")


def run_python(code, *args):
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_blocker_really_blocks():
    # Guard against a vacuous pass: with the finder installed, importing Qt must fail.
    proc = run_python(BLOCKER + textwrap.dedent("""
        try:
            import PySide6  # noqa: F401
        except ImportError as exc:
            print("blocked:", exc)
        else:
            print("NOT BLOCKED")
    """))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("blocked:")


def test_engine_imports_and_computes_without_qt():
    proc = run_python(BLOCKER + textwrap.dedent("""
        import importlib, pkgutil
        import engine
        from engine import Params, compute
        names = [m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")]
        for name in names:  # every engine module and subpackage, including ones added later
            importlib.import_module(name)
        r = compute(Params())
        print(r.multihead.output_shape, loaded_qt(), "engine.report" in names and "engine.models.forward" in names, file=sys.stdout)
    """))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "(6, 512) [] True"


def test_application_state_imports_and_works_without_qt(tmp_path):
    proc = run_python(BLOCKER + textwrap.dedent("""
        import importlib, pkgutil, sys
        import gui.state
        for m in pkgutil.walk_packages(gui.state.__path__, "gui.state."):
            importlib.import_module(m.name)
        from gui.state import AppState, read_session, write_session
        state = AppState()
        seen = []
        state.events.view.connect(seen.append)
        state.update_view(theme="dark", language="ja")
        state.update_heads_input(sentence="abc")
        write_session(state.snapshot(), sys.argv[1])
        back = read_session(sys.argv[1])
        print(back == state.snapshot(), len(seen), loaded_qt())
    """), str(tmp_path / "s.json"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "True 1 []"


def test_main_report_does_not_load_qt():
    proc = run_python(BLOCKER + textwrap.dedent("""
        import io, contextlib
        import main
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main.main(["report", "--dk", "128", "--seed", "4"])
        data = __import__("json").loads(out.getvalue())
        print(code, data["params"]["dk"], loaded_qt())
    """))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "0 128 []"


def test_main_report_importtime_lists_no_qt():
    # Independent of the blocker: -X importtime records every module actually imported.
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-X", "importtime", "main.py", "report"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0
    json.loads(proc.stdout)
    imported = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines()
                if line.startswith("import time:")]
    assert "engine" in imported and "numpy" in imported  # the log is real
    assert not [m for m in imported if m.split(".")[0] in QT_NAMES]
