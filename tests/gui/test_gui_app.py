"""Process set-up done by gui.app."""
import platform
import sys

from gui.app import keep_freed_memory


def test_heap_pad_is_set_where_glibc_is():
    glibc = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert keep_freed_memory() is glibc
