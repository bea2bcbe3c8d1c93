"""pmap's successor: the same data-parallel step with jax.shard_map.

pmap wants a stacked batch (devices, per_device, d) and returns a stack of
per-device copies. `jax.shard_map(step, mesh=mesh, in_specs=..., out_specs=...)`
runs the same per-device function on ordinary global arrays: in_specs
P("data") hands each device its rows of an (N, d) batch, P() hands it the
whole replicated value (pmap's in_axes=None), and collectives name the mesh
axis (`lax.pmean(g, "data")`) where pmap named its axis_name. out_specs=P()
returns one replicated result, not a stack of identical copies. In JAX 0.10
pmap itself is built on shard_map and kept for old code; new code uses
shard_map, or jit on sharded arrays (next exercise).
Docs: https://docs.jax.dev/en/latest/notebooks/shard_map.html

Task (fill-in): `train_step(params, x, y, mesh)` is one SGD step (learning
rate LR) on `loss`, for a batch x (N, d), y (N,) split by rows over mesh axis
"data" and params replicated. Each device takes the gradient on its own rows,
the devices average their gradients with a collective, and every device
applies the same update: return the new params, replicated. Use
jax.shard_map. Keep `loss`, LR and the signatures.
"""

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import Mesh, PartitionSpec as P

LR = 0.1


def loss(params: dict, x: jax.Array, y: jax.Array) -> jax.Array:
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def train_step(params: dict, x: jax.Array, y: jax.Array, mesh: Mesh) -> dict:
    raise NotImplementedError("TODO: shard_map grad(loss) over the rows, lax.pmean it over 'data', update")
