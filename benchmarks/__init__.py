"""Benchmarks; each script prints one JSON object. Run them from the repository root:

    python -m benchmarks.engine_compute        samplers and compute() timings
    python -m benchmarks.ui_latency            the window: start-up, latency, vs matplotlib
    python -m benchmarks.render_instructions   callgrind instructions per change

`python benchmarks/<script>.py` runs the same module (the script re-executes itself with -m
from the repository root, so this checkout's engine/ and gui/ are the ones imported).
The other modules are the parts of ui_latency: harness, scenarios, startup,
render_compare, mpl_reference (the matplotlib reference figure) and report.
"""
