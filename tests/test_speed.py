"""Speed never changes a verdict: a warm compilation cache and another grouping of exercises into
check processes give every check the same status as a cold, single-process grading.

Compile counts are what could differ: JAX reports a compile event on a persistent-cache hit too,
and each check imports the exercise afresh, so neither should. This proves it on exercises whose
checks count compiles, with answers that pass, recompile and are unfinished.
"""

from __future__ import annotations

import functools
import shutil
from pathlib import Path

from grader import REPO_ROOT
from grader.engine import sandbox
from grader.engine.grading import examiner_env, grade, needs_device_helper, share_out
from grader.core.limits import Limits
from grader.core.manifest import load_manifest, select
from grader.engine.warm import seal, unseal
from grader.engine.warming import collect
from grader.runtime.jaxsetup import EXAMINER_CACHE_ENV, EXECUTABLES_ENV, NO_CACHE_ENV, SEALED_CACHE_ENV
from support import PRISTINE, VARIANTS

SUBSET = select(load_manifest(REPO_ROOT / "exercises"), "purity,static_args")
ROOMY = Limits(check_seconds=60, submission_seconds=900)


def _mixed_submission(root: Path) -> Path:
    """Solutions, except a stub and two answers that recompile."""
    for entry in SUBSET:
        (root / entry.path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO_ROOT / "solutions" / entry.path, root / entry.path)
    shutil.copyfile(PRISTINE / "exercises" / SUBSET[1].path, root / SUBSET[1].path)
    for entry in SUBSET[4:]:
        recompiling = sorted((VARIANTS / entry.path.removesuffix(".py")).glob("mutant_*static*.py"))
        if recompiling:
            shutil.copyfile(recompiling[0], root / entry.path)
    return root


def _statuses(report) -> dict[str, tuple[str, str]]:
    return {c.nodeid.split("/", 1)[1]: (c.result.outcome, c.result.code) for e in report.exercises
            for c in e.checks}


def test_cache_temperature_and_process_grouping_never_change_a_verdict(runs, tmp_path_factory):
    scratch = tmp_path_factory.mktemp("speed")
    warm = scratch / "warm"
    submission = _mixed_submission(scratch / "sub")
    # On the shared workers, so that it overlaps the other project tests.
    runs.submit("speed-cold", functools.partial(grade, submission, only=SUBSET, limits=ROOMY, jobs=1))
    runs.submit("speed-warm-up", functools.partial(collect, REPO_ROOT, warm, SUBSET, timed=False))
    reference = _statuses(runs.get("speed-cold"))
    runs.get("speed-warm-up")
    assert any((warm / "xla").iterdir()), "the warm-up kept no programs"
    # The sandbox's sealed programs (every solution program behind the fresh cache), then the
    # fallback's copy of the eager ones, split over two check processes.
    warmed = grade(submission, only=SUBSET, limits=ROOMY, jobs=1, warm_cache=warm)
    split = grade(submission, only=SUBSET, limits=ROOMY, jobs=2, warm_cache=warm,
                  isolation=sandbox.choose(sandbox.PROCESS))
    assert any(outcome == "passed" for outcome, _ in reference.values())
    codes = {code for outcome, code in reference.values() if outcome == "failed"}
    assert "recompiles" in codes and len(codes) > 1, f"the mix should fail in several ways: {codes}"
    assert _statuses(warmed) == reference
    assert _statuses(split) == reference


def test_share_out_balances_and_keeps_teaching_order():
    groups = share_out(SUBSET, 2)
    assert len(groups) == 2 and sorted(e.id for g in groups for e in g) == sorted(e.id for e in SUBSET)
    for group in groups:
        assert list(group) == sorted(group, key=lambda e: e.index)
    assert share_out(SUBSET, 1) == [SUBSET]


def test_exercises_that_need_a_device_helper_share_one_group():
    every = load_manifest(REPO_ROOT / "exercises")
    helped = needs_device_helper(REPO_ROOT, every)
    assert {"pmap-1", "sharding-1"} <= helped and "purity-1" not in helped
    groups = share_out(every, 2, helped)
    assert len(groups) == 2 and sorted(e.id for g in groups for e in g) == sorted(e.id for e in every)
    assert [sum(e.id in helped for e in g) for g in groups].count(0) == 1, "one group holds every helped one"


_COMPILE_ONE = """
import logging, sys
hits = []
class Hits(logging.Handler):
    def emit(self, record):
        hits.append(str(record.msg).startswith("Persistent compilation cache hit"))
logger = logging.getLogger("jax._src.compiler")
logger.addHandler(Hits()); logger.setLevel(logging.DEBUG)
from grader.plugin.state import configure_jax
configure_jax()
import jax, jax.numpy as jnp
jax.jit(lambda x: jnp.sin(x) * 2)(jnp.arange(3.0)).block_until_ready()
print("hit" if any(hits) else "miss")
"""


def test_a_copied_cache_and_sealed_programs_are_hit(tmp_path):
    """The warm start only helps if a program cached in one folder is found in a copy elsewhere
    (JAX writes its cache folder into every program's compile options unless told not to), and
    in a sealed folder behind an empty cache."""
    import os
    import subprocess
    import sys

    def compile_one(home: Path, sealed: Path | None = None) -> str:
        env = {**os.environ, "XDG_CACHE_HOME": str(home), **({SEALED_CACHE_ENV: str(sealed)} if sealed else {})}
        env.pop("JAX_KATAS_NO_CACHE", None)
        done = subprocess.run([sys.executable, "-c", _COMPILE_ONE], env=env, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout.strip()

    assert compile_one(tmp_path / "first") == "miss"
    shutil.copytree(tmp_path / "first", tmp_path / "copy")
    assert compile_one(tmp_path / "copy") == "hit", "a copy of the cache in another folder was not hit"
    sealed = tmp_path / "sealed"
    shutil.copytree(tmp_path / "first" / "jax-katas" / "xla", sealed)
    seal(sealed)
    try:
        assert compile_one(tmp_path / "empty", sealed=sealed) == "hit", "the sealed programs were not hit"
    finally:
        unseal(sealed)


def test_no_examiner_reads_a_compilation_cache_a_subject_writes(tmp_path):
    """A compiled program is machine code: an examiner that loaded one a subject wrote would run it.
    In every mode (a trusted run of the reference solutions included, whose shared cache the subject
    and a learner's own pytest write), the examiners' cache is a folder no subject writes."""
    from grader.engine.workspace import Workspace

    warm = tmp_path / "warm"
    (warm / "sealed").mkdir(parents=True)
    workspace = Workspace(tmp_path / "ws")
    for mode in (sandbox.PROCESS, sandbox.NAMESPACES):
        for shared in (None, tmp_path / "user-cache"):
            for warm_cache in (None, warm):
                env = examiner_env(workspace, sandbox.Isolation(mode, "asked for"), shared, warm_cache, None)
                if env.get(NO_CACHE_ENV):
                    assert mode == sandbox.PROCESS and shared is None and EXECUTABLES_ENV not in env
                    continue
                examiners = Path(env.get(EXAMINER_CACHE_ENV) or Path(env["XDG_CACHE_HOME"]) / "jax-katas" / "xla")
                subjects = Path(workspace.subject_env(shared)["XDG_CACHE_HOME"]) / "jax-katas" / "xla"
                # The executables the examiners' checks compiled (grader.checks.executables) likewise.
                kept = [Path(env[EXECUTABLES_ENV])] if EXECUTABLES_ENV in env else []
                for folder in (examiners, *kept):
                    for written in (subjects, *workspace.subject_writable):
                        assert written != folder and written not in folder.parents, (mode, shared, warm_cache)


def test_warming_writes_the_graders_bytecode(tmp_path, monkeypatch):
    """Every process `grader grade` starts runs with -B: the bytecode `grader warm` writes is the only
    one they read."""
    import importlib.util
    import sys

    import grader
    from grader.engine.warming import compile_grader

    package = tmp_path / "grader"
    shutil.copytree(Path(grader.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(sys.modules["grader"], "__file__", str(package / "__init__.py"))
    compile_grader()
    for source in (package / "engine" / "runner.py", package / "checks" / "values.py"):
        assert Path(importlib.util.cache_from_source(str(source))).is_file(), source
