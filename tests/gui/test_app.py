"""Process set-up done by gui.app."""
import platform
import sys

import pytest

from gui.app import keep_freed_memory


def test_heap_pad_is_set_where_glibc_is():
    glibc = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert keep_freed_memory() is glibc


@pytest.mark.slow
def test_application_runs_blas_on_one_thread():
    """Run in a fresh interpreter: the suite's own process already has the limit set."""
    import subprocess

    code = ("import os; os.environ['QT_QPA_PLATFORM'] = 'offscreen'\n"
            "from threadpoolctl import threadpool_info\n"
            "from gui.app import create_application\n"
            "app = create_application([])\n"
            "blas = [i for i in threadpool_info() if i['user_api'] == 'blas']\n"
            "print(len(blas), max(i['num_threads'] for i in blas))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    libraries, threads = map(int, out.stdout.split())
    assert libraries >= 1 and threads == 1
