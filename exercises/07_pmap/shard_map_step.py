"""pmap's successor: the same data-parallel step with jax.shard_map.

pmap wants a stacked batch (devices, per_device, d) and returns a stack of
per-device copies. `jax.shard_map(f, mesh=mesh, in_specs=..., out_specs=...)`
runs a per-device f on ordinary global arrays: in_specs P("data") hands each
device its rows of an (N, d) batch, P() the whole of a replicated value
(pmap's in_axes=None), and out_specs=P() returns one replicated result.
One thing changed: shard_map tracks which values differ between devices, so
a gradient with respect to a replicated input comes back already summed over
the devices. Average the loss itself (`lax.pmean(loss(...), "data")`) and
differentiate that: the gradient is the whole batch's. pmap's recipe, a
pmean of per-device gradients, now returns their sum, n times too large.
In JAX 0.10 pmap is built on shard_map and kept for old code.
Docs: https://docs.jax.dev/en/latest/notebooks/shard_map.html

Task (fill-in): `train_step(params, x, y, mesh)` is one SGD step (learning
rate LR) on `loss`, for a batch x (N, d), y (N,) split by rows over mesh axis
"data" and params replicated. Each device works on its own rows, a collective
combines the devices' work, and every device applies the same update with
the whole batch's gradient: return the new params, replicated. Use
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
    raise NotImplementedError("TODO: in shard_map, grad of the pmean-ed loss over 'data', then the update")
