"""Wrong: a hand-written custom_vjp recomputes each layer; the only jax.checkpoint wraps the final mean, a decoy."""

import jax
import jax.numpy as jnp
from jax import lax


def layer(x, w):
    return jnp.tanh(x @ w), None


@jax.custom_vjp
def _layer(x, w):
    return jnp.tanh(x @ w)


def _fwd(x, w):
    return jnp.tanh(x @ w), (x, w)


def _bwd(saved, g):
    x, w = saved
    y = jnp.tanh(x @ w)  # recomputed by hand
    grad_z = g * (1 - y ** 2)
    return grad_z @ w.T, x.T @ grad_z


_layer.defvjp(_fwd, _bwd)


def loss(ws, x):
    y, _ = lax.scan(lambda carry, w: (_layer(carry, w), None), x, ws)
    return jax.checkpoint(lambda v: jnp.mean(v ** 2))(y)
