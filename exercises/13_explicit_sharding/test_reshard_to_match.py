"""Checks for explicit-3 (reshard_to_match)."""

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks
from grader.explain import explain

TYPES_DOCS = f"{checks.DOCS}/notebooks/explicit-sharding.html"


def _setup():
    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("data",))
    host = ((np.arange(n * n, dtype=np.float32).reshape(n, n) * 7) % 13) - 6.0
    return mesh, host, jax.device_put(host, NamedSharding(mesh, P("data")))


def _explained(error: Exception, what: str) -> None:
    known = explain(error)
    if known is None:
        raise error
    if "acts as an assert" in str(error):  # with_sharding_constraint on the caller's Explicit mesh
        checks.fail(f"{what} raised {type(error).__name__}: with_sharding_constraint was asked for a "
                    f"layout its operand does not have. The mesh is the caller's and its axes are Explicit, "
                    f"so the constraint only checks the layout already in the operand's type (a is split "
                    f"by rows, a.T by columns); it moves nothing. Moving data into another layout on an "
                    f"Explicit mesh is jax.reshard's job. See {known.link}",
                    known.code)
    checks.fail(f"{what} raised {type(error).__name__}: {known.headline}. {known.idea} See {known.link}",
                known.code)


def test_result_is_symmetric_and_split_like_a(exercise):
    mesh, host, a = _setup()
    with jax.set_mesh(mesh):
        try:
            out = exercise.symmetrize(a)
        except Exception as error:  # noqa: BLE001 - a ShardingTypeError is the bug this exercise is about
            _explained(error, "symmetrize(a)")
    checks.assert_close(out, (host + host.T) / 2, what="symmetrize(a)", rtol=1e-6,
                        hint="Add a to its transpose, then halve.")
    spec = tuple(jax.typeof(out).sharding.spec) + (None, None)
    if spec[:2] != ("data", None):
        checks.fail(f"symmetrize(a) has type {jax.typeof(out)}; expected it split like a, "
                    f"{jax.typeof(a)}. Re-split the operand whose layout differs, not the result.",
                    "wrong-sharding", checks.picture(a.sharding, out))


def test_no_device_gathers_the_whole_matrix(exercise):
    mesh, _, a = _setup()
    n = jax.device_count()
    with jax.set_mesh(mesh):
        try:
            compiled = checks.compiled_program(exercise.symmetrize, a, what="symmetrize(a)")
        except Exception as error:  # noqa: BLE001 - the ShardingTypeError, explained
            if isinstance(error, checks.KataFailure):
                raise
            _explained(error, "compiling symmetrize(a)")
        # compiled_program compiles whatever it is given; the task's symmetrize is jitted itself.
        checks.assert_jitted(exercise.symmetrize, a, what="symmetrize(a)")
    gathers = {op: k for op, k in compiled.collectives().items() if op in ("all-gather", "all-reduce")}
    if gathers:
        checks.fail(f"symmetrize(a) compiles to {dict(compiled.collectives())}: the {', '.join(gathers)} "
                    f"assembles whole matrices on every device. Only the transpose is laid out differently "
                    f"from a; jax.reshard of that one operand into a's layout is a single all-to-all that "
                    f"moves each device's block where it belongs. See {TYPES_DOCS}", "wrong-collective")
    # Whatever collective does it: a gather made of ppermutes is still the whole matrix on every device.
    share = n * np.dtype(np.float32).itemsize  # one device's row of a
    with jax.set_mesh(mesh):
        checks.assert_receives_at_most(exercise.symmetrize, a, limit=1.5 * share, what="symmetrize(a)",
                                       allowed=f"the pieces of its own rows of a.T ({share} bytes at most)",
                                       hint=f"jax.reshard of a.T into a's layout moves each device's block "
                                            f"where it belongs, once. See {TYPES_DOCS}")
    with jax.set_mesh(mesh):  # the task's symmetrize is jitted: one compiled program
        checks.assert_jitted(exercise.symmetrize, a, what="symmetrize(a)", entirely=True)
    if (1, n) not in compiled.parameter_shapes():
        checks.fail(f"the compiled symmetrize(a) takes per-device inputs of shapes "
                    f"{compiled.parameter_shapes()}; expected each device to start from its own (1, {n}) "
                    f"block of rows.", "not-distributed")
