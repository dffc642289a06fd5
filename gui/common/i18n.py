"""Languages (Qt Linguist .qm files) and the bundled Japanese font.

Sources of translations: resources/i18n/attention_lab_<lang>.ts, compiled to
.qm with pyside6-lrelease (see `python -m gui.common.i18n --update`). English is the
source language, so it needs no file.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator
from PySide6.QtGui import QFont, QFontDatabase, QFontInfo

from gui.state.app_state import LANGUAGES  # code → native name; the window imports it from here

ROOT = Path(__file__).resolve().parents[2]
I18N_DIR = ROOT / "resources" / "i18n"
FONT_DIR = ROOT / "resources" / "fonts"
CJK_FAMILY = "IPAexGothic"

_installed: list[QTranslator] = []
#: Translators loaded once per language and owned here (no Qt parent): a new pair per switch
#: would stay alive as children of the application.
_loaded: dict[str, list[QTranslator]] = {}


def tr(text: str) -> str:
    """Translate a UI string. pyside6-lupdate collects every literal tr("…") call; they all
    share the empty context, so one phrase has one translation across the app."""
    return QCoreApplication.translate("", text)

_current = "en"


def system_language() -> str:
    """'ja' when the system locale is Japanese, else 'en'."""
    return "ja" if QLocale.system().name().lower().startswith("ja") else "en"


def current_language() -> str:
    return _current


def qm_path(lang: str) -> Path:
    return I18N_DIR / f"attention_lab_{lang}.qm"


def _translators(lang: str) -> list[QTranslator]:
    """The project's translator for `lang`, after Qt's own one when Qt ships it (loaded once)."""
    if lang not in _loaded:
        ours = QTranslator()
        if not ours.load(str(qm_path(lang))):
            raise FileNotFoundError(f"missing translation file {qm_path(lang)}")
        qt_own = QTranslator()  # Qt's own dialogs and buttons
        found = qt_own.load(f"qtbase_{lang}",
                            QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))
        _loaded[lang] = [qt_own, ours] if found else [ours]
    return _loaded[lang]


def set_language(lang: str) -> None:
    """Install the translators for `lang`; every widget then receives LanguageChange."""
    global _current
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    app = QCoreApplication.instance()
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    if lang != "en":
        _installed.extend(_translators(lang))
        for translator in _installed:
            app.installTranslator(translator)
    _current = lang
    QLocale.setDefault(QLocale(QLocale.Language.Japanese if lang == "ja" else QLocale.Language.English))
    from PySide6.QtCore import QEvent

    if not _installed:  # removing translators alone does not always notify every widget
        import shiboken6

        for widget in _top_level_widgets():
            # One widget's retranslation can delete another top-level one (a popup).
            if shiboken6.isValid(widget):
                QCoreApplication.sendEvent(widget, QEvent(QEvent.Type.LanguageChange))
    # Deliver the queued LanguageChange events now, so texts are switched when this returns.
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LanguageChange)


def _top_level_widgets():
    from PySide6.QtWidgets import QApplication

    return QApplication.topLevelWidgets()


def install_fonts(app) -> None:
    """Register the bundled CJK font and put it behind the default family as a fallback,
    so Japanese renders even where the system has no CJK font."""
    for path in sorted(FONT_DIR.glob("*.ttf")):
        QFontDatabase.addApplicationFont(str(path))
    font = QFont(app.font())
    # Name the real family ("DejaVu Sans", say), not an alias such as "Sans Serif": Qt would
    # skip an unresolved alias and draw everything, Latin included, with the fallback.
    resolved = QFontInfo(font).family()
    if resolved != CJK_FAMILY:
        font.setFamilies([resolved, CJK_FAMILY])
        app.setFont(font)


def update_translations() -> int:
    """Regenerate the .ts sources from the code and compile the .qm files."""
    sources = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "gui").rglob("*.py"))]
    for lang in LANGUAGES:
        if lang == "en":
            continue
        ts = I18N_DIR / f"attention_lab_{lang}.ts"
        subprocess.run(["pyside6-lupdate", *sources, "-no-obsolete", "-ts", str(ts.relative_to(ROOT))],
                       check=True, cwd=ROOT)
        subprocess.run(["pyside6-lrelease", str(ts), "-qm", str(qm_path(lang))], check=True, cwd=ROOT)
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--update"]:
        sys.exit(update_translations())
    print("usage: python -m gui.common.i18n --update", file=sys.stderr)
    sys.exit(2)
