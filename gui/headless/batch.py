"""The command line's export: every panel drawn at one size without a window, and the results.

    export_panels(params, out_dir, fmt, size) -> [paths]   one image per panel + results.json

Text grows with the image (export_text_scale): a 2400×1600 image has text at 2×, so a slide
made from it stays readable. Every file is written atomically (gui/window/export.py)."""
from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QSize

from gui.common.names import EXPORT_STEMS as PANEL_FILES
from gui.common.quit_signals import DeferredInterrupt
from gui.common.style import make_theme
from gui.window.export import ExportError, check_target, export_panel, write_bytes


def ensure_headless_platform() -> None:
    """Use the offscreen platform when there is no display to talk to."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def export_panels(params, out_dir, fmt: str = "png", size: tuple[int, int] = (1200, 800),
                  heads_input=None) -> list[Path]:
    """Compute `params` (and the head roles of `heads_input`, default HeadsInput()), render
    every panel at `size` and write them plus results.json."""
    ensure_headless_platform()

    from engine import compute
    from engine.report import results_to_dict

    from gui.app import create_application
    from gui.panels import create_panels
    from gui.panels.heads_view import HeadsView, compute_heads
    from gui.state import HeadsInput

    app = create_application([])
    out = Path(out_dir)
    if str(out_dir).strip() == "":
        raise ExportError("--out needs a folder name")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"could not make the folder {out}: {exc.strerror or exc}") from None
    results = compute(params)
    heads = compute_heads(heads_input or HeadsInput())
    theme = make_theme(ui_scale=export_text_scale(size))
    written, failed = [], []
    with DeferredInterrupt() as interrupt:       # Ctrl-C: raised between two panels
        for panel in [*create_panels(), HeadsView()]:
            panel.resize(QSize(*size))
            panel.apply_theme(theme)
            panel.update_results(heads if isinstance(panel, HeadsView) else results)
            panel.show()
            app.processEvents()
            try:
                written.append(export_panel(panel, out / f"{PANEL_FILES[panel.objectName()]}.{fmt}"))
            except ExportError as exc:
                failed.append(str(exc))
            panel.close()
            panel.deleteLater()
            interrupt.check()
    # processEvents() leaves deferred deletions to the event loop; without one (a script,
    # a test) the hidden panels would live on and receive events meant for live widgets.
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    app.processEvents()
    json_path = out / "results.json"
    try:
        check_target(json_path)
        written.append(write_bytes(json_path, (json.dumps(results_to_dict(results), indent=1)
                                          + "\n").encode("utf-8")))
    except ExportError as exc:
        failed.append(str(exc))
    if failed:
        raise ExportError("; ".join(failed))
    return written


#: The panel size at which exported text has the window's own size.
EXPORT_REFERENCE_SIZE = (1200, 800)


def export_text_scale(size: tuple[int, int]) -> float:
    """Text grows with the export size (a 1920×1080 slide keeps text readable), 1× to 3×."""
    w, h = size
    return round(max(1.0, min(3.0, w / EXPORT_REFERENCE_SIZE[0], h / EXPORT_REFERENCE_SIZE[1])), 2)
