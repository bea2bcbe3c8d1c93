"""Wrong: jnp.broadcast_to still materialises a (devices, taps) array for pmap to split."""

import jax
import jax.numpy as jnp


def convolve(x, w):
    return jnp.convolve(x, w, mode="valid")


def convolve_shared(xs, w):
    return jax.pmap(convolve)(xs, jnp.broadcast_to(w, (xs.shape[0], w.shape[0])))
