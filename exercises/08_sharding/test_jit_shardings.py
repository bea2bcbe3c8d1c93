"""Checks for sharding-4 (jit_shardings)."""

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks


def setup():
    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("data",))
    x = (np.arange(2 * n * n, dtype=np.float32).reshape(2 * n, n) % 7) ** 2
    return mesh, x, x - x.mean(axis=0)


def test_output_comes_back_split_by_columns(exercise):
    mesh, x, want = setup()
    n = jax.device_count()
    out = exercise.make_centering(mesh)(x)
    checks.assert_close(out, want, what="center_columns(x)", rtol=1e-5, atol=1e-4)
    checks.assert_sharding(
        out, spec=(None, "data"), shard_shape=(x.shape[0], 1), n_devices=n, what="center_columns(x)",
        hint="out_shardings=NamedSharding(mesh, P(None, 'data')) makes the jitted function return "
             "columns split over 'data'; without it the result keeps the input's row layout.")


def test_input_is_split_by_rows_on_the_way_in(exercise):
    mesh, x, _ = setup()
    fn = exercise.make_centering(mesh)
    if not hasattr(fn, "lower"):
        checks.fail("make_centering(mesh) should return the jax.jit-wrapped function (it has no "
                    ".lower): the shardings are arguments of jax.jit.")
    got = fn.lower(x).compile().input_shardings[0][0]
    rows = NamedSharding(mesh, P("data", None))
    if not got.is_equivalent_to(rows, x.ndim):
        checks.fail(
            f"the compiled center_columns takes its input as {got}; expected rows split over "
            f"'data' ({rows.spec}). in_shardings=NamedSharding(mesh, P('data', None)) fixes the "
            f"input layout; left out, the compiler chooses one from the output and the "
            f"arguments. See {checks.DOCS}/sharded-computation.html")
