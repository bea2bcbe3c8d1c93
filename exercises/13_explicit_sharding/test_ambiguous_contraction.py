"""Checks for explicit-4 (ambiguous_contraction)."""

import math

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks
from grader.runtime.explain import explain

TYPES_DOCS = f"{checks.DOCS}/notebooks/explicit-sharding.html"
BATCH, K = 8, 3


def _setup():
    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("data",))
    rng = np.random.default_rng(3)
    x = rng.normal(size=(BATCH, 2 * n)).astype(np.float32)
    w = rng.normal(size=(2 * n, K)).astype(np.float32)
    placed = (jax.device_put(x, NamedSharding(mesh, P(None, "data"))),
              jax.device_put(w, NamedSharding(mesh, P("data", None))))
    return mesh, x, w, placed


def _explained(error: Exception, what: str) -> None:
    if isinstance(error, checks.KataFailure):
        raise error
    known = explain(error)
    if known is None:
        raise error
    checks.fail(f"{what} raised {type(error).__name__}: {known.headline}. {known.idea} See {known.link}",
                known.code)


def test_product_is_replicated(exercise):
    mesh, x, w, placed = _setup()
    with jax.set_mesh(mesh):
        try:
            out = exercise.project(*placed)
        except Exception as error:  # noqa: BLE001 - the ShardingTypeError this exercise is about
            _explained(error, "project(x, w)")
    checks.assert_close(out, x @ w, what="project(x, w)", rtol=1e-5, atol=1e-5,
                        hint="The product sums over d, across all devices' blocks.")
    held = len(out.sharding.device_set)
    if held != jax.device_count():
        checks.fail(f"project(x, w) is held by {held} device(s) ({out.sharding}); expected a whole copy on "
                    f"every one of the {jax.device_count()} devices of the mesh. The result was moved off "
                    f"the mesh after it was computed: leave it where the contraction's out_sharding "
                    f"puts it.", "wrong-sharding")
    if not out.sharding.is_fully_replicated:
        checks.fail(f"project(x, w) has type {jax.typeof(out)}; expected float32[{BATCH},{K}], a whole copy "
                    f"on every device. The layout of a contraction's result is what out_sharding names.",
                    "wrong-sharding")


def test_partial_products_are_summed_not_operands_gathered(exercise):
    mesh, _, _, placed = _setup()
    n = jax.device_count()
    with jax.set_mesh(mesh):
        try:
            compiled = checks.compiled_program(exercise.project, *placed, what="project(x, w)")
        except Exception as error:  # noqa: BLE001 - the ShardingTypeError, explained
            _explained(error, "compiling project(x, w)")
    found = compiled.collectives()
    # Gathering the small (batch, k) result is allowed; gathering x or w whole is the mistake, in any
    # layout: transposed or reshaped first, the gathered array still holds as many values as x or w.
    operands = {BATCH * 2 * n: "x", 2 * n * K: "w"}
    gathered = sorted({operands[math.prod(shape)] for op, shape in compiled.collective_shapes()
                       if op == "all-gather" and math.prod(shape) in operands})
    if gathered:
        checks.fail(f"project(x, w) compiles to {dict(found)}: an all-gather copies {' and '.join(gathered)} "
                    f"whole onto every device before multiplying, so each device repeats work on data it did not "
                    f"hold. Multiply the blocks in place and let the result's out_sharding decide how the "
                    f"partial products are combined. See {TYPES_DOCS}", "wrong-collective")
    partials = n * BATCH * K  # every device's (batch, k) partial product, stacked
    if any(op == "all-gather" and math.prod(shape) == partials for op, shape in compiled.collective_shapes()):
        checks.fail(f"project(x, w) compiles to {dict(found)}: an all-gather copies every device's partial "
                    f"product onto every device, to be added there: each device receives the {n - 1} others' "
                    f"partial products, where a collective sum (an all-reduce, what out_sharding=P() or "
                    f"lax.psum compiles to) moves about twice one product's size. See {TYPES_DOCS}", "wrong-collective")
    # Whatever collective moved them: at most the partial products' worth of data per device.
    result = BATCH * K * np.dtype(np.float32).itemsize
    with jax.set_mesh(mesh):
        checks.assert_receives_at_most(exercise.project, *placed, limit=2 * result, what="project(x, w)",
                                       allowed=f"the partial products ({result} bytes, twice that at most)",
                                       hint=f"Multiply the blocks in place and gather neither an operand nor "
                                            f"the partial products; out_sharding decides how the partial "
                                            f"products are combined. See {TYPES_DOCS}")
    if not (found["all-reduce"] or found["reduce-scatter"]):
        checks.fail(f"project(x, w) compiles to {dict(found) or 'no collective'}: each device's partial "
                    f"product over its block of d is never added to the others'.", "wrong-collective")
    shapes = compiled.parameter_shapes()
    if (BATCH, 2) not in shapes or (2, K) not in shapes:
        checks.fail(f"the compiled project(x, w) takes per-device inputs of shapes {shapes}; expected the "
                    f"blocks each device holds, ({BATCH}, 2) of x and (2, {K}) of w.", "not-distributed")
    # What the program above shows is what a call on arrays runs: not the host, not operands gathered
    # eagerly when no tracer is looking.
    with jax.set_mesh(mesh):
        checks.assert_called_as_traced(exercise.project, *placed, what="project(x, w)", nothing_else=True)
