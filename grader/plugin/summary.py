"""A learner's run over exercises/: which exercises it proved done (the progress file), and the
closing summary: how many are done, what comes next, how to get a hint."""

from __future__ import annotations

import contextlib
import textwrap
from pathlib import Path
from typing import Any

import pytest

from grader.core.progress import Progress, Verdict, fingerprint, judge, percent
from grader.plugin.state import KataState, LearnerRun


def _covered_whole(config: pytest.Config) -> list[Path]:
    """Files and folders named on the command line without `::` (all their checks are collected)."""
    base = config.invocation_params.dir
    return [(base / arg).resolve() for arg in config.args if "::" not in arg]


def note_collected(session: pytest.Session, state: KataState) -> None:
    run = state.learner
    whole = _covered_whole(session.config)
    for item in session.items:
        entry = state.exercise_for(Path(item.path))
        if entry is None or Path(item.path).name.startswith("hidden_test_"):
            continue  # done means the learner's visible checks pass
        if entry.id not in run.checks:
            run.checks[entry.id] = []
            run.fingerprints[entry.id] = fingerprint(state.checks_dir, entry)
            path = Path(item.path).resolve()
            if not any(path == place or place in path.parents for place in whole):
                run.partial.add(entry.id)
        run.checks[entry.id].append(item.nodeid)


def note_outcome(run: LearnerRun, report: pytest.TestReport) -> None:
    if report.failed or report.skipped:
        if report.nodeid not in run.outcomes or run.outcomes[report.nodeid].passed:
            reason = getattr(report, "kata_reason", "") or ("skipped" if report.skipped else "failed")
            run.outcomes[report.nodeid] = Verdict(False, reason)
    elif report.when == "call":
        run.outcomes.setdefault(report.nodeid, Verdict(True))


def record_results(state: KataState) -> dict[str, tuple[Verdict, bool]]:
    """Save what this run proved in the progress file; id -> (verdict, newly done)."""
    run = state.learner
    progress = Progress(state.root)
    found = {}
    for entry in state.exercises:
        if entry.id not in run.checks:
            continue
        verdict = judge(run.checks[entry.id], run.outcomes, whole=entry.id not in run.partial)
        if verdict is None:
            continue
        if fingerprint(state.checks_dir, entry) != run.fingerprints[entry.id]:
            continue  # edited during the run: the result may belong to either version
        newly = verdict.passed and not progress.is_done(entry)
        progress.record(entry, run.fingerprints[entry.id], verdict)
        found[entry.id] = (verdict, newly)
    if found:
        # The learner is on what they just ran: its first failing exercise, else the last one run
        # (the next unfinished one after it comes next), wherever it sits in the course.
        failing = [name for name, (verdict, _) in found.items() if not verdict.passed]
        chosen = failing[0] if failing else list(found)[-1]
        progress.set_current(next(e for e in state.exercises if e.id == chosen))
        with contextlib.suppress(OSError):  # a read-only checkout still gets its summary
            progress.save()
    state.progress = progress
    return found


def closing_summary(reporter: Any, state: KataState, found: dict[str, tuple[Verdict, bool]]) -> None:
    """How many exercises are done, and the next one: its path, its idea, how to get a hint."""
    progress, exercises = state.progress, state.exercises
    done = progress.done_count(exercises)
    reporter.write_sep("=", f"katas: {done} of {len(exercises)} exercises done "
                            f"({percent(done, len(exercises))}%)", bold=True)
    newly = [name for name, (_, new) in found.items() if new]
    if newly:
        more = f" and {len(newly) - 5} more" if len(newly) > 5 else ""
        reporter.write_line(f"done just now: {', '.join(newly[:5])}{more}", green=True)
    current = progress.current(exercises)
    if current is None:
        reporter.write_line("every exercise passes: well done!", green=True)
        return
    reporter.write_line(f"next: {current.id}, exercises/{current.path}", bold=True)
    reporter.write_line(f"      {current.concept}")
    verdict = progress.result(current)
    if verdict is None:
        reporter.write_line(f"      not checked yet: pytest exercises/{current.check_path}")
    else:
        reporter.write_line(f"      failing: {textwrap.shorten(verdict.reason, 160, placeholder=' ...')}")
    shown, total = progress.hints_shown(current), len(current.hints)
    ask = f"hint {min(shown + 1, total)} of {total}" if shown < total else f"the last of its {total} hints again"
    reporter.write_line(f"      stuck? `grader hint {current.id}` shows {ask}; `grader watch {current.id}` "
                        f"re-runs the checks each time you save")
