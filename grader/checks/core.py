"""What every check helper shares: its failure type and codes (from grader.core.failures) and value formatting."""

from __future__ import annotations

from typing import Any

import numpy as np

from grader.core.failures import DOCS, FAILURE_CODES, KataFailure, fail, sentence

__all__ = ["DOCS", "FAILURE_CODES", "KataFailure", "fail", "sentence", "short"]


def short(value: Any) -> str:
    """A value on one line, short enough for pytest's summary and the grader's table."""
    if hasattr(value, "shape") and np.ndim(value) == 0:
        item = np.asarray(value).item()
        return f"{item:.6g}" if isinstance(item, float) else repr(item)
    text = np.array2string(np.asarray(value), precision=4, threshold=12, edgeitems=3) \
        if hasattr(value, "shape") else repr(value)
    text = " ".join(text.split())
    return text if len(text) <= 200 else text[:197] + "..."
