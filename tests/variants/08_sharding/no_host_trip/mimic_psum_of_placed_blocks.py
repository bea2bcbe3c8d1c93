"""Values right, data movement wrong: every device places its rows in a zero array of the whole batch's
shape and a psum adds them up, so each device holds the whole batch; no all-gather in the program, only
the all-reduce that partial statistics would use too."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P


@jax.jit
def standardize(x):
    mesh = jax.typeof(x).sharding.mesh
    n = mesh.shape[mesh.axis_names[0]]
    axis = mesh.axis_names[0]

    def per_device(rows):
        me = lax.axis_index(axis)
        placed = jnp.zeros((n,) + rows.shape, rows.dtype).at[me].set(rows)
        whole = lax.psum(placed, axis).reshape(-1, rows.shape[1])
        return (rows - jnp.mean(whole, axis=0)) / jnp.std(whole, axis=0)

    return jax.shard_map(per_device, mesh=mesh, in_specs=P(axis), out_specs=P(axis))(x)
