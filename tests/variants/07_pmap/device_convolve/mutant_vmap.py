"""Wrong: vmap gives the right numbers, but everything is computed and kept on one device."""

import jax
import jax.numpy as jnp


def convolve(x, w):
    return jnp.convolve(x, w, mode="valid")


def convolve_per_device(xs, ws):
    return jax.vmap(convolve)(xs, ws)
