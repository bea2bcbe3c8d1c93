"""In the check process a notebook cell starts (`-p grader.learner.cell_report`): each check's
result, folded into one outcome with its lesson, written where the cell reads it (`REPORT_ENV`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from grader.core.files import write_atomically

REPORT_ENV = "KATAS_NOTEBOOK_REPORT"  # where the check process writes its results (set by the cell)

_collected: list[str] = []
_checks: dict[str, dict] = {}


def _save_report() -> None:
    path = os.environ.get(REPORT_ENV)
    if not path:
        return
    write_atomically(Path(path), json.dumps({"collected": _collected, "checks": _checks}))


def pytest_collection_finish(session) -> None:
    _collected[:] = [item.nodeid for item in session.items]
    _save_report()


def pytest_runtest_logreport(report) -> None:
    """Fold setup/call/teardown into one outcome per check, as the katas plugin does."""
    check = _checks.setdefault(report.nodeid, {"passed": None, "reason": "", "lesson": "", "traceback": ""})
    if report.failed or report.skipped:
        if check["passed"] is not False:
            check["passed"] = False
            check["reason"] = getattr(report, "kata_reason", "") or ("skipped" if report.skipped else "failed")
            check["lesson"], check["traceback"] = _lesson(report)
            picture = getattr(report, "kata_picture", None)
            if picture is not None:  # drawn as HTML by the cell: its text copy leaves the lesson
                from grader.checks.layout import Picture  # imports JAX: only for a picture

                check["picture"] = picture
                check["lesson"] = check["lesson"].replace(Picture.from_dict(picture).text(), "").rstrip()
    elif report.when == "call" and check["passed"] is None:
        check["passed"] = True
    if report.when == "teardown":
        if check["passed"] is None:  # never reached its call (deselected, interrupted)
            del _checks[report.nodeid]
        _save_report()


def _lesson(report) -> tuple[str, str]:
    """(the lesson's words, the trimmed traceback) of a failed or skipped check."""
    from grader.plugin.lessons import LessonRepr

    longrepr = report.longrepr
    if isinstance(longrepr, LessonRepr):
        text = longrepr.text
        first, _, rest = text.partition("\n")
        if first == report.nodeid:  # a KataFailure's lesson starts with the check's id
            text = rest
        return text.strip(), str(longrepr.traceback or "").rstrip()
    if isinstance(longrepr, tuple):  # a skip: (file, line, reason)
        return str(longrepr[-1]), ""
    return "", report.longreprtext.rstrip()
