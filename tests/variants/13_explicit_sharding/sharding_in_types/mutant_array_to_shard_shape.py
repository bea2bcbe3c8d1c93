"""Wrong: reads the sharding from jax.typeof(x), rightly, but hands shard_shape the array instead of its shape."""

import jax


def local_shape(x: jax.Array) -> tuple[int, ...]:
    return tuple(jax.typeof(x).sharding.shard_shape(x))
