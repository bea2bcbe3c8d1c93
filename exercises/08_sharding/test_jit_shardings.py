"""Checks for sharding-4 (jit_shardings)."""

import jax
import numpy as np
import pytest
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks

SHARDING_DOCS = f"{checks.DOCS}/sharded-computation.html"


def setup():
    n = jax.device_count()
    mesh = checks.handed_mesh((n,), ("data",))  # Explicit axes: jax.make_mesh's default
    x = (np.arange(2 * n * n, dtype=np.float32).reshape(2 * n, n) % 7) ** 2
    return mesh, x, x - x.mean(axis=0)


def _compiled(fn, x):
    """fn's own compiled program, compiled here from its trace (what fn.lower() answers is the answer's
    say, not the program's)."""
    if not hasattr(fn, "lower"):
        checks.fail("make_centering(mesh) should return the jax.jit-wrapped function (what it returned has "
                    "no .lower): the input and output layouts are arguments of jax.jit, part of the "
                    f"compiled program, not work done around it. See {SHARDING_DOCS}", "wrong-tool")
    return checks.compiled_jit(fn, x, what="the function make_centering(mesh) returned",
                               hint=f"Return jax.jit(center_columns, in_shardings=..., out_shardings=...) "
                                    f"itself. See {SHARDING_DOCS}")


def columns_out_of_the_program(exercise):
    """The result is by columns because the compiled program returns it so (module level: rerun with 4
    devices)."""
    mesh, x, want = setup()
    n = jax.device_count()
    fn = exercise.make_centering(mesh)
    out = fn(x)
    checks.assert_close(out, want, what="center_columns(x)", rtol=1e-5, atol=1e-4)
    one_device = len(getattr(getattr(out, "sharding", None), "device_set", ())) == 1
    checks.assert_sharding(
        out, spec=(None, "data"), shard_shape=(x.shape[0], 1), n_devices=n, mesh=mesh, what="center_columns(x)",
        hint="The whole result sits on one device: jit was told no layout at all, so the NumPy input "
             "was never split and the program ran on the default device. Layouts in and out are "
             "arguments of jax.jit." if one_device else
             "out_shardings names the layout the jitted function returns (columns over 'data'); without "
             "it the result keeps the rows layout it came in with.")
    # The layout must come out of the program itself: a result resharded afterwards (device_put) lands
    # the same way, but pays a second transfer outside the compiled program.
    (got,) = _compiled(fn, x).output_shardings
    columns = NamedSharding(mesh, P(None, "data"))
    if not getattr(got, "is_equivalent_to", lambda *_: False)(columns, x.ndim):
        checks.fail(f"the compiled center_columns returns its result as {got}; the columns layout came "
                    f"from a copy made after the program ran (device_put). Ask jax.jit for the output "
                    f"layout (out_shardings): XLA then does the rearranging inside the program, where it "
                    f"can overlap it with the work. See {SHARDING_DOCS}", "wrong-sharding")
    # And the centering must be the program's own work: a host callback inside it runs NumPy on the
    # host, on data gathered from every device, whatever layouts jit was told.
    program = checks.program_of(fn, x, what="center_columns(x)")
    checks.assert_no_callbacks(program, what="center_columns(x)")
    # The program read above is the one a call runs: whole, and with no other program of its own.
    checks.assert_called_as_traced(fn, x, what="center_columns(x)", program=program, nothing_else=True)


def test_output_comes_back_split_by_columns(exercise):
    columns_out_of_the_program(exercise)


def test_input_is_split_by_rows_on_the_way_in(exercise):
    mesh, x, _ = setup()
    compiled = _compiled(exercise.make_centering(mesh), x)
    got = compiled.input_shardings[0][0]
    rows = NamedSharding(mesh, P("data", None))
    if not got.is_equivalent_to(rows, x.ndim):
        chosen = ("(here: one device, as no layout was asked for at all)" if len(got.device_set) == 1
                  else "(here it followed the output's layout)")
        checks.fail(
            f"the compiled center_columns takes its input as {got}; expected rows split over "
            f"'data' ({rows.spec}). in_shardings fixes the input layout; left out, a NumPy argument "
            f"has no layout yet and the compiler chooses one {chosen}. "
            f"See {SHARDING_DOCS}", "wrong-sharding")


@pytest.mark.devices(4)
def test_works_with_any_number_of_devices(exercise):
    checks.on_devices(4, columns_out_of_the_program, exercise)
