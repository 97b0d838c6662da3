# SPDX-License-Identifier: Apache-2.0
"""Counts of the differential comparisons (see conftest.py for the summary)."""
from __future__ import annotations

import collections

# suite -> oracle -> outcome -> count ; reasons: suite -> oracle -> "outcome: reason" -> count
COUNTS: dict = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
REASONS: dict = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))

OUTCOMES = ("match", "known", "mismatch", "n/a")


def record(suite: str, oracle: str, outcome: str, reason: str | None = None) -> None:
    """outcome: 'match' (bit-exact), 'known' (a documented, explained difference;
    maxpool's documented choice was checked against another oracle instead),
    'mismatch' (a failure), 'n/a' (this oracle cannot run this case: reason says why)."""
    assert outcome in OUTCOMES, outcome
    COUNTS[suite][oracle][outcome] += 1
    if reason:
        REASONS[suite][oracle][f"{outcome}: {reason}"] += 1
