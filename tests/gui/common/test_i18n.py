"""Translations: the .qm files match their .ts sources, no visible string is untranslated, and
switching the language leaves no translator behind and reaches the window's status bar."""
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
I18N = ROOT / "resources" / "i18n"


def tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    if not found:
        pytest.fail(f"{name} not found; it ships with pyside6-essentials")
    return found


def messages(ts: Path) -> dict[str, ET.Element]:
    root = ET.parse(ts).getroot()
    return {m.findtext("source"): m.find("translation") for m in root.iter("message")}


@pytest.mark.slow
def test_ts_covers_every_string_in_the_code(tmp_path):
    committed = I18N / "attention_lab_ja.ts"
    fresh = tmp_path / "fresh.ts"
    shutil.copy(committed, fresh)
    sources = [str(p) for p in sorted((ROOT / "gui").rglob("*.py"))]
    subprocess.run([tool("pyside6-lupdate"), *sources, "-no-obsolete", "-ts", str(fresh)],
                   check=True, capture_output=True)
    now, before = messages(fresh), messages(committed)
    missing = sorted(set(now) - set(before))
    assert not missing, f"strings in the code but not in the .ts (run python -m gui.common.i18n --update): {missing}"
    untranslated = sorted(s for s, t in now.items() if t is None or t.get("type") == "unfinished"
                          or not (t.text or "").strip())
    assert not untranslated, f"untranslated strings: {untranslated}"


@pytest.mark.slow
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


def test_bundled_font_draws_japanese(qapp):
    """Japanese needs no system CJK font: the bundled IPAexGothic is registered and is the
    fallback family of the application font."""
    from PySide6.QtGui import QFont, QFontDatabase, QRawFont

    from gui.app import create_application
    from gui.common.i18n import CJK_FAMILY

    app = create_application([])
    assert CJK_FAMILY in QFontDatabase.families()
    assert app.font().families()[-1] == CJK_FAMILY
    raw = QRawFont.fromFont(QFont(CJK_FAMILY))
    for ch in "アテンション注意。":
        assert raw.supportsCharacter(ord(ch)), ch


@pytest.mark.slow
def test_lesson_screenshot_script_writes_both_languages(tmp_path):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "gui.headless.screenshot", "--lessons", str(tmp_path),
                           "--size", "1000x700"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin",
                                            "HOME": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    from gui.lessons.steps import STEPS
    for lang in ("en", "ja"):
        for i in range(len(STEPS)):
            assert (tmp_path / f"lesson_{lang}_{i + 1:02d}.png").stat().st_size > 10_000


def test_no_tr_inside_f_strings():
    """pyside6-lupdate does not look inside f-string expressions: a tr() there is never
    collected, so it would stay English in every language."""
    import re

    offenders = [f"{p.relative_to(ROOT)}:{i}" for p in sorted((ROOT / "gui").rglob("*.py"))
                 for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
                 if re.search(r"""\bf["'].*\{[^}]*\btr\(""", line)]
    assert not offenders, offenders


def test_switching_language_back_and_forth_creates_no_new_translators(qapp):
    """Each switch used to leave a new QTranslator pair alive as children of the app."""
    import gc

    from PySide6.QtCore import QTranslator

    from gui.common.i18n import current_language, set_language, tr

    def translators() -> int:
        gc.collect()
        return sum(isinstance(o, QTranslator) for o in gc.get_objects())

    start = current_language()
    set_language("ja")
    japanese = tr("Reset controls")
    set_language("en")
    before = translators()
    for _ in range(5):
        set_language("ja")
        assert tr("Reset controls") == japanese != "Reset controls"
        set_language("en")
        assert tr("Reset controls") == "Reset controls"
    assert translators() == before
    set_language(start)


def test_status_bar_follows_the_language(window):
    from gui_helpers import settle

    settle(window)
    window.switch_language("ja")
    try:
        ja = window.compute_label.text()
        assert ja and "computed in" not in ja
        window.switch_language("en")
        assert window.compute_label.text() != ja and "computed in" in window.compute_label.text()
        assert window.statusBar().currentMessage() == ""
    finally:
        window.switch_language("en")
