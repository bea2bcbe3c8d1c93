"""Chained parallel maps: the first stage's output is already where the second needs it.

The result of a shard_map (or a pmap) is a sharded jax.Array: each device
keeps the block it computed. A second per-device stage with the same split
can take it as it is, and under one jax.jit the two stages become one
program with no data movement between them. The pmap-era habit of collecting
a stage's output on the host (np.asarray) to "line it up" for the next map
gathers every block into host memory and copies it all back out again: two
full transfers that achieve nothing, and on accelerators a stall of every
device. `jax.transfer_guard("disallow_explicit")` turns such copies into
errors, which is how to find them.
Docs: https://docs.jax.dev/en/latest/transfer_guard.html

Task (fix-it): `pipeline(x, mesh)` runs `stage_one` and then `stage_two`, both
per-device maps over mesh axis "data", on an x split over "data". It sends
the intermediate result through the host. Feed the first stage's output to
the second directly, so that it stays split on the devices and everything can
run under jax.jit. Keep both stages as they are and have `pipeline` call them
(the checks swap them for other stages); keep all signatures.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def stage_one(x: jax.Array, mesh: Mesh) -> jax.Array:
    """Centers each device's block on its own mean."""
    return jax.shard_map(lambda b: b - jnp.mean(b), mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


def stage_two(h: jax.Array, mesh: Mesh) -> jax.Array:
    """A running total within each device's block."""
    return jax.shard_map(jnp.cumsum, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(h)


def pipeline(x: jax.Array, mesh: Mesh) -> jax.Array:
    h = np.asarray(stage_one(x, mesh))  # collect every device's block on the host...
    h = jax.device_put(h, NamedSharding(mesh, P("data")))  # ...and split it over the devices again
    return stage_two(h, mesh)
