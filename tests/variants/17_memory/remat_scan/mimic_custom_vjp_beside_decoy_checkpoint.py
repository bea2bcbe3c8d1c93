"""Values right, mechanism wrong: a hand-written custom_vjp keeps the input and recomputes the layer in
its backward rule; jax.checkpoint wraps only the forward computation, where nothing is differentiated."""
import jax
import jax.numpy as jnp
from jax import lax


def _apply(x, w):
    return jnp.tanh(x @ w)


_ckpt = jax.checkpoint(_apply)


@jax.custom_vjp
def _layer(x, w):
    return _ckpt(x, w)


def _fwd(x, w):
    return _ckpt(x, w), (x, w)


def _bwd(res, g):
    x, w = res
    y = jnp.tanh(x @ w)            # recomputed by hand
    gz = g * (1 - y ** 2)
    return gz @ w.T, x.T @ gz


_layer.defvjp(_fwd, _bwd)


def layer(x, w):
    return _layer(x, w), None


def loss(ws, x):
    y, _ = lax.scan(layer, x, ws)
    return jnp.mean(y ** 2)
