"""Sharding in types: jax.typeof(x) says how x is split, even while tracing.

On a mesh with Explicit axes (jax.make_mesh's default) the sharding is part of
an array's type, and `jax.typeof(x)` shows it: `float32[16@data,8]` has its
16 rows split over mesh axis "data", `float32[16,8@data]` its columns, and a
dimension with no `@` is whole on every device. jit traces with types, not
values, so the type is there when the value is not: inside `jax.jit`, x is a
tracer and `x.sharding` is an error, but `jax.typeof(x).sharding` is a
NamedSharding (`.spec`, `.mesh`, `.shard_shape(shape)`) you can base
trace-time decisions on. On an Auto mesh the type carries no sharding at all:
there the compiler decides the layouts later.
Docs: https://docs.jax.dev/en/latest/notebooks/explicit-sharding.html

Task (fill-in): `local_shape(x)`, for an `x` laid out on a mesh with Explicit
axes (the checks build theirs with jax.make_mesh), returns the shape of the
block of `x` that each device holds, as a tuple of Python ints, on a concrete
array and on a tracer inside jax.jit alike (a tracer has no shards to look
at: its type has the sharding). Keep the signature.
"""

import jax


def local_shape(x: jax.Array) -> tuple[int, ...]:
    raise NotImplementedError("TODO: read the per-device block shape from jax.typeof(x).sharding")
