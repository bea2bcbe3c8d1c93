"""Checks for explicit-5 (auto_constraint)."""

import jax
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

from grader import checks
from grader.runtime.explain import explain

TYPES_DOCS = f"{checks.DOCS}/notebooks/explicit-sharding.html"
CONSTRAINT = {"sharding_constraint"}


def _setup(exercise):
    n = jax.device_count()
    mesh = exercise.data_mesh()
    host = ((np.arange(2 * n * n, dtype=np.float32).reshape(2 * n, n) * 5) % 17) + np.arange(n, dtype=np.float32)
    return mesh, host, jax.device_put(host, NamedSharding(mesh, P("data")))


def _explained(error: Exception, what: str) -> None:
    if isinstance(error, checks.KataFailure):
        raise error
    known = explain(error)
    if known is None:
        raise error
    checks.fail(f"{what} raised {type(error).__name__}: {known.headline}. {known.idea} See {known.link}",
                known.code)


def _auto_axes(mesh) -> None:
    explicit = [name for name, kind in zip(mesh.axis_names, mesh.axis_types) if kind != AxisType.Auto]
    if explicit:
        checks.fail(f"data_mesh() builds axes {dict(zip(mesh.axis_names, mesh.axis_types))}: axis "
                    f"{explicit[0]!r} is not Auto, so the sharding is fixed in the array's type and "
                    f"with_sharding_constraint cannot steer the compiler there (given a NamedSharding on "
                    f"that mesh it is refused; under jax.set_mesh a bare spec only asserts the split "
                    f"the type already has). Constraints steer only on Auto axes. "
                    f"See {TYPES_DOCS}", "wrong-sharding")


def test_columns_come_back_standardized_and_split(exercise):
    mesh, host, x = _setup(exercise)
    try:
        out = exercise.standardize_columns(x)
    except Exception as error:  # noqa: BLE001 - with_sharding_constraint on Explicit axes, explained
        _auto_axes(mesh)  # the cause this task is about, before the generic explanation
        _explained(error, "standardize_columns(x)")
    checks.assert_close(out, (host - host.mean(axis=0)) / host.std(axis=0), what="standardize_columns(x)",
                        rtol=1e-4, atol=1e-5, hint="Each column to mean 0 and std 1: reduce over axis 0.")
    checks.assert_sharding(out, what="standardize_columns(x)", spec=(None, "data"),
                           hint="The constraint put the columns on separate devices; the elementwise "
                                "rest of the program keeps that layout.")
    _auto_axes(mesh)
    # Called on arrays, it runs its one jitted program: the one the checks below read.
    checks.assert_jitted(exercise.standardize_columns, x, what="standardize_columns(x)", entirely=True,
                         expected=(host - host.mean(axis=0)) / host.std(axis=0), rtol=1e-4, atol=1e-5)


def test_constraint_makes_the_statistics_local(exercise):
    mesh, host, x = _setup(exercise)
    _auto_axes(mesh)
    program = checks.program_of(exercise.standardize_columns, x, what="standardize_columns(x)")
    # The program read here (and compiled below, traced the same way) is the one that standardizes
    # the columns, not one shown only when traced.
    checks.assert_computes(program, (host - host.mean(axis=0)) / host.std(axis=0), what="standardize_columns(x)",
                           rtol=1e-4, atol=1e-5)
    checks.assert_uses(program, CONSTRAINT, what="standardize_columns(x)", tool="lax.with_sharding_constraint",
                       hint="Moving the result afterwards does not change how it was computed.")
    if not program.applies_to_inputs(CONSTRAINT, inputs=(0,)):
        checks.fail(f"standardize_columns(x) constrains a value computed from x, not x itself: the task "
                    f"constrains x to the column split so that the compiler plans the statistics around it; "
                    f"a constraint on a result that already has its layout steers nothing. See {TYPES_DOCS}",
                    "wrong-tool")
    found = checks.compiled_program(exercise.standardize_columns, x, what="standardize_columns(x)").collectives()
    if found["all-reduce"] or not found["all-to-all"]:
        checks.fail(f"standardize_columns(x) compiles to {dict(found) or 'no collective'}; expected one "
                    f"all-to-all (rows to columns) and no all-reduce. An all-reduce means the column "
                    f"statistics were still summed across devices that each hold some rows: constrain x "
                    f"itself, before the reductions. See {TYPES_DOCS}", "wrong-collective")
    # "No further communication": nothing but the all-to-all, and no more data than it moves (a copy
    # of x gathered whole for the statistics, beside the constrained x, is the further communication).
    further = sorted(op for op, k in found.items() if k and op != "all-to-all")
    if further:
        checks.fail(f"standardize_columns(x) compiles to {dict(found)}: besides the all-to-all, the "
                    f"{', '.join(further)} moves more data between devices, which the column split was "
                    f"meant to make unnecessary. Compute the statistics on the constrained x itself. "
                    f"See {TYPES_DOCS}", "wrong-collective")
    share = x.size * x.dtype.itemsize / jax.device_count()
    checks.assert_receives_at_most(exercise.standardize_columns, x, limit=1.5 * share,
                                   what="standardize_columns(x)",
                                   allowed=f"the pieces of its own columns ({share:.0f} bytes at most)",
                                   hint=f"One all-to-all turns the row split into a column split. See {TYPES_DOCS}")
