"""Idea skipped: called, the step runs a per-device program written by hand with shard_map; traced
(as a check reading its program traces it), it shows the whole-batch step jit partitions instead,
one that steps twice as far. A subject rewritten to forge its traces would hand in such a program:
the values come from the call, the program read is not the one that computes them."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P

LR = 0.1


def loss(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def place(params, x, y, mesh):
    rows, copies = NamedSharding(mesh, P("data")), NamedSharding(mesh, P())
    return jax.device_put(params, copies), jax.device_put(x, rows), jax.device_put(y, rows)


def _per_device(params, x, y):
    grads = jax.grad(lambda p: lax.pmean(loss(p, x, y), "data"))(params)
    return jax.tree.map(lambda p, g: p - LR * g, params, grads)


@jax.jit
def _by_hand(params, x, y):
    mesh = jax.typeof(x).sharding.mesh
    return jax.shard_map(_per_device, mesh=mesh, in_specs=(P(), P("data"), P("data")), out_specs=P())(params, x, y)


@jax.jit
def _shown(params, x, y):
    grads = jax.grad(loss)(params, x, y)
    return jax.tree.map(lambda p, g: p - 2 * LR * g, params, grads)


def train_step(params, x, y):
    return (_shown if isinstance(x, jax.core.Tracer) else _by_hand)(params, x, y)
