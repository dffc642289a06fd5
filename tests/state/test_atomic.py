"""gui.state.atomic.write_atomic and the session file: a failed write keeps the old file."""
import errno
import os

import pytest

from gui.state import AppState
from gui.state.atomic import WriteError, write_atomic
from gui.state.session import read_session, write_session
from tests.disks import fill, make_read_only, small_disk


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_replaces_the_file_and_keeps_its_mode(tmp_path):
    target = tmp_path / "a.json"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_atomic(target, "new ünïcode")
    assert target.read_text(encoding="utf-8") == "new ünïcode"
    assert target.stat().st_mode & 0o777 == 0o640
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EIO, errno.EROFS])
def test_an_injected_write_error_keeps_the_old_file(tmp_path, monkeypatch, code):
    target = tmp_path / "a.json"
    target.write_text("old")

    def broken_write(fd, data):
        raise OSError(code, os.strerror(code))
    monkeypatch.setattr(os, "write", broken_write)
    with pytest.raises(WriteError) as info:
        write_atomic(target, "new")
    assert str(target) in str(info.value) and os.strerror(code) in str(info.value)
    assert info.value.errno == code
    monkeypatch.undo()
    assert target.read_text() == "old" and leftovers(tmp_path) == []


def test_a_missing_folder_is_named(tmp_path):
    with pytest.raises(WriteError, match="could not write .*No such file or directory"):
        write_atomic(tmp_path / "nope" / "a.json", "x")


def test_a_session_saved_on_a_full_disk_keeps_the_previous_session(tmp_path):
    state = AppState()
    with small_disk(tmp_path / "disk") as disk:
        path = disk / "session.json"
        write_session(state.snapshot(), path)
        before = path.read_bytes()
        fill(disk)
        state.update_params(seed=AppState().params.seed + 1)
        with pytest.raises(OSError, match="No space left on device") as info:
            write_session(state.snapshot(), path)
        assert str(path) in str(info.value)
        assert path.read_bytes() == before
        assert read_session(path).params.seed == AppState().params.seed
        assert leftovers(disk) == []


def test_a_session_saved_to_a_read_only_folder_says_so(tmp_path):
    state = AppState()
    with small_disk(tmp_path / "disk") as disk:
        path = disk / "session.json"
        write_session(state.snapshot(), path)
        before = path.read_bytes()
        make_read_only(disk)
        with pytest.raises(OSError, match="Read-only file system"):
            write_session(state.snapshot(), path)
        assert path.read_bytes() == before
