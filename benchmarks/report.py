"""Figures and the report: percentiles, a latency summary per scenario, machine
information, the targets and whether they were met, and the JSON printed on stdout."""
from __future__ import annotations

import json
import os
import platform
import sys

import numpy as np

TARGETS = {"p95_defaults_ms": 16.7, "p95_dk16384_ms": 16.7, "speedup_min": 20,
           "startup_max_s": 1.0, "rss_max_mb": 200}


def pct(values, q) -> float:
    return float(np.percentile(np.asarray(values, dtype=float), q)) if len(values) else float("nan")


def summary_ms(values_s) -> dict:
    ms = [1000 * v for v in values_s]
    return {"p50": round(pct(ms, 50), 3), "p95": round(pct(ms, 95), 3),
            "max": round(max(ms), 3) if ms else float("nan")}


def self_rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def machine_info() -> dict:
    """The machine and the versions of the stack. Versions are read from the installed
    packages' metadata: importing matplotlib here would add its memory to the RSS the
    latency benchmark reports for the window."""
    from importlib.metadata import PackageNotFoundError, version

    from PySide6.QtCore import qVersion

    def installed(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "not installed"

    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"platform": platform.platform(), "cpu": cpu, "cpus": os.cpu_count(),
            "python": platform.python_version(), "qt": qVersion(), "pyside6": installed("PySide6-Essentials"),
            "pyqtgraph": installed("pyqtgraph"), "matplotlib": installed("matplotlib"),
            "numpy": np.__version__, "qpa": os.environ.get("QT_QPA_PLATFORM"),
            "loadavg_1m_at_start": round(os.getloadavg()[0], 2)}



def latency_summary(rows: list[dict]) -> dict:
    total = summary_ms([r["total"] for r in rows])
    out = {"changes": len(rows),
           "p50_ms": total["p50"], "p95_ms": total["p95"], "max_ms": total["max"]}
    for key in ("compute", "render", "update", "paint", "controls"):
        s = summary_ms([r[key] for r in rows])
        out[f"{key}_p50_ms"], out[f"{key}_p95_ms"] = s["p50"], s["p95"]
    params = [r["params"] for r in rows]
    out["dk_range"] = [min(p.dk for p in params), max(p.dk for p in params)]
    out["d_model_range"] = [min(p.d_model for p in params), max(p.d_model for p in params)]
    out["heads_range"] = [min(p.heads for p in params), max(p.heads for p in params)]
    out["by_control"] = {c: len([r for r in rows if r["control"] == c])
                         for c in sorted({r["control"] for r in rows})}
    return out


def targets_met(report: dict) -> dict:
    """Each target of TARGETS against the report's figures (a full run's report)."""
    ro = report["render_only"]
    return {
        "p95_defaults_ms": report["defaults"]["p95_ms"] <= TARGETS["p95_defaults_ms"],
        "p95_dk16384_ms": report["dk_16384"]["p95_ms"] <= TARGETS["p95_dk16384_ms"],
        "speedup_min": ro["speedup_qt_paint_p50"] >= TARGETS["speedup_min"],
        "startup_max_s": report["startup_seconds"] <= TARGETS["startup_max_s"],
        "rss_max_mb": report["rss_mb"] <= TARGETS["rss_max_mb"],
    }


def write_report(report: dict) -> None:
    sys.stdout.write(json.dumps(report, indent=2) + "\n")
    sys.stdout.flush()
