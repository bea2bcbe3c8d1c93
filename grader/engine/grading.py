"""Grade one submission: isolate it, run the pristine checks, score from the manifest.

Scoring is decided here, in the trusted parent. The maximum comes from the
manifest; every check the pristine files define starts as failed and turns
passed only on a signed result from the check process. An exercise earns its
points when all its checks pass (a correct-but-recompiling answer is not
correct), nothing otherwise.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from grader import REPO_ROOT
from grader.core.limits import SCRATCH_BYTES_ENV, SCRATCH_FILES_ENV, Limits
from grader.core.manifest import Exercise, load_manifest
from grader.engine.remote.launch import SubjectConfig
from grader.engine import sandbox
from grader.engine.runner import CheckResult, RunResult, run_checks, start_examiners
from grader.engine.sandbox import NAMESPACES, PROCESS, Isolation
from grader.engine.scan import Flag, scan_files, scan_planted
from grader.runtime.jaxsetup import EXAMINER_CACHE_ENV, EXECUTABLES_ENV, N_DEVICES, NO_CACHE_ENV, SEALED_CACHE_ENV
from grader.engine.workspace import Copied, Workspace, build_workspace, lay_out


@dataclass
class Check:
    nodeid: str
    hidden: bool
    result: CheckResult

    @property
    def name(self) -> str:
        return self.nodeid.rsplit("::", 1)[-1]


@dataclass
class ExerciseGrade:
    exercise: Exercise
    checks: list[Check]
    score: int = 0
    reason: str = ""
    flags: list[Flag] = field(default_factory=list)
    code: str = ""  # the kind of mistake behind `reason` (checks.FAILURE_CODES); "" when passed

    @property
    def status(self) -> str:
        return "passed" if self.score == self.exercise.points else "failed"


@dataclass
class Grade:
    target: str
    exercises: list[ExerciseGrade] = field(default_factory=list)
    seconds: float = 0.0
    forged_results: int = 0
    planted: list[Flag] = field(default_factory=list)  # steering files the submission carries
    error: str = ""  # the submission could not be graded at all
    isolation: Isolation = Isolation(PROCESS)  # how the check processes were walled in
    round_trips: int = 0  # requests from the examiner to the subject (grader.engine.remote), all parts

    @property
    def score(self) -> int:
        return sum(e.score for e in self.exercises)

    @property
    def max_score(self) -> int:
        return sum(e.exercise.points for e in self.exercises)

    @property
    def flags(self) -> list[Flag]:
        return [flag for e in self.exercises for flag in e.flags] + self.planted

    @property
    def needs_review(self) -> bool:
        return bool(self.flags or self.forged_results)

    def review_notes(self) -> list[str]:
        notes = [flag.text() if flag.line else f"{flag.path}: {flag.reason}" for flag in self.flags]
        if self.forged_results:
            notes.append(f"{self.forged_results} forged result line(s) were written to the grader's channel")
        return notes


def grade(source: Path | None, *, label: str | None = None, repo: Path = REPO_ROOT,
          only: tuple[Exercise, ...] | None = None, limits: Limits = Limits(),
          shared_cache: Path | None = None, user: str | None = None,
          isolation: Isolation | None = None, jobs: int = 1, warm_cache: Path | None = None,
          extra_env: dict[str, str] | None = None) -> Grade:
    """Grade the exercise files under `source` (a folder shaped like `exercises/`).

    Args:
      only: grade just these exercises (default: the whole manifest).
      shared_cache: reuse this cache folder (XDG_CACHE_HOME-like: the compilation
        cache is its jax-katas/xla) for trusted code only, the reference
        solutions: their subject writes it; the examiners keep their own
        beside it (`examiners_cache`), which no subject writes. Anything else gets fresh caches, and in process mode an examiner
        with no persistent cache at all (a subject could write any folder it
        would cache in).
      user: run the check processes as this unprivileged user.
      isolation: how to wall the check processes in (default: the best this
        machine gives, see grader.engine.sandbox).
      jobs: check processes run at once, each with its own share of the
        exercises (for one submission on an idle machine: the cores; a batch
        runs one per submission and grades submissions side by side instead).
      warm_cache: the warm programs (grader.engine.warm's folder): in the namespaces
        sandbox its sealed programs sit read-only behind each fresh cache;
        without it, each fresh cache starts as a copy of the eager ones.
      extra_env: more environment for the check processes (trusted runs only).
    """
    start = time.monotonic()
    exercises = tuple(only or load_manifest(repo / "exercises"))
    isolation = isolation or sandbox.choose()
    report = Grade(target=label or str(source), isolation=isolation)
    groups = share_out(exercises, jobs, needs_device_helper(repo, exercises) if jobs > 1 else frozenset())
    with tempfile.TemporaryDirectory(prefix="katas-grade-") as scratch:
        if user is not None:
            os.chmod(scratch, 0o755)  # temporary folders start private to their owner
        parts = [_Part(Path(scratch) / f"ws{i}", group) for i, group in enumerate(groups)]
        with ExitStack() as stack:
            def examiner_env_of(workspace: Workspace) -> dict[str, str]:
                return examiner_env(workspace, isolation, shared_cache, warm_cache, extra_env)

            # The examiners' fork server imports while the workspaces are laid out.
            examiners = start_examiners(limits, examiner_env_of(Workspace(Path(scratch))), Path(scratch), user)
            if examiners is not None:
                stack.callback(examiners.stop)
            copied = Copied()
            for part in parts:
                part.workspace, found = build_workspace(part.root, repo, part.exercises, source)
                copied.files += found.files
                copied.refused.update(found.refused)
            sealed = _sealed_programs(warm_cache, shared_cache, isolation, user)
            for part in parts:
                if warm_cache is not None and sealed is None:
                    _warm(part.workspace, shared_cache, warm_cache)
                if user is not None:
                    _hand_over(part.workspace, user)
            flags = {}
            for part in parts:
                flags.update(scan_files(part.workspace.submission, [f for f in copied.files
                                                                     if any(e.path == f for e in part.exercises)]))
            writable, readable, sealed_env = (), (), {}
            if sealed is not None:
                readable, sealed_env = (sealed,), {SEALED_CACHE_ENV: str(sealed)}
            if shared_cache is not None:  # trusted code only (the reference solutions): see `shared_cache`
                shared = Path(shared_cache) / "jax-katas" / "xla"
                shared.mkdir(parents=True, exist_ok=True)
                examiners_cache(shared_cache).mkdir(parents=True, exist_ok=True)
                writable = (shared,)
            host = Path(scratch) / "subjects.sock"
            subject_host = _start_subject_host(host, [part.workspace for part in parts], limits, isolation, readable,
                                               writable, {**sealed_env, **(extra_env or {})}, shared_cache, user)
            stack.callback(_stop, subject_host)
            for part in parts:
                workspace = part.workspace
                SubjectConfig(
                    submission=str(workspace.submission), devices=N_DEVICES, log=str(workspace.root / "subject.log"),
                    prefix=[*limits.launcher(), *sandbox.command(isolation, workspace.subject_root, readable=readable,
                                                                  writable=_kept(workspace) + writable,
                                                                  scratch=_scratch(workspace),
                                                                  scratch_bytes=limits.scratch_bytes)],
                    env={**workspace.subject_env(shared_cache), SCRATCH_FILES_ENV: str(limits.scratch_files),
                         SCRATCH_BYTES_ENV: str(limits.scratch_bytes),
                         **sealed_env, **(extra_env or {})},
                    cwd=str(workspace.subject_root), memory_bytes=limits.memory_bytes,
                    host=str(host) if subject_host is not None else None).save(workspace.subject_config)

            def run(part: _Part) -> RunResult:
                workspace = part.workspace
                return run_checks(workspace, workspace.check_paths(part.exercises), limits,
                                  env=examiner_env_of(workspace),
                                  user=user, restore=lambda: lay_out(workspace, repo, part.exercises, source),
                                  examiners=examiners)

            if len(parts) == 1:
                runs = [run(parts[0])]
            else:
                with ThreadPoolExecutor(max_workers=len(parts)) as pool:
                    runs = list(pool.map(run, parts))
    report.forged_results = sum(r.forged for r in runs)
    report.round_trips = sum(r.round_trips for r in runs)
    if source is not None and source.is_dir():
        every = load_manifest(repo / "exercises")
        report.planted = scan_planted(source, {e.check_path for e in every} | {e.hidden_check_path for e in every})
    report.error = "; ".join(dict.fromkeys(r.error for r in runs if r.error)) if all(r.error for r in runs) else ""
    run_of = {e.id: r for part, r in zip(parts, runs) for e in part.exercises}
    for entry in exercises:
        found = run_of[entry.id]
        checks = [Check(c["nodeid"], c.get("hidden", False), result) for c, result in found.for_exercise(entry.id)]
        report.exercises.append(_score(entry, checks, copied.refused.get(entry.path), found.error,
                                       flags.get(entry.path, [])))
    report.seconds = time.monotonic() - start
    return report


@dataclass
class _Part:
    """One check process's share of a submission, in a workspace of its own."""

    root: Path
    exercises: tuple[Exercise, ...]
    workspace: Workspace | None = None


def share_out(exercises: tuple[Exercise, ...], jobs: int,
              together: frozenset[str] = frozenset()) -> list[tuple[Exercise, ...]]:
    """Split exercises into at most `jobs` groups of about equal cost, each in teaching order.

    Each exercise's cost is the time its checks took on the reference
    solutions, graded as a submission is (grader.engine.warm records it), else a
    typical one; the costliest are placed first, each in the group with the
    least so far. The exercises named in `together` go to one group as one
    piece (those whose checks need a helper process with other devices: each
    group that has one starts that helper and its subject).
    """
    from grader.engine.warm import expected_seconds

    jobs = max(1, min(jobs, len(exercises)))
    if jobs == 1:
        return [exercises]
    cost = expected_seconds()
    pieces = [[e] for e in exercises if e.id not in together]
    bundled = [e for e in exercises if e.id in together]
    if bundled:
        pieces.append(bundled)
    loads = [0.0] * jobs
    groups: list[list[Exercise]] = [[] for _ in range(jobs)]
    for piece in sorted(pieces, key=lambda p: -sum(cost.get(e.id, 0.25) for e in p)):
        lightest = loads.index(min(loads))
        groups[lightest].extend(piece)
        loads[lightest] += sum(cost.get(e.id, 0.25) for e in piece)
    return [tuple(sorted(group, key=lambda e: e.index)) for group in groups if group]


def needs_device_helper(repo: Path, exercises: tuple[Exercise, ...]) -> frozenset[str]:
    """The exercises whose checks (visible or hidden) run a check on another number of devices
    (`checks.on_devices`), which starts a helper process and a subject of its own."""
    found = set()
    for entry in exercises:
        for name in (entry.check_path, entry.hidden_check_path):
            path = repo / "exercises" / name
            if path.is_file() and "on_devices(" in path.read_text(encoding="utf-8", errors="replace"):
                found.add(entry.id)
    return frozenset(found)


@dataclass
class _SubjectHost:
    process: subprocess.Popen
    lifeline: int  # the write end of a pipe the host watches: when this process is gone, so is the host


def _start_subject_host(path: Path, workspaces: list[Workspace], limits: Limits, isolation: Isolation,
                        readable: tuple[Path, ...], writable: tuple[Path, ...], env: dict[str, str],
                        shared_cache: Path | None, user: str | None) -> _SubjectHost | None:
    """Start the submission's subject host (grader.engine.remote.subject.host) on a socket at `path`:
    one sandbox, under the subjects' limits, that sees what each share's subject may, and forks
    every subject of the submission. The socket listens before the host starts, so an examiner
    can ask for a subject at once; nothing inside the sandbox can reach it. None where it cannot
    start (a socket path too long, say): then each subject is a process of its own."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    lifeline_read, lifeline_write = os.pipe()
    try:
        try:
            listener.bind(str(path))
        except OSError:
            os.close(lifeline_write)
            return None
        listener.listen(16)
        first = workspaces[0]
        others = tuple(w.subject_root for w in workspaces[1:])
        every_writable = tuple(folder for w in workspaces for folder in _kept(w))
        every_scratch = tuple(folder for w in workspaces for folder in _scratch(w))
        group = None
        if user is not None:
            import pwd

            record = pwd.getpwnam(user)
            os.chown(path, record.pw_uid, record.pw_gid)  # the examiners, run as the user, connect to it
            group = record.pw_gid
        command = [*limits.launcher(), *sandbox.command(isolation, first.subject_root, readable=readable + others,
                                                        writable=every_writable + writable, scratch=every_scratch,
                                                        scratch_bytes=limits.scratch_bytes),
                   sys.executable, "-I", "-B", "-m", "grader.engine.remote.subject.host",
                   "--listen", str(listener.fileno()), "--lifeline", str(lifeline_read)]
        with open(first.root / "host.log", "ab") as log:
            process = subprocess.Popen(
                command, pass_fds=(listener.fileno(), lifeline_read), stdin=subprocess.DEVNULL, stdout=log,
                stderr=subprocess.STDOUT, env={**first.subject_env(shared_cache), **env}, cwd=first.subject_root,
                start_new_session=True, user=user, group=group)
        return _SubjectHost(process, lifeline_write)
    except BaseException:
        os.close(lifeline_write)
        raise
    finally:
        listener.close()  # the host holds it now
        os.close(lifeline_read)


def _scratch(workspace: Workspace) -> tuple[Path, ...]:
    """The subject's folders that start empty: in the sandbox, each a bounded file system in memory."""
    return tuple(folder for folder in workspace.subject_writable if not any(folder.iterdir()))


def _kept(workspace: Workspace) -> tuple[Path, ...]:
    """The subject's folders that start with files (a cache started warm): bound as they are."""
    return tuple(folder for folder in workspace.subject_writable if any(folder.iterdir()))


def _stop(host: _SubjectHost | None) -> None:
    if host is None:
        return
    os.close(host.lifeline)
    try:
        os.killpg(host.process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        host.process.kill()
    host.process.wait()


def examiner_env(workspace: Workspace, isolation: Isolation, shared_cache: Path | None,
                 warm_cache: Path | None, extra_env: dict[str, str] | None) -> dict[str, str]:
    """The examiners' environment. Their compilation cache is never a folder a subject writes: in
    process mode a subject could write any folder, so there is none; a trusted run's examiners keep
    their own beside the shared cache; otherwise it is the workspace's own, behind the sealed
    programs, neither of which the sandbox lets a subject write."""
    if isolation.mode == PROCESS and shared_cache is None:
        return {**workspace.env(), NO_CACHE_ENV: "1", **(extra_env or {})}
    own = {} if shared_cache is None else {EXAMINER_CACHE_ENV: str(examiners_cache(shared_cache))}
    return {**workspace.env(shared_cache), **own, **_examiner_sealed(warm_cache, shared_cache),
            **_examiner_executables(warm_cache, shared_cache), **(extra_env or {})}


def _examiner_executables(warm_cache: Path | None, shared_cache: Path | None) -> dict[str, str]:
    """Where examiners keep the executables their checks compiled (grader.checks.executables): beside
    their own cache in a trusted run; with the warm programs (outside every sandbox, so no subject
    writes there) otherwise; nowhere when there is neither."""
    if shared_cache is not None:
        return {EXECUTABLES_ENV: str(examiners_cache(shared_cache) / "executables")}
    if warm_cache is not None:
        return {EXECUTABLES_ENV: str(warm_cache / "executables")}
    return {}


def examiners_cache(shared_cache: Path) -> Path:
    """The examiners' own compilation cache beside a trusted run's shared one. The subject and a
    learner's own pytest (which runs exercise code) write the shared one; no examiner reads it."""
    return Path(shared_cache) / "jax-katas" / "examiner-xla"


def _examiner_sealed(warm_cache: Path | None, shared_cache: Path | None) -> dict[str, str]:
    """The examiner runs no submission code: it may read every warm program, sealed or not."""
    if warm_cache is not None and shared_cache is None and (warm_cache / "sealed").is_dir():
        return {SEALED_CACHE_ENV: str(warm_cache / "sealed")}
    return {}


def _sealed_programs(warm_cache: Path | None, shared_cache: Path | None, isolation: Isolation,
                     user: str | None) -> Path | None:
    """The warm programs' sealed folder, where a submission may have it: only inside the namespaces
    sandbox, whose read-only mount keeps it unlistable (see grader.engine.warm), and, for a sandbox user,
    only where every folder above it lets anyone pass (the sandbox starts as that user)."""
    if warm_cache is None or shared_cache is not None or isolation.mode != NAMESPACES:
        return None
    sealed = warm_cache / "sealed"
    if not sealed.is_dir():
        return None
    if user is not None and not all(folder.stat().st_mode & 0o001 for folder in sealed.resolve().parents):
        return None
    return sealed


def _warm(workspace: Workspace, shared_cache: Path | None, warm_cache: Path) -> None:
    """Start the subject's fresh compilation cache with a copy of the eager programs."""
    eager = warm_cache / "xla"
    if shared_cache is not None or not eager.is_dir():
        return  # a shared (trusted) cache is warm already
    target = workspace.subject_root / "cache" / "jax-katas" / "xla"
    shutil.copytree(eager, target, dirs_exist_ok=True)


def _score(entry: Exercise, checks: list[Check], refused: str | None, run_error: str,
           flags: list[Flag]) -> ExerciseGrade:
    # What the subject's audit hook refused is for a person to look at, whatever the score.
    flags = flags + [Flag(entry.path, 0, "", f"refused while graded: {text}")
                     for text in dict.fromkeys(c.result.refused for c in checks if c.result.refused)]
    if refused and refused != "is missing":
        return ExerciseGrade(entry, checks, 0, f"{entry.path} {refused}: not graded", flags, "missing")
    if not checks:
        return ExerciseGrade(entry, checks, 0, run_error or "no checks ran for this exercise", flags, "not-run")
    failed = [c for c in checks if not c.result.passed]
    if failed:
        # The cause, not a consequence: a check skipped because another failed hard names it already
        # (checks run in a drawn order, so the one that failed hard may come later in the file).
        first = next((c for c in failed if c.result.code != "not-run"), failed[0])
        where = "a hidden check" if first.hidden else first.name
        return ExerciseGrade(entry, checks, 0, f"{where}: {first.result.reason}", flags,
                             first.result.code or "error")
    return ExerciseGrade(entry, checks, entry.points, "", flags)


def _hand_over(workspace: Workspace, user: str) -> None:
    """Let the sandbox user read the workspace and write only its home, tmp and cache."""
    import pwd

    record = pwd.getpwnam(user)
    os.chmod(workspace.root, 0o755)
    os.chmod(workspace.subject_root, 0o755)
    for folder in workspace.writable + workspace.subject_writable:
        for path in (folder, *folder.rglob("*")):
            os.chown(path, record.pw_uid, record.pw_gid)
