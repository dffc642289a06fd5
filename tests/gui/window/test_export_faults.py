"""Exports on a full disk or a read-only folder: an error naming the path and the reason, the
old file untouched, and no partial file left (gui.window.export writes through gui.state.atomic)."""
import pyqtgraph as pg
import pytest
from PySide6.QtWidgets import QLabel

from gui.window.export import ExportError, export_panel, export_window
from tests.disks import fill, make_read_only, small_disk


@pytest.fixture
def plot(qtbot):
    widget = pg.PlotWidget()
    widget.plot([0, 1, 2], [1, 3, 2])
    widget.resize(300, 200)
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.hide()      # qtbot closes it; PlotWidget.close() may run only once


@pytest.fixture
def label(qtbot):
    widget = QLabel("Attention Lab " * 20)
    widget.resize(400, 300)
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.close()


def names(folder):
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("filler"))


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_a_full_disk_keeps_the_old_image_and_leaves_no_partial_file(tmp_path, plot, label, suffix):
    with small_disk(tmp_path / "disk", size_kb=64) as disk:
        panel_path, window_path = disk / f"panel.{suffix}", disk / f"window.{suffix}"
        panel_path.write_bytes(b"old panel")
        window_path.write_bytes(b"old window")
        fill(disk)
        with pytest.raises(ExportError, match="No space left on device") as info:
            export_panel(plot, panel_path, scale=2.0)
        assert str(panel_path) in str(info.value)
        with pytest.raises(ExportError, match="No space left on device"):
            export_window(label, window_path)
        assert panel_path.read_bytes() == b"old panel"
        assert window_path.read_bytes() == b"old window"
        assert names(disk) == [f"panel.{suffix}", f"window.{suffix}"]


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_a_read_only_folder_is_an_error_not_saved(tmp_path, label, plot, suffix):
    with small_disk(tmp_path / "disk") as disk:
        make_read_only(disk)
        for write in (lambda p: export_window(label, p), lambda p: export_panel(plot, p)):
            with pytest.raises(ExportError, match="Read-only file system"):
                write(disk / f"image.{suffix}")
        assert names(disk) == []


def test_a_successful_export_replaces_the_old_file(tmp_path, label, plot):
    for suffix in ("png", "svg"):
        path = tmp_path / f"window.{suffix}"
        path.write_bytes(b"old")
        export_window(label, path)
        assert path.stat().st_size > 100 and path.read_bytes() != b"old"
        export_panel(plot, path)
        assert path.read_bytes()[:5] in (b"\x89PNG\r", b"<?xml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["window.png", "window.svg"]
