"""The katas' pytest plugin: every option, fixture and hook lives here.

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
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import re
import signal
import sys
import textwrap
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from grader.files import resolve_target
from grader.manifest import Exercise, exercise_for_check_file, load_manifest
from grader.progress import Progress, Verdict, fingerprint, judge, percent
from grader.jaxsetup import N_DEVICES, JaxSetupError, cache_dir  # noqa: F401 - cache_dir re-exported
from grader.loading import ExerciseModule, load_exercise  # noqa: F401 - re-exported
from grader.jaxsetup import configure_jax as _configure_jax
from grader.jaxsetup import start_backend


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


def configure_jax(n_devices: int = N_DEVICES, start: bool = True) -> str:
    """grader.jaxsetup.configure_jax, its failure as a pytest usage error."""
    try:
        return _configure_jax(n_devices, start=start)
    except JaxSetupError as error:
        raise pytest.UsageError(str(error)) from error


def begin_forked_run(config: pytest.Config) -> None:
    """In a fresh fork of a warm process (grader.warmwatch): start JAX, and fingerprint the learner's
    files as they are now, so that this run's results are recorded for the code it ran."""
    try:
        start_backend()
    except JaxSetupError as error:
        raise pytest.UsageError(str(error)) from error
    state = config.stash[_STATE]
    if state.learner is not None:
        for entry in state.exercises:
            if entry.id in state.learner.fingerprints:
                state.learner.fingerprints[entry.id] = fingerprint(state.checks_dir, entry)


# --- where the code under test comes from --------------------------------------------


@dataclass
class KataState:
    root: Path
    checks_dir: Path  # the pristine checks and manifest
    target: Path
    exercises: tuple[Exercise, ...]
    header: str
    channel: Any = None  # the grader's result pipe, when run by `grader`
    key: bytes = b""
    learner: LearnerRun | None = None  # set when the learner runs the checks on exercises/
    progress: Progress | None = None  # the progress file, once this run's results are in
    failed_hard: dict[str, str] = field(default_factory=dict)  # exercise id -> why (timeout, memory)
    restart: bool = False  # the grader's process must end after this check's report
    session: Any = None  # under --examiner: the connection to the subject that imports the exercises
    results: dict[str, list[str]] | None = None  # under --kata-results: nodeid -> [outcome, code]
    _exercise_of: dict[str, Exercise | None] = field(default_factory=dict)

    def exercise_for(self, path: Path) -> Exercise | None:
        """The exercise a check file belongs to (in the checks folder, or the grader's hidden folder)."""
        key = str(path)
        if key not in self._exercise_of:  # every hook asks, for every check: resolve each file once
            resolved, found = path.resolve(), None
            for folder in (self.checks_dir, self.hidden_dir):
                if resolved.is_relative_to(folder.resolve()):
                    found = exercise_for_check_file(self.exercises, resolved.relative_to(folder.resolve()).as_posix())
                    break
            self._exercise_of[key] = found
        return self._exercise_of[key]

    @property
    def hidden_dir(self) -> Path:
        """Where the grader's workspace keeps hidden checks, apart from the visible ones."""
        from grader.workspace import HIDDEN_DIR

        return self.root / HIDDEN_DIR


@dataclass
class LearnerRun:
    """What a learner's run over exercises/ found: for the progress file and the closing summary."""

    checks: dict[str, list[str]] = field(default_factory=dict)  # exercise id -> its collected checks
    fingerprints: dict[str, str] = field(default_factory=dict)  # exercise id -> files at collection
    partial: set[str] = field(default_factory=set)  # exercises only some of whose checks were selected
    outcomes: dict[str, Verdict] = field(default_factory=dict)  # nodeid -> outcome


_STATE = pytest.StashKey[KataState]()


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
    from grader.checks import forkserver

    forkserver.start()
    header = configure_jax(start=not config.getoption("kata_warm_fork"))
    from grader.warm import maybe_record_compiles

    maybe_record_compiles()  # only in `grader warm`'s trusted run
    root = Path(config.rootpath)
    checks_dir = root / "exercises"
    state = KataState(
        root=root, checks_dir=checks_dir,
        target=resolve_target(config.getoption("target"), root),
        exercises=load_manifest(checks_dir), header=header)
    handshake_fd = config.getoption("kata_channel")
    if handshake_fd is not None:
        state.channel, state.key = _open_channel(handshake_fd)
        config.pluginmanager.register(_PlainReports(), "katas-plain-reports")
    elif state.target.resolve() == checks_dir.resolve() and not _examines(config):
        state.learner = LearnerRun()  # the learner's own files: track progress
    if _examines(config):
        state.session = _start_examining(config, state)
    if config.getoption("kata_results"):
        state.results = {}
    config.stash[_STATE] = state
    global _config
    _config = config


def _examines(config: pytest.Config) -> bool:
    return bool(config.getoption("examiner") or config.getoption("kata_subject"))


def _start_examining(config: pytest.Config, state: KataState) -> Any:
    """This process judges; the exercises are imported only in a subject process (grader.remote)."""
    from grader.checks import site
    from grader.remote.examiner import RemoteSite, Session, SubjectConfig, forbid_inspection

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
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(_exit_status)


def _open_channel(handshake_fd: int) -> tuple[Any, bytes]:
    """Read the grader's one-shot handshake (key and result descriptor), then close it.

    This runs in pytest_configure, before any submission code is imported, so
    the handshake is gone by the time submission code could look for it.
    """
    with os.fdopen(handshake_fd, "r", encoding="utf-8") as handshake:
        hello = json.loads(handshake.read())
    return os.fdopen(hello["fd"], "w", encoding="utf-8", buffering=1), bytes.fromhex(hello["key"])


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is not None and state.session is not None:
        _write(config, {"event": "session", "round_trips": state.session.round_trips})
        state.session.stop()
    if state is not None and state.channel is not None:
        state.channel.close()
        # Every result is reported and the grader ends this process's group next: skip the
        # interpreter's teardown of JAX (a few tenths of a second per check process).
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def pytest_report_header(config: pytest.Config) -> list[str]:
    state = config.stash[_STATE]
    return [f"katas: checking {state.target}", state.header]


# --- the exercise fixture ------------------------------------------------------------


@pytest.fixture
def exercise(request: pytest.FixtureRequest) -> Iterator[ExerciseModule]:
    """A fresh import of the exercise this check file belongs to, from `--target`.

    Fresh per check so one check's compiled functions and changed globals never
    leak into the next: compile counts and purity probes start clean. The
    module is forgotten afterwards, so what it allocated can be freed.
    """
    state = request.config.stash[_STATE]
    entry = state.exercise_for(Path(request.path))
    if entry is None:
        raise pytest.UsageError(f"{request.path} is not the check file of any exercise in the manifest")
    if state.session is not None:  # the exercise is imported in the subject, never here
        from grader.remote.examiner import load

        try:
            yield load(state.session, entry.path, entry.path)
        finally:
            state.session.end_check()
        return
    module = load_exercise(state.target / entry.path, entry.path)
    yield module
    sys.modules.pop(module.module.__name__, None)


# --- order, failures as lessons ------------------------------------------------------


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    """Run checks in the manifest's teaching order."""
    state = config.stash[_STATE]

    def position(item: pytest.Item) -> int:
        entry = state.exercise_for(Path(item.path))
        return -1 if entry is None else entry.index

    items.sort(key=position)  # stable: checks keep their file order within an exercise


_TIMEOUT = re.compile(r"^Timeout \(>([0-9.]+)s\) from pytest-timeout")


def _reason(excinfo: pytest.ExceptionInfo[BaseException]) -> str:
    from grader.explain import headline

    timed_out = _TIMEOUT.match(str(excinfo.value))
    if timed_out:
        return f"timed out after {float(timed_out.group(1)):g} s"
    return headline(excinfo.value)


# Failures after which an exercise's other checks are not run: each would cost the same
# limit again, and the exercise has failed already.
HARD_FAILURES = ("timeout", "memory-limit")


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip, as failed, the remaining checks of an exercise that timed out or ran out of memory."""
    state = item.config.stash[_STATE]
    entry = state.exercise_for(Path(item.path))
    if entry is not None and entry.id in state.failed_hard:
        from grader.checks import fail

        __tracebackhide__ = True
        fail(f"not run: an earlier check of {entry.id} failed hard ({state.failed_hard[entry.id]})",
             "not-run")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    from grader.checks import KataFailure
    from grader.explain import explain, explain_timeout, failure_code

    report = yield
    if call.excinfo is None or not report.failed:  # skips keep pytest's own report
        return report
    exc = call.excinfo.value
    state = item.config.stash[_STATE]
    entry = state.exercise_for(Path(item.path))
    report.kata_reason = _reason(call.excinfo)
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
    trimmed = _learner_traceback(item, entry, call.excinfo)
    if trimmed is not None:
        report.longrepr = LessonRepr(text, report.kata_reason, trimmed)
    elif lesson is not None:
        report.longrepr = LessonRepr(f"{text}\n\n{report.longrepr}", report.kata_reason)
    return report


class _PlainReports:
    """Under the grader, a failed check's report without pytest's traceback formatting.

    The grader reads each check's one-line reason from the signed channel, never
    the terminal; formatting a traceback through JAX's frames costs tens of
    milliseconds per failure, most of a failing submission's grading time.
    """

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]):
        from _pytest.outcomes import skip

        excinfo = call.excinfo
        if not isinstance(excinfo, pytest.ExceptionInfo) or isinstance(excinfo.value, (skip.Exception,
                                                                                       BaseExceptionGroup)):
            return None  # passed or skipped: pytest's own report, which costs nothing
        sections = [(f"Captured {key} {when}", content) for when, key, content in item._report_sections]
        return pytest.TestReport(item.nodeid, item.location, dict.fromkeys(item.keywords, 1), "failed",
                                 str(excinfo.value)[:2000], call.when, sections, call.duration, call.start,
                                 call.stop, user_properties=item.user_properties)


def _learner_traceback(item: pytest.Item, entry: Exercise, excinfo: pytest.ExceptionInfo[BaseException]):
    """The traceback cut down to the check file and the learner's exercise file.

    What is left reads top-down: the check line that called the learner's
    function, then the learner's own frames down to the failing line; frames in
    JAX, NumPy, the check helpers and pytest are dropped. `--tb=native` and
    `--fulltrace` keep the full traceback (None here), as does an error with no
    frame in either file.
    """
    from grader.explain import explain

    config = item.config
    style = config.getoption("tbstyle")
    if style == "native" or config.getoption("fulltrace"):
        return None
    state = config.stash[_STATE]
    own = {Path(item.path).resolve(), (state.target / entry.path).resolve()}

    def ours(tb_entry: Any) -> bool:
        path = tb_entry.path
        return isinstance(path, Path) and path.resolve() in own

    if not any(ours(tb_entry) for tb_entry in excinfo.traceback):
        return None
    with _without_jax_note(excinfo.value):
        trimmed = excinfo.getrepr(
            style="long" if style == "long" else "short", chain=False,
            tbfilter=lambda info: info.traceback.filter(ours),
            showlocals=config.getoption("showlocals"), funcargs=style == "long")
    if explain(excinfo.value) is not None:
        _shorten_message(trimmed)
    return trimmed


_MESSAGE_LINES = 4
_RULE = re.compile(r"^E\s+-{5,}\s*$")  # JAX's separator lines


def _shorten_message(trimmed: Any) -> None:
    """Cut a long JAX error message (a leaked tracer's runs to 15 lines) when the lesson above says it."""
    last = trimmed.reprtraceback.reprentries[-1]
    lines = [line for line in getattr(last, "lines", ()) if not _RULE.match(line)]
    message = [i for i, line in enumerate(lines) if line.startswith("E ")]
    if len(message) <= _MESSAGE_LINES + 1:
        return
    cut = message[_MESSAGE_LINES]
    left = len(message) - _MESSAGE_LINES
    last.lines = lines[:cut] + [f"E   ... ({left} more lines: --tb=native shows them)"] + \
        lines[message[-1] + 1:]


_JAX_NOTE = "For simplicity, JAX has removed its internal frames"


@contextlib.contextmanager
def _without_jax_note(exc: BaseException) -> Iterator[None]:
    """Hide JAX's note about the frames it removed: the trimmed traceback drops more than JAX does."""
    notes = getattr(exc, "__notes__", None)
    if not notes:
        yield
        return
    exc.__notes__ = [note for note in notes if _JAX_NOTE not in note]
    try:
        yield
    finally:
        exc.__notes__ = notes


@dataclass
class _Crash:
    message: str

    def __str__(self) -> str:  # what `--tb=line` prints
        return self.message


class LessonRepr:
    """A failure shown as a lesson; its first line also heads pytest's short summary."""

    def __init__(self, text: str, headline: str, traceback: Any = None) -> None:
        self.text = text
        self.traceback = traceback  # pytest's repr of the trimmed traceback, or None
        self.reprcrash = _Crash(headline)

    def toterminal(self, out: Any) -> None:
        if self.text:
            out.line(self.text)
        if self.traceback is not None:
            if self.text:
                out.line("")
            self.traceback.toterminal(out)

    def __str__(self) -> str:
        return "\n\n".join(part for part in (self.text, str(self.traceback or "")) if part)


# --- time limits ------------------------------------------------------------------------

_TIMER = pytest.StashKey["_CheckTimer"]()


def check_timeout(config: pytest.Config) -> float:
    """Seconds one exercise check may run: --check-timeout, else the kata_check_timeout ini value."""
    return config.getoption("check_timeout") or float(config.getini("kata_check_timeout"))


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
    state = item.config.stash[_STATE]
    entry = state.exercise_for(Path(item.path))
    if entry is None:
        return None
    if state.session is not None:
        # A fresh subject (the first, or one after a crash) starts JAX before the check's time runs.
        with contextlib.suppress(Exception):  # a subject that cannot start fails the check itself
            state.session.start()
    in_main = threading.current_thread() is threading.main_thread()
    timer = _CheckTimer(item, entry, check_timeout(item.config),
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


class _CheckTimer:
    """Fail one check that runs past its limit; end the run if it cannot be interrupted."""

    def __init__(self, item: pytest.Item, entry: Exercise, seconds: float, *, use_signal: bool,
                 watchdog: bool, ignore_debugger: bool) -> None:
        self.item, self.entry, self.seconds = item, entry, seconds
        self.use_signal, self.ignore_debugger = use_signal, ignore_debugger
        self.watchdog: threading.Timer | None = None
        if watchdog:
            from grader.limits import Limits

            # With the signal the check normally fails on time; the watchdog only acts
            # when the signal could not get through.
            grace = Limits.hang_grace if use_signal else 0
            self.watchdog = threading.Timer(seconds + grace, self._stuck)
            self.watchdog.daemon = True
            self.watchdog.name = f"katas timeout {item.nodeid}"

    def start(self) -> None:
        if self.use_signal:
            signal.signal(signal.SIGALRM, self._alarm)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        if self.watchdog is not None:
            self.watchdog.start()

    def cancel(self) -> None:
        if self.use_signal:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
        if self.watchdog is not None:
            self.watchdog.cancel()

    def _debugging(self) -> bool:
        from pytest_timeout import is_debugging

        return not self.ignore_debugger and is_debugging()

    def _alarm(self, signum: int, frame: Any) -> None:
        __tracebackhide__ = True
        if self._debugging():
            return
        from pytest_timeout import PYTEST_FAILURE_MESSAGE

        # pytest-timeout's own words, which _reason (and so the grader) turns into the lesson.
        pytest.fail(PYTEST_FAILURE_MESSAGE % self.seconds)

    def _stuck(self) -> None:
        if self._debugging():
            return
        from grader.explain import explain_timeout

        config = self.item.config
        reason = f"timed out after {self.seconds:g} s in {self.entry.id}"
        capture = config.pluginmanager.getplugin("capturemanager")
        if capture is not None:
            capture.suspend_global_capture(in_=True)
        lesson = explain_timeout(reason)
        terminal = config.get_terminal_writer()
        terminal.line("")
        terminal.sep("!", reason, red=True)
        terminal.line(f"{self.item.nodeid} is stuck in compiled code, where Python cannot "
                      f"interrupt it, so the run stops here.")
        terminal.line(lesson.text().split("\n", 1)[1])
        terminal.flush()
        _record_stuck(config, self.entry, reason)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(1)


def _record_stuck(config: pytest.Config, entry: Exercise, reason: str) -> None:
    """Remember that this exercise hangs, so `grader progress` does not run it (and hang) again."""
    state = config.stash[_STATE]
    run = state.learner
    if run is None or entry.id not in run.fingerprints:
        return
    with contextlib.suppress(OSError):
        progress = Progress(state.root)
        if fingerprint(state.checks_dir, entry) == run.fingerprints[entry.id]:
            progress.record(entry, run.fingerprints[entry.id], Verdict(False, reason))
            progress.save()


# --- the learner's progress and the closing summary ---------------------------------------


def _covered_whole(config: pytest.Config) -> list[Path]:
    """Files and folders named on the command line without `::` (all their checks are collected)."""
    base = config.invocation_params.dir
    return [(base / arg).resolve() for arg in config.args if "::" not in arg]


def _note_collected(session: pytest.Session, state: KataState) -> None:
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


def pytest_deselected(items: list[pytest.Item]) -> None:
    state = _config.stash[_STATE] if _config is not None else None
    if state is None or state.learner is None:
        return
    for item in items:
        entry = state.exercise_for(Path(item.path))
        if entry is not None:
            state.learner.partial.add(entry.id)


def _note_outcome(run: LearnerRun, report: pytest.TestReport) -> None:
    if report.failed or report.skipped:
        if report.nodeid not in run.outcomes or run.outcomes[report.nodeid].passed:
            reason = getattr(report, "kata_reason", "") or ("skipped" if report.skipped else "failed")
            run.outcomes[report.nodeid] = Verdict(False, reason)
    elif report.when == "call":
        run.outcomes.setdefault(report.nodeid, Verdict(True))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int):
    """Record the learner's results, then close with the summary, after pytest's own last line."""
    result = yield
    state = session.config.stash.get(_STATE, None)
    if state is not None and state.results is not None:
        from grader.files import write_atomically

        write_atomically(Path(session.config.getoption("kata_results")), json.dumps(state.results, indent=1))
    if state is not None and session.items and all(state.exercise_for(Path(i.path)) for i in session.items):
        global _exit_status
        _exit_status = int(session.exitstatus)  # a run of exercise checks alone: skip the teardown
    if state is None or state.learner is None or not state.learner.checks:
        return result
    found = _record_results(state)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and session.config.get_verbosity() > -2:
        _closing_summary(reporter, state, found)
    return result


def _record_results(state: KataState) -> dict[str, tuple[Verdict, bool]]:
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


def _closing_summary(reporter: Any, state: KataState, found: dict[str, tuple[Verdict, bool]]) -> None:
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


# --- the grader's report ----------------------------------------------------------------


def pytest_runtest_logstart(nodeid: str, location: tuple[str, int | None, str]) -> None:
    _write(_config, {"event": "start", "nodeid": nodeid})


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Fold setup/call/teardown into one outcome per check and report it at teardown."""
    state = _config.stash.get(_STATE, None) if _config is not None else None
    if state is not None and state.learner is not None:
        _note_outcome(state.learner, report)
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
    if report.when == "teardown":
        record = {"event": "result", "nodeid": report.nodeid, **_pending.pop(report.nodeid)}
        if state is not None and state.results is not None:
            state.results[report.nodeid] = [record["outcome"], record["code"]]
        _write(_config, record)
        if state is not None and state.restart:
            # This process ran out of memory: what it holds may starve the next exercise.
            # End it here; the grader carries on with the remaining checks in a fresh one.
            state.channel.flush()
            os._exit(0)


_pending: dict[str, dict[str, Any]] = {}  # nodeid -> outcome so far, until teardown
_config: pytest.Config | None = None  # logstart/logreport hooks are not handed the config


def pytest_collection_finish(session: pytest.Session) -> None:
    state = session.config.stash[_STATE]
    if state.learner is not None:
        _note_collected(session, state)
    if state.channel is not None:
        _forget_hidden_sources(state)
    for n_devices in sorted({m.args[0] for item in session.items for m in item.iter_markers("devices")}):
        from grader.checks import start_worker

        if session.config.getoption("kata_warm_fork"):
            break  # a warm process stays single-threaded to be forked: each run starts its helper
        start_worker(n_devices)  # it imports JAX while the first checks run
    checks = []
    for item in session.items:
        entry = state.exercise_for(Path(item.path))
        checks.append({"nodeid": item.nodeid, "exercise": entry.id if entry else None,
                       "hidden": Path(item.path).name.startswith("hidden_test_")})
    _write(session.config, {"event": "collected", "checks": checks})


def _forget_hidden_sources(state: KataState) -> None:
    """Delete the grader's copies of the hidden checks, now imported, before any submission code runs."""
    import linecache
    import shutil

    if state.hidden_dir.is_dir():
        for path in state.hidden_dir.rglob("*.py"):
            linecache.cache.pop(str(path), None)
        shutil.rmtree(state.hidden_dir, ignore_errors=True)


def _write(config: pytest.Config | None, record: dict[str, Any]) -> None:
    from grader.runner import sign

    state = config.stash.get(_STATE, None) if config is not None else None
    if state is None or state.channel is None:
        return
    mac = sign(state.key, json.dumps(record, sort_keys=True))
    try:
        state.channel.write(json.dumps({**record, "mac": mac}) + "\n")
    except OSError:
        pass  # the channel was closed under us: the grader counts what never arrived as failed
