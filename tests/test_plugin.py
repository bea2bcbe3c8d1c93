"""The pytest plugin: devices, targets, and loading a learner's file."""

from __future__ import annotations

import jax
import pytest

from grader import REPO_ROOT
from grader.checks import KataFailure
from grader.core.files import resolve_target
from grader.runtime.jaxsetup import N_DEVICES, cache_dir
from grader.runtime.loading import load_exercise


def test_jax_has_eight_virtual_cpu_devices():
    assert jax.device_count() == N_DEVICES == 8
    assert {d.platform for d in jax.devices()} == {"cpu"}


def test_compilation_cache_is_on_in_a_per_user_folder():
    assert jax.config.jax_compilation_cache_dir == str(cache_dir())
    assert "jax-katas" in str(cache_dir())


def test_programs_lower_alike_in_the_shared_mlir_context(monkeypatch):
    """Every program is lowered in one MLIR context per thread (a sixth of a check process's time):
    the program text must be the very one a fresh context gives."""
    import jax.numpy as jnp
    from jax._src.interpreters import mlir

    shared = mlir.make_ir_context
    assert getattr(shared, "katas_shared", False), "configure_jax did not share the MLIR context"
    assert shared() is shared()

    def program(x):
        return jnp.cumsum(jnp.sin(x) * 2.0) @ x

    x = jnp.arange(4.0)
    in_shared = jax.jit(program).lower(x).as_text()
    monkeypatch.setattr(mlir, "make_ir_context", shared.original)
    assert jax.jit(program).lower(x).as_text() == in_shared


def test_targets_resolve_to_the_folder_holding_topics(tmp_path):
    assert resolve_target("exercises", REPO_ROOT) == REPO_ROOT / "exercises"
    assert resolve_target("solutions", REPO_ROOT) == REPO_ROOT / "solutions"
    (tmp_path / "exercises" / "01_purity").mkdir(parents=True)
    assert resolve_target(str(tmp_path), REPO_ROOT) == tmp_path / "exercises"  # a repo holding exercises/
    assert resolve_target(str(tmp_path / "exercises"), REPO_ROOT) == tmp_path / "exercises"


@pytest.mark.parametrize("source, message", [
    ("def f(:\n", "has a syntax error on line 1"),
    ("raise RuntimeError('boom')\n", "importing x.py raised RuntimeError: boom"),
    ("import sys\nsys.exit(0)\n", "called exit (0) while being imported"),
])
def test_import_problems_become_check_failures(tmp_path, source, message):
    path = tmp_path / "x.py"
    path.write_text(source)
    with pytest.raises(KataFailure, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_exercise(path, "x.py")


def test_missing_file_and_missing_name_are_explained(tmp_path):
    with pytest.raises(KataFailure, match="x.py is missing"):
        load_exercise(tmp_path / "x.py", "x.py")
    (tmp_path / "x.py").write_text("VALUE = 1\n")
    module = load_exercise(tmp_path / "x.py", "x.py")
    assert module.VALUE == 1
    module.VALUE = 2  # checks may change a module's globals
    assert module.module.VALUE == 2
    with pytest.raises(KataFailure, match="x.py has no `scale`"):
        module.scale


def test_each_load_is_a_fresh_module(tmp_path):
    (tmp_path / "x.py").write_text("STATE = []\n")
    first, second = load_exercise(tmp_path / "x.py", "x.py"), load_exercise(tmp_path / "x.py", "x.py")
    first.STATE.append(1)
    assert second.STATE == []


def test_a_graded_run_draws_each_exercises_order_and_keeps_exercises_in_teaching_order():
    """A count the submission keeps from one load to the next must not name the check running."""
    from types import SimpleNamespace

    from grader.plugin import _draw_order

    exercise = {f"a{i}": 0 for i in range(6)} | {f"b{i}": 1 for i in range(6)}
    file_order = [SimpleNamespace(nodeid=name) for name in exercise]
    drawn = set()
    for _ in range(20):
        items = list(file_order)
        _draw_order(items, lambda item: exercise[item.nodeid])
        names = [item.nodeid for item in items]
        assert sorted(names[:6]) == [f"a{i}" for i in range(6)] and sorted(names[6:]) == [f"b{i}" for i in range(6)]
        drawn.add(tuple(names))
    assert len(drawn) > 1, "twenty draws of 6! orders each came out the same"
