"""Hidden checks for jit-10 (transformed_jaxprs): programs the visible checks never show."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P

from grader import checks

X = np.linspace(-1.0, 1.0, 4, dtype=np.float32)
XS = np.linspace(0.5, 2.0, 20, dtype=np.float32).reshape(5, 4)


def test_other_programs(exercise):
    n = jax.device_count()
    line = jax.make_mesh((n,), ("data",))
    spec = lambda shape, s: jax.ShapeDtypeStruct(shape, jnp.float32, sharding=NamedSharding(line, s))  # noqa: E731
    smallest = jax.shard_map(lambda a, b: lax.pmin(jnp.min(a @ b), "data"), mesh=line,
                             in_specs=(P("data"), P()), out_specs=P())
    answers = [
        ("added_by_grad(sum(exp(x) * x), x)", lambda: exercise.added_by_grad(lambda x: jnp.sum(jnp.exp(x) * x), X),
         lambda got: set(got), {"add_any", "broadcast_in_dim"}),
        ("vmap_shapes(exp(v) / sum(exp(v)), xs)",
         lambda: exercise.vmap_shapes(lambda v: jnp.exp(v) / jnp.sum(jnp.exp(v)), XS),
         lambda got: [(str(name), tuple(int(d) for d in shape)) for name, shape in got],
         [("exp", (5, 4)), ("exp", (5, 4)), ("reduce_sum", (5,)), ("broadcast_in_dim", (5, 1)), ("div", (5, 4))]),
        ("per_device_view(shard_map(pmin(min(a @ b))), a split by rows, b replicated)",
         lambda: exercise.per_device_view(smallest, spec((2 * n, 3), P("data")), spec((3, 2), P())),
         lambda got: ([tuple(int(d) for d in s) for s in got[0]], [str(p) for p in got[1]]),
         ([(2, 3), (3, 2)], ["pvary", "dot_general", "reduce_min", "pmin"])),
    ]
    for what, call, normal, want in answers:
        got = call()
        try:
            listed = normal(got)
        except (TypeError, ValueError, IndexError):
            listed = got
        if listed != want:
            checks.fail(f"{what} returned {got!r} for a program no visible check shows; expected {want!r}. "
                        f"The answers must come from tracing the program you are given, whatever it is. "
                        f"See {checks.DOCS}/jaxpr.html")
