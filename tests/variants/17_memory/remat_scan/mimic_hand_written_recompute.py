"""Values right and only inputs kept, but by a hand-written custom_vjp that re-runs the layer, not jax.checkpoint."""

import jax
import jax.numpy as jnp
from jax import lax


@jax.custom_vjp
def _tanh_layer(x, w):
    return jnp.tanh(x @ w)


def _fwd(x, w):
    return _tanh_layer(x, w), (x, w)


def _bwd(residuals, g):
    x, w = residuals
    y = jnp.tanh(x @ w)  # recomputed here instead of saved
    gz = g * (1 - y ** 2)
    return gz @ w.T, x.T @ gz


_tanh_layer.defvjp(_fwd, _bwd)


def layer(x, w):
    return _tanh_layer(x, w), None


def loss(ws, x):
    y, _ = lax.scan(layer, x, ws)
    return jnp.mean(y ** 2)
