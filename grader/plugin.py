"""The katas' pytest plugin: every option, fixture and hook lives here.

Loaded by the root `conftest.py`. It
- gives JAX 8 virtual CPU devices before JAX starts, and fails loudly if it can't;
- turns on JAX's persistent compilation cache (off: JAX_KATAS_NO_CACHE=1);
- adds `--target` so the same checks run on the learner's files, the reference
  solutions or a submission folder, and the `exercise` fixture that imports
  the exercise under test from that target;
- runs checks in manifest order and shows failures as lessons, not tracebacks;
- reports each check, signed, over the grader's private channel (`--kata-channel`).
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from grader.manifest import Exercise, exercise_for_check_file, load_manifest

N_DEVICES = 8
NO_CACHE_ENV = "JAX_KATAS_NO_CACHE"
REAL_DEVICES_ENV = "JAX_KATAS_REAL_DEVICES"
_module_ids = itertools.count()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("katas", "JAX Katas")
    group.addoption(
        "--target", default="exercises", metavar="WHERE",
        help="whose code the checks run on: 'exercises' (yours, the default), 'solutions' "
             "(the reference), or a path to a submission folder (a copy of exercises/ or a repo holding one)")
    group.addoption(
        "--kata-channel", default=None, metavar="FD", type=int,
        help="(used by `grader`) read the result channel's key from descriptor FD and report "
             "each check over it, signed")


# --- JAX set-up ---------------------------------------------------------------------


def cache_dir() -> Path:
    """Per-user folder for JAX's persistent compilation cache."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "jax-katas" / "xla"


def configure_jax() -> str:
    """Fake 8 CPU devices and enable the compilation cache; returns a header line."""
    import jax

    real = os.environ.get(REAL_DEVICES_ENV) == "1"
    try:
        if not real:
            jax.config.update("jax_platforms", "cpu")
            jax.config.update("jax_num_cpu_devices", N_DEVICES)
    except RuntimeError as error:
        raise pytest.UsageError(
            f"JAX was started before the katas could give it {N_DEVICES} CPU devices ({error}). "
            f"Something imported and used JAX before pytest loaded the katas plugin.") from error
    cache = "off"
    if not os.environ.get(NO_CACHE_ENV):
        folder = cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        jax.config.update("jax_compilation_cache_dir", str(folder))
        # The katas' programs are tiny: cache them all, not only slow compiles.
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
        jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
        cache = str(folder)
    count = jax.device_count()  # starts the backend: the device count is now fixed
    if not real and count != N_DEVICES:
        raise pytest.UsageError(
            f"the katas need {N_DEVICES} virtual CPU devices but JAX has {count}. Unset XLA_FLAGS "
            f"/ JAX_PLATFORMS overrides, or set {REAL_DEVICES_ENV}=1 to use real devices.")
    return f"jax {jax.__version__}: {count} {jax.default_backend()} devices, compilation cache {cache}"


# --- where the code under test comes from --------------------------------------------


def resolve_target(value: str, root: Path) -> Path:
    """'exercises' / 'solutions' / a submission path -> the folder holding `NN_topic/*.py`."""
    if value in ("exercises", "solutions"):
        return root / value
    path = Path(value).expanduser().resolve()
    if (path / "exercises").is_dir() and not any(path.glob("[0-9][0-9]_*")):
        return path / "exercises"
    return path


@dataclass
class KataState:
    root: Path
    checks_dir: Path  # the pristine checks and manifest
    target: Path
    exercises: tuple[Exercise, ...]
    header: str
    channel: Any = None  # the grader's result pipe, when run by `grader`
    key: bytes = b""

    def exercise_for(self, path: Path) -> Exercise | None:
        try:
            rel = path.resolve().relative_to(self.checks_dir.resolve())
        except ValueError:
            return None
        return exercise_for_check_file(self.exercises, rel.as_posix())


_STATE = pytest.StashKey[KataState]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: checks that start extra processes (still run)")
    header = configure_jax()
    root = Path(config.rootpath)
    checks_dir = root / "exercises"
    state = KataState(
        root=root, checks_dir=checks_dir,
        target=resolve_target(config.getoption("target"), root),
        exercises=load_manifest(checks_dir), header=header)
    handshake_fd = config.getoption("kata_channel")
    if handshake_fd is not None:
        state.channel, state.key = _open_channel(handshake_fd)
    config.stash[_STATE] = state
    global _config
    _config = config


def _open_channel(handshake_fd: int) -> tuple[Any, bytes]:
    """Read the grader's one-shot handshake (key and result descriptor), then close it.

    This runs in pytest_configure, before any submission code is imported, so
    the handshake is gone by the time submission code could look for it.
    """
    with os.fdopen(handshake_fd, "r", encoding="utf-8") as handshake:
        hello = json.loads(handshake.read())
    return os.fdopen(hello["fd"], "w", encoding="utf-8", buffering=1), bytes.fromhex(hello["key"])


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is not None and state.channel is not None:
        state.channel.close()


def pytest_report_header(config: pytest.Config) -> list[str]:
    state = config.stash[_STATE]
    return [f"katas: checking {state.target}", state.header]


# --- the exercise fixture ------------------------------------------------------------


class ExerciseModule:
    """The learner's module, with friendly failures for missing names.

    Attribute reads go to the module; a missing one fails the check with
    "has no function ..." instead of an AttributeError traceback. Attribute
    writes go to the module too, so checks can change its globals.
    """

    def __init__(self, module: ModuleType, label: str) -> None:
        object.__setattr__(self, "module", module)
        object.__setattr__(self, "label", label)

    def __getattr__(self, name: str) -> Any:
        from grader.checks import fail

        try:
            return getattr(self.module, name)
        except AttributeError:
            fail(f"{self.label} has no `{name}`: the checks use it by that name. Keep the names "
                 f"and signatures the exercise gives (restore the stub with git if needed).")

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.module, name, value)


def load_exercise(path: Path, label: str) -> ExerciseModule:
    """Import a fresh copy of the exercise file; import problems become check failures."""
    from grader.checks import KataFailure

    if not path.is_file():
        raise KataFailure(f"{label} is missing (looked for {path.name} in {path.parent}).")
    name = f"kata_{path.stem}_{next(_module_ids)}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # some libraries (dataclasses, pickling) look modules up here
    try:
        spec.loader.exec_module(module)
    except SyntaxError as error:
        raise KataFailure(f"{label} has a syntax error on line {error.lineno}: {error.msg}") from None
    except SystemExit as error:
        raise KataFailure(f"{label} called exit ({error.code!r}) while being imported") from None
    except NotImplementedError:
        raise
    except Exception as error:  # noqa: BLE001 - any import failure is the learner's to fix
        raise KataFailure(f"importing {label} raised {type(error).__name__}: {error}") from error
    return ExerciseModule(module, label)


@pytest.fixture
def exercise(request: pytest.FixtureRequest) -> ExerciseModule:
    """A fresh import of the exercise this check file belongs to, from `--target`.

    Fresh per check so one check's compiled functions and changed globals never
    leak into the next: compile counts and purity probes start clean.
    """
    state = request.config.stash[_STATE]
    entry = state.exercise_for(Path(request.path))
    if entry is None:
        raise pytest.UsageError(f"{request.path} is not the check file of any exercise in the manifest")
    return load_exercise(state.target / entry.path, entry.path)


# --- order, failures as lessons, the grader's report ----------------------------------


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


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    from grader.checks import KataFailure
    from grader.explain import explain

    report = yield
    if call.excinfo is None or report.passed:
        return report
    exc = call.excinfo.value
    report.kata_reason = _reason(call.excinfo)
    if report.kata_reason.startswith("timed out"):
        entry = item.config.stash[_STATE].exercise_for(Path(item.path))
        report.kata_reason += f" in {entry.id}" if entry else ""
    report.kata_error = type(exc).__name__
    if isinstance(exc, KataFailure):
        report.longrepr = LessonRepr(f"{item.nodeid}\n{exc}", report.kata_reason)
    else:
        lesson = explain(exc)
        if lesson is not None:
            report.longrepr = LessonRepr(f"{lesson.text()}\n\n{report.longrepr}", report.kata_reason)
    return report


@dataclass
class _Crash:
    message: str


class LessonRepr:
    """A failure shown as a lesson; its first line also heads pytest's short summary."""

    def __init__(self, text: str, headline: str) -> None:
        self.text = text
        self.reprcrash = _Crash(headline)

    def toterminal(self, out: Any) -> None:
        out.line(self.text)

    def __str__(self) -> str:
        return self.text


def pytest_runtest_logstart(nodeid: str, location: tuple[str, int | None, str]) -> None:
    _write(_config, {"event": "start", "nodeid": nodeid})


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Fold setup/call/teardown into one outcome per check and report it at teardown."""
    outcomes = _pending.setdefault(report.nodeid, {"outcome": "passed", "duration": 0.0,
                                                   "reason": "", "error": ""})
    outcomes["duration"] += report.duration
    if report.failed or (report.skipped and outcomes["outcome"] == "passed"):
        if outcomes["outcome"] != "failed":
            outcomes["outcome"] = "failed" if report.failed else "skipped"
            outcomes["reason"] = getattr(report, "kata_reason", "") or (
                "skipped" if report.skipped else "failed")
            outcomes["error"] = getattr(report, "kata_error", "")
    if report.when == "teardown":
        _write(_config, {"event": "result", "nodeid": report.nodeid, **_pending.pop(report.nodeid),
                         "time": time.time()})


_pending: dict[str, dict[str, Any]] = {}  # nodeid -> outcome so far, until teardown
_config: pytest.Config | None = None  # logstart/logreport hooks are not handed the config


def pytest_collection_finish(session: pytest.Session) -> None:
    state = session.config.stash[_STATE]
    checks = []
    for item in session.items:
        entry = state.exercise_for(Path(item.path))
        checks.append({"nodeid": item.nodeid, "exercise": entry.id if entry else None,
                       "hidden": Path(item.path).name.startswith("hidden_test_")})
    _write(session.config, {"event": "collected", "checks": checks})


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
