"""The layers stay apart: import-linter's contracts (pyproject.toml) hold, gui/ is made of
feature packages, and nothing under gui/ imports main.py."""
import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_import_contracts_are_kept():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    names = {c["name"] for c in contracts["contracts"]}
    assert {"engine imports neither Qt nor gui", "gui.state imports no Qt",
            "gui's packages import only downwards", "panels do not import each other"} <= names
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"
    proc = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{len(names)} kept, 0 broken" in proc.stdout


def imported_modules(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_nothing_under_gui_imports_main():
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "gui").rglob("*.py")
                 if "main" in imported_modules(p)]
    assert not offenders, offenders
    assert "main" in imported_modules(ROOT / "tests" / "gui" / "window" / "test_classroom.py")  # sees imports


def test_gui_is_made_of_packages():
    """At most 8 modules at the top of gui/; everything else lives in a package."""
    top = sorted(p.name for p in (ROOT / "gui").glob("*.py"))
    assert len(top) <= 8, top
    layers = next(c for c in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]
                  ["importlinter"]["contracts"] if c["type"] == "layers")["layers"]
    in_layers = {name.strip() for layer in layers for name in layer.split("|")}
    packages = {f"gui.{p.parent.name}" for p in (ROOT / "gui").glob("*/__init__.py")}
    modules = {f"gui.{Path(name).stem}" for name in top if name != "__init__.py"}
    assert packages | modules == in_layers, "every package and top module has its layer"

