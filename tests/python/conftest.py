# SPDX-License-Identifier: Apache-2.0
"""Shared fixtures for the Python tests, and the conformance count summary.

Every differential comparison calls ``record(suite, oracle, outcome, reason)``;
at the end of the session one line per (suite, oracle) is printed:

    conformance onnx  onnxruntime+I   cases=1234 match=1100 known=134 mismatch=0 n/a=0

and, when MAXPOOL_CONFORMANCE_JSON is set, the counts (with the reasons of
every known difference) are written there as JSON. docs/conformance.md quotes
these lines.

maxpool is imported from the installed package; if it is not installed but
the repository's python/src is present, that is used (the C library is then
found through MAXPOOL_LIBRARY, see python/src/maxpool/_lib.py).
"""
from __future__ import annotations

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

try:  # noqa: SIM105
    import maxpool  # noqa: F401
except ImportError:
    src = os.path.join(HERE, "..", "..", "python", "src")
    if os.path.isdir(src):
        sys.path.insert(0, os.path.abspath(src))

from recorder import COUNTS as _COUNTS, REASONS as _REASONS, record  # noqa: E402,F401

# a script that prints what the oracles do (docs/semantics.md), not a test
collect_ignore = ["probe_oracles.py"]


def summary_lines() -> list:
    lines = []
    for suite in sorted(_COUNTS):
        for oracle in sorted(_COUNTS[suite]):
            c = _COUNTS[suite][oracle]
            total = sum(c.values())
            lines.append(
                f"conformance {suite:9s} {oracle:26s} cases={total:5d} match={c['match']:5d} "
                f"known={c['known']:5d} mismatch={c['mismatch']:3d} n/a={c['n/a']:5d}"
            )
    return lines


def pytest_terminal_summary(terminalreporter, exitstatus, config):  # noqa: ARG001
    lines = summary_lines()
    if not lines:
        return
    terminalreporter.section("maxpool conformance counts")
    for line in lines:
        terminalreporter.write_line(line)
    if os.environ.get("MAXPOOL_CONFORMANCE_VERBOSE"):
        for suite in sorted(_REASONS):
            for oracle in sorted(_REASONS[suite]):
                for reason, n in sorted(_REASONS[suite][oracle].items()):
                    terminalreporter.write_line(f"  {suite} {oracle}: {n:5d} x {reason}")
    path = os.environ.get("MAXPOOL_CONFORMANCE_JSON")
    if path:
        try:
            import oracles

            versions = oracles.versions()
        except Exception:  # noqa: BLE001
            versions = {}
        data = {
            "versions": versions,
            "counts": {s: {o: dict(c) for o, c in d.items()} for s, d in _COUNTS.items()},
            "reasons": {s: {o: dict(c) for o, c in d.items()} for s, d in _REASONS.items()},
        }
        with open(path, "w") as f:
            json.dump(data, f, indent=1, sort_keys=True)
