"""Translations: the .qm files match their .ts sources, and no visible string is untranslated."""
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "resources" / "i18n"


def tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    if not found:
        pytest.fail(f"{name} not found; it ships with pyside6-essentials")
    return found


def messages(ts: Path) -> dict[str, ET.Element]:
    root = ET.parse(ts).getroot()
    return {m.findtext("source"): m.find("translation") for m in root.iter("message")}


def test_ts_covers_every_string_in_the_code(tmp_path):
    committed = I18N / "attention_lab_ja.ts"
    fresh = tmp_path / "fresh.ts"
    shutil.copy(committed, fresh)
    sources = [str(p) for p in sorted((ROOT / "gui").rglob("*.py"))]
    subprocess.run([tool("pyside6-lupdate"), *sources, "-no-obsolete", "-ts", str(fresh)],
                   check=True, capture_output=True)
    now, before = messages(fresh), messages(committed)
    missing = sorted(set(now) - set(before))
    assert not missing, f"strings in the code but not in the .ts (run python -m gui.i18n --update): {missing}"
    untranslated = sorted(s for s, t in now.items() if t is None or t.get("type") == "unfinished"
                          or not (t.text or "").strip())
    assert not untranslated, f"untranslated strings: {untranslated}"


def test_qm_is_compiled_from_current_ts(tmp_path):
    for ts in I18N.glob("*.ts"):
        rebuilt = tmp_path / (ts.stem + ".qm")
        subprocess.run([tool("pyside6-lrelease"), str(ts), "-qm", str(rebuilt)],
                       check=True, capture_output=True)
        committed = ts.with_suffix(".qm")
        assert committed.exists(), f"{committed.name} is missing"
        assert committed.read_bytes() == rebuilt.read_bytes(), f"{committed.name} is out of date"


def test_placeholders_survive_translation():
    import re

    for source, translation in messages(I18N / "attention_lab_ja.ts").items():
        fields = set(re.findall(r"\{[a-z_0-9]*(?::[^}]*)?\}", source))
        assert fields == set(re.findall(r"\{[a-z_0-9]*(?::[^}]*)?\}", translation.text or "")), source
