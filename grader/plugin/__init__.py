"""The katas' pytest plugin: every option, fixture and hook is declared here.

Loaded by the root `conftest.py`. It
- gives JAX 8 virtual CPU devices before JAX starts, and fails loudly if it can't;
- turns on JAX's persistent compilation cache (off: JAX_KATAS_NO_CACHE=1);
- adds `--target` so the same checks run on the learner's files, the reference
  solutions or a submission folder, and the `exercise` fixture that imports
  the exercise under test from that target;
- runs checks in manifest order and shows failures as lessons: a plain-language
  explanation above a traceback trimmed to the check and the learner's file;
- replaces pytest-timeout's stack dump with a plain "timed out" lesson, and ends
  a run stuck where Python cannot interrupt it (compiled code) with one;
- in a learner's run over exercises/, records which exercises pass in the
  progress file and closes with a summary: how many are done, what is next;
- reports each check, signed, over the grader's private channel (`--kata-channel`).

The hooks stay short and hand the work to the modules beside this one: `state`
(what one run keeps), `lessons` (failures as lessons), `timers` (time limits),
`summary` (the learner's progress and closing summary), `channel` (the grader's
signed report).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import random
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from grader.core.files import resolve_target
from grader.core.manifest import load_manifest
from grader.plugin import channel, summary
from grader.plugin.lessons import LessonRepr, PlainReports, learner_traceback, reason
from grader.plugin.state import STATE, KataState, LearnerRun, configure_jax
from grader.plugin.timers import CheckTimer, check_timeout
from grader.runtime import profiling
from grader.runtime.loading import ExerciseModule, load_exercise


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("katas", "JAX Katas")
    group.addoption(
        "--target", default="exercises", metavar="WHERE",
        help="whose code the checks run on: 'exercises' (yours, the default), 'solutions' "
             "(the reference), or a path to a submission folder (a copy of exercises/ or a repo holding one)")
    group.addoption(
        "--check-timeout", default=None, metavar="S", type=float,
        help="time limit per exercise check, seconds (default: the kata_check_timeout ini value, 60)")
    parser.addini("kata_check_timeout", "time limit per exercise check, seconds (pytest's own `timeout` "
                                        "guards the project's tests against hangs)", default="60")
    group.addoption(
        "--examiner", action="store_true", default=False,
        help="check the way the grader does: import the exercises only in a separate subject process "
             "and judge them from this one (no sandbox; `grader grade` adds it)")
    group.addoption(
        "--kata-subject", default=None, metavar="FILE",
        help="(used by `grader`) how to start the subject process that runs the submission: a JSON "
             "file written by the grader; implies --examiner")
    group.addoption(
        "--kata-results", default=None, metavar="FILE",
        help="write each check's outcome and failure code to FILE (JSON), e.g. to compare two runs")
    group.addoption(
        "--kata-warm-fork", action="store_true",
        help="(used by `grader watch`) configure JAX but leave it unstarted: each run is a fork of this "
             "process that starts JAX itself (a process whose JAX has started cannot be forked safely)")
    group.addoption(
        "--kata-channel", default=None, metavar="FD", type=int,
        help="(used by `grader`) read the result channel's key from descriptor FD and report "
             "each check over it, signed")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: checks that start extra processes (still run)")
    config.addinivalue_line("markers", "devices(n): the check reruns itself with n devices "
                                       "(checks.on_devices); the helper process starts at collection")
    if _owns_the_process(config):
        atexit.register(_exit_without_teardown)  # before JAX and the checks' helpers: theirs run first
    # NumPy's OpenBLAS starts a thread per core that spins about 0.1 s of CPU after start-up and after
    # each call. The checks' arrays are tiny, so one thread is as fast, and that CPU stays free for a
    # submission graded beside this one. (No effect if NumPy was imported before this point.)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    import jax  # noqa: F401 - imported, not started: the helpers' fork server is a copy of this process
    from grader.runtime import forkserver

    forkserver.start()
    header = configure_jax(start=not config.getoption("kata_warm_fork"))
    from grader.engine.warm import maybe_record_compiles

    maybe_record_compiles()  # only in `grader warm`'s trusted run
    root = Path(config.rootpath)
    checks_dir = root / "exercises"
    state = KataState(
        root=root, checks_dir=checks_dir,
        target=resolve_target(config.getoption("target"), root),
        exercises=load_manifest(checks_dir), header=header)
    handshake_fd = config.getoption("kata_channel")
    if handshake_fd is not None:
        state.channel, state.key = channel.open_channel(handshake_fd)
        config.pluginmanager.register(PlainReports(), "katas-plain-reports")
    elif state.target.resolve() == checks_dir.resolve() and not _examines(config):
        state.learner = LearnerRun()  # the learner's own files: track progress
    if _examines(config):
        state.read_prediction_texts()  # before the subject runs any of the submission's code
        state.session = _start_examining(config, state)
    if config.getoption("kata_results"):
        state.results = {}
    config.stash[STATE] = state
    global _config
    _config = config


def _examines(config: pytest.Config) -> bool:
    return bool(config.getoption("examiner") or config.getoption("kata_subject"))


def _start_examining(config: pytest.Config, state: KataState) -> Any:
    """This process judges; the exercises are imported only in a subject process (grader.engine.remote)."""
    from grader.checks import site
    from grader.engine.remote.examiner import RemoteSite, Session, forbid_inspection
    from grader.engine.remote.launch import SubjectConfig

    forbid_inspection()
    path = config.getoption("kata_subject")
    if path:
        subject = SubjectConfig.load(Path(path))
    else:
        import tempfile

        log = tempfile.NamedTemporaryFile(prefix="katas-subject-", suffix=".log", delete=False)
        log.close()
        subject = SubjectConfig(submission=str(state.target), env=dict(os.environ), log=log.name)
    session = Session(subject)
    session.launch()  # the subject imports JAX while this process collects the checks
    site.install(RemoteSite(session))
    return session


_exit_status: int | None = None


def _owns_the_process(config: pytest.Config) -> bool:
    """Whether this pytest run is the whole process (`pytest ...`), not one called from a program."""
    main = Path(sys.argv[0]).name if sys.argv else ""
    started_as_pytest = main in ("pytest", "py.test") or Path(sys.argv[0]).parent.name == "pytest"
    return started_as_pytest and tuple(config.invocation_params.args) == tuple(sys.argv[1:])


def _exit_without_teardown() -> None:
    """Once the other exit handlers ran, end a run of exercise checks at once: tearing down the
    interpreter with JAX loaded costs a learner a fifth of a second on every run."""
    if _exit_status is None:
        return
    import logging

    logging.shutdown()  # registered before this handler: would run after it
    profiling.finish()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(_exit_status)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(STATE, None)
    if state is not None and state.session is not None:
        channel.write(config, {"event": "session", "round_trips": state.session.round_trips})
        state.session.stop()
    if state is not None and state.channel is not None:
        state.channel.close()
        # Every result is reported and the grader ends this process's group next: skip the
        # interpreter's teardown of JAX (a few tenths of a second per check process).
        profiling.finish()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def pytest_report_header(config: pytest.Config) -> list[str]:
    state = config.stash[STATE]
    return [f"katas: checking {state.target}", state.header]


# --- the exercise fixture ------------------------------------------------------------


@pytest.fixture
def exercise(request: pytest.FixtureRequest) -> Iterator[ExerciseModule]:
    """A fresh import of the exercise this check file belongs to, from `--target`.

    Fresh per check so one check's compiled functions and changed globals never
    leak into the next: compile counts and purity probes start clean. The
    module is forgotten afterwards, so what it allocated can be freed.
    """
    state = request.config.stash[STATE]
    entry = state.exercise_for(Path(request.path))
    if entry is None:
        raise pytest.UsageError(f"{request.path} is not the check file of any exercise in the manifest")
    if state.session is not None:  # the exercise is imported in the subject, never here
        from grader.engine.remote.examiner import load

        try:
            yield load(state.session, entry.path, entry.path)
        finally:
            try:
                state.session.witness()  # a process the answer started fails the check, even a failed one
            finally:
                state.session.end_check()
        return
    module = load_exercise(state.target / entry.path, entry.path)
    yield module
    sys.modules.pop(module.module.__name__, None)


@pytest.fixture
def predictions(request: pytest.FixtureRequest) -> Any:
    """A predict kata's answers (grader.checks.Predictions), read from the text of its file in `--target`:
    never imported, never run, in a learner's run and under the grader alike."""
    from grader.checks.predictions import Predictions

    state = request.config.stash[STATE]
    entry = state.exercise_for(Path(request.path))
    if entry is None:
        raise pytest.UsageError(f"{request.path} is not the check file of any exercise in the manifest")
    return Predictions.read(entry.path, state.prediction_text(entry))


# --- order, failures as lessons ------------------------------------------------------


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    """Run exercises in the manifest's teaching order; a learner's checks in file order within each,
    a graded submission's in an order drawn afresh for each run (see `_draw_order`)."""
    state = config.stash[STATE]

    def position(item: pytest.Item) -> int:
        entry = state.exercise_for(Path(item.path))
        return -1 if entry is None else entry.index

    items.sort(key=position)  # stable: checks keep their file order within an exercise
    state.file_order = [item.nodeid for item in items]
    if state.channel is not None:
        _draw_order(items, position)


def _draw_order(items: list[pytest.Item], position: Callable[[pytest.Item], int]) -> None:
    """Shuffle each exercise's checks, with a seed the submission never sees.

    Every check of an exercise runs in one subject process, which keeps what the submission stores
    from one load to the next (a library module's attribute, a scratch file). In a fixed order, a
    count kept there would name the check running, and an answer could use the mechanism only in
    the one that looks for it; in a drawn order it names a check only by luck.
    """
    draw = random.SystemRandom()
    start = 0
    while start < len(items):
        end = start
        while end < len(items) and position(items[end]) == position(items[start]):
            end += 1
        group = items[start:end]
        draw.shuffle(group)
        items[start:end] = group
        start = end


# Failures after which an exercise's other checks are not run: each would cost the same
# limit again, and the exercise has failed already.
HARD_FAILURES = ("timeout", "memory-limit")


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip, as failed, the remaining checks of an exercise that timed out or ran out of memory."""
    state = item.config.stash[STATE]
    entry = state.exercise_for(Path(item.path))
    if entry is not None and entry.id in state.failed_hard:
        from grader.checks import fail

        __tracebackhide__ = True
        fail(f"not run: an earlier check of {entry.id} failed hard ({state.failed_hard[entry.id]})",
             "not-run")


@pytest.hookimpl(wrapper=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function):
    """Inputs a check asked to stay untouched (checks.assert_not_mutated, keep_untouched) are compared
    once more after the check's own code: a function that writes into a caller's data one call late
    fails the check it did it in."""
    from grader.checks import values

    values.forget_kept()
    try:
        result = yield
        __tracebackhide__ = True
        values.assert_kept_untouched()
        return result
    finally:
        values.forget_kept()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    from grader.checks import KataFailure
    from grader.runtime.explain import explain, explain_timeout, failure_code

    report = yield
    if call.excinfo is None or not report.failed:  # skips keep pytest's own report
        return report
    exc = call.excinfo.value
    state = item.config.stash[STATE]
    entry = state.exercise_for(Path(item.path))
    report.kata_reason = reason(call.excinfo)
    timed_out = report.kata_reason.startswith("timed out")
    report.kata_code = "timeout" if timed_out else failure_code(exc)
    if entry is None:  # the project's own tests: pytest's report, no lesson for learners
        return report
    if timed_out:
        report.kata_reason += f" in {entry.id}"
    refused = getattr(exc, "refused", "")
    if refused:
        report.kata_refused = refused
    # Under --examiner the subject's crash or refusal ends that exercise (its process is gone).
    if report.kata_code in HARD_FAILURES or state.session is not None and report.kata_code in ("crash", "refused"):
        state.failed_hard.setdefault(entry.id, report.kata_reason)
        if report.kata_code == "memory-limit" and state.channel is not None and state.session is None:
            state.restart = True  # the grader starts a fresh process for the next exercise
    report.kata_error = type(exc).__name__
    if isinstance(exc, KataFailure):
        report.longrepr = LessonRepr(f"{item.nodeid}\n{exc}", report.kata_reason)
        if exc.picture is not None:
            report.kata_picture = exc.picture.as_dict()  # drawn as HTML where a notebook shows it
        return report
    if state.channel is not None:  # the grader reads the reason only: no traceback to format
        report.longrepr = LessonRepr(report.kata_reason, report.kata_reason)
        return report
    lesson = explain_timeout(report.kata_reason) if timed_out else explain(exc)
    text = lesson.text() if lesson is not None else ""
    trimmed = learner_traceback(item, entry, call.excinfo)
    if trimmed is not None:
        report.longrepr = LessonRepr(text, report.kata_reason, trimmed)
    elif lesson is not None:
        report.longrepr = LessonRepr(f"{text}\n\n{report.longrepr}", report.kata_reason)
    return report


_TIMER = pytest.StashKey[CheckTimer]()


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_timeout_set_timer(item: pytest.Item, settings: Any) -> bool | None:
    """pytest-timeout's timer, replaced for exercise checks (the project's tests keep the original).

    pytest-timeout dumps every thread's stack (JAX runs dozens) before failing,
    and its thread method ends the run with more dumps. Here a check past its
    limit fails with a plain "timed out after N s in <id>" lesson. SIGALRM
    cannot interrupt a check stuck in compiled code (a lax.while_loop that never
    ends runs inside XLA), so a watchdog then ends the run with that lesson;
    under the grader its runner kills such a check instead.
    """
    state = item.config.stash[STATE]
    entry = state.exercise_for(Path(item.path))
    if entry is None:
        return None
    if state.session is not None:
        # A fresh subject (the first, or one after a crash) starts JAX before the check's time runs.
        with contextlib.suppress(Exception):  # a subject that cannot start fails the check itself
            state.session.start()
    in_main = threading.current_thread() is threading.main_thread()
    timer = CheckTimer(item, entry, check_timeout(item.config),
                        use_signal=settings.method == "signal" and in_main,
                        watchdog=state.channel is None,
                        ignore_debugger=bool(settings.disable_debugger_detection))
    item.stash[_TIMER] = timer
    timer.start()
    return True


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_timeout_cancel_timer(item: pytest.Item) -> bool | None:
    timer = item.stash.get(_TIMER, None)
    if timer is None:
        return None
    timer.cancel()
    del item.stash[_TIMER]
    return True


# --- the learner's progress and the closing summary ---------------------------------------


def pytest_deselected(items: list[pytest.Item]) -> None:
    state = _config.stash[STATE] if _config is not None else None
    if state is None or state.learner is None:
        return
    for item in items:
        entry = state.exercise_for(Path(item.path))
        if entry is not None:
            state.learner.partial.add(entry.id)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int):
    """Record the learner's results, then close with the summary, after pytest's own last line."""
    result = yield
    state = session.config.stash.get(STATE, None)
    if state is not None and state.results is not None:
        from grader.core.files import write_atomically

        write_atomically(Path(session.config.getoption("kata_results")), json.dumps(state.results, indent=1))
    if state is not None and session.items and all(state.exercise_for(Path(i.path)) for i in session.items):
        global _exit_status
        _exit_status = int(session.exitstatus)  # a run of exercise checks alone: skip the teardown
    if state is None or state.learner is None or not state.learner.checks:
        return result
    found = summary.record_results(state)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and session.config.get_verbosity() > -2:
        summary.closing_summary(reporter, state, found)
    return result


# --- the grader's report ----------------------------------------------------------------


def pytest_runtest_logstart(nodeid: str, location: tuple[str, int | None, str]) -> None:
    channel.write(_config, {"event": "start", "nodeid": nodeid})


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Fold setup/call/teardown into one outcome per check and report it at teardown."""
    state = _config.stash.get(STATE, None) if _config is not None else None
    if state is not None and state.learner is not None:
        summary.note_outcome(state.learner, report)
    outcomes = _pending.setdefault(report.nodeid, {"outcome": "passed", "duration": 0.0,
                                                   "reason": "", "error": "", "code": "", "refused": ""})
    outcomes["duration"] += report.duration
    if report.failed or (report.skipped and outcomes["outcome"] == "passed"):
        if outcomes["outcome"] != "failed":
            outcomes["outcome"] = "failed" if report.failed else "skipped"
            outcomes["reason"] = getattr(report, "kata_reason", "") or (
                "skipped" if report.skipped else "failed")
            outcomes["error"] = getattr(report, "kata_error", "")
            outcomes["refused"] = getattr(report, "kata_refused", "")
            outcomes["code"] = getattr(report, "kata_code", "") or ("" if report.skipped else "error")
    if getattr(report, "kata_refused", "") and not outcomes["refused"]:  # a refusal after the first failure
        outcomes["refused"] = report.kata_refused
    if report.when == "teardown":
        record = {"event": "result", "nodeid": report.nodeid, **_pending.pop(report.nodeid)}
        if state is not None and state.results is not None:
            state.results[report.nodeid] = [record["outcome"], record["code"]]
        channel.write(_config, record)
        if state is not None and state.restart:
            # This process ran out of memory: what it holds may starve the next exercise.
            # End it here; the grader carries on with the remaining checks in a fresh one.
            state.channel.flush()
            profiling.finish()
            os._exit(0)


_pending: dict[str, dict[str, Any]] = {}  # nodeid -> outcome so far, until teardown
_config: pytest.Config | None = None  # logstart/logreport hooks are not handed the config


def pytest_collection_finish(session: pytest.Session) -> None:
    state = session.config.stash[STATE]
    if state.learner is not None:
        summary.note_collected(session, state)
    if state.channel is not None:
        channel.forget_hidden_sources(state)
    for n_devices in sorted({m.args[0] for item in session.items for m in item.iter_markers("devices")}):
        from grader.runtime import worker

        if session.config.getoption("kata_warm_fork"):
            break  # a warm process stays single-threaded to be forked: each run starts its helper
        entry = worker.serve
        if state.session is not None:
            from grader.engine.remote.examiner import serve_devices as entry  # its subject imports the exercise
        worker.start_worker(n_devices, entry)
    checks = []
    in_file_order = {nodeid: index for index, nodeid in enumerate(state.file_order)}
    for item in sorted(session.items, key=lambda item: in_file_order.get(item.nodeid, len(in_file_order))):
        entry = state.exercise_for(Path(item.path))
        checks.append({"nodeid": item.nodeid, "exercise": entry.id if entry else None,
                       "hidden": Path(item.path).name.startswith("hidden_test_")})
    channel.write(session.config, {"event": "collected", "checks": checks})
    from grader.runtime.jaxsetup import settle_after_start

    settle_after_start()
