#!/usr/bin/env python
"""Per-change latency of the app and of the bare stack, taking turns in blocks.

    python -m benchmarks.turns                       # prints one JSON object on stdout
    python -m benchmarks.turns --changes 300 --block 25

The app (benchmarks.harness: the real window, each change timed from setValue to the plots
repainted) and the bare stack (benchmarks.stack_floor's five plots with ten changing labels
each, its "labels" change) run in processes of their own, started once. They take turns:
a block of `--block` changes of one, then a block of the other, the order swapped every
round (A B B A ...), while the process whose turn it is not is stopped (SIGSTOP). A
machine that slows down for a while (another program, a busy host) then slows blocks of
both, and the ratio of their p95s says what the app costs over the stack; series taken
minutes apart compare the app on one machine with the stack on another.

For each workspace (Scaling, Multi-head) and each scenario (the defaults; changes around
d_k = 16 384, as benchmarks.scenarios makes them), the report gives the app's and the
stack's p50 / p95 over all their blocks, and p95_over_stack. The stack's changes are the
same whatever the scenario; it is measured again beside each one.
"""
from __future__ import annotations

import os
import sys

if __name__ == "__main__" and not __package__:  # run as a file: run this checkout's module
    os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.execv(sys.executable, [sys.executable, "-m", "benchmarks.turns", *sys.argv[1:]])

import argparse  # noqa: E402
import json  # noqa: E402
import selectors  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from .report import summary_ms  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKSPACES = ("scaling", "multihead")
SCENARIOS = ("defaults", "dk_16384")
REPLY = "TURN "           # a server's answer line starts with this; other output is ignored
START_TIMEOUT_S = 120     # a server built and warmed up
BLOCK_TIMEOUT_S = 300     # one block of changes
WARM_UP = 20              # untimed changes per server and scenario before the first block


# -- the servers (each in a process of its own) --------------------------------------------
def _answer(payload) -> None:
    sys.stdout.write(REPLY + json.dumps(payload) + "\n")
    sys.stdout.flush()


def serve_app(workspace: str) -> None:
    """The window with `workspace` in front; each request line {"scenario", "n"} is answered
    with the totals (s) of the next n changes of that scenario's sequence."""
    from .harness import Harness, app_environment
    from .scenarios import run_defaults, run_dk_max

    runs = {"defaults": run_defaults, "dk_16384": run_dk_max}
    with app_environment():
        h = Harness(workspace)
        states = {name: {} for name in runs}
        for name, run in runs.items():       # warm-up, and the sequences' starting points
            run(h, WARM_UP, "qt", states[name])
        _answer({"ready": True})
        for line in sys.stdin:
            request = json.loads(line)
            if request.get("quit"):
                break
            name = request["scenario"]
            rows = runs[name](h, request["n"], "qt", states[name])
            _answer([row["total"] for row in rows])
        h.close()


def serve_stack() -> None:
    """benchmarks.stack_floor's bare plots; each request {"n"} is answered with the times (s)
    of the next n changes with labels."""
    from .stack_floor import BarePlots, bare_application

    bare = BarePlots(bare_application(), 10)
    bare.change_times(WARM_UP, True, False)
    k = WARM_UP
    _answer({"ready": True})
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("quit"):
            break
        _answer(bare.change_times(request["n"], True, False, start=k))
        k += request["n"]


# -- the coordinator -------------------------------------------------------------------------
class Server:
    """A server process: started with --serve, stopped (SIGSTOP) while it is not its turn."""

    def __init__(self, *role: str):
        self.role = " ".join(role)
        self.errors = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.turns", "--serve", *role], cwd=ROOT,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors,
            text=True, bufsize=1)
        self.stopped = False
        self.reply(START_TIMEOUT_S)
        self.stop()

    def reply(self, timeout_s: float):
        """The next answer line, or RuntimeError after `timeout_s` or if the process ends."""
        deadline = time.monotonic() + timeout_s
        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise RuntimeError(f"{self.role}: no answer in {timeout_s} s{self._tail()}")
                line = self.proc.stdout.readline()
                if not line:
                    raise RuntimeError(f"{self.role}: exited {self.proc.wait(10)}{self._tail()}")
                if line.startswith(REPLY):
                    return json.loads(line[len(REPLY):])

    def _tail(self) -> str:
        self.errors.seek(0)
        lines = self.errors.read().strip().splitlines()[-10:]
        return ":\n" + "\n".join(lines) if lines else ""

    def ask(self, request: dict) -> list:
        self.cont()
        try:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
            return self.reply(BLOCK_TIMEOUT_S)
        finally:
            self.stop()

    def stop(self) -> None:
        if not self.stopped and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGSTOP)
            self.stopped = True

    def cont(self) -> None:
        if self.stopped and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.stopped = False

    def close(self) -> None:
        """Ask it to quit; kill it if it has not within 10 s."""
        self.cont()
        try:
            self.proc.stdin.write(json.dumps({"quit": True}) + "\n")
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.errors.close()


def take_turns(app: Server, stack: Server, scenario: str, changes: int, block: int) -> dict:
    """Blocks of the app's `scenario` and of the stack, A B B A ...: both p50 / p95 (ms)."""
    app_times, stack_times, rounds = [], [], 0
    while len(app_times) < changes:
        n = min(block, changes - len(app_times))
        order = ((app, {"scenario": scenario, "n": n}), (stack, {"n": n}))
        for server, request in (order if rounds % 2 == 0 else order[::-1]):
            (app_times if server is app else stack_times).extend(server.ask(request))
        rounds += 1
    a, s = summary_ms(app_times), summary_ms(stack_times)
    return {"app": a, "stack": s, "blocks": rounds, "block": block,
            "p95_over_stack": round(a["p95"] / s["p95"], 3) if s["p95"] else float("inf"),
            "p50_over_stack": round(a["p50"] / s["p50"], 3) if s["p50"] else float("inf")}


def measure(changes: int, block: int) -> dict:
    report: dict = {"changes": changes, "block": block}
    stack = Server("stack")
    try:
        for workspace in WORKSPACES:
            app = Server("app", workspace)
            try:
                for scenario in SCENARIOS:
                    report[f"{workspace}.{scenario}"] = take_turns(app, stack, scenario,
                                                                   changes, block)
            finally:
                app.close()
    finally:
        stack.close()
    return report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.turns",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=300,
                        help="timed changes of each, per workspace and scenario")
    parser.add_argument("--block", type=int, default=25, help="changes per turn")
    parser.add_argument("--serve", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        if args.serve[0] == "stack":
            serve_stack()
        else:
            serve_app(args.serve[1])
        return 0
    if args.changes < 1 or args.block < 1:
        parser.error("--changes and --block must be at least 1")
    report = measure(args.changes, args.block)
    report["loadavg_1m_at_end"] = round(os.getloadavg()[0], 2)
    sys.stdout.write(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    os._exit(code)  # skip interpreter teardown of Qt objects
