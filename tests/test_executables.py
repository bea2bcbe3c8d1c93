"""The executables the checks compile to run a traced program again, remembered by an exact
description of the program (grader.checks.executables): equal programs share one, any difference
makes another, and a folder of them is only ever a shortcut, never a verdict."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import NamedSharding, PartitionSpec

from grader.checks import executables, programs
from grader.runtime.jaxsetup import EXECUTABLES_ENV


def said(fn, *args) -> str:
    found = executables.describe(programs.program_of(fn, *args).jaxpr)
    assert found is not None, "a plain program is described"
    return found.text + found.constants


def values(fn, *args):
    return programs.program_of(fn, *args).values()


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv(EXECUTABLES_ENV, str(tmp_path / "executables"))
    monkeypatch.setattr(executables, "_compiled", {})
    monkeypatch.setattr(executables, "_refused", set())
    monkeypatch.setattr(executables, "_entries", [])
    return tmp_path / "executables"


def test_equal_programs_read_alike_and_any_difference_shows():
    x = jnp.arange(6.0).reshape(2, 3)
    assert said(lambda a: jnp.sin(a) * 2, x) == said(lambda a: jnp.sin(a) * 2, x + 1)  # values are arguments
    table = np.linspace(0, 1, 6).reshape(2, 3)
    differing = [
        (lambda a: jnp.sin(a) * 2, lambda a: jnp.sin(a) * 3),  # a literal
        (lambda a: a.sum(axis=0), lambda a: a.sum(axis=1)),  # a parameter
        (lambda a: jnp.sin(a) + jnp.cos(a), lambda a: jnp.cos(a) + jnp.sin(a)),  # the wiring
        (lambda a: jax.jit(lambda b: b + table)(a), lambda a: jax.jit(lambda b: b + table * 2)(a)),  # a constant inside
        (lambda a: a * 2, lambda a: (a * 2).astype(jnp.bfloat16)),  # a type
    ]
    for first, second in differing:
        assert said(first, x) != said(second, x)


def test_shardings_are_told_apart_by_their_devices():
    devices = jax.devices()[:4]
    x = jnp.arange(8.0)

    def placed(order):
        mesh = jax.sharding.Mesh(np.array(order), ("d",))
        return lambda a: jax.lax.with_sharding_constraint(a * 2, NamedSharding(mesh, PartitionSpec("d")))

    assert said(placed(devices), x) != said(placed(devices[::-1]), x)


def test_a_program_with_a_host_callback_is_never_remembered():
    def noisy(a):
        return jax.pure_callback(lambda v: np.asarray(v) * 2, jax.ShapeDtypeStruct(a.shape, a.dtype), a)

    assert executables.describe(programs.program_of(noisy, jnp.ones(3)).jaxpr) is None
    np.testing.assert_allclose(values(noisy, jnp.ones(3)), 2.0)  # compiled afresh, as before


def test_an_executable_is_kept_on_disk_and_served_with_what_its_trace_found(folder):
    found = []

    def doubled(a):
        found.append("traced")
        return a * 2

    first, facts = executables.run(doubled, (np.ones(3, np.float32),), ("doubled",), lambda: len(found))
    assert len(list(folder.glob("*.exe"))) == 1 and facts == 1
    executables._compiled.clear()  # as in another process
    again, facts = executables.run(doubled, (np.full(3, 5, np.float32),), ("doubled",), lambda: len(found))
    assert found == ["traced"], "served from the folder, not traced again"
    assert facts == 1, "the facts its trace found come back with it"
    np.testing.assert_allclose(again, 10.0)
    other, _ = executables.run(doubled, (np.ones(4, np.float32),), ("doubled",))
    assert found == ["traced", "traced"] and other.shape == (4,), "another shape is another program"


def test_a_torn_entry_or_one_that_fails_to_run_is_compiled_afresh(folder, monkeypatch):
    args = (np.ones(3, np.float32),)
    executables.run(lambda a: a + 1, args, ("plus one",))
    (entry,) = folder.glob("*.exe")
    entry.write_bytes(b"torn")
    executables._compiled.clear()
    result, _ = executables.run(lambda a: a + 1, args, ("plus one",))
    np.testing.assert_allclose(result, 2.0)

    class Broken:
        def __call__(self, *args):
            raise RuntimeError("Function wrapped_broadcast not found")

    executables._compiled.clear()
    monkeypatch.setattr(executables, "_load", lambda key: (Broken(), None))
    result, _ = executables.run(lambda a: a + 1, args, ("plus one",))
    np.testing.assert_allclose(result, 2.0)
    assert list(folder.glob("*.refused")) and not list(folder.glob("*.exe")), "never served again"


def test_the_current_mesh_is_part_of_the_key():
    """jax.set_mesh's mesh lays out a program whose shardings are bare specs; the settings JAX keys its
    traces by hold only the mesh's shape, so two meshes over the same devices in another order would
    share a key without it."""
    devices = jax.devices()[:4]
    keys = []
    for order in (devices, devices[::-1]):
        with jax.set_mesh(jax.sharding.Mesh(np.array(order), ("d",))):
            keys.append(executables._key(("same",), (np.ones(4, np.float32),)))
    assert keys[0] != keys[1]


def test_a_full_folder_is_emptied_rather_than_left_to_stale_entries(folder, monkeypatch):
    """Entries of earlier versions of the checks are never found again: a folder full of them is
    emptied at a process's first write, not left to refuse every new one."""
    monkeypatch.setattr(executables, "_FOLDER_LIMIT", 3)
    folder.mkdir(parents=True)
    for k in range(3):
        (folder / f"stale{k}.exe").write_bytes(b"from an earlier version")
    executables.run(lambda a: a * 3, (np.ones(2, np.float32),), ("tripled",))
    assert not list(folder.glob("stale*")) and len(list(folder.glob("*.exe"))) == 1
