"""The screenshot tool tells the truth (issue 32): it exits non-zero when a file was not
written, refuses bad options before it starts, and stops its workers before it exits (an
unwritable --lessons folder ended in "QThread: Destroyed while thread … is still running"
and abort 134; the path was printed and exit 0 when nothing was written)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.slow


def shoot(*args, tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path))
    return subprocess.run([sys.executable, "-m", "gui.headless.screenshot", *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("args, needle", [
    (["--size", "abc"], "argument --size: must be WxH"),
    (["--scale", "5"], "argument --scale: must be from 1 to 3"),
    (["--lesson", "99"], "argument --lesson: must be from 1 to 12"),
])
def test_bad_options_are_refused_before_anything_starts(tmp_path, args, needle):
    proc = shoot("--out", str(tmp_path / "s.png"), *args, tmp_path=tmp_path)
    assert proc.returncode == 2 and needle in proc.stderr
    assert not (tmp_path / "s.png").exists()


def test_a_file_it_cannot_write_is_an_error_and_its_workers_stop(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    proc = shoot("--lessons", str(blocker / "lessons"), tmp_path=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert lines == [f"screenshot: error: cannot write {blocker}/lessons/lesson_en_01.png: "
                     "Not a directory"], proc.stderr


def test_a_written_file_is_printed(tmp_path):
    out = tmp_path / "shot.png"
    proc = shoot("--out", str(out), "--size", "800x600", tmp_path=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(out) and out.stat().st_size > 1000
