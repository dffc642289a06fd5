"""Export of panels and the window, from the menu helpers and from `main.py export` (its
usage errors in this process, the files it writes in a new interpreter). The window tests
share one window."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QGuiApplication, QImage, QPainter

from engine import Params
from gui.headless.batch import export_panels
from gui.window.export import export_panel, export_window
from tab_fixtures import module_window  # noqa: F401 (a fixture)

ROOT = Path(__file__).resolve().parents[3]
PANELS = ("softmax", "variance", "saturation", "multihead", "cost", "heads")


def not_blank(path: Path) -> bool:
    image = QImage(str(path))
    if image.isNull():
        return False
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    return len(colours) > 20


def test_export_panels_png_and_results(tmp_path):
    written = export_panels(Params(dk=256, heads=2, d_model=512), tmp_path, "png", (800, 500))
    assert sorted(p.name for p in written) == sorted([f"{n}.png" for n in PANELS] + ["results.json"])
    for name in PANELS:
        assert not_blank(tmp_path / f"{name}.png"), name
        assert QImage(str(tmp_path / f"{name}.png")).width() == 800
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["params"]["dk"] == 256 and data["multihead"]["heads"] == 2


def test_export_svg_from_window(module_window, tmp_path):
    window = module_window
    path = export_panel(window.panels["costPlot"], tmp_path / "cost.svg")
    text = path.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    whole = export_window(window, tmp_path / "window.png")
    assert not_blank(whole)
    svg = export_window(window, tmp_path / "window.svg")
    assert "<svg" in svg.read_text()


def test_copy_panel_to_clipboard(module_window):
    window = module_window
    window.files.copy_panel("softmaxPlot")
    image = QGuiApplication.clipboard().image()
    assert not image.isNull() and image.width() > 100


@pytest.mark.slow
def test_export_command_writes_every_panel(tmp_path):
    out = tmp_path / "figs"
    proc = subprocess.run([sys.executable, str(ROOT / "main.py"), "export", "--out", str(out),
                           "--format", "svg", "--size", "640x400", "--dk", "128"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={"PATH": "/usr/bin:/bin", "QT_QPA_PLATFORM": "offscreen",
                               "HOME": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    for name in PANELS:
        assert "<svg" in (out / f"{name}.svg").read_text()
    report = subprocess.run([sys.executable, str(ROOT / "main.py"), "report", "--dk", "128"],
                            capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert json.loads((out / "results.json").read_text()) == json.loads(report.stdout)


def test_export_command_rejects_bad_size(tmp_path):
    from cli_run import run_here   # tests/engine/cli_run.py: main.py in this process

    proc = run_here("export", "--out", str(tmp_path), "--size", "huge")
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "--size" in proc.stderr


def run_export(tmp_path, *args):
    return subprocess.run([sys.executable, str(ROOT / "main.py"), "export", *args],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env={"PATH": "/usr/bin:/bin", "QT_QPA_PLATFORM": "offscreen",
                               "HOME": str(tmp_path)})


@pytest.mark.slow
def test_export_command_reports_a_failed_write_with_its_path(tmp_path):
    out = tmp_path / "figs"
    (out / "softmax.png").mkdir(parents=True)          # a folder where the image should go
    proc = run_export(tmp_path, "--out", str(out), "--size", "400x300")
    assert proc.returncode == 1
    assert str(out / "softmax.png") in proc.stderr and "folder" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert (out / "variance.png").is_file()            # the other panels were still written


def test_export_command_needs_a_folder_name(tmp_path, monkeypatch):
    from cli_run import run_here

    monkeypatch.chdir(tmp_path)
    proc = run_here("export", "--out", "", "--size", "400x300")
    assert proc.returncode == 1 and "--out" in proc.stderr
    assert not list(tmp_path.glob("*.png"))


def test_export_to_a_missing_folder_says_so(module_window, tmp_path):
    window = module_window
    from gui.window.export import ExportError

    target = tmp_path / "no" / "such" / "softmax.png"
    try:
        export_panel(window.panels["softmaxPlot"], target)
    except ExportError as exc:
        assert str(target.parent) in str(exc)
    else:
        raise AssertionError("no error for a missing folder")
    assert not target.exists()


def test_png_export_and_copy_at_two_and_four_times(module_window, tmp_path):
    from gui.headless.batch import export_text_scale
    from gui.window.export import panel_image

    window = module_window
    panel = window.panels["costPlot"]
    one = panel_image(panel)
    for scale in (2, 4):
        image = panel_image(panel, scale)
        assert (image.width(), image.height()) == (one.width() * scale, one.height() * scale)
    window.findChild(type(window.menus.export_scale_actions[2]), "exportScale2").trigger()
    try:
        assert window.state.view.export_scale == 2
        window.files.copy_panel("costPlot")
        assert QGuiApplication.clipboard().image().width() == 2 * one.width()
    finally:
        window.menus.export_scale_actions[1].trigger()
    path = export_panel(panel, tmp_path / "cost.png", 4)
    assert QImage(str(path)).width() == 4 * one.width()
    assert export_text_scale((1200, 800)) == 1.0 and export_text_scale((2400, 1600)) == 2.0
    assert export_text_scale((100, 100)) == 1.0 and export_text_scale((8000, 8000)) == 3.0


def test_svg_attention_maps_stay_sharp_in_qt_renderer(tmp_path, qtbot):
    import re

    from PySide6.QtCore import QByteArray
    from PySide6.QtSvg import QSvgRenderer

    from gui.headless.batch import export_text_scale
    from gui.window.export import SVG_IMAGE_MIN_PX
    from gui.panels.heads_view import HeadsView, compute_heads
    from gui.state import HeadsInput
    from gui.common.style import make_theme

    view = HeadsView()                        # the head roles panel, as export_panels draws it
    qtbot.addWidget(view)
    view.resize(800, 600)
    view.apply_theme(make_theme(ui_scale=export_text_scale((800, 600))))
    view.update_results(compute_heads(HeadsInput()))
    view.show()
    export_panel(view, tmp_path / "heads.svg")
    view.close()
    text = (tmp_path / "heads.svg").read_text()
    images = re.findall(r'<image [^>]*width="([\d.]+)" height="([\d.]+)"[^>]*base64,([^"]+)"', text)
    assert images
    for width, height, data in images:
        png = QImage.fromData(QByteArray.fromBase64(data.encode()), "PNG")
        assert max(png.width(), png.height()) >= SVG_IMAGE_MIN_PX   # cells of many pixels
        assert png.width() % round(float(width)) == 0               # an integer factor
    renderer = QSvgRenderer(str(tmp_path / "heads.svg"))
    assert renderer.isValid()
    image = QImage(1600, 1200, QImage.Format.Format_ARGB32)
    image.fill(0xFFFFFFFF)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    assert not_blank_image(image)


def not_blank_image(image):
    colours = {image.pixel(x, y) for x in range(0, image.width(), 9) for y in range(0, image.height(), 9)}
    return len(colours) > 20
