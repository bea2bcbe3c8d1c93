"""Checks for explicit-2 (sharding_in_types)."""

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks
from grader.explain import UNHASHABLE_ARRAY, explain

TYPES_DOCS = f"{checks.DOCS}/notebooks/explicit-sharding.html"


def _placed(shape, mesh, spec):
    host = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    return jax.device_put(host, NamedSharding(mesh, spec))


def _as_shape(got, x, want, what: str) -> None:
    if not isinstance(got, tuple) or not all(isinstance(d, int) for d in got):
        checks.fail(f"{what} returned {got!r} ({type(got).__name__}); expected a tuple of Python ints, "
                    f"like x.shape.", "wrong-shape")
    if got != want:
        checks.fail(f"{what} returned {got} for x of type {jax.typeof(x)}; expected {want}: each dimension "
                    f"marked @axis is cut into one block per device along that mesh axis, the others stay "
                    f"whole.")


def test_block_shape_of_placed_arrays(exercise):
    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("data",))
    for shape, spec, want in [((2 * n, 8), P("data"), (2, 8)), ((8, 2 * n), P(None, "data"), (8, 2))]:
        x = _placed(shape, mesh, spec)
        _as_shape(exercise.local_shape(x), x, want, f"local_shape(x: {jax.typeof(x)})")


def test_block_shape_while_tracing(exercise):
    n = jax.device_count()
    mesh = jax.make_mesh((n // 2, 2), ("data", "model"))
    x = _placed((n, 6), mesh, P("data", "model"))
    seen = []

    @jax.jit
    def probe(v):
        seen.append(exercise.local_shape(v))  # v is a tracer here: only its type is known
        return v

    try:
        probe(x)
    except (AttributeError, TypeError, jax.errors.ConcretizationTypeError,
            jax.errors.TracerArrayConversionError) as error:
        if explain(error) is UNHASHABLE_ARRAY:
            checks.fail(f"local_shape fails inside jax.jit ({type(error).__name__}: {str(error)[:80]}): "
                        f"shard_shape was handed the array itself, where it takes the global shape, "
                        f"x.shape, a tuple of ints. Reading the sharding from jax.typeof(x) is right; the "
                        f"argument of shard_shape is not. See {TYPES_DOCS}", "error")
        checks.fail(f"local_shape fails inside jax.jit ({type(error).__name__}: "
                    f"{str(error).splitlines()[0][:160]}). Inside jit x is a tracer: it has no .sharding "
                    f"and no addressable shards, only a type. The sharding is in jax.typeof(x). "
                    f"See {TYPES_DOCS}", "traced-value")
    _as_shape(seen[0], x, (2, 3), f"local_shape(x: {jax.typeof(x)}) inside jax.jit")
